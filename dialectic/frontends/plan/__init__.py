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
from dialectic.frontends.plan.arrayvalues import array_values
from dialectic.frontends.plan.asi import insert_semicolons
from dialectic.frontends.plan.callbackloop import callback_loops
from dialectic.frontends.plan.chains import change_chains
from dialectic.frontends.plan.choices import choice_statements
from dialectic.frontends.plan.console import may_log, unlog
from dialectic.frontends.plan.dateversions import date_versions
from dialectic.frontends.plan.decompile import DecompileError, decompile, decompile_expression
from dialectic.frontends.plan.errortext import (
    plain_throw,
    reason_problem,
    reasons_as_text,
    thrown_problem,
)
from dialectic.frontends.plan.jsnumber import js_number_to_string
from dialectic.frontends.plan.letbranch import branch_lets, for_awaits
from dialectic.frontends.plan.letpush import let_pushes
from dialectic.frontends.plan.lexer import Lexed, lex
from dialectic.frontends.plan.looplocals import loop_locals
from dialectic.frontends.plan.mappush import map_pushes
from dialectic.frontends.plan.maprecords import map_record_changes
from dialectic.frontends.plan.memberpush import member_pushes
from dialectic.frontends.plan.parensets import split_parenthesized
from dialectic.frontends.plan.parser import ParseFailure, Parser, Problem
from dialectic.frontends.plan.recordfields import record_changes
from dialectic.frontends.plan.reduceloop import reduce_loops
from dialectic.frontends.plan.spans import LazySpans, LineIndex, build_spans
from dialectic.frontends.plan.stepvalues import step_values
from dialectic.frontends.plan.trycatch import may_try, untry
from dialectic.frontends.plan.unshift import unshifts
from dialectic.frontends.plan.worklist import worklists
from dialectic.frontends.plan.wrappers import may_be_wrapped, unwrap
from dialectic.frontends.plan.writeback import write_backs
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


