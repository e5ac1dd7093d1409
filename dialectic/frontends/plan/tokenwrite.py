"""New tokens for a statement read another way before parsing (:mod:`.parensets`,
:mod:`.memberpush`): each new token takes the place in the text of a token it stands for, so a
problem in it points into the statement as written."""

from __future__ import annotations

from dialectic.frontends.plan.lexer import Lexed

__all__ = ["TokenWriter"]


class TokenWriter:
    """Writes a new token list from ``tokens``: copies of its tokens and new ones."""

    __slots__ = ("tokens", "starts", "ends", "kinds", "values", "new_starts", "new_ends")

    def __init__(self, tokens: Lexed) -> None:
        self.tokens = tokens
        self.starts, self.ends = tokens.offsets()
        self.kinds: list[str] = []
        self.values: list[object] = []
        self.new_starts: list[int] = []
        self.new_ends: list[int] = []

    def put(self, kind: str, value: object, j: int) -> None:
        """A new token, in the place of token ``j``."""
        self.kinds.append(kind)
        self.values.append(value)
        self.new_starts.append(self.starts[j])
        self.new_ends.append(self.ends[j])

    def copy(self, first: int, end: int) -> None:
        """Tokens ``first`` up to ``end`` (excluded), as they are."""
        tokens = self.tokens
        self.kinds.extend(tokens.kinds[first:end])
        self.values.extend(tokens.values[first:end])
        self.new_starts.extend(self.starts[first:end])
        self.new_ends.extend(self.ends[first:end])

    def lexed(self, source: str) -> Lexed:
        return Lexed(source, self.kinds, self.values, None, None, (self.new_starts, self.new_ends))
