"""Front ends: each turns a notation into the canonical call tree (SPEC.md sections 9-11).

``to_tree`` picks the front end from ``lang`` ("json", "plan", "plan2") or, when ``lang`` is None,
from the text: JSON if it starts with ``{``, ``[`` or a fenced ```json block; Plan2 (YAML) if its
first meaningful line is ``name:``; Plan otherwise. A reply with prose around a fenced block is
judged by the block (its language tag, else its first line).
"""

from __future__ import annotations

import re
from typing import Any

from dialectic.frontends.base import FrontEndResult, SourceError, Span
from dialectic.frontends.dialect_json import parse_json
from dialectic.frontends.fences import find_fence, has_text_outside, keep_fenced
from dialectic.outcome.errors import DialecticError, SyntaxProblem

LANGS = ("json", "plan", "plan2")
LANG_ALIASES = {
    "json": "json",
    "dialect": "json",
    "dialect-json": "json",
    "plan": "plan",
    "js": "plan",
    "javascript": "plan",
    "plan2": "plan2",
    "yaml": "plan2",
    "yml": "plan2",
}
EXTENSIONS = {".json": "json", ".js": "plan", ".plan": "plan", ".yaml": "plan2", ".yml": "plan2"}

_YAML_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*\s*:(\s|$)")
_FENCE_LANG = re.compile(r"^\s*```([A-Za-z0-9_-]*)")


def normalize_lang(lang: str) -> str:
    norm = LANG_ALIASES.get(lang.lower()) if isinstance(lang, str) else None
    if norm is None:
        raise DialecticError(
            "unknown_language",
            f"unknown notation {lang!r}",
            hint="Use one of: json (Dialect JSON), plan (the JavaScript subset), plan2 (YAML).",
        )
    return norm


def check_text(text: str) -> None:
    """Refuse text that is not valid Unicode (a lone surrogate), at its line and column."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        line = text.count("\n", 0, exc.start) + 1
        column = exc.start - (text.rfind("\n", 0, exc.start) + 1) + 1
        raise SourceError(
            "text",
            text,
            [
                SyntaxProblem(
                    f"the program contains a lone surrogate (U+{ord(text[exc.start]):04X}), "
                    "which is not valid Unicode text",
                    line,
                    column,
                    hint="Send the program as valid UTF-8; write such characters as escapes.",
                )
            ],
        ) from None


def detect_lang(text: str) -> str:
    fence = _FENCE_LANG.match(text)
    if fence:
        tag = fence.group(1).lower()
        if tag in LANG_ALIASES:
            return LANG_ALIASES[tag]
        text = text[fence.end() :]
    else:
        block = find_fence(text)
        if block is not None and has_text_outside(text, block):
            # a reply with prose around the program: the fenced block decides
            if block.tag in LANG_ALIASES:
                return LANG_ALIASES[block.tag]
            text = keep_fenced(text, block)
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", "//", "```")):
            continue
        if line[0] in '{["' or line[0].isdigit() or line in ("true", "false", "null"):
            return "json"
        if _YAML_KEY.match(line) and not line.rstrip().endswith(";"):
            return "plan2"
        return "plan"
    return "json"


def to_tree(
    program: Any, lang: str | None = None, *, strict: bool = False, **options: Any
) -> FrontEndResult:
    """Run the right front end; parsed JSON (dict, list, ...) is taken as the call tree itself."""
    if isinstance(program, bytes | bytearray | memoryview):
        try:
            program = bytes(program).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise DialecticError(
                "invalid_program", f"the program is not UTF-8 text: {exc}"
            ) from None
    if not isinstance(program, str):
        if lang not in (None, "json"):
            raise DialecticError(
                "invalid_program", f"a {lang} program must be text, got {type(program).__name__}"
            )
        return FrontEndResult(program, "json", None)
    if not program.isascii():
        check_text(program)
    lang = normalize_lang(lang) if lang is not None else detect_lang(program)
    if lang == "json":
        return parse_json(program)
    if lang == "plan":
        from dialectic.frontends.plan import parse_plan

        return parse_plan(program, strict=strict, **options)
    from dialectic.frontends.plan2 import parse_plan2

    return parse_plan2(program, **options)


def compile(program: Any, lang: str | None = None, *, strict: bool = False) -> Any:
    """The call tree of a program in any notation (no registry needed)."""
    return to_tree(program, lang, strict=strict).tree


__all__ = [
    "EXTENSIONS",
    "LANGS",
    "FrontEndResult",
    "SourceError",
    "Span",
    "compile",
    "detect_lang",
    "normalize_lang",
    "to_tree",
]
