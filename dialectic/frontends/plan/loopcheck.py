"""What a ``for...of`` loop may do, checked (SPEC 10, "Loops"): which names its body declares
and where each is visible, which accumulators it changes and how, and that nothing reads an
accumulator before the loop has finished with it (what a block offers its loops:
:mod:`.blockstate`; what an accumulator may start as: :mod:`.loopstart`). Used by
:mod:`.loops`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dialectic.frontends.plan.blockstate import BlockState
from dialectic.frontends.plan.loopbuild import Contribution, scan_reads
from dialectic.frontends.plan.loopfold import fold_step
from dialectic.frontends.plan.loopscope import close_block, declare, renamed_reads
from dialectic.frontends.plan.loopstart import (
    SHARED_FAMILIES,
    START,
    WHOLE_HINT,
    destructured,
    fresh_start,
    same_family,
)
from dialectic.frontends.plan.reorder import reordered

if TYPE_CHECKING:
    from dialectic.frontends.plan.loops import LoopsMixin
    from dialectic.frontends.plan.loopwhile import WhileTest
    from dialectic.frontends.plan.restblock import Outer

__all__ = ["NEVER", "Body"]

#: the reach of the statements after `continue`: never
NEVER = "#never"


class Body:
    """What the body of one loop has made so far."""

    # (more attributes than an instance's dict shares its keys for: slots, each made at once)
    __slots__ = (
        "parser",
        "parent",
        "depth",
        "aliases",
        "alias_at",
        "alias_rec",
        "state",
        "param",
        "each",
        "each_call",
        "once",
        "item_names",
        "lets",
        "accs",
        "acc_kind",
        "old_reads",
        "acc_tok",
        "acc_let",
        "runs",
        "declared",
        "uses",
        "scopes",
        "next_scope",
        "scope_uses",
        "undo",
        "renamed",
        "original",
        "seq",
        "defs",
        "local_finals",
        "read_first",
        "read_scanned",
        "fold",
        "current",
        "pending",
        "breaks",
        "state_param",
        "loop",
        "whole",
        "returned_whole",
        "ret",
    )

    def __init__(
        self,
        parser: LoopsMixin,
        aliases: dict[str, Any],
        alias_at: dict[str, int],
        alias_rec: list[tuple[str, int, int, int, int]],
        state: BlockState,
        parent: Body | None = None,
    ) -> None:
        self.parser = parser
        #: the loop whose body holds this one (None: a loop of a block)
        self.parent = parent
        self.depth: int = 1 if parent is None else parent.depth + 1
        self.aliases = aliases
        self.alias_at = alias_at
        self.alias_rec = alias_rec
        self.state = state
        self.param = ""
        #: a `forEach` callback's body: `return;` goes on, `break` and `continue` are refused
        self.each = False
        #: how messages name that callback's call
        self.each_call = "`forEach`"
        #: a statement outside a loop read as a loop over one item: `break` is refused
        self.once = False
        #: the names the loop's variable (or its pattern) binds
        self.item_names: set[str] = set()
        #: the arrow function's aliases, in the body's order
        self.lets: dict[str, Any] = {}
        self.accs: dict[str, list[Contribution]] = {}
        self.acc_kind: dict[str, str] = {}
        #: accumulators replaced by the loop (not changed in place) that the block read before
        self.old_reads: set[str] = set()
        self.acc_tok: dict[str, int] = {}
        self.acc_let: dict[str, bool] = {}
        #: hidden aliases (and locals holding a call) that run for every iteration reaching them
        self.runs: list[str] = []
        #: local -> (scope, order, token)
        self.declared: dict[str, tuple[int, int, int]] = {}
        #: names read, the scopes open there, the order there, first and last token
        self.uses: list[tuple[set[str], tuple[int, ...], int, int, int]] = []
        self.scopes = [0]
        self.next_scope = 1
        #: per open scope, the first of its reads (in ``uses``), and the names it declared
        #: again with the alias each hid before (:mod:`.loopscope`); name -> its hidden alias
        self.scope_uses = [0]
        self.undo: list[list[tuple[str, str | None]]] = [[]]
        self.renamed: dict[str, str] = {}
        #: hidden alias -> the name the program declared again (:mod:`.loopscope`)
        self.original: dict[str, str] = {} if parent is None else parent.original
        self.seq = 0
        #: local declared by itself -> (declared with `let`, its value as written)
        self.defs: dict[str, tuple[bool, Any]] = {}
        #: local changed by a loop inside this body -> the kind of change
        self.local_finals: dict[str, str] = {}
        #: name -> the first use (index in ``uses``) reading it, found as loops inside ask
        self.read_first: dict[str, int] = {}
        self.read_scanned = 0
        #: the body reads an accumulator it changes: the loop is a fold (:mod:`.loopfold`)
        self.fold = False
        #: accumulator -> its latest version (a hidden local; absent: the state's, its name)
        self.current: dict[str, str] = {}
        #: accumulator -> the changes after its latest version, in order
        self.pending: dict[str, list[Contribution]] = {}
        #: the reach of each `break` (None: always), and the fold's state when it has one
        self.breaks: list[str | None] = []
        self.state_param: str | None = None
        #: a `while` or `do` loop's test (:mod:`.loopwhile`), or None
        self.loop: WhileTest | None = None
        #: names read whole (not a member, a receiver, a spread), first and last token
        self.whole: list[tuple[set[str], int, int]] = []
        #: names a `return` of the body (or of a loop inside) reads whole: once returned,
        #: nothing changes them, so a loop around does not count those reads
        self.returned_whole: set[str] = set()
        #: the hidden (result, returned) names a `return` in the body sets (:mod:`.loopreturn`)
        self.ret: tuple[str, str] | None = None if parent is None else parent.ret

    def open_scope(self) -> None:
        self.scopes.append(self.next_scope)
        self.next_scope += 1
        self.scope_uses.append(len(self.uses))
        self.undo.append([])

    def close_scope(self) -> None:
        self.scopes.pop()
        self.scope_uses.pop()
        if self.undo[-1]:
            close_block(self)
        else:
            self.undo.pop()

    def declare(self, name: str, tok: int) -> str:
        """``name`` declared at token ``tok``: the alias holding it (:mod:`.loopscope`)."""
        return declare(self, name, tok)

    def use(self, tree: Any, first: int, last: int, passed: frozenset[str] = frozenset()) -> None:
        """``tree`` (tokens ``first`` to ``last``) is computed here: its reads are checked when
        the loop ends; a read of an accumulator already changed reads its latest version.
        ``passed``: the accumulators of a fold inside that start from their values here (it
        does not keep them: it checks its own reads)."""
        nodes: list[dict[str, Any]] | None = [] if self.renamed or self.parent else None
        names, whole = scan_reads(tree, nodes)
        if not names:
            return
        if nodes:  # (a name a block declared again reads its hidden alias there)
            renamed = renamed_reads(self, nodes)
            if renamed is not None:
                names, whole = renamed, scan_reads(tree)[1]
        self.uses.append((names, tuple(self.scopes), self.seq, first, last))
        if whole and passed:
            whole -= passed
        if whole:
            self.whole.append((whole, first, last))
        if not self.acc_kind or self.acc_kind.keys().isdisjoint(names):
            return
        self.fold = True
        if nodes is None:
            nodes = []
            scan_reads(tree, nodes)
        for node in nodes:
            name = node["$ref"]
            if name in self.acc_kind:
                node["$ref"] = self.version(name)

    def add_change(self, name: str, change: Contribution) -> None:
        self.accs.setdefault(name, []).append(change)
        self.pending.setdefault(name, []).append(change)

    def version(self, name: str) -> str:
        """The hidden local holding ``name`` after the changes so far (its name: the value
        the iteration starts from)."""
        current = self.current.get(name, name)
        changes = self.pending.pop(name, None)
        if not changes:
            return current
        p = self.parser
        for change in changes:
            hidden = p.fresh(f"_{name}")
            self.lets[hidden] = fold_step(change, current, p.fresh, p.rec)
            if p.rec is not None:
                p.rec[(p.rec.pin(self.lets), hidden)] = change.span
            current = hidden
        self.current[name] = current
        return current

    def claim(self, name: str, tok: int, kind: str) -> None:
        """``name`` is changed (``kind``) by the statement at token ``tok``: an accumulator
        defined before the loop in this block, by a plain definition of a fitting value; in a
        loop inside a loop, also a local of an enclosing loop's body (defined before it)."""
        p = self.parser
        family = kind if kind in ("push", "entry", "collection") else "number"
        where = p.starts[tok]
        if name in self.declared:
            item = name in self.item_names
            raise p.fail(
                f"`{name}` is the loop's variable: the loop does not assign it, and sets its "
                "members only in a loop over an array its block defines (a call's result, an "
                "array literal of objects, `xs.map(x => ({...}))`) that nothing read before"
                if item
                else f"`{name}` is a local of the loop: the body changes it only by member sets "
                "right after its definition (`const row = {...}; row.k = v;`)",
                where,
                "collect into an accumulator defined before the loop: const out = []; "
                "for (...) { out.push(value); }, or build a new array: "
                "const out = xs.map(x => ({...x, k: v}));"
                + (
                    ""
                    if item
                    else f" A `let` of the body is read when the `if` statements (or one "
                    f"`try`) right after it set it, and nothing else: `let {name} = a; if "
                    f"(test) {name} = b;`, `let {name}; try {{ ...; {name} = v; }} catch "
                    f"{{ {name} = w; }}` (one local a `try`; for more, push the row in the "
                    "block and in the handler)"
                ),
            )
        known = self.acc_kind.get(name)
        if known is not None:
            if known != family:
                raise p.fail(f"the loop changes `{name}` in two different ways", where)
            return
        parent = self.parent
        if parent is None:
            let = self._block_accumulator(name, family, where)
        elif name in parent.declared:
            let = parent.local_accumulator(name, family, where)
        else:
            parent.claim(name, tok, kind)
            let = parent.acc_let[name]
        if family == "number" and not let:
            raise p.fail(
                f"`{name}` is a `const`: JavaScript refuses to change it (a TypeError)",
                where,
                f"define it with `let`: {START[family].format(name)}",
            )
        self.acc_kind[name] = family
        self.acc_tok[name] = tok
        self.acc_let[name] = let

    def _block_accumulator(self, name: str, family: str, where: int) -> bool:
        p = self.parser
        idx = self.state.index_of(name)
        if idx is None and (p.arrow_bound or {}).get(name):
            raise p.fail(
                f"`{name}` is a parameter of the arrow function, which this statement changes "
                "in place: Plan changes in place only a value the block defines (a "
                "parameter's value may be held elsewhere)",
                where,
                (
                    f"give a `reduce` a statement of its own, `const r = xs.reduce(({name}, "
                    f"item) => {{ ...; return {name}; }}, []);`, and read `r`; or return a new "
                    f"array: ({name}, item) => item.ok ? [...{name}, item] : {name}"
                    if family == "push"
                    else f"return a new object: {name} => ({{...{name}, key: value}}) (a "
                    "`reduce` whose step changes its accumulator: give the `reduce` a statement "
                    f"of its own, `const r = xs.reduce(({name}, item) => {{ ...; return {name}; "
                    "}, {});`)"
                ),
            )
        if idx is None:
            raise p.fail(
                f"`{name}` is changed in the loop but not defined before it (in this block)",
                where,
                f"define it just before the loop: {START[family].format(name)}",
            )
        before = self.state.finals.get(name)
        if before is not None:
            same_family(p, name, before[0], family, where)
            return before[1]
        return self._defined(name, idx, family, where)

    def local_accumulator(self, name: str, family: str, where: int) -> bool:
        """``name``, a local of this body, is changed by a loop inside it: a plain definition
        of a fitting value, visible there; returns whether it is declared with `let`."""
        p = self.parser
        scope, _, tok = self.declared[name]
        if name in self.item_names:
            raise p.fail(
                f"`{name}` is the outer loop's variable: a loop inside it does not change it",
                where,
                "collect into an accumulator defined before the loop: const out = []; "
                "for (...) { out.push(value); }",
            )
        if scope not in self.scopes:
            line = p.index.where(p.starts[tok])
            raise p.fail(
                f"`{name}` is changed where it is not defined (it is declared at {line})",
                where,
                "define the accumulator in a block that holds the loop",
            )
        before = self.local_finals.get(name)
        found = self.defs.get(name)
        if found is None:
            raise destructured(p, name, family, where)
        if before is not None:
            same_family(p, name, before, family, where)
            return found[0]
        fresh_start(p, name, found[1], family, where)
        return found[0]

    def read_before(self, name: str) -> tuple[int, int] | None:
        """The tokens of the first expression of this body read so far that reads ``name``."""
        uses = self.uses
        first = self.read_first
        while self.read_scanned < len(uses):
            for read in uses[self.read_scanned][0]:
                first.setdefault(read, self.read_scanned)
            self.read_scanned += 1
        idx = first.get(name)
        return None if idx is None else (uses[idx][3], uses[idx][4])

    def _defined(self, name: str, idx: int, family: str, where: int) -> bool:
        """Whether the definition of ``name`` (statement ``idx``) suits ``family``; returns
        whether it is declared with `let` (or nothing), not `const`."""
        p = self.parser
        if name in p.hidden_lets:  # (`return` in a loop: :mod:`.loopreturn`)
            return True
        outer = p.brought_from(self.alias_rec, name)
        if outer is not None:  # (after an `if` that returns: :mod:`.restblock`)
            return _brought(p, outer, name, family, where)
        _, at, first, _, _ = self.alias_rec[idx]
        value = self.aliases[name]
        version = (  # `o.k = v;`, `xs.sort();`, `m.set(k, v);` made this version
            p.kinds[at + 1] in (".", "[")
            and type(value) is dict
            and (list(value) == ["$merge"] or reordered(value))
        ) or (p._versions is not None and at in p._versions)  # (:meth:`.members.move_version`)
        if (
            first != at + 2
            and p.kinds[at + 1] != ";"
            and not version
            and family in ("push", "entry", "collection")
        ):  # (`let x;`: undefined, :mod:`.reassign`; `let [a, b] = p;` may take new values,
            # `[a, b] = [b, a];`, but an array or an object it changes must be the program's)
            raise destructured(p, name, family, where)
        declarator = p.declarator(at)  # (a version's: the name's own)
        let = declarator in ("let", "var") if version else declarator != "const"
        fresh_start(p, name, self.aliases[name], family, where)
        return let


def _brought(p: LoopsMixin, outer: Outer, name: str, family: str, where: int) -> bool:
    """A change of ``name``, brought into a block after an `if` that returns, checked as its
    enclosing block would check it; returns whether it is declared with `let`."""
    if family in SHARED_FAMILIES and outer.held:
        raise p.fail(
            f"`{name}` is read whole before the `if` that returns, and changed after it: in "
            "JavaScript that read would see the change",
            where,
            WHOLE_HINT[family].format(name),
        )
    aliases, alias_at, alias_rec = outer.block
    check = Body(p, aliases, alias_at, alias_rec, p._block_state(alias_rec))
    return check._block_accumulator(name, family, where)
