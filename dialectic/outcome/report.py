"""Turning errors and ambiguities into outcomes a model can act on.

Failures say what is wrong, where (a JSON path, and line:column with a caret for text notations)
and what to do. Ambiguities become the RFC's question followed by one "If you meant ..., use
`...`" line per candidate, and one suggestion per candidate whose ``program`` is the whole
original program, in its own notation, with the ambiguous call replaced.
"""

from __future__ import annotations

import copy
import itertools
from typing import Any

from dialectic.frontends.base import FrontEndResult, SourceError, Span, render_snippet
from dialectic.outcome.errors import DialecticError, JSONPath, clip, format_path
from dialectic.outcome.outcome import AMBIGUOUS, FAILURE, ErrorInfo, Outcome, Suggestion
from dialectic.run.evaluator import AmbiguityItem
from dialectic.values.data import dumps_compact


def find_span(fe: FrontEndResult | None, path: JSONPath) -> Span | None:
    if fe is None or not fe.spans:
        return None
    p = path
    while True:
        span = fe.spans.get(p)
        if span is not None:
            return span
        if not p:
            return None
        p = p[:-1]


def error_info(err: DialecticError, fe: FrontEndResult | None) -> ErrorInfo:
    info = ErrorInfo(
        err.code, err.message, format_path(err.path), hint=err.hint, details=dict(err.details)
    )
    if isinstance(err, SourceError):
        first = err.problems[0]
        info.line, info.column = first.line, first.column
        if len(err.problems) > 1:  # (at most MAX_PROBLEMS; details["count"] says how many)
            info.details["problems"] = [
                {
                    "message": clip(p.message, MAX_MESSAGE),
                    "line": p.line,
                    "column": p.column,
                    "hint": clip(p.hint, MAX_MESSAGE) if p.hint is not None else None,
                }
                for p in err.problems
            ]
        return info
    span = find_span(fe, err.path)
    if span is not None:
        info.line, info.column = span.line, span.column
    return info


def describe_error(err: DialecticError, fe: FrontEndResult | None) -> str:
    if isinstance(err, SourceError):
        return err.render()
    span = find_span(fe, err.path)
    if span is not None and fe is not None and fe.source:
        text = f"line {span.line}, column {span.column}: {err.message}"
        snippet = render_snippet(fe.source, span.line, span.column)
        if snippet:
            text += "\n" + snippet
    elif err.path:
        text = f"{err.message} (at {format_path(err.path)})"
    else:
        text = err.message
    if err.hint:
        text += f"\nHint: {err.hint}"
    return text


#: an outcome reports at most this many problems, ambiguous calls or warnings, and clips each
#: message
MAX_REPORTED = 20
MAX_MESSAGE = 2_000
#: suggestions carry whole programs: together at most this many bytes (and MAX_SUGGESTIONS)
MAX_SUGGESTION_BYTES = 1_000_000
MAX_SUGGESTIONS = 40
#: characters of program text written into suggestion programs (each rewrites the whole program)
#: before the rest are left out: a bound on the work that, unlike a clock, gives the same
#: outcome on a loaded machine (batch runs compare outcomes across machines)
SUGGESTION_WORK = 4_000_000


def bounded_warnings(warnings: list[str]) -> list[str]:
    """The warnings an outcome carries: the first :data:`MAX_REPORTED`, each clipped to
    :data:`MAX_MESSAGE` characters, with a last line saying how many were left out."""
    if len(warnings) <= MAX_REPORTED and all(len(w) <= MAX_MESSAGE for w in warnings):
        return warnings
    out = [clip(w, MAX_MESSAGE) for w in warnings[:MAX_REPORTED]]
    if len(warnings) > MAX_REPORTED:
        out.append(f"... and {len(warnings) - MAX_REPORTED} more warnings.")
    return out


def one_line(text: str) -> str:
    """``text`` with every line break and other non-printable character escaped (``\\n``):
    what a function or the world wrote (a description, a file name in it) cannot add a line
    to a message, such as a forged "If you meant ..., use ..."."""
    if text.isprintable():
        return text
    return "".join(
        c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text
    )


def failure(
    errors: list[DialecticError], fe: FrontEndResult | None, warnings: list[str]
) -> Outcome:
    first = errors[0]
    shown = errors[:MAX_REPORTED]
    if len(errors) == 1:
        message = clip(describe_error(first, fe), MAX_MESSAGE)
    else:
        parts = [f"The program has {len(errors)} problems:"]
        for i, err in enumerate(shown, 1):
            text = clip(describe_error(err, fe), MAX_MESSAGE)
            parts.append(f"{i}. " + text.replace("\n", "\n   "))
        if len(errors) > len(shown):
            parts.append(f"... and {len(errors) - len(shown)} more; fix these first.")
        message = "\n".join(parts)
    info = _clipped(error_info(first, fe))
    if len(errors) > 1:
        info.details["others"] = [_clipped(error_info(e, fe)).to_json() for e in shown[1:]]
        info.details["count"] = len(errors)
    return Outcome(FAILURE, message=message, error=info, warnings=bounded_warnings(warnings))


def _clipped(info: ErrorInfo) -> ErrorInfo:
    info.message = clip(info.message, MAX_MESSAGE)
    if info.hint is not None:
        info.hint = clip(info.hint, MAX_MESSAGE)
    return info


def _json(program: Any) -> str:
    """A program as compact JSON text (integers beyond 64 bits included)."""
    return dumps_compact(program, MAX_SUGGESTION_BYTES * 10)


def replace_at(tree: Any, path: JSONPath, replacement: Any) -> Any:
    if not path:
        return copy.deepcopy(replacement)
    root = copy.copy(tree)
    node = root
    for key in path[:-1]:
        child = copy.copy(node[key])
        node[key] = child
        node = child
    node[path[-1]] = copy.deepcopy(replacement)
    return root


