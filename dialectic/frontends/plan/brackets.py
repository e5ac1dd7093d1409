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


class Brackets:
    """The program's brackets, read in one pass the first time a statement asks (so that
    asking about every `if` of a program stays linear, nested ones too): the token closing each
    opening one, where `return` and `use` stand, by how many parentheses and square brackets are
    open around them, and the braces whose own statements hold `if`, `for`, `while`, `do`,
    `try`, `switch` or a block (an arrow's block body then reads as a function's)."""

    __slots__ = ("blocks", "closes", "depth", "returns")

    def __init__(self, kinds: Sequence[str], values: Sequence[object]) -> None:
        end = len(kinds) - 1
        closes = [end] * len(kinds)
        depth = [0] * len(kinds)
        returns: dict[int, list[int]] = {}
        blocks: set[int] = set()
        opened: list[int] = []
        level = 0  # parentheses and square brackets (not braces) open here
        for i, kind in enumerate(kinds):
            depth[i] = level
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
        self.closes = closes
        self.depth = depth
        self.returns = returns

    def returns_between(self, first: int, last: int) -> bool:
        """Whether a `return` (or `use`) stands between tokens ``first`` and ``last`` inside
        as many parentheses and square brackets as token ``first``."""
        at = self.returns.get(self.depth[first])
        if not at:
            return False
        i = bisect_left(at, first)
        return i < len(at) and at[i] <= last
