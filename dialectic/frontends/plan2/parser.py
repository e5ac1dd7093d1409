"""Plan2 (YAML) -> call tree.

A Plan2 program is a YAML mapping of aliases. An alias binds a DomainSet (domain name -> slots)
or a template string; ``result`` is required and is the plan's value. The program compiles to::

    {"$let": {alias: tree, ..., "result": tree}, "$return": {"$ref": "result"}}

A DomainSet compiles to ``{"$object": {domain: {domain: {slot: value, ...}}, ...}}`` (all domains
of one DomainSet are independent, so they run concurrently). With ``lift=True`` (the default) a
DomainSet of exactly one domain compiles to ``{"$unwrap": {domain: {...}}}``: the alias is the
call's result, and a one-element array result is its element (the seed's "single-domain
lifting"). Every string is a template (see :mod:`.templates`); expressions use the Plan grammar.
See SPEC.md, section 11, for the full rules.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from dialectic.frontends.base import FrontEndResult, SourceError
from dialectic.frontends.budget import Clock, deadline_message
from dialectic.frontends.fences import (
    Fence,
    fenced_codes,
    find_fence,
    has_text_outside,
    keep_fenced,
    later_fences,
    several_programs,
)
from dialectic.frontends.plan2.compiler import Compiler, ExpressionParser, SlotMode
from dialectic.frontends.plan2.repairs import quote_repairs, strip_code_fence
from dialectic.frontends.plan2.yamlnodes import YamlProblems, compose
from dialectic.outcome.errors import SyntaxProblem

__all__ = [
    "DEFAULT_LIFT",
    "DEFAULT_SLOTS",
    "LANG",
    "ExpressionParser",
    "SlotMode",
    "parse_plan2",
    "strip_code_fence",
]

#: the longest program read (characters), as Plan's (a run checks `max_program_bytes` first)
MAX_SOURCE_LENGTH = 1_000_000
LANG = "plan2"
DEFAULT_LIFT = True
DEFAULT_SLOTS: SlotMode = "as-written"
_SLOT_MODES = ("list", "scalar", "as-written")


def _late(clock: Clock) -> SyntaxProblem:
    """The problem of a reading past the run's deadline (``limit`` "deadline")."""
    message, hint = deadline_message(clock.deadline)
    problem = SyntaxProblem(message, 1, 1, hint=hint)
    problem.limit = "deadline"
    return problem


def _default_expression_parser(max_depth: int = 100) -> ExpressionParser:
    from dialectic.frontends.plan import parse_expression

    return partial(parse_expression, max_depth=max_depth)


#: the tags of a fenced block that may hold a Plan2 program
_PLAN2_TAGS = frozenset(["", "yaml", "yml", "plan2"])


def _one_program(source: str, first: Fence, *options: Any) -> None:
    """Raise when a later fenced block of the reply holds another Plan2 program than ``first``:
    which one is meant cannot be known (SPEC 11). ``options``: parse_plan2's, in order."""
    later = [b for b in later_fences(source, first) if b.tag in _PLAN2_TAGS]
    if not later:
        return
    lift, slots, max_depth, max_nodes, expression_parser = options

    def tree_of(code: str) -> Any:
        try:
            return parse_plan2(
                code,
                lift=lift,
                slots=slots,
                max_depth=max_depth,
                max_nodes=max_nodes,
                expression_parser=expression_parser,
                _fences=False,
            ).tree
        except SourceError:
            return _UNREAD

    codes = fenced_codes(source, [first, *later])
    tree = tree_of(codes[0])
    if tree is _UNREAD:
        return
    rivals = [first]
    for block, code in zip(later, codes[1:], strict=True):
        other = tree_of(code)
        if other is not _UNREAD and other != tree:
            rivals.append(block)
    if len(rivals) > 1:
        raise several_programs(LANG, source, rivals)


_UNREAD = object()


