"""The ``ide`` plugin (entry point ``dialectic: ide = dialectic_ide.plugin``)."""

from __future__ import annotations

from dialectic import hookimpl
from dialectic.registry.plugins import Register

from .functions import CONVERSIONS, FUNCTIONS
from .types import TYPES


@hookimpl
def dialectic_register_types(register: Register) -> None:
    register(*TYPES)


@hookimpl
def dialectic_register_functions(register: Register) -> None:
    register(*FUNCTIONS)


@hookimpl
def dialectic_register_conversions(register: Register) -> None:
    register(*CONVERSIONS)
