"""dialectic: a runtime for programs, written by LLMs, that compose calls to tools and services.

The pipeline::

    front end   text (Dialect JSON | Plan | Plan2)  ->  call tree (canonical JSON)
    compiler    call tree + registry                 ->  closures (once, ``Runtime.prepare``)
    evaluator   closures + context                   ->  value (sync inline, async with anyio)
    outcome     value | failure | ambiguity          ->  ``Outcome`` (success/failure/ambiguous)

Extensions register functions, types, conversions and constants through pluggy hooks
(entry-point group ``dialectic``). SPEC.md is the language's source of truth.
"""

from dialectic.frontends import compile
from dialectic.limits import Limits
from dialectic.outcome.errors import Ambiguous, Candidate, DialecticError, Failure, PluginError
from dialectic.outcome.outcome import ErrorInfo, Outcome, Suggestion
from dialectic.registry.decorators import function
from dialectic.registry.descriptions import (
    Constant,
    FunctionDescription,
    Optional,
    RunContext,
    TypeConversion,
    TypeDescription,
)
from dialectic.registry.plugins import hookimpl
from dialectic.runtime import Prepared, Runtime

__all__ = [
    "Ambiguous",
    "ErrorInfo",
    "Limits",
    "Outcome",
    "Prepared",
    "Runtime",
    "Suggestion",
    "compile",
    "function",
    "Candidate",
    "Constant",
    "DialecticError",
    "Failure",
    "FunctionDescription",
    "Optional",
    "PluginError",
    "RunContext",
    "TypeConversion",
    "TypeDescription",
    "hookimpl",
]
