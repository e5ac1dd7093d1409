"""Plan2's repairs of the text before YAML reads it: a markdown code fence blanked out, and
quotes around plain values whose ``${...}`` YAML would misread."""

from __future__ import annotations

import re

from dialectic.frontends.fences import find_fence, keep_fenced

__all__ = ["quote_repairs", "strip_code_fence"]


def strip_code_fence(source: str) -> tuple[str, bool]:
    """Blank out a surrounding markdown code fence (and any text outside it), keeping every
    remaining character at its original line, column and offset. Returns (text, stripped)."""
    block = find_fence(source)
    if block is None:
        return source, False
    return keep_fenced(source, block), True


def quote_repairs(source: str) -> tuple[str, list[int], list[int]]:
    """Quote single-line plain values whose ``${...}`` contains ``: `` or `` #`` (which YAML
    would read as a mapping or a comment). Returns the new text, the repaired line numbers and
    the offsets (in the new text) of every inserted character."""
    from dialectic.frontends.plan2.templates import find_expression_end

    pattern = re.compile(r"^(\s*(?:-\s+)*(?:[^\s'\"#:{}\[\],$][^:#{]*?:\s+)?)(\S.*)$")
    block_start = re.compile(r"(?:^|:\s|-\s)\s*[|>][-+0-9]*\s*(?:#.*)?$")
    lines = source.split("\n")
    repaired: list[int] = []
    inserted_at: dict[int, list[int]] = {}  # line index -> inserted columns (in the new line)
    block_indent: int | None = None  # inside a block scalar (| or >) started at this indent
    quote: str | None = None  # inside a quoted scalar that goes on over several lines
    for n, line in enumerate(lines):
        if quote is not None:  # (its lines are the scalar's text: never repaired)
            quote = _still_open(line, quote)
            continue
        indent = len(line) - len(line.lstrip())
        if block_indent is not None:
            if not line.strip() or indent > block_indent:
                continue
            block_indent = None
        if block_start.search(line.rstrip()):
            block_indent = indent
            continue
        m = pattern.match(line)
        if not m:
            continue
        prefix, value = m.group(1), m.group(2)
        if value[0] in "'\"":
            quote = _still_open(value[1:], value[0])
            continue
        if value[0] in "|>&*!" or "${" not in value:
            continue
        end = 0
        risky = False
        i = value.find("${")
        while i >= 0:
            close = find_expression_end(value, i + 2)
            if close < 0:
                break
            inner = value[i : close + 1]
            if ": " in inner or " #" in inner or inner.endswith(":}"):
                risky = True
            end = close + 1
            i = value.find("${", end)
        if not risky:
            continue
        tail = value[end:]
        comment = tail.find(" #")
        body = value if comment < 0 else value[: end + comment]
        rest = "" if comment < 0 else value[end + comment :]
        cols = [len(prefix)]
        col = len(prefix) + 1
        for ch in body:
            col += 1
            if ch == "'":
                cols.append(col)
                col += 1
        cols.append(col)
        lines[n] = prefix + "'" + body.replace("'", "''") + "'" + rest
        inserted_at[n] = cols
        repaired.append(n + 1)
    inserted: list[int] = []
    offset = 0
    for n, line in enumerate(lines):
        inserted.extend(offset + c for c in inserted_at.get(n, ()))
        offset += len(line) + 1
    return "\n".join(lines), repaired, inserted


def _still_open(text: str, quote: str) -> str | None:
    """``quote`` if the quoted scalar it opened is still open at the end of ``text`` (the rest
    of its line), else None. In a single-quoted scalar ``''`` is a quote; in a double-quoted one
    a backslash escapes the next character."""
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if quote == '"' and ch == "\\":
            i += 2
            continue
        if ch == quote:
            if quote == "'" and i + 1 < n and text[i + 1] == "'":
                i += 2
                continue
            return None
        i += 1
    return quote