def _attempt(
    text: str,
    index: LineIndex,
    strict: bool,
    max_depth: int,
    warnings: list[str],
    fence_problem: Problem | None,
    states: bool = False,
    max_nodes: int | None = None,
    clock: Clock | None = None,
    counted: bool = False,
) -> tuple[str, Lexed, Parser, Any]:
    """Lex and parse ``text``: the text parsed (a wrapper blanked, see :mod:`.wrappers`), its
    tokens, the parser (its problems and warnings) and the tree (None if there are problems).
    ``states``: also read the loops' states another way (:func:`_states`), for a program refused
    as written."""
    tokens = lex(text)
    wrapper = None
    if may_be_wrapped(tokens.kinds, tokens.values):
        wrapper = unwrap(text, tokens, strict, index)
        if wrapper is not None and wrapper.text is not None:
            text = wrapper.text
            tokens = lex(text)
            warnings = [*warnings, wrapper.warning]
    unlogged = (
        unlog(text, tokens, index)
        if not strict and "console" in text and may_log(tokens.values)
        else None
    )
    if unlogged is not None:
        text = unlogged.text
        tokens = lex(text)
        warnings = [*warnings, *unlogged.warnings]
    # `(g[k] ??= []).push(x)` and a line break: the passes read its `;` (:mod:`.asi`)
    tokens = tokens if strict else insert_semicolons(text, tokens) or tokens
    # (the text is searched first: a substring test costs far less than a token scan)
    untried = (
        untry(text, tokens, index)
        if ("try" in text or "throw" in text) and may_try(tokens.values)
        else None
    )
    rewritten = False  # (whether the tokens are no longer the text's)
    if untried is not None and untried.tokens is not None:
        tokens = untried.tokens
        warnings = [*warnings, *untried.warnings]
        rewritten = True
    tokens, rewritten = _steps_and_awaits(text, tokens, rewritten)
    tokens, rewritten = _dated(text, tokens, rewritten)
    # `const row = {...}; if (t) row.k = v;` in a loop (:mod:`.looplocals`)
    tokens = loop_locals(text, tokens, rewritten)
    tokens, looped = _states(text, tokens, states)  # (looped: a `forEach` not in the text)
    if "=>" in text:  # `const u = xs.filter(x => { seen.add(x.id); ... })` (.callbackloop)
        called = callback_loops(text, tokens)
        if called is not None:
            tokens, looped = called, True
    if "=" in text:  # `(groups[k] ||= []).push(x);`: two statements (:mod:`.parensets`)
        chained = change_chains(text, tokens)  # `m.set(a, 1).set(b, 2);` (:mod:`.chains`)
        if chained is not None:
            tokens = chained
        written = write_backs(text, tokens)  # `arr.push(x); g.set(k, arr);` (:mod:`.writeback`)
        if written is not None:
            tokens = written
        split = split_parenthesized(text, tokens)
        if split is not None:
            tokens = split
        records = record_changes(text, tokens)  # `stats[k].count++;` (:mod:`.recordfields`)
        if records is not None:
            tokens = records
        records = map_record_changes(text, tokens)  # `m.get(k).n++;` (:mod:`.maprecords`)
        if records is not None:
            tokens = records
        pushed = member_pushes(text, tokens)  # `groups[k].push(x);` (:mod:`.memberpush`)
        if pushed is not None:
            tokens = pushed
        grouped = map_pushes(text, tokens)  # `groups.get(k).push(x);` (:mod:`.mappush`)
        if grouped is not None:
            tokens = grouped
        fronted = unshifts(text, tokens)  # `queue.unshift(x);` (:mod:`.unshift`)
        if fronted is not None:
            tokens = fronted
        valued = array_values(text, tokens, plain=False)  # `out.push(xs.pop());`
        tokens = valued or tokens  # (:mod:`.arrayvalues`, before and after the worklists)
        drained = worklists(text, tokens)  # `const x = queue.shift();` (:mod:`.worklist`)
        if drained is not None:
            tokens = drained
        tokens = array_values(text, tokens) or tokens
        lets = branch_lets(text, tokens)  # `let s = a; if (t) s = b;` in a loop (.letbranch)
        if lets is not None:
            tokens = lets
    parser = Parser(
        text, tokens, index, strict=strict, max_depth=max_depth, record=False, max_nodes=max_nodes
    )
    if looped:
        parser._for_each_written = True
    parser.clock = clock  # (its first look comes at the first statement)
    # (a program of fewer tokens than an eighth of the limit reads in milliseconds: its nodes
    # are checked once, whole, after reading, and counting each statement would be a tenth of
    # its one-shot cost)
    parser.read_limit = (
        max_nodes
        if counted and max_nodes is not None and len(tokens.kinds) * 8 >= max_nodes
        else None
    )
    if fence_problem is not None:
        parser.problems.append(fence_problem)
    parser.warnings = warnings
    if wrapper is not None and wrapper.problem is not None:
        parser.problems.append(wrapper.problem)
        return text, tokens, parser, None
    if untried is not None and untried.problems:
        parser.problems.extend(untried.problems)
        return text, tokens, parser, None
    try:
        tree = parser.program()
    except RecursionError:
        problem = (
            "the program is nested too deeply",
            0,
            "bind inner parts to aliases (`part = f(x);`) to flatten it",
        )
        parser.problems.append(problem)
        parser.limited = (problem, "max_depth")
        tree = None
    return text, tokens, parser, _thrown_as_text(parser, tree)


def _steps_and_awaits(text: str, tokens: Lexed, rewritten: bool) -> tuple[Lexed, bool]:
    """``tokens`` with ``const x = xs[i++];`` as two statements (:mod:`.stepvalues`) and
    ``for await (const x of xs)`` read (:mod:`.letbranch`), and whether they are no longer the
    text's."""
    if "++" in text or "--" in text:
        stepped = step_values(text, tokens)
        if stepped is not None:
            tokens, rewritten = stepped, True
    if "for await" in text:
        awaited = for_awaits(text, tokens)
        if awaited is not None:
            tokens, rewritten = awaited, True
    return tokens, rewritten