def fragment(fe: FrontEndResult, replacement: Any) -> str:
    """The refined call written in the program's own notation."""
    if fe.lang in ("plan", "plan2"):
        try:
            from dialectic.frontends.plan import decompile_expression

            return decompile_expression(replacement)
        except Exception:
            pass
    return _json(replacement)


def whole_program(fe: FrontEndResult, path: JSONPath, replacement: Any) -> Any:
    return whole_program_with(fe, [(path, replacement)])


def whole_program_with(fe: FrontEndResult, changes: list[tuple[JSONPath, Any]]) -> Any:
    """The program in its own notation with each ``(path, replacement)`` made (the paths are
    independent calls: none is inside another); None when two changes fall on one place of a
    Plan text with different replacements."""
    new_tree = fe.tree
    for path, replacement in changes:
        new_tree = replace_at(new_tree, path, replacement)
    if fe.lang == "json" or fe.source is None:
        if fe.source is None:
            return new_tree
        return _json(new_tree)
    spans = [fe.spans.get(path) for path, _ in changes]
    if fe.lang == "plan" and all(span is not None for span in spans):
        text = fe.source
        # from the last span to the first, so the earlier offsets stay valid
        ordered = sorted(zip(spans, changes, strict=True), key=lambda sc: -sc[0].start)  # type: ignore[union-attr]
        done: tuple[int, int, Any] | None = None  # the span last written, and its replacement
        for span, (_, replacement) in ordered:
            assert span is not None
            if done is not None and span.end > done[0]:
                # two calls written at one place (a function of the program used twice,
                # SPEC 10 "Functions"): one text can only hold one refinement
                if (span.start, span.end) == done[:2] and replacement == done[2]:
                    continue
                return None
            text = text[: span.start] + fragment(fe, replacement) + text[span.end :]
            done = (span.start, span.end, replacement)
        return text
    if fe.lang == "plan":
        from dialectic.frontends.plan import decompile

        return decompile(new_tree)
    if fe.lang == "plan2":
        from dialectic.tools.convert import tree_to_plan2

        return tree_to_plan2(new_tree)
    return new_tree


def ambiguous(items: list[AmbiguityItem], fe: FrontEndResult, warnings: list[str]) -> Outcome:
    lines: list[str] = []
    if len(items) > 1:
        lines.append(
            f"This program has {len(items)} ambiguous parts; resolve all of them in the next "
            "program."
        )
    suggestions: list[Suggestion] = []
    budget = MAX_SUGGESTION_BYTES
    dropped = 0
    # every suggestion is the whole program rewritten: no smaller than the smallest one built
    # so far (at first, a tenth of the source): one that cannot fit is dropped before it is
    # built (writing a large Plan2 program takes long; a YAML dump per dropped suggestion took
    # seconds)
    smallest = len(fe.source) // 10 if fe.source else 0
    work_left = SUGGESTION_WORK
    for n, item in enumerate(items[:MAX_REPORTED]):
        if n:
            lines.append("")
        lines.append(one_line(clip(item.message, MAX_MESSAGE)))
        for cand in item.candidates[:MAX_REPORTED]:
            frag = one_line(clip(fragment(fe, cand.program), MAX_MESSAGE))
            description = one_line(clip(cand.description, MAX_MESSAGE))
            lines.append(f"If you meant {description}, use `{frag}`.")
    # each suggestion resolves every ambiguous part at once (one more round trip, not one per
    # part): the combinations of the parts' candidates, in program order, at most
    # MAX_SUGGESTIONS of them
    parts = [item for item in items[:MAX_REPORTED] if item.candidates]
    for combo in itertools.islice(
        itertools.product(*(item.candidates[:MAX_REPORTED] for item in parts)), MAX_SUGGESTIONS
    ):
        if smallest > budget or (suggestions and work_left <= 0):
            dropped += 1
            continue
        changes = [(item.path, cand.program) for item, cand in zip(parts, combo, strict=True)]
        program = whole_program_with(fe, changes)
        if program is None:  # (two parts at one place of the text, refined differently)
            dropped += 1
            continue
        cost = len(program if isinstance(program, str) else _json(program))
        work_left -= cost
        smallest = cost if not suggestions else min(smallest, cost)
        if cost > budget:
            dropped += 1
            continue
        budget -= cost
        if len(combo) == 1:
            suggestions.append(
                Suggestion(
                    combo[0].description, program, combo[0].program, format_path(parts[0].path)
                )
            )
        else:
            suggestions.append(
                Suggestion(
                    " and ".join(c.description for c in combo),
                    program,
                    [c.program for c in combo],
                    ", ".join(format_path(item.path) for item in parts),
                )
            )
    total = 1
    for item in parts:
        total *= min(len(item.candidates), MAX_REPORTED)
    dropped += max(0, total - MAX_SUGGESTIONS)
    if len(items) > MAX_REPORTED:
        lines += ["", f"... and {len(items) - MAX_REPORTED} more ambiguous parts."]
    if dropped:
        lines += ["", f"({dropped} more suggestions were left out to keep this answer short.)"]
    first = items[0]
    info = ErrorInfo(
        "ambiguous",
        first.message,
        format_path(first.path),
        details={"function": first.function, "count": len(items)},
    )
    span = find_span(fe, first.path)
    if span is not None:
        info.line, info.column = span.line, span.column
    return Outcome(
        AMBIGUOUS,
        message="\n".join(lines),
        suggestions=suggestions,
        error=info,
        warnings=bounded_warnings(warnings),
    )
