"""Errors: what implementations raise, and what the runtime raises internally.

Implementations signal the two non-success outcomes by raising:

- :class:`Ambiguous` (with :class:`Candidate` refinements) when several valid results exist;
- :class:`Failure` when the request cannot be satisfied (a clean, expected failure).

Any other exception from an implementation is reported as an unexpected ``function_error``.
Inside the runtime every problem is a :class:`DialecticError` carrying a code, a message, the
JSON path of the node at fault and an optional hint.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

JSONPath = tuple[str | int, ...]


class Candidate:
    """One refinement of an ambiguous call: a description and the call that would replace it."""

    __slots__ = ("description", "program")

    def __init__(self, description: str, program: Any) -> None:
        self.description = description
        self.program = program

    def __repr__(self) -> str:
        return f"Candidate({self.description!r}, {self.program!r})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Candidate)
            and other.description == self.description
            and other.program == self.program
        )

    __hash__ = None  # type: ignore[assignment]


class Ambiguous(Exception):
    """Raised by an implementation that found several valid results.

    ``message`` is the question for the model ("The symbol `x` is defined in multiple places.
    Which did you mean?"); each candidate's ``program`` is the refined call (a call tree such as
    ``{"findSymbol": {"name": "x", "file": "a.py", "line": 3}}``) that replaces the ambiguous one.
    """

    def __init__(self, message: str, candidates: Sequence[Candidate]) -> None:
        super().__init__(message)
        self.message = message
        self.candidates = list(candidates)


class Failure(Exception):
    """Raised by an implementation for an expected, unrecoverable failure.

    The message is shown to the model as it is (no "unexpected error" wrapping).
    """

    def __init__(self, message: str, *, hint: str | None = None, code: str = "failure") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.code = code


class DialecticError(Exception):
    """A failure detected by the runtime, with a code, a path into the call tree and a hint."""

    #: JavaScript throws here too (a registered function's call failed, ``$throw``,
    #: ``JSON.parse`` of a text that is not JSON): a ``$try`` handler may catch it (SPEC 1.2).
    #: Every other failure (a refusal where JavaScript computes a value, a limit, a
    #: cancellation) ends the run whatever ``$try`` holds it.
    throws: bool = False
    #: what ``$throw`` threw (the handler's parameter), in a tuple of one, else None
    thrown: tuple[Any] | None = None

    def __init__(
        self,
        code: str,
        message: str,
        path: JSONPath = (),
        *,
        hint: str | None = None,
        details: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.path = path
        self.hint = hint
        self.details = details or {}

    def __str__(self) -> str:
        where = format_path(self.path)
        text = f"{self.message} (at {where})" if self.path else self.message
        if self.hint:
            text += f"\nHint: {self.hint}"
        return text


class LimitExceeded(DialecticError):
    """A configured limit was breached; ``details['limit']`` names it."""

    def __init__(self, limit: str, message: str, path: JSONPath = ()) -> None:
        super().__init__(
            "limit_exceeded",
            message,
            path,
            hint=f"Simplify the program or raise the `{limit}` limit.",
            details={"limit": limit},
        )
        self.limit = limit


class PluginError(Exception):
    """A plugin failed to import or to register; the message names the plugin."""


class SyntaxProblem:
    """One syntax error in a source text (a front end may report several at once); ``limit``:
    the limit it breaches (``max_depth``: the text is nested too deeply), if it is one."""

    __slots__ = ("message", "line", "column", "hint", "offset", "limit")

    def __init__(
        self,
        message: str,
        line: int,
        column: int,
        *,
        hint: str | None = None,
        offset: int = 0,
        limit: str | None = None,
    ) -> None:
        self.message = message
        self.line = line
        self.column = column
        self.hint = hint
        self.offset = offset
        self.limit = limit


def clip(value: object, limit: int = 80) -> str:
    """A name or value for a message: never more than ``limit`` characters (a hostile program
    may use a 60,000-character name), and no 5,000-digit integer conversion."""
    if isinstance(value, int) and not isinstance(value, bool) and not -(10**18) < value < 10**18:
        return "(a huge number)"
    text = value if isinstance(value, str) else repr(value)
    if len(text) <= limit:
        return text
    half = (limit - 5) // 2
    return f"{text[:half]} ... {text[-half:]}"


def quote(value: object, limit: int = 80) -> str:
    """A name from the program or the world (a key, a file name, a symbol) for a message:
    clipped like :func:`clip`, between backticks, on one line, with every backtick and
    non-printable character (a newline, U+2028) escaped, so that data can never add a line or
    close the quotes (``If you meant ..., use ...`` cannot be forged)."""
    text = clip(value, limit)
    if not text.isprintable() or "`" in text:
        text = "".join(map(_escape_char, text))
    return f"`{text}`"


def _escape_char(c: str) -> str:
    if c == "`":
        return "\\x60"
    return c if c.isprintable() else c.encode("unicode_escape").decode("ascii")


_IDENT_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$")


def format_path(path: JSONPath, root: str = "program") -> str:
    """Format a JSON path json-e style: ``program.findReferences.target[0]``."""
    out = [root]
    if len(path) > 16:
        head = format_path(path[:6], root)
        tail = format_path(path[-6:], "")
        return f"{head}...({len(path) - 12} more)...{tail}"
    for key in path:
        if isinstance(key, int):
            out.append(f"[{key}]")
        elif key and not key[0].isdigit() and all(c in _IDENT_CHARS for c in key):
            out.append(f".{key}")
        else:
            escaped = key.replace("\\", "\\\\").replace('"', '\\"')
            out.append(f'["{escaped}"]')
    return "".join(out)
