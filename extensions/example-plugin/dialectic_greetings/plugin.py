"""The greetings plugin: one function (``greet``) and one constant (``greeting``).

dialectic loads this module through the ``dialectic`` entry point declared in pyproject.toml and
calls the ``@hookimpl`` functions below; each hands its descriptions to ``register``.
"""

from __future__ import annotations

from collections.abc import Callable

from dialectic import Constant, Failure, FunctionDescription, Optional, hookimpl

GREETING = "Hello"

STYLES: dict[str, Callable[[str], str]] = {
    "plain": lambda name: f"{GREETING}, {name}!",
    "formal": lambda name: f"Good day, {name}.",
    "pirate": lambda name: f"Ahoy, {name}!",
}


def greet(name: str, style: str = "plain") -> str:
    """Greet ``name``; an unknown style is a clean failure that lists the known ones."""
    if not name.strip():
        raise Failure("greet: `name` is empty", hint="Pass the name of the person to greet.")
    make = STYLES.get(style.strip().lower())
    if make is None:
        raise Failure(
            f"greet: unknown style {style!r}",
            hint=f"Use one of: {', '.join(STYLES)}.",
        )
    return make(name.strip())


@hookimpl
def dialectic_register_functions(register: Callable[..., None]) -> None:
    register(
        FunctionDescription(
            "greet",
            "Greet someone by name, optionally in a style (plain, formal, pirate).",
            greet,
            {"name": "string", "style": Optional("string")},
            "string",
            parameter_descriptions={
                "name": "who to greet",
                "style": "plain (default), formal or pirate",
            },
            examples=('{"greet": {"name": "Ada", "style": "pirate"}}',),
        )
    )


@hookimpl
def dialectic_register_constants(register: Callable[..., None]) -> None:
    register(Constant("greeting", "The word greet uses in the plain style.", value=GREETING))
