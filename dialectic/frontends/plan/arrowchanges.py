"""What an arrow function's block body read inside an expression (:mod:`.arrowblock`) says of a
change it refuses: which name the statement changes and what to write instead. A `reduce` step
that changes its accumulator in place runs when the `reduce` has a statement of its own
(``const r = xs.reduce((acc, x) => { acc.n += x.n; return acc; }, {n: 0});``,
:mod:`.reduceloop`), so the text says so rather than listing the statements a body holds."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from dialectic.frontends.plan.base import CHANGES

__all__ = ["change_refusal"]


def _changed(kinds: Sequence[str], values: Sequence[object], pos: int) -> tuple[str, bool] | None:
    """The name the statement at token ``pos`` changes and whether it changes a part of it
    (``acc.n += 1``, ``acc[k]++``) rather than the name itself (``acc += 1``, ``v = 2``);
    None when the statement changes nothing a name holds."""
    j = pos
    if kinds[j] == "op" and values[j] in ("++", "--"):
        j += 1
    if kinds[j] != "name":
        return None
    name = str(values[j])
    k, depth, part = j + 1, 0, False
    while kinds[k] not in ("eof", ";") and not (depth == 0 and kinds[k] == "}"):
        kind = kinds[k]
        if kind in ("(", "[", "{", "tplh"):
            if depth == 0 and kind == "(":
                return None  # a call: `acc.items.push(x)`, `f(acc)`
            part = part or depth == 0
            depth += 1
        elif kind in (")", "]", "}", "tplt"):
            depth -= 1
        elif depth == 0 and kind in (".", "?."):
            part = True
            k += 1  # (the member's name)
        elif depth == 0 and (kind == "=" or (kind == "op" and values[k] in CHANGES)):
            return name, part
        elif depth == 0:
            return None
        k += 1
    return (name, part) if j > pos else None


def change_refusal(
    kinds: Sequence[str],
    values: Sequence[object],
    pos: int,
    acc: str | None,
    local: Mapping[str, Any],
) -> tuple[str, str] | None:
    """The problem and the hint for the change at token ``pos`` of an arrow's block body whose
    first parameter is ``acc`` and whose ``const`` lines define ``local``; None for another
    statement (the body's general refusal stands)."""
    found = _changed(kinds, values, pos)
    if found is None:
        return None
    name, part = found
    if acc is not None and local.get(name) == {"$ref": acc}:
        acc = name  # (a parameter the program sets reads as a `const` of its copy)
    if name == acc and part:
        return (
            f"this statement changes a member of `{acc}` in place: inside an expression an "
            f"arrow function changes its accumulator only as `{acc}[k] = v;`, `{acc}.k = v;` "
            f"or `{acc}.push(x);` (`++`, `+=` and a change to a member's member run only where "
            "the `reduce` is a statement of its own)",
            f"give the `reduce` its own line and read its name: const totals = xs.reduce(({acc}, "
            f"x) => {{ ...; return {acc}; }}, {{n: 0}}); then `totals.n / xs.length`; or, for one "
            f"member, write its new value: {acc}.n = {acc}.n + x.n; or return a new object: "
            f"({acc}, x) => ({{...{acc}, [x.key]: ({acc}[x.key] ?? 0) + 1}})",
        )
    if name == acc:
        return (
            f"this statement sets the parameter `{acc}`: an arrow function's parameters are "
            "not set in Plan (a `reduce` step's value is the next accumulator)",
            "return the new value, as in (total, x) => total + x.price, or (total, x) => { "
            "const v = x.price * 2; return total + v; }",
        )
    if name in local:
        return (
            f"this statement changes `{name}`, a name of the arrow function's body: there each "
            "name is defined once (`let` reads as `const`)",
            f"compute its value in one expression: const {name} = test ? a : b; or write the "
            "body as a function's, with an `if` statement: x => { let v = a; if (test) v = b; "
            "return v; }",
        )
    return None
