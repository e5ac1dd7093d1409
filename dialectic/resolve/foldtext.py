"""Which texts a fold's step builds by appends (SPEC 10, "Loops": "Cost"), for
:mod:`dialectic.compiler.textbuild`.

A loop that reads what it changes, or a ``while`` loop, is a fold whose state record holds its
accumulators (:mod:`dialectic.resolve.foldstate`): ``out = _s.a0`` is a field's version as
the step starts, and ``_out2 = _if1 ? out + _add1 : out`` the next one. A field's versions may
be built as pieces (:class:`~dialectic.compiler.textbuild.Text`, a value the generic code never
sees) when each use of a version is one of:

- passed on: a leaf of a version (a tree of ``? :`` whose leaves include a version, an append
  ``v + E`` of one, or a loop inside appending to it, ``ys.reduce((a, y) => a + E, v)``), the
  left operand of such an append, the initial value of such a reduce, or the field of the
  step's result record under its own key;
- a read that sees a text with the same answer: ``v.length`` (counted as the pieces came), a
  test of ``? :``, ``!v``, ``v === 'lit'`` (and ``!==``, ``==``, ``!=``), ``v.endsWith('lit')``,
  ``v.startsWith('lit')``, ``v.slice(-k)``, ``v.at(-k)`` (with literal arguments);
- any other read, which sees the whole text (the pieces joined).

The state may be read only as the field aliases ``_s.aK`` (one per field), its other fields
(``_s.done``) and given back whole (``_s.done ? _s : {...}``); a ``while``'s test may read only
the fields that are not built so. Versions never change (an append to an older version copies
it), so the order of the step's lazy aliases does not matter here. The loop's final state holds
texts again (the step's arrow is marked ``loop``; an append, ``append`` with the arrow's id,
and such a reduce, ``build``, are so only while the compiler compiles that loop). A loop whose
step is only a loop inside appending to the text, ``(a, r) => r.a0v0.reduce((b, x) => b + E,
a)`` (``for (const p of ps) for (const t of p.tags) out += t;``), builds it so too.
"""

from __future__ import annotations

from typing import Any

from dialectic.resolve.foldstate import _is_state
from dialectic.tree.nodes import Block, Cond, Get, Lambda, Lit, Method, Node, Obj, Op, Template
from dialectic.tree.resolved import AliasRef, DomainCall, Invoke, ParamRef
from dialectic.tree.walking import child_list, walk
from dialectic.values.jsmethods import FOLDS

__all__ = ["Marks", "appended", "template_rest", "text_marks"]

#: id -> (the node, its kind, an argument): ``append``, ``prepend`` (an ``Op``, a ``Template``),
#: ``length`` (a ``Get``),
#: ``read``, ``truth``, ``equal``, ``tail``, ``head`` (an ``AliasRef``), ``loop``
Marks = dict[int, tuple[Node, str, Any]]

_EQUALS = frozenset({"===", "!==", "==", "!="})


def text_marks(lam: Lambda, frame: int, test: Lambda | None = None, at: int = -1) -> Marks:
    """The marks of the fold step ``lam`` (its arrow at nesting level ``frame``; ``test``: a
    ``while``'s test, its arrow at level ``at``); empty when no field is built so."""
    body = lam.body
    if type(body) is Method and _builds(body) and _only_init(lam, body, frame):  # (nested)
        return {id(body): (body, "build", id(lam)), id(lam): (lam, "loop", None)}
    if type(body) is not Block or body.mode != "return":
        return {}
    record = body.body
    if type(record) is Cond and _is_state(record.then, frame):
        record = record.otherwise
    if type(record) is not Obj:
        return {}
    step = _Step(body, frame, record)
    if not step.appends or not step.check():
        return {}
    if test is not None:
        step.tested(test, at)
    good = set(step.appends.values()) - step.bad
    out: Marks = {}
    for node, field in step.appends.items():
        if field in good:
            kind = "prepend" if id(node) in step.fronts else "append"
            out[id(node)] = (node, "build" if type(node) is Method else kind, id(lam))
    for node, field, kind, arg in step.reads:
        if field in good:
            out[id(node)] = (node, kind, arg)
    if out:
        out[id(lam)] = (lam, "loop", None)
    return out


