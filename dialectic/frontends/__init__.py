"""Front ends: each turns a notation into the canonical call tree (SPEC.md sections 9-11).

``to_tree`` picks the front end from ``lang`` ("json", "plan", "plan2") or, when ``lang`` is None,
from the text: JSON if it starts with ``{``, ``[`` or a fenced ```json block; Plan2 (YAML) if its
first meaningful line is ``name:``; Plan otherwise. A reply with prose around a fenced block is
judged by the block (its language tag, else its first line). Text whose first line is
``1. name(`` is an LLMCompiler plan, and JSON in a model's tool-call shape is read as the calls
it names (:mod:`.envelopes`, SPEC.md section 9).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from typing import Any

from dialectic.frontends.base import FrontEndResult, SourceError, Span
from dialectic.frontends.dialect_json import parse_json
from dialectic.frontends.envelopes import looks_like_llmcompiler, parse_llmcompiler, read_envelope
from dialectic.frontends.fences import find_fence, has_text_outside, keep_fenced
from dialectic.limits import Limits
from dialectic.outcome.errors import DialecticError, LimitExceeded, SyntaxProblem
from dialectic.run.preparing import utf8_length

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
        if line[0] in '{["0123456789' or line in ("true", "false", "null"):
            return "json"
        if _YAML_KEY.match(line) and not line.rstrip().endswith(";"):
            return "plan2"
        return "plan"
    return "json"


def _too_large(limit: int) -> LimitExceeded:
    return LimitExceeded("max_program_bytes", f"the program is larger than {limit} bytes")


def to_tree(
    program: Any,
    lang: str | None = None,
    *,
    strict: bool = False,
    limits: Limits | None = None,
    functions: Collection[str] | None = None,
    **options: Any,
) -> FrontEndResult:
    """Run the right front end; parsed JSON (dict, list, ...) is taken as the call tree itself.

    ``limits`` (the runtime's) bound the parsers: a text (or its bytes) larger than
    ``max_program_bytes`` is refused before any of it is read (``limit_exceeded``); Plan and
    Plan2 accept at most ``max_depth`` levels of nesting (a method chain counts one level per
    call), and Plan2 stops reading a document with far more values than ``max_nodes``; without
    limits, the defaults.

    A program in a model's answer shape (an OpenAI or Anthropic tool call, a TypeChat program, a
    NESTFUL sequence, an LLMCompiler plan) is read as the call tree it stands for, with a warning
    (:mod:`.envelopes`); ``functions``, the registered function names, tells the shape that has
    no marker (``{"name", "arguments"}``) from data (None: the shape alone decides)."""
    if type(program) is not str:  # (text, the common case, tested first)
        if isinstance(program, bytes | bytearray | memoryview):
            data = bytes(program)
            if limits is not None and len(data) > limits.max_program_bytes:  # (before decoding)
                raise _too_large(limits.max_program_bytes)
            try:
                program = data.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise DialecticError(
                    "invalid_program", f"the program is not UTF-8 text: {exc}"
                ) from None
        if not isinstance(program, str):
            if lang not in (None, "json"):
                raise DialecticError(
                    "invalid_program",
                    f"a {lang} program must be text, got {type(program).__name__}",
                )
            return _enveloped(FrontEndResult(program, "json", None), functions, strict)
    elif (
        limits is not None
        and len(program) * 4 > limits.max_program_bytes  # (4 bytes a character at most)
        and utf8_length(program) > limits.max_program_bytes
    ):  # (before the text is read: the lexer, the fence and shape tests read all of it)
        raise _too_large(limits.max_program_bytes)
    if not program.isascii():
        check_text(program)
    if lang is not None:
        lang = LANG_ALIASES[lang] if lang in LANGS else normalize_lang(lang)
    if lang in (None, "json", "plan") and looks_like_llmcompiler(program):
        return parse_llmcompiler(program)  # `1. f(x=1)` is neither JSON nor Plan
    lang = lang or detect_lang(program)
    if lang == "json":
        # (its depth is checked with the tree's, before compiling)
        return _enveloped(parse_json(program, strict=strict), functions, strict)
    # (a run's limits also bound the reading as it goes: the nodes of each statement, and the
    # deadline; `compile` without them reads as before, its loops bounded by the defaults)
    bounded = limits is not None
    if limits is None:
        limits = Limits()  # the defaults: a front end is never unbounded
    deadline = limits.deadline if bounded else None
    if lang == "plan" and not options:  # (the common call, without building keywords)
        return _plan_parser()(
            program,
            strict=strict,
            max_depth=limits.max_depth,
            max_nodes=limits.max_nodes,
            deadline=deadline,
            counted=bounded,
        )
    options.setdefault("max_depth", limits.max_depth)
    options.setdefault("max_nodes", limits.max_nodes)
    options.setdefault("deadline", deadline)
    options.setdefault("counted", bounded)
    if lang == "plan":
        return _plan_parser()(program, strict=strict, **options)
    from dialectic.frontends.plan2 import parse_plan2

    return parse_plan2(program, strict=strict, **options)


_PARSE_PLAN: list[Callable[..., FrontEndResult]] = []


def _plan_parser() -> Callable[..., FrontEndResult]:
    """``parse_plan``, imported on first use (an import statement in ``to_tree`` would cost
    each call more than the rest of its own work)."""
    if not _PARSE_PLAN:
        from dialectic.frontends.plan import parse_plan

        _PARSE_PLAN.append(parse_plan)
    return _PARSE_PLAN[0]


def _enveloped(
    front: FrontEndResult, functions: Collection[str] | None, strict: bool
) -> FrontEndResult:
    """``front``, or the call tree its program stands for when it is an envelope."""
    found = read_envelope(front.tree, functions=functions, strict=strict)
    if found is None:
        return front
    tree, warnings = found
    return FrontEndResult(tree, "json", front.source, {}, [*front.warnings, *warnings])


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
