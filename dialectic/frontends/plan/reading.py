"""Reading one Plan text (SPEC 10): :func:`_attempt` lexes it, runs the passes that rewrite the
tokens before parsing (a wrapper blanked, ``console`` calls dropped, ``try``, step values,
dates, the forms of changes inside loops: each pass names its module), then parses;
:func:`_read` reads it again with the loops' states read another way (:func:`_states`) when
the program as written is refused, and keeps that reading when it has no problem. A program
past ``max_nodes`` or the deadline is not read twice. Moved out of the package's
``__init__``, which keeps the entry points (:func:`~dialectic.frontends.plan.parse_plan`,
:func:`~dialectic.frontends.plan.parse_expression`).
"""

from __future__ import annotations

from typing import Any

from dialectic.frontends.budget import Clock
from dialectic.frontends.plan.arrayvalues import array_values
from dialectic.frontends.plan.asi import insert_semicolons
from dialectic.frontends.plan.assignarrows import statement_arrows
from dialectic.frontends.plan.callbackloop import MAX_CALLBACK_LOOPS, callback_loops
from dialectic.frontends.plan.chains import change_chains
from dialectic.frontends.plan.choices import choice_statements
from dialectic.frontends.plan.concatpush import concat_pushes
from dialectic.frontends.plan.console import may_log, unlog
from dialectic.frontends.plan.dateversions import date_versions
from dialectic.frontends.plan.declsplit import split_declarations
from dialectic.frontends.plan.errortext import (
    plain_throw,
    reason_problem,
    reasons_as_text,
    thrown_problem,
)
from dialectic.frontends.plan.fallthrough import fall_throughs
from dialectic.frontends.plan.itemwrite import item_changes
from dialectic.frontends.plan.labelloops import label_loops
from dialectic.frontends.plan.letbranch import branch_lets, for_awaits
from dialectic.frontends.plan.letpush import let_pushes
from dialectic.frontends.plan.lexer import Lexed, lex
from dialectic.frontends.plan.looplocals import loop_locals
from dialectic.frontends.plan.loopvars import loop_vars
from dialectic.frontends.plan.mappush import map_pushes
from dialectic.frontends.plan.maprecords import map_record_changes
from dialectic.frontends.plan.memberpush import member_pushes
from dialectic.frontends.plan.paramsets import parameter_sets
from dialectic.frontends.plan.parensets import split_parenthesized
from dialectic.frontends.plan.parser import Parser, Problem
from dialectic.frontends.plan.pushruns import push_runs
from dialectic.frontends.plan.recordfields import record_changes
from dialectic.frontends.plan.reduceloop import MAX_REDUCE_LOOPS, reduce_loops
from dialectic.frontends.plan.sortowned import owned_sorts
from dialectic.frontends.plan.sortreturns import sort_returns
from dialectic.frontends.plan.spans import LineIndex
from dialectic.frontends.plan.stepvalues import step_values
from dialectic.frontends.plan.swapsets import swap_sets
from dialectic.frontends.plan.trycatch import may_try, untry
from dialectic.frontends.plan.unshift import unshifts
from dialectic.frontends.plan.worklist import worklists
from dialectic.frontends.plan.wrappers import may_be_wrapped, unwrap
from dialectic.frontends.plan.writeback import write_backs


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
    tokens = _statements(text, tokens, strict)
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
    # `for (const x of xs) x.total = x.price * x.qty;` (:mod:`.itemwrite`)
    items, item_problem = item_changes(text, tokens) if "for" in text else (None, None)
    if items is not None:
        tokens, rewritten = items, True
    # `const row = {...}; if (t) row.k = v;` in a loop (:mod:`.looplocals`)
    tokens = loop_locals(text, tokens, rewritten)
    cut: list[int] = []  # (a statement past a limit of these rewrites: :func:`_over_limit`)
    tokens, looped = _states(text, tokens, states, cut)  # (looped: a `forEach` not in the text)
    if "=>" in text:  # `const u = xs.filter(x => { seen.add(x.id); ... })` (.callbackloop)
        called = callback_loops(text, tokens, cut)
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
    if item_problem is not None:
        parser.problems.append(item_problem)
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
    return text, tokens, parser, _finished(parser, text, cut, tree)


def _finished(parser: Parser, text: str, cut: list[int], tree: Any) -> Any:
    """The tree read, the problem of a statement past a limit told first (``cut``)."""
    if cut and parser.problems:
        parser.problems.insert(0, _over_limit(text, cut[0]))
    return _thrown_as_text(parser, tree)


