"""The Plan front end: a small subset of JavaScript, parsed by hand into the call tree.

- :func:`parse_plan` parses a whole program (aliases, then ``return``/``use``);
- :func:`parse_expression` parses one expression (Plan2's ``${...}``);
- :func:`decompile` / :func:`decompile_expression` write a call tree back as Plan text;
- :func:`js_number_to_string` is JavaScript's ``String(number)``.

The grammar, the mapping to the call tree and the lenient repairs are in SPEC.md, section 10.
"""

from __future__ import annotations

import re
from functools import partial
from typing import Any

from dialectic.frontends.base import FrontEndResult, SourceError, Span
from dialectic.frontends.budget import Clock
from dialectic.frontends.fences import (
    Fence,
    fenced_codes,
    find_fence,
    has_text_outside,
    keep_fenced,
    later_fences,
    outside_warning,
    several_programs,
)
from dialectic.frontends.plan.constsets import const_sets
from dialectic.frontends.plan.decompile import DecompileError, decompile, decompile_expression
from dialectic.frontends.plan.jsnumber import js_number_to_string
from dialectic.frontends.plan.lexer import Lexed, lex
from dialectic.frontends.plan.parser import ParseFailure, Parser, Problem
from dialectic.frontends.plan.reading import _attempt, _read, _read_too_long
from dialectic.frontends.plan.spans import LazySpans, LineIndex, build_spans
from dialectic.outcome.errors import JSONPath, SyntaxProblem

__all__ = [
    "parse_plan",
    "parse_expression",
    "decompile",
    "decompile_expression",
    "DecompileError",
    "js_number_to_string",
    "MAX_SOURCE_LENGTH",
]

LANG = "plan"
MAX_SOURCE_LENGTH = 1_000_000  # characters

_SURROGATE = re.compile("[\ud800-\udfff]")
_FENCE_OPEN = re.compile(r"\A[ \t\r\n]*(```[ \t]*[A-Za-z0-9_+-]*[ \t]*)(?:\r\n|\n|\r)")
_FENCE_CLOSE = re.compile(r"(?:\r\n|\n|\r)[ \t]*(```)[ \t\r\n]*\Z")


def _problems(
    index: LineIndex, problems: list[Problem], limit: str | None = None
) -> list[SyntaxProblem]:
    """The problems located; ``limit``: the limit the first one breaches, if any."""
    out = []
    for message, offset, hint in problems:
        line, column = index.position(offset)
        out.append(SyntaxProblem(message, line, column, hint=hint, offset=offset))
    if out and limit is not None:
        out[0].limit = limit
    return out


def _const_sets(text: str, parser: Parser) -> None:
    """Each problem (a breached limit aside) at a statement that sets a name declared with
    ``const`` says so (:mod:`.constsets`: JavaScript throws there too)."""
    limited = parser.limited[0] if parser.limited is not None else None
    problems = parser.problems
    found = const_sets(text, [problem[1] for problem in problems])
    for k, (problem, instead) in enumerate(zip(problems, found, strict=True)):
        if instead is not None and problem is not limited and "`const`" not in problem[0]:
            problems[k] = instead


def _limit(parser: Parser) -> str | None:
    """The limit the program breaches, if its first problem is one (then the error is
    ``limit_exceeded``, as the same limit found on the tree is)."""
    limited = parser.limited
    return limited[1] if limited is not None and parser.problems[0] is limited[0] else None


def _blank(text: str, start: int, end: int) -> str:
    return text[:start] + " " * (end - start) + text[end:]


def _strip_fence(
    source: str, strict: bool, index: LineIndex
) -> tuple[str, list[str], Problem | None]:
    """Blank out a markdown code fence around the program (offsets stay the same)."""
    opening = _FENCE_OPEN.match(source)
    if opening is None:
        return source, [], None
    if strict:
        return (
            source,
            [],
            (
                "the program is wrapped in a markdown code fence (```)",
                opening.start(1),
                "send only the Plan code, without ``` lines",
            ),
        )
    text = _blank(source, opening.start(1), opening.end(1))
    warnings = [
        f"{index.where(opening.start(1))}: removed the markdown code fence line "
        f"{opening.group(1).strip()}"
    ]
    closing = _FENCE_CLOSE.search(text)
    if closing is not None:
        text = _blank(text, closing.start(1), closing.end(1))
        warnings.append(f"{index.where(closing.start(1))}: removed the closing code fence line ```")
    return text, warnings, None


