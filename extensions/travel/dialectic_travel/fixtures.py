"""The design seed's abstract fixtures: ``domainA``, ``domainB``, ``domainC`` and ``other``.

They make the seeds' examples runnable (``examples/core/``, ``examples/travel/flight_info``)
but are not travel services, so the ``travel`` entry point does not register them and they stay
out of the default catalog. Load them explicitly: ``Runtime(plugins=(dialectic_travel.fixtures,))``
or ``dialectic run FILE --plugin dialectic_travel.fixtures``.
"""

from __future__ import annotations

from dialectic import FunctionDescription, hookimpl
from dialectic.registry.plugins import Register

from . import domains

_ONE_TEXT = " (a one-element list is read as its element)"


def descriptions() -> list[FunctionDescription]:
    """Every function this plugin registers."""
    return [
        FunctionDescription(
            "other",
            "Put a hold on the user's calendar for a date range; returns a confirmation text.",
            domains.other,
            {"start": "string", "end": "string"},
            "string",
            pass_context=True,
            parameter_descriptions={
                "start": "start of the range: ISO text, or a date value (passed as its ISO text)",
                "end": "end of the range: ISO text, or a date value",
            },
            examples=("other({start: flight.departs, end: flight.arrives})",),
        ),
        FunctionDescription(
            "domainA",
            "Seed 000's abstract service A: domainA({slot1: string}) -> {field1: number}.",
            domains.domain_a,
            {"slot1": "string"},
            "object",
            pass_context=True,
            parameter_descriptions={"slot1": "any text" + _ONE_TEXT},
        ),
        FunctionDescription(
            "domainB",
            "Seed 000's abstract service B: domainB({slot2: string}) -> [{field2: string}].",
            domains.domain_b,
            {"slot2": "string"},
            "array",
            pass_context=True,
            parameter_descriptions={"slot2": "any text" + _ONE_TEXT},
        ),
        FunctionDescription(
            "domainC",
            "Seed 000's abstract service C: domainC({slot3: number, slot4: string}) -> string.",
            domains.domain_c,
            {"slot3": "number", "slot4": "string"},
            "string",
            pass_context=True,
            parameter_descriptions={"slot3": "a number", "slot4": "any text"},
        ),
    ]


@hookimpl
def dialectic_register_functions(register: Register) -> None:
    register(*descriptions())