def _over_limit(text: str, at: int) -> Problem:
    """The problem of a program refused with a statement past the limit of the ``filter``,
    ``map`` or ``reduce`` statements read as loops (at offset ``at``): it was left as written."""
    reduce = text.startswith("reduce", text.find(".", at) + 1)
    what = (
        f"{MAX_REDUCE_LOOPS} `reduce` statements whose steps change their accumulator"
        if reduce
        else f"{MAX_CALLBACK_LOOPS} `filter`/`map` statements whose callbacks change names "
        "outside them"
    )
    return (
        f"the program has more than {what}; Plan reads that many as loops (a limit), and this "
        "one is left as written",
        at,
        "write the statements past the limit as for...of loops (for (const x of xs) { ... }), "
        "or split the program",
    )


def _statements(text: str, tokens: Lexed, strict: bool) -> Lexed:
    """In lenient mode, ``tokens`` with the `;` JavaScript inserts written (:mod:`.asi`); in
    both modes ``const a = xs[i], b = xs[j];`` as a declaration per name (:mod:`.declsplit`),
    a labeled loop's ``break outer;`` as flags (:mod:`.labelloops`), an assignment a
    ``forEach`` arrow returns as its statement (:mod:`.assignarrows`), a ``switch`` case
    falling into the next with its statements copied (:mod:`.fallthrough`), ``[a, b] = [b,
    a];`` as assignments (:mod:`.swapsets`), and a parameter its function assigns as a
    ``let`` (:mod:`.paramsets`)."""
    if not strict:
        tokens = insert_semicolons(text, tokens) or tokens
    tokens = loop_vars(text, tokens) or tokens  # `for (var i = 0; ...)` as `let` (.loopvars)
    tokens = split_declarations(text, tokens) or tokens  # `let a = 1, b;` (both modes)
    tokens = statement_arrows(text, tokens) or tokens  # `xs.forEach(x => (o[x] = 1));`
    tokens = label_loops(text, tokens) or tokens
    tokens = fall_throughs(text, tokens) or tokens  # `case 1: a(); case 2: ...` (.fallthrough)
    tokens = swap_sets(text, tokens) or tokens  # `[a[i], a[j]] = [a[j], a[i]];` (.swapsets)
    return parameter_sets(text, tokens) or tokens  # `xs = xs.filter(f);` (:mod:`.paramsets`)


def _steps_and_awaits(text: str, tokens: Lexed, rewritten: bool) -> tuple[Lexed, bool]:
    """``tokens`` with ``const x = xs[i++];`` as two statements (:mod:`.stepvalues`) and
    ``for await (const x of xs)`` read (:mod:`.letbranch`), and whether they are no longer the
    text's; first, consecutive pushes onto one array as one (:mod:`.pushruns`)."""
    pushed = push_runs(text, tokens) if ".push(" in text else None  # `xs.push(a); xs.push(b);`
    if pushed is not None:
        tokens, rewritten = pushed, True
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
    written as new versions (:mod:`.dateversions`) and ``return xs.sort(c);`` as a statement
    first (:mod:`.sortreturns`), and whether they are no longer the text's."""
    dated = date_versions(text, tokens) if ".set" in text else None
    if dated is not None:
        tokens, rewritten = dated, True
    if ".sort(" in text or ".reverse(" in text:  # `return xs.sort(c);` (:mod:`.sortreturns`)
        reordered = sort_returns(text, tokens)
        if reordered is not None:
            tokens, rewritten = reordered, True
        owned = owned_sorts(text, tokens)  # a literal's item, a parameter (.sortowned)
        if owned is not None:
            tokens, rewritten = owned, True
    return tokens, rewritten


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


def _states(text: str, tokens: Lexed, again: bool, cut: list[int]) -> tuple[Lexed, bool]:
    """``tokens`` with ``(x > 0 ? acc.pos : acc.neg).push(x);`` as its ``if``
    (:mod:`.choices`), and whether a ``forEach`` not in the text was written (``cut``: as
    :func:`.reduceloop.reduce_loops` has it). ``again``: the
    program as written was refused, so the state a loop keeps is also read another way (each the
    same value as JavaScript's, but a change of form the rest of the front end reads
    differently, so a program read as written keeps its reading): a conditional statement
    ``T ? X : Y;`` (:mod:`.choices`), a ``reduce`` step changing a new object
    (:mod:`.reduceloop`), a ``let`` array pushed onto and started again (:mod:`.letpush`)."""
    if not again:
        if "?" in text:
            tokens = choice_statements(text, tokens, bare=False) or tokens
        return tokens, False
    if ".concat(" in text:  # `files = files.concat(x);` and `files.push(y);` (.concatpush)
        tokens = concat_pushes(text, tokens) or tokens
    chosen = choice_statements(text, tokens, bare=True) or tokens
    reduced = reduce_loops(text, chosen, cut)
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
        limit = again[2].problems[:1]
        if limit and limit[0][0].endswith("this one is left as written"):
            return again  # (a `reduce` past the limit, which only this reading reads as a loop)
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