def _too_large(source: str, lang: str, limit: int) -> SourceError:
    return SourceError(
        lang,
        "",
        [
            SyntaxProblem(
                f"the program is too large ({len(source)} characters; the limit is {limit})",
                1,
                1,
                hint="split the work into smaller programs",
            )
        ],
    )


#: the tags of a fenced block that may hold a Plan program
_PLAN_TAGS = frozenset(["", "js", "javascript", "plan", "ts", "typescript", "mjs", "jsx"])


def _one_program(
    source: str, first: Fence, tree: Any, max_depth: int, max_nodes: int | None
) -> None:
    """Raise when a later fenced block of the reply holds another Plan program than ``first``
    (``tree``): which one is meant cannot be known (SPEC 10, "Strict and lenient modes")."""
    rivals = [first]
    later = [b for b in later_fences(source, first) if b.tag in _PLAN_TAGS]
    for block, code in zip(later, fenced_codes(source, later), strict=True):
        _, _, parser, other = _attempt(
            code, LineIndex(code), False, max_depth, [], None, False, max_nodes
        )
        if not parser.problems and other != tree:
            rivals.append(block)
    if len(rivals) > 1:
        raise several_programs(LANG, source, rivals)


def parse_plan(
    source: str,
    *,
    strict: bool = False,
    max_depth: int = 100,
    max_length: int = MAX_SOURCE_LENGTH,
    max_nodes: int | None = None,
    deadline: float | None = None,
    counted: bool = False,
) -> FrontEndResult:
    """Parse a Plan program into the canonical call tree.

    Returns a :class:`FrontEndResult` (``lang="plan"``) whose ``spans`` map every tree path
    of a call, reference, member access, literal and alias value to its source region, plus
    ``("$let", name, "$name")`` for the name of each alias definition; ``warnings`` lists each
    lenient repair (``line 3, column 1: ...``). The spans are computed when first read (a
    second parse that records positions), so a parse whose source map is never needed does not
    pay for it; after that ``spans`` is an ordinary dict. Raises :class:`SourceError` (one
    problem per independent error) for anything it cannot read. ``strict=True`` accepts only
    canonical Plan, which is also valid JavaScript inside ``async function plan() { ... }``
    (``use`` aside). ``deadline`` (seconds) and, with ``counted``, ``max_nodes`` bound the
    reading as it goes (:mod:`dialectic.frontends.budget`: the nodes of each statement): past
    either, a ``limit_exceeded`` problem where the reading stopped.
    """
    if len(source) > max_length:
        raise _too_large(source, LANG, max_length)
    index = LineIndex(source)
    surrogate = None if source.isascii() else _SURROGATE.search(source)
    if surrogate is not None:
        line, column = index.position(surrogate.start())
        raise SourceError(
            LANG,
            source,
            [
                SyntaxProblem(
                    "the program contains a lone UTF-16 surrogate, which is not valid Unicode text",
                    line,
                    column,
                    hint="write the character itself or an escape such as \\u{1F600}",
                    offset=surrogate.start(),
                )
            ],
        )
    if "```" in source:
        text, warnings, fence_problem = _strip_fence(source, strict, index)
    else:  # (no fence: the common case, without the fence regexes)
        text, warnings, fence_problem = source, [], None
    clock = None if deadline is None else Clock(deadline)
    text, tokens, parser, tree = _read(
        text, index, strict, max_depth, warnings, fence_problem, max_nodes, clock, counted
    )
    if parser.problems and not strict and not _read_too_long(parser):
        # a reply with prose around a fenced block: the program is the block
        fence = find_fence(source)
        if fence is not None and has_text_outside(source, fence):
            text = keep_fenced(source, fence)
            outside = [outside_warning(source, fence)]
            text, tokens, parser, tree = _read(
                text, index, strict, max_depth, outside, fence_problem, max_nodes, clock, counted
            )
            if not parser.problems:
                _one_program(source, fence, tree, max_depth, max_nodes)
    if parser.problems:
        _const_sets(text, parser)
        parser.problems.sort(key=lambda p: p[1])
        raise SourceError(LANG, source, _problems(index, parser.problems, _limit(parser)))
    spans = partial(_spans, text, tokens, index, strict, max_depth)
    return FrontEndResult(tree, LANG, source, LazySpans(spans), parser.warnings)


