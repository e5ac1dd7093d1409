"""What a run says about its context before anything runs: a context that is not a mapping, and
an identifier that is neither an alias, a registered constant nor a name in the context (with
the closest names, and for a JavaScript global function used as a value, how to call it)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from dialectic.outcome.errors import DialecticError
from dialectic.outcome.hiddennames import shown_names
from dialectic.registry.registry import closest
from dialectic.values.jsmethods import GLOBALS

#: JavaScript's namespaces of global functions (`Math.max`): not values either
NAMESPACES = {"Math": "round", "JSON": "stringify", "Object": "keys", "Array": "isArray"}


#: JavaScript's NaN, which no run holds (SPEC 1.7): what to write instead
NON_FINITE = {
    "NaN": "Test for a number with Number.isFinite(x) or typeof x === 'number'.",
}


def bad_context(context: Any) -> DialecticError:
    return DialecticError(
        "invalid_option",
        f"the context must be a mapping of names to values, got {type(context).__name__}",
        hint="Pass a dict, e.g. run(program, context={'user': {...}}).",
    )


def unknown_identifier(
    name: str, path: Any, known: Iterable[str], values: Mapping[str, Any]
) -> DialecticError:
    """``name`` (read at ``path``) is not known; ``known``: the program's aliases and the
    registered constants."""
    if name in GLOBALS or name in NAMESPACES:
        what = "a namespace of functions" if name in NAMESPACES else "a function"
        call = f"{name}.{NAMESPACES[name]}(x)" if name in NAMESPACES else f"{name}(x)"
        return DialecticError(
            "unknown_identifier",
            f"`{name}` is {what}, and functions are not values",
            path,
            hint=f"Call it inside an arrow function: xs.map(x => {call}).",
        )
    if name in NON_FINITE:
        return DialecticError(
            "unknown_identifier",
            f"`{name}` is not a value in a run: an operation that would make NaN is refused",
            path,
            hint=NON_FINITE[name],
        )
    known = list(known)
    scoped = re.compile(rf"_{re.escape(name)}[0-9]+")
    if name.isidentifier() and any(scoped.fullmatch(k) for k in known):
        return DialecticError(  # (a `for` header's `let`, a block's local: hidden after it)
            "unknown_identifier",
            f"`{name}` is not defined here: it is declared inside a loop's header or a block "
            "that ends before this read (JavaScript's ReferenceError)",
            path,
            hint=f"declare it before the loop or the block (`let {name} = ...;`) and change it "
            "there, or read it inside",
        )
    pool = [  # (a host's context may have others)
        n for n in [*shown_names(known), *(k for k in values if type(k) is str)] if n != name
    ]
    near = closest(name, pool)
    return DialecticError(
        "unknown_identifier",
        f"unknown identifier `{name}`"
        + (f"; did you mean {' or '.join(f'`{n}`' for n in near)}?" if near else ""),
        path,
        hint="A name must be an alias defined in the program, a registered constant, or a "
        "value in the run's context." + (f" Known names: {', '.join(pool[:20])}." if pool else ""),
    )
