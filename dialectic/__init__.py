"""dialectic: a runtime for programs, written by LLMs, that compose calls to tools and services.

The pipeline, one package per stage::

    frontends/  text (Dialect JSON | Plan | Plan2)   ->  call tree (JSON)
    tree/       call tree                            ->  typed syntax nodes (size, depth checked)
    resolve/    syntax nodes + registry              ->  resolved nodes: names, bindings, alias
                                                         order, static limits (``compile`` shows
                                                         them as the canonical tree)
    compiler/   resolved nodes                       ->  closures (once, ``Runtime.prepare``)
    run/        closures + context                   ->  value (sync inline, async with anyio)
    outcome/    value | failure | ambiguity          ->  ``Outcome`` (success/failure/ambiguous)

Beside it: ``registry/`` (what plugins register), ``values/`` (JSON values, coercion,
JavaScript's operators and methods), ``tools/`` (CLI, describe, convert, analysis).

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
from dialectic.run.approval import Approval, ApprovalRequest
from dialectic.runtime import Prepared, Runtime

__all__ = [
    "Ambiguous",
    "Approval",
    "ApprovalRequest",
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