def _dated(text: str, tokens: Lexed, rewritten: bool) -> tuple[Lexed, bool]:
    """``tokens`` with ``const d = new Date(x); d.setDate(1);`` in a loop's or an arrow's body
    written as new versions (:mod:`.dateversions`), and whether they are no longer the
    text's."""
    dated = date_versions(text, tokens) if ".set" in text else None
    return (tokens, rewritten) if dated is None else (dated, True)


def _thrown_as_text(parser: Parser, tree: Any) -> Any:
    """``tree``, or None (and a problem) when a handler reads its error as text and the
    program throws a value whose text Plan cannot tell from an error's (:mod:`.errortext`)."""
    at = parser.reason_text_at
    if tree is not None and at is not None:  # (`String(r.reason)`: :func:`reasons_as_text`)
        tree, other = reasons_as_text(tree)
        if other:
            parser.problems.append(reason_problem(at))
            return None
        parser.note_error_text(at)
    if tree is not None and parser.error_text_at is not None and plain_throw(tree):
        parser.problems.append(thrown_problem(parser.error_text_at))
        return None
    return tree


def _states(text: str, tokens: Lexed, again: bool) -> tuple[Lexed, bool]:
    """``tokens`` with ``(x > 0 ? acc.pos : acc.neg).push(x);`` as its ``if``
    (:mod:`.choices`), and whether a ``forEach`` not in the text was written. ``again``: the
    program as written was refused, so the state a loop keeps is also read another way (each the
    same value as JavaScript's, but a change of form the rest of the front end reads
    differently, so a program read as written keeps its reading): a conditional statement
    ``T ? X : Y;`` (:mod:`.choices`), a ``reduce`` step changing a new object
    (:mod:`.reduceloop`), a ``let`` array pushed onto and started again (:mod:`.letpush`)."""
    if not again:
        if "?" in text:
            tokens = choice_statements(text, tokens, bare=False) or tokens
        return tokens, False
    chosen = choice_statements(text, tokens, bare=True) or tokens
    reduced = reduce_loops(text, chosen)
    pushed = let_pushes(text, reduced or chosen)
    return pushed or reduced or chosen, reduced is not None


def _read(
    text: str,
    index: LineIndex,
    strict: bool,
    max_depth: int,
    warnings: list[str],
    fence_problem: Problem | None,
    max_nodes: int | None = None,
    clock: Clock | None = None,
    counted: bool = False,
) -> tuple[str, Lexed, Parser, Any]:
    """:func:`_attempt`, and again reading the state loops keep another way (:func:`_states`)
    when the program as written is refused (a `reduce` step's push left in the tree fails when
    it runs): that reading when it has no problem. A program past ``max_nodes`` or the
    deadline is not read again."""
    first = _attempt(
        text, index, strict, max_depth, warnings, fence_problem, False, max_nodes, clock, counted
    )
    text, problems = first[0], first[2].problems
    if _read_too_long(first[2]):
        return first
    if (problems and (".push" in text or ".reduce" in text or "?" in text)) or (
        ".reduce" in text and ".push" in text and _pushes_left(first[3])
    ):
        again = _attempt(
            text, index, strict, max_depth, warnings, fence_problem, True, max_nodes, clock, counted
        )
        if not again[2].problems and not _pushes_left(again[3]):
            return again
    return first


def _read_too_long(parser: Parser) -> bool:
    """Whether the parse stopped at ``max_nodes`` or the deadline (a second reading, of
    the same text, would cost as much again and end so too)."""
    limited = parser.limited
    return limited is not None and limited[1] in ("max_nodes", "deadline")


def _pushes_left(tree: Any) -> bool:
    """Whether ``tree`` calls a method ``push`` (an array's, which fails when it runs: SPEC
    1.8; the front end writes every push it reads as a change of a value another way)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if type(node) is dict:
            method = node.get("$method")
            if type(method) is list and len(method) > 1 and method[1] == "push":
                return True
            stack.extend(node.values())
        elif type(node) is list:
            stack.extend(node)
    return False


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
