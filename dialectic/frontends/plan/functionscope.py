"""Where the program's functions are, for the checks of a change in place (SPEC 10, "Changes
outside loops"): a local of a function's body is the body's own, so no other function of the
program can hold it (functions are defined at the top of the program only, and close over the
program's names, never over another body's locals); and the calls a reply may come from that
are not a tool's (a function of the program, or a parameter, which may be one, may return
a value the program holds).

:func:`inside_function` tells whether a token lies in a function's definition, and
:func:`own_calls` names the program's functions and their parameters; each is worked out once
a parse (linear in the tokens) and cached on the parser."""

from __future__ import annotations

from bisect import bisect_right
from typing import TYPE_CHECKING

from dialectic.frontends.plan.tokenscan import OPEN

if TYPE_CHECKING:
    from dialectic.frontends.plan.base import ParserBase

__all__ = ["inside_function", "own_calls", "param_names"]


def _ranges(p: ParserBase) -> list[tuple[int, int]]:
    cached: list[tuple[int, int]] | None = getattr(p, "_function_ranges", None)
    if cached is not None:
        return cached
    kinds, values = p.kinds, p.values
    closes = p.brackets().closes
    out: list[tuple[int, int]] = []
    n = len(kinds)
    for start in sorted(p.function_names()):
        declaration = values[start] in ("function", "async")
        i = start
        end = n - 1
        while i < n:
            kind = kinds[i]
            if kind == "eof":
                break
            if kind in OPEN:
                close = closes[i]
                if kind == "{" and declaration:
                    end = close
                    break
                i = close + 1
                continue
            if kind == ";":
                end = i
                break
            i += 1
        out.append((start, end))
    p._function_ranges = out  # type: ignore[attr-defined]
    return out


def inside_function(p: ParserBase, pos: int) -> bool:
    """Whether token ``pos`` lies in the definition of one of the program's functions."""
    ranges = _ranges(p)
    k = bisect_right(ranges, (pos, len(p.kinds))) - 1
    return k >= 0 and ranges[k][0] <= pos <= ranges[k][1]


def own_calls(p: ParserBase) -> frozenset[str]:
    """The program's functions and every name in their parameter lists: a call of one is no
    tool's reply."""
    cached: frozenset[str] | None = getattr(p, "_own_calls", None)
    if cached is not None:
        return cached
    out = frozenset(p.function_names().values()) | param_names(p)
    p._own_calls = out  # type: ignore[attr-defined]
    return out


def param_names(p: ParserBase) -> frozenset[str]:
    """Every name in the parameter lists of the program's functions (a parameter may be any
    function, which may return what the program holds)."""
    cached: frozenset[str] | None = getattr(p, "_param_names", None)
    if cached is not None:
        return cached
    kinds, values = p.kinds, p.values
    closes = p.brackets().closes
    names: set[str] = set()
    for start, end in _ranges(p):
        i = start
        while i < end and kinds[i] != "(" and not (kinds[i] == "op" and values[i] == "=>"):
            i += 1
        if kinds[i] == "(":
            names.update(str(values[j]) for j in range(i + 1, closes[i]) if kinds[j] == "name")
        elif kinds[i - 1] == "name":  # `x => ...`
            names.add(str(values[i - 1]))
    out = frozenset(names)
    p._param_names = out  # type: ignore[attr-defined]
    return out