class _Step:
    """One fold step's field aliases, versions, appends and reads."""

    def __init__(self, block: Block, frame: int, record: Obj) -> None:
        self.block = block
        self.frame = frame
        self.record = record
        self.field: dict[int, str] = {}  # each version's field, by slot
        self.roots: set[int] = set()  # the field aliases' `_s.aK`
        self.bad: set[str] = set()
        self.passed: set[int] = set()  # the refs that pass a version on
        self.appends: dict[Node, str] = {}  # (by node: ids stay theirs while it is held)
        self.fronts: set[int] = set()  # the appends that are prepends, `x + v`
        self.reads: list[tuple[Node, str, str, Any]] = []
        seen: set[str] = set()
        for b in block.bindings:
            if b.frame != frame:
                continue
            n = b.node
            if type(n) is Get and _is_state(n.target, frame) and not n.optional:
                key = n.keys[0] if len(n.keys) == 1 else None
                if type(key) is Lit and type(key.value) is str:
                    if key.value in seen:
                        self.bad.add(key.value)
                    seen.add(key.value)
                    self.field[b.slot] = key.value
                    self.roots.add(id(n))
                continue
            self._version(b.slot, n)

    def _slot(self, node: Node | None) -> int | None:
        if type(node) is AliasRef and node.frame == self.frame and node.slot in self.field:
            return node.slot
        return None

    def _version(self, slot: int, node: Node) -> None:
        """Record alias ``slot`` (its value ``node``) as a version when it is one."""
        stack = [node]
        leaves: list[tuple[Node, Node | None]] = []  # (the ref passed on, its append)
        while stack:
            n = stack.pop()
            if type(n) is Cond:
                stack.append(n.then)
                stack.append(n.otherwise)
            elif self._slot(n) is not None:
                leaves.append((n, None))
            elif _builds(n) and self._slot(n.args[1]) is not None:  # type: ignore[attr-defined]
                leaves.append((n.args[1], n))  # type: ignore[attr-defined]
            elif self._slot(_template_base(n)) is not None:  # `${v}...`
                leaves.append((_template_base(n), n))  # type: ignore[arg-type]
            else:
                spine = _spine(n)
                if spine and self._slot(spine[-1].operands[0]) is not None:
                    leaves.extend((spine[-1].operands[0], a) for a in spine)
                elif spine and self._slot(spine[0].operands[1]) is not None:
                    leaves.append((spine[0].operands[1], n))  # `x + v`: a prepend
                    self.fronts.add(id(n))
        fields = {self.field[ref.slot] for ref, _ in leaves}  # type: ignore[attr-defined]
        if len(fields) != 1:
            return  # (its refs are reads)
        field = fields.pop()
        self.field[slot] = field
        for ref, append in leaves:
            self.passed.add(id(ref))
            if append is not None:
                self.appends[append] = field  # (`(v + a) + b`: both, the inner one first)

    def check(self) -> bool:
        """Classify every use of a version and of the state; False when the state may be
        held."""
        top = self.block.body
        stack: list[tuple[Node, Node | None]] = [(top, None)]
        stack.extend((b.node, None) for b in self.block.bindings)
        counted: set[int] = set()
        while stack:
            node, parent = stack.pop()
            t = type(node)
            if t is ParamRef:
                if _is_state(node, self.frame) and not self._state_use(node, parent, top):
                    return False
                continue
            if t is AliasRef:
                slot = self._slot(node)
                if slot is not None:
                    if id(node) in counted:  # (a node held twice: no mark fits both)
                        self.bad.add(self.field[slot])
                    counted.add(id(node))
                    self._use(node, self.field[slot], parent)
                continue
            stack.extend((kid, node) for kid in child_list(node))
        return True

    def _state_use(self, node: Node, parent: Node | None, top: Node) -> bool:
        if type(parent) is Cond and parent is top and parent.then is node:
            return True  # `_s.done ? _s : {...}`: the state given back as it is
        if type(parent) is not Get or parent.target is not node or id(parent) in self.roots:
            return parent is not None and id(parent) in self.roots
        key = parent.keys[0] if parent.keys else None
        if type(key) is not Lit or type(key.value) is not str:
            return False
        self.bad.add(key.value)  # (another read of a field: it sees the step's own value)
        return True

    def _use(self, node: Node, field: str, parent: Node | None) -> None:
        if id(node) in self.passed:
            return
        if parent is self.record:
            if [k for k, v in self.record.fields.items() if v is node] != [field]:
                self.bad.add(field)
            return
        self.reads.append(_read(node, field, parent))

    def tested(self, test: Lambda, frame: int) -> None:
        """A ``while``'s test may read the state's other fields only."""
        stack: list[tuple[Node, Node | None]] = [(test.body, None)]
        while stack:
            node, parent = stack.pop()
            if _is_state(node, frame):
                key = parent.keys[0] if type(parent) is Get and parent.keys else None
                if type(key) is Lit and type(key.value) is str and parent.target is node:  # type: ignore[union-attr]
                    self.bad.add(key.value)
                else:
                    self.bad.update(self.appends.values())
                continue
            stack.extend((kid, node) for kid in child_list(node))


