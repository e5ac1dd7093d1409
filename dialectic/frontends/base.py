"""What every front end produces: the call tree, a source map and warnings."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from dialectic.outcome.errors import DialecticError, JSONPath, SyntaxProblem


@dataclass(frozen=True, slots=True)
class Span:
    """A region of source text: 1-based line/column of start and end, and 0-based offsets."""

    line: int
    column: int
    end_line: int
    end_column: int
    start: int
    end: int


@dataclass
class FrontEndResult:
    """A compiled source: ``tree`` is the canonical call tree (plain JSON).

    ``spans`` maps a path in ``tree`` (a tuple of keys and indexes) to the source region the node
    came from; the runtime uses it to report errors at line:column and to write suggestions back
    into the original notation. ``warnings`` are repairs made in lenient mode, with locations.
    """

    tree: Any
    lang: str
    source: str | None = None
    spans: dict[JSONPath, Span] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


#: a syntax error reports at most this many problems (the first ones); the count says how many
MAX_PROBLEMS = 20


@lru_cache(maxsize=4)
def source_lines(source: str) -> tuple[str, ...]:
    """The lines of ``source`` (``str.splitlines``), split once per text however many carets
    are drawn in it (splitting per caret made many problems cost quadratic time)."""
    return tuple(source.splitlines()) or ("",)


def render_snippet(source: str, line: int, column: int, width: int = 1) -> str:
    """The source line at ``line`` with a caret under ``column`` (both 1-based)."""
    lines = source_lines(source)
    if line < 1 or line > len(lines):
        return ""
    text = lines[line - 1].expandtabs(1)
    if not text.isascii():  # a lone surrogate cannot be shown: U+FFFD, one for one
        text = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    if len(text) > 160:  # keep a window around the column
        start = max(0, column - 80)
        text = ("..." if start else "") + text[start : start + 160]
        column = column - start + (3 if start else 0)
    caret = " " * max(column - 1, 0) + "^" * max(width, 1)
    return f"    {text}\n    {caret}"


class SourceError(DialecticError):
    """One or more syntax errors in a source text, each with line:column and a caret.

    Only the first :data:`MAX_PROBLEMS` problems are kept (``problems``); ``count`` is how many
    there were, so a text with 100,000 errors gives a small outcome."""

    def __init__(self, lang: str, source: str, problems: list[SyntaxProblem]) -> None:
        count = len(problems)
        problems = problems[:MAX_PROBLEMS]
        first = problems[0]
        limit = first.limit
        details: dict[str, Any] = {"lang": lang, "count": count} if count > 1 else {"lang": lang}
        if limit is not None:  # the first problem is a limit (`max_depth`) a parser enforces:
            # `limit_exceeded`, as the same limit found on the tree is
            details["limit"] = limit
        super().__init__(
            "syntax_error" if limit is None else "limit_exceeded",
            first.message,
            (),
            hint=first.hint,
            details=details,
        )
        self.lang = lang
        self.source = source
        self.problems = problems
        self.count = count

    def render(self) -> str:
        parts = []
        count = self.count
        if count > len(self.problems):
            parts.append(
                f"{count} syntax errors in the {self.lang} program; the first {len(self.problems)}:"
            )
        elif count > 1:
            parts.append(f"{count} syntax errors in the {self.lang} program:")
        for p in self.problems:
            parts.append(f"line {p.line}, column {p.column}: {p.message}")
            snippet = render_snippet(self.source, p.line, p.column)
            if snippet:
                parts.append(snippet)
            if p.hint:
                parts.append(f"    hint: {p.hint}")
        return "\n".join(parts)

    def __str__(self) -> str:
        return self.render()
