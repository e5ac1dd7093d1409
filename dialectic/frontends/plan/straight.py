"""A change statement outside a loop as straight-line versions (SPEC 10, "Changes outside
loops"): ``total += 5;``, ``xs.push(v);``, ``if (c) v = w;``, ``s += 'b';``.

:mod:`.reassign` reads such a statement as a loop over one item, so the loop's checks hold
(a read before the change, an array held elsewhere, a `const` assigned again...). Its trees need
no loop, though: the one iteration is the statement itself. So, once the body is read and
checked, each change makes the name's next version as a hidden alias of the block,

    total += 5;          _total2 = _total1 + _add1    (_add1 = 5)
    xs.push(total);      _xs2 = [..._xs1, ..._push1]  (_push1 = [total])
    if (total > 3) ...   _total5 = _if1 ? _add4 : _total4

(:func:`.loopfold.fold_step`, the step a fold makes per change, in the statement's order), the
name after the statement is its last version, and an expression statement runs it in its
place, as the loop ran (a failure there is the statement's; nothing else waits for it).

Read so only a body without calls to run for their effects (``if (c) { await notify(x); }``),
without locals of its own (``if (c) { const y = ...; }``), `break` or `return`: those keep the
one-item loop.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from dialectic.frontends.plan.loopbuild import ref, scan_reads, step
from dialectic.frontends.plan.loopfold import fold_step
from dialectic.frontends.plan.spans import SpanRecord

if TYPE_CHECKING:
    from dialectic.frontends.plan.loopcheck import Body
    from dialectic.frontends.plan.loopemit import LoopEmitMixin

__all__ = ["MAX_CHAIN", "STRAIGHT_NODES", "emit_straight", "straight"]
#: the changes whose version is a fold's step (a new array or object), not an operator's
_WHOLE_CHANGES = frozenset(["push", "entry", "pop", "set", "item"])

#: the longest chain of versions not run (each reading the one before) a statement makes; one
#: that would be longer runs as an expression statement, as a loop's statement does: the
#: versions before it are then computed, in program order, and a read of the last one does not
#: recurse through them all
MAX_CHAIN = 32

#: the fewest nodes a straight change statement makes (``x = y;``: the version's alias, the
#: name's and the statement's), which :attr:`max_nodes` counts per statement
STRAIGHT_NODES = 3


def straight(body: Body) -> bool:
    """Whether the one-item loop ``body`` (:mod:`.reassign`) is read as straight-line versions:
    no call run for its effects, no local of its own, no `break` or `return`."""
    if not (
        body.once
        and body.loop is None
        and not body.runs
        and not body.breaks
        and body.state_param is None
        and body.ret is None
    ):
        return False
    declared = body.declared
    if declared and (len(declared) > 1 or body.param not in declared):
        return False
    for changes in body.accs.values():
        for c in changes:
            if c.nested is not None:
                return False
    return True


def emit_straight(
    p: LoopEmitMixin, body: Body, inits: dict[str, str], pos: int, last: int, end: int
) -> None:
    """The statement (tokens ``pos`` to ``end``, its header's last at ``last``) as versions:
    ``inits`` holds each changed name's hidden alias of its value before the statement."""
    lets, kinds = body.lets, body.acc_kind
    arrays = {inits[name] for name in body.accs if kinds[name] == "push"}
    for name, tree in lets.items():
        if type(tree) is list or (type(tree) is dict and _pushed_when(tree)):
            arrays.add(name)
    used, runs_nothing = _walk(lets, inits, arrays)
    made = _Made()
    finals = {name: _versions(p, body, name, inits[name], used, made) for name in body.accs}
    if made.tests:
        _inline_tests(lets, made, used, p.rec, p.keep)
    if made.opaque and runs_nothing:
        versions = {name for name, tree in lets.items() if type(tree) is list}
        runs_nothing = total(made.opaque, arrays | versions)
    aliases, alias_rec = body.aliases, body.alias_rec
    moved = {
        name: final
        for name, final in finals.items()
        if final in lets and not used.get(final) and _movable(lets[final], kinds[name])
    }
    deep = _depth(p, aliases, inits.values(), used) + len(lets)
    run = deep >= MAX_CHAIN or not runs_nothing
    if run:
        deep = 0
        moved = {}  # (the expression statement reads the last versions, not the names)
    rec = p.rec
    held = set(moved.values())
    for name, tree in lets.items():
        if name in held:
            continue
        aliases[name] = tree
        first, final = pos, end
        span = None if rec is None else rec.get((id(lets), name))
        if span is not None:  # (the tokens of the part of the statement it holds)
            first = max(pos, min(end, bisect_left(p.starts, span[0])))
            final = max(first, min(end, bisect_left(p.ends, span[1])))
        alias_rec.append((name, first, first, final, final))
    if run:  # it runs here, as JavaScript's statement (a failure there is the statement's)
        runs = [ref(finals[name]) for name in body.accs]
        key = f"#expr{len(alias_rec)}"
        aliases[key] = runs[0] if len(runs) == 1 else runs
        alias_rec.append((key, pos, pos, last + 1, end))
    state_finals, chains, lets_of = body.state.finals, p.chains, body.acc_let
    for name in body.accs:
        value = lets[moved[name]] if name in moved else ref(finals[name])
        aliases[name] = value
        chains[id(value)] = deep
        p.keep.append(value)  # (its id stays its own)
        state_finals[name] = (kinds[name], lets_of[name])
        first, final = pos, last + 1
        span = None if rec is None or name not in moved else rec.get((id(lets), moved[name]))
        if span is not None:  # (the version it holds: its place)
            first = max(pos, min(end, bisect_left(p.starts, span[0])))
            final = max(first, min(end, bisect_left(p.ends, span[1])))
        alias_rec.append((name, body.acc_tok[name], first, final, end))


class _Made:
    """What :func:`_versions` made: the versions under a branch's test (``[_if1, v, _t1]``),
    how many reads of each test it added or took away, and the versions of other changes
    (:func:`.loopfold.fold_step`'s: a Map's, an entry's, a pop's)."""

    __slots__ = ("tests", "reads", "opaque")

    def __init__(self) -> None:
        self.tests: list[list[Any]] = []
        self.reads: dict[str, int] = {}
        self.opaque: dict[str, Any] = {}


def _walk(
    lets: dict[str, Any], inits: dict[str, str], arrays: set[str]
) -> tuple[dict[str, int], bool]:
    """One walk of the statement's ``lets``: a read of a changed name (``inits``) becomes a read
    of its value before; returns how many times each other name is read, and whether computing
    them can never throw in JavaScript nor call a function (literals, operators but `in` and
    `instanceof`, conditionals, optional member reads, object spreads, templates, and array
    spreads of ``arrays``, the arrays before the statement and its own array literals). Such a
    statement needs no expression statement to run it: if nothing reads the name, nothing of
    it could be seen. A part that binds names (an arrow function) is read by
    :func:`.loopbuild.scan_reads`, which knows its scopes."""
    used: dict[str, int] = {}
    pure = True
    stack: list[Any] = list(lets.values())
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind is list:
            stack.extend(node)
            continue
        if kind is not dict:
            continue
        if len(node) != 1:
            pure = False
            _scoped(node, inits, used)
            continue
        ((key, value),) = node.items()
        if key == "$ref":
            start = inits.get(value)
            if start is not None:
                node["$ref"] = start
            else:
                used[value] = used.get(value, 0) + 1
            continue
        if key == "$quote":
            continue
        if key == "$fn":
            pure = False
            _scoped(node, inits, used)
            continue
        if key == "$spread":
            read = value.get("$ref") if type(value) is dict else None
            pure = pure and type(read) is str and inits.get(read, read) in arrays
        elif key == "$op":
            pure = pure and type(value) is list and bool(value) and value[0] not in _THROWING
        elif key == "$object":
            pure = pure and type(value) is dict
            if type(value) is dict:
                stack.extend(value.values())
                continue
        elif key not in _TOTAL:
            pure = False
        stack.append(value)
    return used, pure


def _scoped(tree: Any, inits: dict[str, str], used: dict[str, int]) -> None:
    """:func:`_walk` of a part that may bind names: its free reads, through
    :func:`.loopbuild.scan_reads`."""
    nodes: list[dict[str, Any]] = []
    scan_reads(tree, nodes)
    for node in nodes:
        name = node["$ref"]
        start = inits.get(name)
        if start is not None:
            node["$ref"] = start
        else:
            used[name] = used.get(name, 0) + 1


def _depth(
    p: LoopEmitMixin, aliases: dict[str, Any], starts: Iterable[str], reads: Iterable[str]
) -> int:
    """How many versions made by straight statements, not run since, the statement's values
    (the names' values before it, ``starts``, and the names it ``reads``) read in a chain
    (each is computed when read: so deep a chain would be so deep a recursion)."""
    chains = p.chains
    deep = 0
    for names in (starts, reads):
        for name in names:
            tree = aliases.get(name)
            if tree is not None:
                chain = chains.get(id(tree), 0)
                if chain > deep:
                    deep = chain
    return deep


def _versions(
    p: LoopEmitMixin, body: Body, name: str, init: str, used: dict[str, int], made: _Made
) -> str:
    """The versions of ``name`` its statement's changes make, from ``init`` (its value before):
    each a hidden local of ``body`` (:meth:`.loopcheck.Body.version`, which a read in the body
    already made for the changes before it). A change's value read nowhere else is written in
    its version (``_t2 = _t1 + 5``, ``_xs2 = [..._xs1, v]``). Returns the last version."""
    lets, rec = body.lets, p.rec
    current = body.current.get(name, init)
    for c in body.pending.pop(name, ()):
        prev = ref(current)
        inline = c.value is not None and not used.get(c.value) and c.value in lets
        value: Any = None
        span: tuple[int, int] | None = None
        stripped = False
        if inline:
            assert c.value is not None
            if rec is not None:  # (its containers dropped: their ids stay unique)
                p.keep.append(lets[c.value])
            value, span, stripped = _unless(lets[c.value], c.reach, rec)
            if stripped and c.reach is not None:
                made.reads[c.reach] = made.reads.get(c.reach, 0) - 1
            if span is None and rec is not None:
                span = rec.get((id(lets), c.value))
        out: Any
        if c.kind == "push" and inline and type(value) is list:
            out = [{"$spread": prev}, *value]
            if rec is not None:  # (each item's place)
                for i in range(len(value)):
                    item = rec.get((id(value), i))
                    if item is not None:
                        rec[(rec.pin(out), i + 1)] = item
        elif c.kind in _WHOLE_CHANGES or c.nested is not None or not inline:
            if inline and stripped and c.reach is not None:  # (its test read again)
                made.reads[c.reach] += 1
            out, inline = fold_step(c, current, p.fresh, rec), False
            made.opaque[str(len(made.opaque))] = out  # (judged whole: :func:`total`)
            if c.reach is not None:
                made.reads[c.reach] = made.reads.get(c.reach, 0) + 1
        else:
            out = step(c.kind, prev, value)
            if span is not None and rec is not None and out is not value and value is not None:
                rec[(rec.pin(out["$op"]), 2)] = span  # (`prev op value`)
        # (a failure of the value is the value's place; of the change, the statement's)
        where = span if inline and out is value and span is not None else c.span
        if inline:
            assert c.value is not None
            del lets[c.value]
            if c.reach is not None:
                out = {"$if": [ref(c.reach), out, prev]}
                made.tests.append(out["$if"])
                made.reads[c.reach] = made.reads.get(c.reach, 0) + 1
                if rec is not None:
                    rec[(rec.pin(out["$if"]), 1)] = where
                where = c.span
        hidden = p.fresh(f"_{name}")
        lets[hidden] = out
        if rec is not None:
            rec[(rec.pin(lets), hidden)] = where
        current = hidden
    body.current[name] = current
    return current


def _inline_tests(
    lets: dict[str, Any],
    made: _Made,
    used: dict[str, int],
    rec: SpanRecord | None,
    keep: list[Any],
) -> None:
    """A branch's hidden boolean read by one version only is written in it: ``_t2 = (x > 3) ?
    7 : _t1``, not ``_if1 = (x > 3) ? true : false; _t2 = _if1 ? 7 : _t1`` (a conditional
    takes its test's truthiness, as the boolean does). ``used``: the reads in the statement
    as read, ``made.reads`` what the versions changed of them; ``keep`` holds the boolean's
    tree, dropped (the ids of its containers, keys of ``rec``, stay unique)."""
    for items in made.tests:
        name = items[0]["$ref"]
        tree = lets.get(name)
        reads = used.get(name, 0) + made.reads.get(name, 0)
        if reads != 1 or type(tree) is not dict or list(tree) != ["$if"]:
            continue
        parts = tree["$if"]
        if type(parts) is list and len(parts) == 3 and parts[1] is True and parts[2] is False:
            items[0] = parts[0]
            if rec is not None:
                keep.append(tree)
            del lets[name]
            span = None if rec is None else rec.get((id(parts), 0))
            if span is not None and rec is not None:
                rec[(rec.pin(items), 0)] = span


def _unless(
    tree: Any, reach: str | None, rec: SpanRecord | None
) -> tuple[Any, tuple[int, int] | None, bool]:
    """A change's value without its branch's test (``c ? v : null`` is ``v``: its version
    tests ``c``), its span when it had one there, and whether the test was taken away."""
    if reach is None or type(tree) is not dict or list(tree) != ["$if"]:
        return tree, None, False
    parts = tree["$if"]
    if type(parts) is list and len(parts) == 3 and parts[0] == {"$ref": reach}:
        return parts[1], None if rec is None else rec.get((id(parts), 1)), True
    return tree, None, False


#: the trees a name's version may hold itself: none is a value the program made (an array, an
#: object, a Date: a member set or a sort after the statement checks it as the loop's result)
_MOVABLE = frozenset(["$op", "$if", "$ref", "$template", "$get", "$get?"])


def _movable(tree: Any, kind: str) -> bool:
    if type(tree) is list:
        return kind == "push"
    if type(tree) is not dict:
        return True
    return len(tree) == 1 and next(iter(tree)) in _MOVABLE


#: the core forms that never throw in JavaScript on JSON values, whatever their operands
_TOTAL = frozenset(["$ref", "$if", "$get?", "$merge", "$template", "$undefined", "$quote"])
#: the operators that throw on some JSON values (`'a' in 5`)
_THROWING = frozenset(["in", "instanceof"])


def total(lets: dict[str, Any], arrays: set[str]) -> bool:
    """Whether computing ``lets`` can never throw in JavaScript, nor call a function, as
    :func:`_walk` says (without reading their names)."""
    stack: list[Any] = list(lets.values())
    while stack:
        node = stack.pop()
        if type(node) is list:
            stack.extend(node)
        elif type(node) is dict:
            if len(node) != 1:
                return False
            ((key, value),) = node.items()
            if key == "$quote":
                continue
            if key == "$spread":
                if not (type(value) is dict and value.get("$ref") in arrays):
                    return False
            elif key == "$object":
                if type(value) is not dict:
                    return False
                stack.extend(value.values())
            elif key == "$op":
                if type(value) is not list or not value or value[0] in _THROWING:
                    return False
                stack.extend(value[1:])
            elif key not in _TOTAL:
                return False
            elif key != "$ref":
                stack.append(value)
    return True


def _pushed_when(tree: Any) -> bool:
    """Whether ``tree`` is a push's items under its branch's test: ``c ? [a] : []``."""
    if type(tree) is not dict or list(tree) != ["$if"] or type(tree["$if"]) is not list:
        return False
    parts = tree["$if"]
    return len(parts) == 3 and type(parts[1]) is list and type(parts[2]) is list