def _chain_piece(body: Op) -> tuple[Node, Node]:
    """For ``acc + E``, ``(acc, E)``; for a chain ``((acc + a) + b) + c``, ``(acc, E)`` with
    ``E`` the piece ``(('' + a) + b) + c``: once ``acc`` is a text, each ``+`` of the chain
    writes its right operand as text after the text so far, as ``'' + a`` then ``+ b`` do (the
    same conversions, in the same order, and the same refusals at each ``+``'s place)."""
    spine = _spine(body)  # (outermost first)
    inner = spine[-1]
    acc = inner.operands[0]
    if len(spine) == 1:
        return acc, inner.operands[1]
    piece: Node = Op(inner.path, "+", (Lit(inner.path, ""), inner.operands[1]))
    for op in reversed(spine[:-1]):
        piece = Op(op.path, "+", (piece, op.operands[1]))
    return acc, piece


def _builds(node: Node) -> bool:
    """Whether ``node`` is ``xs.reduce((acc, x) => acc + E, init)`` (a loop inside a loop
    appending to the outer loop's text: :func:`appended`)."""
    if type(node) is not Method or node.name not in FOLDS or node.optional:
        return False
    args = node.args
    return len(args) == 2 and type(args[0]) is Lambda and appended(args[0]) is not None


def _only_init(lam: Lambda, body: Method, frame: int) -> bool:
    """Whether the accumulator of ``lam`` is read only as the initial value of ``body``."""
    init = body.args[1]
    if not _is_state(init, frame):
        return False
    return not any(_is_state(n, frame) and n is not init for n in walk(body))


def _spine(node: Node) -> list[Op]:
    """The ``+`` of ``((v + a) + b) + c`` from the outermost in (empty: no ``+``)."""
    out: list[Op] = []
    while type(node) is Op and node.op == "+" and len(node.operands) == 2:
        out.append(node)
        node = node.operands[0]
    return out


def _read(node: Node, field: str, parent: Node | None) -> tuple[Node, str, str, Any]:
    """The mark of a read of a version ``node`` (of ``field``) whose parent is ``parent``."""
    if isinstance(parent, Get) and parent.target is node and not parent.optional:
        keys = parent.keys
        if len(keys) == 1 and isinstance(keys[0], Lit) and keys[0].value == "length":
            return parent, field, "length", None
    elif (isinstance(parent, Cond) and parent.test is node) or (
        isinstance(parent, Op) and parent.op == "!"
    ):
        return node, field, "truth", None
    elif isinstance(parent, Op) and parent.op in _EQUALS and len(parent.operands) == 2:
        other = [o for o in parent.operands if o is not node]
        if len(other) == 1 and isinstance(other[0], Lit) and type(other[0].value) is str:
            return node, field, "equal", other[0].value
    elif isinstance(parent, Method) and parent.target is node and not parent.optional:
        return _method_read(node, field, parent)
    return node, field, "read", None


def _method_read(node: Node, field: str, parent: Method) -> tuple[Node, str, str, Any]:
    args = parent.args
    arg = args[0].value if len(args) == 1 and isinstance(args[0], Lit) else None
    name = parent.name
    if type(arg) is str and name in ("endsWith", "startsWith"):
        return node, field, "tail" if name == "endsWith" else "head", len(arg)
    if type(arg) is int and arg < 0 and name in ("slice", "at"):
        return node, field, "tail", -arg
    return node, field, "read", None


def _template_base(node: Node) -> Node | None:
    """``v`` when ``node`` is the template `` `${v}...` `` (more than ``v``)."""
    if type(node) is not Template or len(node.parts) < 2 or isinstance(node.parts[0], str):
        return None
    return node.parts[0]


def template_rest(node: Template) -> Template:
    """The template ``node`` (`` `${v}...` ``) without its first part: for a text ``v``,
    ``v`` followed by this one's text."""
    return Template(node.path, node.parts[1:])


def appended(node: Lambda) -> Node | None:
    """``E`` when ``node`` is ``(acc, ...) => acc + E`` (or `` (acc, ...) => `${acc}...` ``,
    ``E`` the rest of the template) with an ``E`` that neither reads ``acc`` nor calls a
    function (None otherwise)."""
    body = node.body
    if len(node.params) < 2:
        return None
    if type(body) is Template and len(body.parts) > 1 and type(body.parts[0]) is ParamRef:
        acc: Node = body.parts[0]
        piece: Node = template_rest(body)
    elif type(body) is not Op or body.op != "+" or len(body.operands) != 2:
        return None
    else:
        acc, piece = _chain_piece(body)
    if type(acc) is not ParamRef or acc.index != 0:
        return None
    for n in walk(piece):
        t = type(n)
        if t is Invoke or t is DomainCall:
            return None
        if t is ParamRef and n.frame == acc.frame and n.index == 0:  # type: ignore[attr-defined]
            return None
    return piece
