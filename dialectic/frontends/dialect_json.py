"""Dialect JSON: the call tree written directly as JSON text."""

from __future__ import annotations

import re

import orjson

from dialectic.frontends.base import FrontEndResult, SourceError
from dialectic.frontends.duplicates import duplicate_key
from dialectic.frontends.fences import (
    find_fence,
    has_text_outside,
    keep_fenced,
    outside_warning,
    rival_json,
    several_programs,
)
from dialectic.frontends.repair import repair_json
from dialectic.outcome.errors import SyntaxProblem

_FENCE = re.compile(r"^\s*```[A-Za-z0-9_-]*[ \t]*\r?\n(.*?)\r?\n?```\s*$", re.S)


def strip_fence(source: str) -> tuple[str, bool]:
    """Remove one surrounding markdown code fence (```json ... ```)."""
    m = _FENCE.match(source)
    if m is None:
        return source, False
    return m.group(1), True


def _fenced_in_strict_mode(source: str) -> SourceError:
    """Strict mode reads exactly one JSON value: a markdown fence (or a reply's prose around
    one) is refused, as the Plan and Plan2 front ends refuse it."""
    return SourceError(
        "json",
        source,
        [
            SyntaxProblem(
                "the program is wrapped in a markdown code fence (```)",
                1,
                1,
                hint="send only the JSON value, without ``` lines or text around it",
            )
        ],
    )


def parse_json(source: str, *, strict: bool = False) -> FrontEndResult:
    """Read a Dialect JSON program. Text that is not JSON as written is repaired in lenient mode
    (comments, trailing commas, single quotes, unquoted keys, Python literals; one warning per
    kind; a markdown fence and a reply's prose around it) and refused with what to write instead
    in strict mode (:mod:`.repair`)."""
    text, fenced = strip_fence(source)
    warnings = []
    if fenced and strict:
        raise _fenced_in_strict_mode(source)
    if fenced:
        warnings.append("line 1, column 1: removed the markdown code fence around the program")
    # the block's first line: after the fence's line (and any blank lines before it)
    line_offset = source[: len(source) - len(source.lstrip())].count("\n") + 1 if fenced else 0
    try:
        try:
            tree = orjson.loads(text)
        except orjson.JSONDecodeError:
            # a reply with prose around a fenced block: the program is the block
            block = None if fenced else find_fence(source)
            if block is None or not has_text_outside(source, block):
                raise
            if strict:
                raise _fenced_in_strict_mode(source) from None
            warnings.append(outside_warning(source, block))
            text = keep_fenced(source, block)
            tree = orjson.loads(text)
            rivals = rival_json(source, block, tree)
            if rivals:
                raise several_programs("json", source, rivals)
    except orjson.JSONDecodeError as exc:
        repaired = repair_json(text, source, strict=strict, line_offset=line_offset)
        if repaired is not None:
            tree, more = repaired
            return FrontEndResult(tree, "json", source, {}, warnings + more)
        line, col = exc.lineno + line_offset, exc.colno
        msg = exc.msg
        hint = 'A Dialect JSON program is one JSON value, e.g. {"f": {"x": 1}}.'
        if "depth" in msg:
            hint = "The program is nested too deeply."
        elif "trailing comma" in msg:
            hint = "JSON allows no comma before } or ]."
        elif "Expecting property name" in msg or "key must be a string" in msg:
            hint = "JSON object keys are double-quoted strings."
        raise SourceError(
            "json", source, [SyntaxProblem(f"invalid JSON: {msg}", line, col, hint=hint)]
        ) from None
    problem = duplicate_key(text, tree)
    if problem is not None:
        problem.line += line_offset
        raise SourceError("json", source, [problem])
    return FrontEndResult(tree, "json", source, {}, warnings)
