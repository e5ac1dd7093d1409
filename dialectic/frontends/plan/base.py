"""The parser's state and helpers, shared by the mixins that make up :class:`.parser.Parser`.

Every expression function leaves ``self.pos`` after the expression; the caller knows the span
(start of the first token, end of the last consumed token) and records it against the container
and key where it stores the value (``record[(id(container), key)]``). After parsing, one walk over
the tree turns that record into path-keyed spans (see :mod:`.spans`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, overload

from dialectic.frontends.plan.accumulator import Changes
from dialectic.frontends.plan.brackets import Brackets
from dialectic.frontends.plan.keywords import RESERVED, keyword_hint
from dialectic.frontends.plan.lexer import (
    LINE_TERMINATORS,
    Lexed,
    LexError,
    Token,
    cook,
    number_value,
)
from dialectic.frontends.plan.spans import LineIndex, SpanRecord
from dialectic.frontends.plan.tokenscan import closing, expression_end
from dialectic.outcome.errors import JSONPath

if TYPE_CHECKING:
    from dialectic.frontends.plan.blockreads import BlockReads

__all__ = [
    "ParseFailure",
    "ParserBase",
    "Problem",
    "changes_member",
    "closing",
    "expression_end",
    "op_hint",
]

Problem = tuple[str, int, str | None]  # message, offset, hint

DECLARATORS = frozenset(["const", "let", "var"])
POSTFIX = frozenset([".", "[", "("])


_OP_HINTS = {
    "=": "an assignment is a statement of its own, one per statement: `name = expr;`, "
    "`o.k = v;`, `xs[i] = v;` (on a value the program made)",
    "=>": "an arrow function can only be the argument of an array method: xs.map(x => x.a)",
    "?.": "only `x?.name`, `x?.[key]` and `x?.method(...)` are supported",
    "...": "spread is allowed in arrays, objects and arguments: [...xs, 1], {...a}, f(...xs)",
}
#: the operators that change a value in place (compound assignments and updates)
CHANGES = frozenset(
    [
        *("++", "--", "+=", "-=", "*=", "/=", "%=", "**=", "&&=", "||=", "??="),
        *("|=", "&=", "^=", "<<=", ">>=", ">>>="),
    ]
)


def changes_member(
    kinds: Sequence[str], values: Sequence[object], i: int, methods: frozenset[str]
) -> bool:
    """Whether ``name.method(`` (one of ``methods``, the changes a pass counts), ``name.k =``
    (or another assigning operator) or ``name[...] =`` at token ``i`` changes what the name
    holds."""
    if kinds[i + 1] == ".":
        if values[i + 2] in methods and kinds[i + 3] == "(":
            return True
        return values[i + 3] in CHANGES or values[i + 3] == "="
    if kinds[i + 1] != "[":
        return False
    after = closing(kinds, i + 1)
    return values[after + 1] in CHANGES or values[after + 1] == "="


def op_hint(op: str) -> str:
    """The hint for a JavaScript operator that Plan does not have (or not there)."""
    if op in _OP_HINTS:
        return _OP_HINTS[op]
    if op in CHANGES:
        return (
            "write the change as a statement of its own (`x += 1;`, `i++;`) and read the value "
            "before or after it (a simple statement holds no `&&`, `||`, `??`, `?:`, arrow or "
            'other read of `i` after `i++`: SPEC 10, "Changes outside loops")'
        )
    return (
        "Plan has the operators + - * / % ** === !== == != < <= > >= && || ?? ! "
        "| & ^ ~ << >> >>> and `? :`"
    )


class ParseFailure(Exception):
    """A syntax problem at ``offset``; ``fatal`` stops parsing (no resynchronization);
    ``limit``: the limit it breaches (``max_depth``), which makes it a ``limit_exceeded``."""

    def __init__(
        self,
        message: str,
        offset: int,
        hint: str | None,
        fatal: bool = False,
        limit: str | None = None,
    ) -> None:
        super().__init__(message)
        self.problem: Problem = (message, offset, hint)
        self.fatal = fatal
        self.limit = limit


def describe(tok: Token) -> str:
    kind = tok[0]
    if kind == "name":
        return f"`{tok[1]}`"
    if kind == "num":
        return f"the number {tok[1]}"
    if kind == "str":
        return "a string"
    if kind in ("tpl", "tplh"):
        return "a template literal"
    if kind in ("tplm", "tplt"):
        return "`}`"
    if kind == "eof":
        return "the end of the program"
    if kind == "err":
        return "an invalid token"
    return f"`{tok[1]}`"


class _LazyOffsets(Sequence[int]):
    """The token starts (``which=0``) or ends (``1``), worked out by the lexer on first use
    (and kept: each later read of a token's place is one of the list)."""

    __slots__ = ("_tokens", "_which", "_list")

    def __init__(self, tokens: Lexed, which: int) -> None:
        self._tokens = tokens
        self._which = which
        self._list: list[int] | None = None

    @overload
    def __getitem__(self, i: int) -> int: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[int]: ...

    def __getitem__(self, i: int | slice) -> int | Sequence[int]:
        found = self._list
        if found is None:
            found = self._list = self._tokens.offsets()[self._which]
        return found[i]

    def __len__(self) -> int:
        return len(self._tokens.kinds)


class ParserBase:
    """The state of one parse and the helpers every part of the parser uses."""

    def __init__(
        self,
        source: str,
        tokens: Lexed,
        index: LineIndex,
        *,
        strict: bool,
        max_depth: int,
        record: bool = True,
        max_nodes: int | None = None,
    ) -> None:
        self.source = source
        self.tokens = tokens
        self.kinds = tokens.kinds
        self.values = tokens.values
        #: the token kinds as lexed (parsing sets some for a while: `case` read as `}`), for
        #: the statements' bracket table (:mod:`.reassign`); kept only when it may be asked
        self.lexed_kinds: tuple[str, ...] | None = (
            tuple(tokens.kinds) if ("if" in source or "switch" in source) else None
        )
        self.starts: Sequence[int]
        self.ends: Sequence[int]
        if record:
            self.starts, self.ends = tokens.offsets()
        else:
            self.starts, self.ends = _LazyOffsets(tokens, 0), _LazyOffsets(tokens, 1)
        self.index = index
        self.strict = strict
        self.max_depth = max_depth
        #: the runtime's `max_nodes` (None: unbounded), and the nodes the loops read so far
        #: make at least (:meth:`.LoopEmitMixin._emit`): a program of 30,000 `x += 1;` fails at
        #: its 1,250th, not after reading them all
        self.max_nodes = max_nodes
        self.loop_nodes = 0
        #: id of a version a straight change made -> how long its chain of versions not run
        #: yet is (:mod:`.straight`)
        self.chains: dict[int, int] = {}
        self.pos = 0
        self.rec: SpanRecord | None = SpanRecord() if record else None
        self.extra: dict[JSONPath, tuple[int, int]] = {}
        self.keep: list[Any] = []  # containers dropped while parsing: their ids stay unique
        self.problems: list[Problem] = []
        #: the problem that is a breached limit (it stops parsing), and which limit
        self.limited: tuple[Problem, str] | None = None
        self.warnings: list[str] = []
        #: ids of operator expressions written in parentheses (`(a || b) ?? c`, `(-x) ** 2`)
        self.parened: set[int] = set()
        #: arrow functions that change their accumulator, by id, until the call they are
        #: passed to accepts them (`reduce` from a fresh literal: see :mod:`.accumulator`)
        self.changing: dict[int, Changes] = {}
        #: the parameters of the arrow functions being read, by name (how many bind it)
        self.arrow_bound: dict[str, int] | None = None
        #: the aliases the statements after the last `if` read define (`if_statement`)
        self._rest_names: frozenset[str] = frozenset()

    if TYPE_CHECKING:  # (:mod:`.statements`: a block of statements ending in `return`)

        def block_until(
            self,
            end: str,
            what: str = "this branch of `if`",
            *,
            rest: bool = False,
            bring: bool = False,
            close: int = -1,
        ) -> Any: ...

    # -- helpers -------------------------------------------------------------------------------

    def tok(self, i: int) -> Token:
        """Token ``i`` as a tuple ``(kind, value, start, end)``."""
        return (self.kinds[i], self.values[i], self.starts[i], self.ends[i])

    def fail(self, message: str, offset: int, hint: str | None = None) -> ParseFailure:
        return ParseFailure(message, offset, hint)

    def warn(self, offset: int, message: str) -> None:
        self.warnings.append(f"{self.index.where(offset)}: {message}")

    def unexpected(self, tok: Token, expected: str) -> ParseFailure:
        kind = tok[0]
        if kind == "err":
            message, hint = tok[1]
            return self.fail(message, tok[2], hint)
        if (
            kind == "="
            and self.pos > 0
            and self.kinds[self.pos - 1] == "name"
            and (self.newline_before(self.pos - 1))
        ):
            name = self.tok(self.pos - 1)
            return self.fail(
                f"expected {expected}, found the start of a new statement `{name[1]} = ...`",
                name[2],
                "the statement before this line is unfinished: check for a missing "
                "`)`, `]`, `}` or `;`",
            )
        if kind in ("op", "+", "-", "="):
            hint = op_hint(tok[1])
            back = self.pos - 1
            if (
                (tok[1] == "=" or tok[1] in CHANGES)
                and back >= 1
                and (self.kinds[back] == "]" or self.kinds[back - 1] == ".")
            ):  # `o.a = 1;`, `o[k] += 1;`: a member changed in place
                hint = (
                    "set a member as a statement of its own (`o.a = 1;`, `o[k] += 1;` on an "
                    "object the program wrote), or make a new object (`const o2 = {...o, a: "
                    "1};`)"
                )
                if expected == "`)`":  # `(groups[k] ??= []).push(x)` refused
                    hint = (
                        "a statement (o[k] ??= []).push(x); is read when the key is a name, a "
                        "literal or a member chain of names (bind a computed key first: const "
                        "k = ...;) and `o` is defined as {} and read by nothing else while it "
                        "grows; else write o[k] = [...(o[k] ?? []), x];"
                    )
            what = (
                f"`{tok[1]}` is read only in a statement of its own (`i{tok[1]};`) or once in a "
                f"simple statement (`xs.push(i{tok[1]});`)"
                if tok[1] in ("++", "--")
                else f"Plan has no operator `{tok[1]}`"
            )
            return self.fail(f"{what} (expected {expected})", tok[2], hint)
        if kind == "name" and tok[1] in RESERVED:
            return self.fail(
                f"expected {expected}, found the keyword `{tok[1]}`", tok[2], keyword_hint(tok[1])
            )
        hint = None
        if kind == ",":
            hint = "remove the extra comma"
        elif kind == ")" or kind == "]" or kind == "}":
            if self.pos and self.kinds[self.pos - 1] == ",":
                hint = "remove the extra comma"
            else:
                hint = "check that brackets are balanced"
        elif kind in ("name", "str", "num", "tpl", "tplh"):
            hint = "separate arguments and elements with `,` and end statements with `;`"
        elif kind == "eof":
            hint = "the program ended early: check that brackets, quotes and templates are closed"
        return self.fail(f"expected {expected}, found {describe(tok)}", tok[2], hint)

    def string(self, i: int) -> str:
        """The value of string token ``i``."""
        try:
            return cook(self.values[i][1:-1], False)
        except LexError as e:
            raise self.fail(e.message, self.starts[i] + 1 + e.offset, e.hint)

    def number(self, i: int) -> int | float:
        """The value of number token ``i``."""
        try:
            return number_value(self.values[i])
        except LexError as e:
            raise self.fail(e.message, self.starts[i] + e.offset, e.hint)

    def newline_before(self, i: int) -> bool:
        """Whether a line break separates token ``i`` from the token before it."""
        if i == 0:
            return False
        gap = self.tokens.gap(i)
        return gap != " " and LINE_TERMINATORS.search(gap) is not None

    def _record(self, items: list[Any], spans: list[tuple[int, int]], offset: int = 0) -> None:
        rec = self.rec
        if rec is not None:
            for i, (a, b) in enumerate(spans):
                rec[(rec.pin(items), i + offset)] = (self.starts[a], self.ends[b])

    #: the Sets made but not yet taken as items, count or membership (:mod:`.sets`)
    _loose_sets: dict[int, int] | None = None

    #: ids of the plain calls of the program's own functions (:mod:`.functions`)
    _function_calls: set[int] | None = None
    #: the first and last token of the value of the last block's final `return`
    _block_final: tuple[int, int] = (0, 0)
    _brackets: Brackets | None = None

    _block_reads: BlockReads | None = None

    def block_reads(self) -> BlockReads:
        """What the blocks' aliases read, scanned once per value (:mod:`.blockreads`)."""
        reads = self._block_reads
        if reads is None:
            from dialectic.frontends.plan.blockreads import BlockReads  # (it imports this)

            reads = self._block_reads = BlockReads()
        return reads

    def brackets(self) -> Brackets:
        """The program's bracket table (:class:`Brackets`), read once."""
        table = self._brackets
        if table is None:
            kinds = self.lexed_kinds if self.lexed_kinds is not None else tuple(self.kinds)
            table = self._brackets = Brackets(kinds, self.values)
        return table

    #: the declarator of a name declared after a `,` (`let a = 1, b = 2;`) or in a pattern
    #: (`let [a, b] = ...;`), and of the name a statement changes into its next version
    #: (`xs.sort();`, `o.k = v;`: the name's own), by its token
    _declarators: dict[int, str] | None = None
    #: the tokens of the statements that made a name's next version (:meth:`move_version`)
    _versions: set[int] | None = None
    #: each such statement's token, the token the name was defined at before it (back to its
    #: declaration: where "declared twice" points)
    _version_of: dict[int, int] | None = None

    def first_definition(self, at: int) -> int:
        """The token defining a name first, from the token ``at`` defining it now (a version:
        ``xs.sort();`` after ``const xs = [...];``)."""
        back = self._version_of or {}
        while at in back:
            at = back[at]
        return at

    def declarator(self, at: int) -> str | None:
        """`const`, `let` or `var` declaring the name at token ``at`` (None: none)."""
        if self._declarators is not None and at in self._declarators:
            return self._declarators[at]
        if at > 0 and self.kinds[at - 1] == "name" and self.values[at - 1] in DECLARATORS:
            return str(self.values[at - 1])
        return None

    #: the functions the program defines, by name (:mod:`.functions`)
    functions: dict[str, Any] | None = None
    #: while a function's body is read: its definition's first and last token, and its name
    function_span: tuple[int, int, str] | None = None
    #: each name written in the program, by the tokens it stands at (not after `.`), built
    #: once on first use (:meth:`used_outside`)
    _name_tokens: dict[object, list[int]] | None = None

    def used_outside(self, name: str, first: int, last: int) -> bool:
        """Whether ``name`` stands anywhere in the program outside tokens ``first`` to
        ``last`` (not as a member after `.`)."""
        at = self._name_tokens
        if at is None:
            at = self._name_tokens = {}
            kinds, values = self.kinds, self.values
            for j, kind in enumerate(kinds):
                if kind == "name" and (j == 0 or kinds[j - 1] != "."):
                    at.setdefault(values[j], []).append(j)
        return any(j < first or j > last for j in at.get(name, ()))

    if TYPE_CHECKING:  # defined by the mixins and :class:`.parser.Parser`

        def find_functions(self) -> None: ...

        def function_names(self) -> dict[int, str]: ...

        def function_definition(self, pos: int, alias_at: dict[str, int]) -> None: ...

        def expand_functions(
            self,
            aliases: dict[str, Any],
            rec: list[tuple[str, int, int, int, int]],
            final: tuple[str, Any, int, int],
        ) -> tuple[tuple[str, Any, int, int], bool]: ...

        def is_function_call(self, fn: str, made: dict[str, Any]) -> None: ...

        def method_of_function(self, fn: str, offset: int) -> None: ...

        def read_through_function(self, problem: Problem) -> Problem: ...

        def note_definition(self, name: str, value: Any, declarator: str | None) -> None: ...

        def awaited_promise(self, tree: Any) -> Any: ...

        def expr(self, depth: int) -> Any: ...

        def primary(self, depth: int) -> Any: ...

        def template(self, head: int, depth: int) -> Any: ...

        def spread_or_expr(self, depth: int) -> Any: ...

        def postfix(self, node: Any, first: int, callee: str | None, depth: int) -> Any: ...

        def end_statement(self, what: str) -> None: ...

        def take_set(self, node: Any) -> bool: ...

        def loose_sets_as_values(self) -> None: ...

        def collection_alias(self, name: str, value: Any, at: int) -> None: ...
