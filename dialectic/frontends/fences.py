"""Markdown code fences in a model's reply: find the fenced block, and blank out everything
outside it so that every kept character stays at its line, column and offset."""

from __future__ import annotations

import re
from typing import NamedTuple

import orjson

from dialectic.frontends.base import SourceError
from dialectic.outcome.errors import SyntaxProblem

# an opening fence may carry an info string (```yaml title="plan"); its first word is the tag
_OPEN = re.compile(r"[ \t]*(```|~~~)[ \t]*([A-Za-z0-9_+-]*)[^`\n]*\r?\Z")
_CLOSE = re.compile(r"[ \t]*(```|~~~)[ \t]*\r?\Z")


class Fence(NamedTuple):
    tag: str  # the language after the opening fence (``js``, ``json``, ``yaml``), or ""
    open_line: int  # 0-based line of the opening fence
    close_line: int | None  # 0-based line of the closing fence (None: never closed)


def find_fence(text: str) -> Fence | None:
    """The first fenced block of ``text`` (a line of ``` or ~~~, optionally with a language)."""
    if "```" not in text and "~~~" not in text:
        return None
    lines = text.split("\n")
    for i, line in enumerate(lines):
        opening = _OPEN.match(line)
        if opening is None:
            continue
        for j in range(i + 1, len(lines)):
            closing = _CLOSE.match(lines[j])
            if closing is not None and closing.group(1) == opening.group(1):
                return Fence(opening.group(2).lower(), i, j)
        return Fence(opening.group(2).lower(), i, None)
    return None


def has_text_outside(text: str, fence: Fence) -> bool:
    """Whether anything but blank lines lies before the opening or after the closing fence."""
    lines = text.split("\n")
    end = fence.close_line if fence.close_line is not None else len(lines)
    outside = lines[: fence.open_line] + lines[end + 1 :]
    return any(line.strip() for line in outside)


def keep_fenced(text: str, fence: Fence) -> str:
    """``text`` with every line outside the block (the fence lines too) blanked to spaces."""
    lines = text.split("\n")
    end = fence.close_line if fence.close_line is not None else len(lines)
    out = []
    for i, line in enumerate(lines):
        if fence.open_line < i < end:
            out.append(line)
        else:
            body = line[:-1] if line.endswith("\r") else line
            out.append(" " * len(body) + line[len(body) :])
    return "\n".join(out)


def outside_warning(text: str, fence: Fence) -> str:
    """The warning for a reply whose code was taken from its fenced block."""
    lines = text.split("\n")
    end = fence.close_line if fence.close_line is not None else len(lines) - 1
    warning = (
        f"line {fence.open_line + 1}: took the program from the markdown code fence on lines "
        f"{fence.open_line + 1}-{end + 1} and ignored the text around it"
    )
    if fence.close_line is not None:  # a later block is code too: say that it did not run
        for k in range(fence.close_line + 1, len(lines)):
            if _OPEN.match(lines[k]):
                return (
                    f"{warning}, including the fenced block at line {k + 1} (only the first runs)"
                )
    return warning


def fenced_codes(text: str, fences: list[Fence]) -> list[str]:
    """The lines inside each of ``fences`` (alone: reading them costs their length, not the
    text's; the text is split once)."""
    lines = text.split("\n")
    out = []
    for fence in fences:
        end = fence.close_line if fence.close_line is not None else len(lines)
        out.append("\n".join(lines[fence.open_line + 1 : end]))
    return out


def later_fences(text: str, first: Fence) -> list[Fence]:
    """The fenced blocks after ``first`` (one pass over the lines; a block never closed runs to
    the end)."""
    if first.close_line is None:
        return []
    lines = text.split("\n")
    out: list[Fence] = []
    i = first.close_line + 1
    while i < len(lines):
        opening = _OPEN.match(lines[i])
        if opening is None:
            i += 1
            continue
        close = None
        for j in range(i + 1, len(lines)):
            closing = _CLOSE.match(lines[j])
            if closing is not None and closing.group(1) == opening.group(1):
                close = j
                break
        out.append(Fence(opening.group(2).lower(), i, close))
        if close is None:
            break
        i = close + 1
    return out


#: the tags of a fenced block that may hold a Dialect JSON program
JSON_TAGS = frozenset(["", "json", "jsonc", "json5", "dialect", "dialect-json"])


def rival_json(source: str, first: Fence, tree: object) -> list[Fence]:
    """``first`` and the later fenced JSON blocks of ``source`` whose value differs from
    ``tree`` (``first``'s), or [] if there are none."""
    rivals = [first]
    later = [b for b in later_fences(source, first) if b.tag in JSON_TAGS]
    for block, code in zip(later, fenced_codes(source, later), strict=True):
        try:
            other = orjson.loads(code)
        except orjson.JSONDecodeError:
            continue
        if other != tree:
            rivals.append(block)
    return rivals if len(rivals) > 1 else []


def several_programs(lang: str, source: str, blocks: list[Fence]) -> SourceError:
    """The failure for a reply whose fenced blocks hold different programs of one notation:
    which is meant cannot be known, so none runs; ``details.readings`` has each block's text."""
    readings = []
    lines = source.count("\n") + 1
    for block, code in zip(blocks, fenced_codes(source, blocks), strict=True):
        end = block.close_line if block.close_line is not None else lines
        first = block.open_line + 2
        where = f"line {first}" if first >= end else f"lines {first}-{end}"
        readings.append({"description": f"the fenced block on {where}", "program": code})
    second = blocks[1].open_line + 1
    error = SourceError(
        lang,
        source,
        [
            SyntaxProblem(
                f"the reply holds {len(blocks)} fenced blocks, each a different program; which "
                "one is meant cannot be known, so none runs",
                second,
                1,
                hint="Send one program (details.readings has each block as a program).",
            )
        ],
    )
    error.details["readings"] = readings
    return error
