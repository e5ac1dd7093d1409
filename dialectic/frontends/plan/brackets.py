"""The program's brackets (the Plan parser's bracket table): :data:`OPEN` and :data:`CLOSE` (from
:mod:`.tokenscan`) are the token kinds that open and close a bracket (a template's ``${`` and
``}`` among them), and a :class:`Brackets` is read in one pass over the tokens the first time a
statement asks (the token closing each opening one, where ``return`` and ``use`` stand by
bracket depth, the braces whose statements make an arrow's block body a function's), so asking
about every ``if`` of a program stays linear. Moved out of :mod:`.base`, which keeps the
parser's state.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence

from dialectic.frontends.plan.tokenscan import CLOSE, OPEN

__all__ = ["CLOSE", "OPEN", "Brackets"]

#: statements that make an arrow's block body a block as a function's (:mod:`.arrows`)
_STATEMENT_WORDS = frozenset(["if", "for", "while", "do", "try", "switch"])
#: the tokens after which a `{` inside braces opens a block statement, not an object
_BEFORE_BLOCK = frozenset([";", "{", "}"])
#: the operators of a statement that changes a name (`v += 1;`, `v++;`): one that changes a
#: `let` its braces declare makes an arrow's block body a function's, where `let` is a `let`
_SETS = frozenset(
    [
        *("++", "--", "+=", "-=", "*=", "/=", "%=", "**=", "&&=", "||=", "??="),
        *("|=", "&=", "^=", "<<=", ">>=", ">>>="),
    ]
)


class Brackets:
    """The program's brackets, read in one pass the first time a statement asks (so that
    asking about every `if` of a program stays linear, nested ones too): the token closing each
    opening one, where `return` and `use` stand, by how many parentheses and square brackets are
    open around them, and the braces whose own statements hold `if`, `for`, `while`, `do`,
    `try`, `switch` or a block (an arrow's block body then reads as a function's)."""

    __slots__ = ("blocks", "closes", "depth", "kinds", "let_blocks", "returns", "values")

    def __init__(self, kinds: Sequence[str], values: Sequence[object]) -> None:
        end = len(kinds) - 1
        closes = [end] * len(kinds)
        depth = [0] * len(kinds)
        returns: dict[int, list[int]] = {}
        blocks: set[int] = set()
        let_blocks: set[int] = set()
        opened: list[int] = []
        #: braces -> the names their own declarations declare (True: with `let` or `var`)
        lets: dict[int, dict[object, bool]] = {}
        level = 0  # parentheses and square brackets (not braces) open here
        for i, kind in enumerate(kinds):
            depth[i] = level
            if lets and opened and opened[-1] in lets and kinds[i - 1] in _BEFORE_BLOCK:
                _let_set(kinds, values, i, lets[opened[-1]], opened[-1], let_blocks)
            if kind in OPEN:
                if (
                    kind == "{"
                    and opened
                    and kinds[opened[-1]] == "{"
                    and kinds[i - 1] in _BEFORE_BLOCK  # a block statement: `{ const y = 1; }`
                ):
                    blocks.add(opened[-1])
                opened.append(i)
                if kind != "{":
                    level += 1
            elif kind in CLOSE:
                if opened:
                    j = opened.pop()
                    closes[j] = i
                    if kinds[j] != "{":
                        level -= 1
            elif kind == "name":
                word = values[i]
                if word == "return" or word == "use":
                    returns.setdefault(level, []).append(i)
                elif (
                    word in ("let", "var", "const")
                    and opened
                    and kinds[opened[-1]] == "{"
                    and kinds[i - 1] in _BEFORE_BLOCK
                    and kinds[i + 1] == "name"
                ):
                    lets.setdefault(opened[-1], {})[values[i + 1]] = word != "const"
                elif (
                    (
                        word in _STATEMENT_WORDS
                        or (word == "forEach" and i > 0 and kinds[i - 1] == ".")
                    )
                    and opened
                    and kinds[opened[-1]] == "{"
                    and (word == "forEach" or i == 0 or kinds[i - 1] != ".")
                    and (i == end or kinds[i + 1] != ":")
                ):
                    blocks.add(opened[-1])
        self.blocks = frozenset(blocks)
        #: the braces whose statements change a `let` they declare (`v += 1;`): an arrow's
        #: block body then reads as a function's too, unless it changes its first parameter
        #: in place (a `reduce` step's accumulator: :meth:`changes_name`)
        self.let_blocks = frozenset(let_blocks - blocks)
        self.kinds, self.values = kinds, values
        self.closes = closes
        self.depth = depth
        self.returns = returns

    def changes_name(self, brace: int, name: str) -> bool:
        """Whether a statement of the braces at token ``brace`` (their own, not nested
        brackets') starts with ``name`` and a member, an index or a set (``acc[k] = v;``,
        ``acc.push(x);``, ``acc += 1;``)."""
        kinds, values, closes = self.kinds, self.values, self.closes
        i, end = brace + 1, closes[brace]
        while i < end:
            kind = kinds[i]
            if (
                kind == "name"
                and values[i] == name
                and kinds[i - 1] in _BEFORE_BLOCK
                and kinds[i + 1] in (".", "[", "?.", "=", "op")
            ):
                return True
            i = closes[i] + 1 if kind in OPEN else i + 1
        return False

    def returns_between(self, first: int, last: int) -> bool:
        """Whether a `return` (or `use`) stands between tokens ``first`` and ``last`` inside
        as many parentheses and square brackets as token ``first``."""
        at = self.returns.get(self.depth[first])
        if not at:
            return False
        i = bisect_left(at, first)
        return i < len(at) and at[i] <= last


def _let_set(
    kinds: Sequence[str],
    values: Sequence[object],
    i: int,
    lets: dict[object, bool],
    brace: int,
    blocks: set[int],
) -> None:
    """The statement at token ``i`` of the braces at token ``brace``: when it changes a name
    their own `let` declares (``v += 1;``, ``v = v * 2;``, ``v++;``, ``++v;``), or reorders a
    name they declare or a member of one (``t.sort();``, ``t.list.reverse();``), the braces
    are a block as a function's (an arrow's block body reads `let` as `const`, and a reorder
    as a call run for its effect)."""
    kind = kinds[i]
    if kind == "name" and values[i] in lets:
        after = kinds[i + 1]
        if lets[values[i]] and (after == "=" or (after == "op" and values[i + 1] in _SETS)):
            blocks.add(brace)
            return
        j = i + 1
        while kinds[j] == "." and kinds[j + 1] == "name":
            j += 2
        if j > i + 1 and kinds[j] == "(" and values[j - 1] in ("sort", "reverse"):
            blocks.add(brace)
    elif (
        kind == "op"
        and values[i] in ("++", "--")
        and kinds[i + 1] == "name"
        and lets.get(values[i + 1])
    ):
        blocks.add(brace)
