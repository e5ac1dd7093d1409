"""Offsets to line:column, and the source map (tree path -> Span) of a parsed Plan."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterator
from typing import Any

from dialectic.frontends.base import Span
from dialectic.outcome.errors import JSONPath

__all__ = ["LazySpans", "LineIndex", "SpanRecord", "build_spans"]

# The same line breaks as str.splitlines (which render_snippet uses), so carets line up.
_LINE_BREAK = re.compile("\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")


class SpanRecord(dict[tuple[int, str | int], tuple[int, int]]):
    """``(id(container), key) -> (start, end)``: the span of the value stored at
    ``container[key]``, written ``rec[(rec.pin(container), key)] = ...``. Each container whose
    id is a key is kept alive while the record is: a container dropped while parsing (a
    rewrite's first try) would free its id for a new one, which would then take its spans (an
    error pointing at another place)."""

    __slots__ = ("kept",)

    def __init__(self) -> None:
        super().__init__()
        self.kept: list[Any] = []

    def pin(self, container: Any) -> int:
        """``id(container)``, the container kept alive as long as the record."""
        self.kept.append(container)
        return id(container)


class LineIndex:
    """Maps 0-based offsets in a text to 1-based line/column (and outer offsets).

    ``line``/``column``/``offset`` say where the text starts in an outer document.
    """

    __slots__ = ("_column", "_line", "_offset", "_starts_list", "_text")

    def __init__(self, text: str, line: int = 1, column: int = 1, offset: int = 0) -> None:
        self._text = text
        self._starts_list: list[int] | None = None
        self._line = line
        self._column = column
        self._offset = offset

    @property
    def _starts(self) -> list[int]:
        if self._starts_list is None:
            self._starts_list = [0]
            self._starts_list.extend(m.end() for m in _LINE_BREAK.finditer(self._text))
        return self._starts_list

    def position(self, offset: int) -> tuple[int, int]:
        """(line, column) of ``offset``."""
        i = bisect_right(self._starts, offset) - 1
        column = offset - self._starts[i] + 1
        if i == 0:
            column += self._column - 1
        return i + self._line, column

    def span(self, start: int, end: int) -> Span:
        line, column = self.position(start)
        end_line, end_column = self.position(end)
        return Span(line, column, end_line, end_column, start + self._offset, end + self._offset)

    def where(self, offset: int) -> str:
        line, column = self.position(offset)
        return f"line {line}, column {column}"


def build_spans(
    tree: Any,
    record: SpanRecord,
    root: tuple[int, int],
    index: LineIndex,
    extra: dict[JSONPath, tuple[int, int]] | None = None,
) -> dict[JSONPath, Span]:
    """Walk ``tree`` and turn the identity-keyed ``record`` into path-keyed spans."""
    offsets: dict[JSONPath, tuple[int, int]] = {(): root}
    stack: list[tuple[Any, JSONPath]] = [(tree, ())] if type(tree) in (dict, list) else []
    get = record.get
    while stack:
        node, path = stack.pop()
        node_id = id(node)
        items = node.items() if type(node) is dict else enumerate(node)
        for key, value in items:
            where = get((node_id, key))
            if where is not None:
                child = (*path, key)
                offsets[child] = where
                if type(value) is dict or type(value) is list:
                    stack.append((value, child))
            elif type(value) is dict or type(value) is list:
                stack.append((value, (*path, key)))
    if extra:
        offsets.update(extra)
    span = index.span
    text = index._text
    return {
        path: span(_past_await(text, start, end), end) for path, (start, end) in offsets.items()
    }


_AWAIT = re.compile(r"(?:await\s+)+")


def _past_await(text: str, start: int, end: int) -> int:
    """Where an expression's span starts: past any leading ``await`` (which changes nothing in
    a Plan), so that an error points at what is awaited (``await searchFlights(...)``: at
    ``searchFlights``)."""
    if text.startswith("await", start):
        m = _AWAIT.match(text, start, end)
        if m is not None and m.end() < end:
            return m.end()
    return start


class LazySpans(dict[JSONPath, Span]):
    """A ``dict`` of spans that is filled on first use by calling ``factory`` (the Plan front end
    parses once more, recording positions, only when somebody reads the source map). After the
    first read it is an ordinary dict."""

    __slots__ = ("_factory",)

    def __init__(self, factory: Callable[[], dict[JSONPath, Span]]) -> None:
        # (no ``dict.__init__``: the dict is made empty, and stays so until filled)
        self._factory: Callable[[], dict[JSONPath, Span]] | None = factory

    def _fill(self) -> None:
        factory = self._factory
        if factory is not None:
            self._factory = None
            dict.update(self, factory())

    def __getitem__(self, key: JSONPath) -> Span:
        self._fill()
        return dict.__getitem__(self, key)

    def __contains__(self, key: object) -> bool:
        self._fill()
        return dict.__contains__(self, key)

    def __iter__(self) -> Iterator[JSONPath]:
        self._fill()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self._fill()
        return dict.__len__(self)

    def __eq__(self, other: object) -> bool:
        self._fill()
        return dict.__eq__(self, other)

    __hash__ = None

    def __repr__(self) -> str:
        self._fill()
        return dict.__repr__(self)

    def get(self, key: JSONPath, default: Any = None) -> Any:
        self._fill()
        return dict.get(self, key, default)

    def keys(self) -> Any:
        self._fill()
        return dict.keys(self)

    def values(self) -> Any:
        self._fill()
        return dict.values(self)

    def items(self) -> Any:
        self._fill()
        return dict.items(self)

    def copy(self) -> dict[JSONPath, Span]:
        self._fill()
        return dict(dict.items(self))

    def __or__(self, other: Any) -> Any:
        self._fill()
        return dict.__or__(self, other)

    def __reduce__(self) -> Any:
        self._fill()
        return (dict, (dict(dict.items(self)),))

    def __setitem__(self, key: JSONPath, value: Span) -> None:
        self._fill()
        dict.__setitem__(self, key, value)

    def __delitem__(self, key: JSONPath) -> None:
        self._fill()
        dict.__delitem__(self, key)

    def pop(self, key: JSONPath, *default: Any) -> Any:
        self._fill()
        return dict.pop(self, key, *default)

    def setdefault(self, key: JSONPath, default: Any = None) -> Any:
        self._fill()
        return dict.setdefault(self, key, default)

    def update(self, *args: Any, **kwargs: Any) -> None:
        self._fill()
        dict.update(self, *args, **kwargs)