def _spans(
    text: str, tokens: Lexed, index: LineIndex, strict: bool, max_depth: int
) -> dict[JSONPath, Span]:
    """The source map of a parsed program: a second parse that records positions (it cannot
    fail: the first one did not)."""
    starts, ends = tokens.offsets()
    root = (starts[0], ends[-2]) if len(starts) > 1 else (0, 0)
    again = Parser(text, tokens, index, strict=strict, max_depth=max_depth, record=True)
    if "forEach" in tokens.values:  # (also one :mod:`.callbackloop` wrote: not in the text)
        again._for_each_written = True
    try:
        again_tree = again.program()
    except RecursionError:  # called from deeper in a stack than the first parse
        return {(): index.span(*root)}
    assert again.rec is not None
    return build_spans(again_tree, again.rec, root, index, again.extra)


def parse_expression(
    text: str,
    *,
    line: int = 1,
    column: int = 1,
    offset: int = 0,
    max_depth: int = 100,
    formats: frozenset[str] = frozenset(),
) -> tuple[Any, dict[JSONPath, Span]]:
    """Parse one Plan expression (e.g. the inside of Plan2's ``${...}``).

    ``formats``: names the document outside ``text`` binds to an ``Intl.NumberFormat`` (Plan2's
    aliases), whose ``format`` is then the method.

    ``line``/``column``/``offset`` say where ``text`` starts in an outer document: spans and
    the problems of a :class:`SourceError` are in that document's coordinates. The error's
    ``source`` is ``text`` padded to those coordinates; a caller holding the whole document can
    re-raise ``SourceError(lang, document, err.problems)`` for a full snippet.
    """
    index = LineIndex(text, line, column, offset)
    if len(text) > MAX_SOURCE_LENGTH:
        raise _too_large(text, LANG, MAX_SOURCE_LENGTH)
    if _SURROGATE.search(text):
        raise SourceError(
            LANG,
            text,
            [SyntaxProblem("the expression contains a lone UTF-16 surrogate", line, column)],
        )
    tokens = lex(text)
    parser = Parser(text, tokens, index, strict=True, max_depth=max_depth)
    if formats:
        parser._formats = formats
    tree: Any = None
    try:
        if tokens.kinds[0] == "eof":
            raise ParseFailure(
                "expected an expression, found nothing",
                parser.starts[0],
                "write an expression such as name, f(x) or 'text'",
            )
        tree = parser.expr(0)
        if tokens.kinds[parser.pos] != "eof":
            raise parser.unexpected(parser.tok(parser.pos), "the end of the expression")
        parser.loose_sets_as_values()
    except ParseFailure as failure:
        parser.problems.append(failure.problem)
        if failure.limit is not None:
            parser.limited = (failure.problem, failure.limit)
    except RecursionError:
        parser.problems.append(("the expression is nested too deeply", 0, None))
        parser.limited = (parser.problems[-1], "max_depth")
    if parser.problems:
        problems = _problems(index, parser.problems, _limit(parser))
        padded = "\n" * (line - 1) + " " * (column - 1) + text
        for p in problems:
            p.offset += offset
        raise SourceError(LANG, padded, problems)
    assert parser.rec is not None
    root = (parser.starts[0], parser.ends[-2])
    return tree, build_spans(tree, parser.rec, root, index)