def parse_plan2(
    source: str,
    *,
    lift: bool = DEFAULT_LIFT,
    slots: SlotMode = DEFAULT_SLOTS,
    max_depth: int = 100,
    max_nodes: int | None = None,
    strict: bool = False,
    expression_parser: ExpressionParser | None = None,
    deadline: float | None = None,
    counted: bool = False,
    max_length: int = MAX_SOURCE_LENGTH,
    _fences: bool = True,
    _clock: Clock | None = None,
) -> FrontEndResult:
    """Compile a Plan2 (YAML) program to the canonical call tree.

    ``lift``: single-domain lifting (an alias with one domain is that call's result, a one-element
    array result its element). ``slots``: ``"as-written"`` (a slot's value is what was written),
    ``"list"`` (the seed's rule: a single value becomes a one-element list) or ``"scalar"`` (the
    opposite: a one-element list becomes its element). ``strict``: refuse the repairs lenient
    mode makes (a markdown code fence, ``-value`` lists, unquoted ``: `` inside ``${...}``,
    an alias bound to a list). Raises :class:`SourceError` listing every problem found.
    ``deadline`` (seconds) and, with ``counted``, ``max_nodes`` bound the reading as it goes,
    alias by alias (:mod:`dialectic.frontends.budget`).
    """
    if slots not in _SLOT_MODES:
        raise ValueError(f"slots must be one of {', '.join(_SLOT_MODES)}, got {slots!r}")
    if len(source) > max_length:  # (before any reading: YAML reads a document whole)
        raise SourceError(
            LANG,
            "",
            [
                SyntaxProblem(
                    f"the program is too large ({len(source)} characters; the limit is "
                    f"{max_length})",
                    1,
                    1,
                    hint="split the work into smaller programs",
                )
            ],
        )
    clock = _clock if _clock is not None else None if deadline is None else Clock(deadline)
    original = source
    warnings: list[str] = []
    block = find_fence(source) if _fences else None
    if block is not None:
        # a program that reads as written is never touched: ``` can be text in a block scalar
        try:
            return parse_plan2(
                source,
                lift=lift,
                slots=slots,
                max_depth=max_depth,
                max_nodes=max_nodes,
                strict=strict,
                expression_parser=expression_parser,
                deadline=deadline,
                counted=counted,
                max_length=max_length,
                _fences=False,
                _clock=clock,
            )
        except SourceError:
            pass
        if not strict:
            _one_program(source, block, lift, slots, max_depth, max_nodes, expression_parser)
    text = source if block is None else keep_fenced(source, block)
    if block is not None:
        line = block.open_line + 1
        if strict:
            raise SourceError(
                LANG,
                original,
                [
                    SyntaxProblem(
                        "the plan is wrapped in a markdown code fence",
                        line,
                        1,
                        hint="send the YAML alone, without ``` lines",
                    )
                ],
            )
        warnings.append(
            f"line {line}: removed the markdown code fence around the plan"
            + (" and the text around it" if has_text_outside(source, block) else "")
        )
    # An unquoted value whose ${...} holds `: ` or ` #` is misread by YAML (an error, or worse:
    # `- ${{a: 1}}` is silently a mapping). Lenient mode quotes it; strict mode refuses it.
    repaired, lines, inserted = quote_repairs(text)
    if clock is not None and clock.past():
        raise SourceError(LANG, original, [_late(clock)])
    if lines and strict:
        raise SourceError(
            LANG,
            original,
            [
                SyntaxProblem(
                    "YAML misreads this unquoted value: its ${...} contains `: ` or ` #`",
                    n,
                    1,
                    hint="quote the value: key: '${...}' (double any ' inside)",
                )
                for n in lines
            ],
        )
    try:
        root = compose(
            repaired if lines else text, max_depth=max_depth, max_nodes=max_nodes, clock=clock
        )
    except YamlProblems as first:
        if not lines:
            raise SourceError(LANG, original, first.problems)
        try:  # the repair did not help: report the document as written
            compose(text, max_depth=max_depth, max_nodes=max_nodes, clock=clock)
        except YamlProblems as unrepaired:
            raise SourceError(LANG, original, unrepaired.problems)
        raise SourceError(LANG, original, first.problems)
    if lines:
        warnings.extend(
            f"line {n}: quoted a value whose ${{...}} contains `: ` or ` #` "
            "(write it as key: '${...}')"
            for n in lines
        )
    compiler = Compiler(
        text,
        lift=lift,
        slots=slots,
        strict=strict,
        expression_parser=expression_parser or _default_expression_parser(max_depth),
        inserted=inserted if lines else None,
    )
    compiler.max_nodes = max_nodes if counted else None
    compiler.clock = clock  # (one clock for the whole reading: the YAML's, then the aliases')
    tree = compiler.program(root)
    spans = compiler.spans
    if not compiler.problems and (".catch" in text or ".then" in text):
        _thrown_as_text(tree, text, compiler.problems)  # (:mod:`.plan.errortext`)
    if compiler.problems:
        if compiler.problems[0].limit is None:  # (a limit stopped the reading: it is first)
            compiler.problems.sort(key=lambda p: (p.line, p.column))
        raise SourceError(LANG, original, compiler.problems)
    return FrontEndResult(
        tree=tree,
        lang=LANG,
        source=original,
        spans=spans,
        warnings=warnings + compiler.warnings,
    )


def _thrown_as_text(tree: Any, text: str, problems: list[SyntaxProblem]) -> None:
    """A problem when a handler reads its error as text and the program throws a value whose
    text Plan cannot tell from an error's (as Plan's, :mod:`dialectic.frontends.plan.errortext`),
    at the first handler."""
    from dialectic.frontends.plan.errortext import plain_throw, read_as_text, thrown_problem

    if read_as_text(tree) and plain_throw(tree):
        at = min(i for i in (text.find(".catch"), text.find(".then")) if i >= 0)
        message, _, hint = thrown_problem(at)
        line = text.count("\n", 0, at) + 1
        column = at - (text.rfind("\n", 0, at) + 1) + 1
        problems.append(SyntaxProblem(message, line, column, hint=hint))
