"""OpenTelemetry spans for a run and its calls (SPEC 18), through ``opentelemetry-api`` when the
application has it and has configured a tracer provider; nothing at all otherwise.

The API is never imported here: an application that traces has imported it already (to set its
tracer provider), so a run looks in ``sys.modules`` and finds either nothing (no cost) or the
global provider. The API's default provider (a proxy until one is set, or the no-op one) makes
non-recording spans: then no span is started at all.
"""

from __future__ import annotations

import sys
from typing import Any

TRACER_NAME = "dialectic"
#: the module an application that traces has imported (looked up, never imported here)
TRACING = "opentelemetry.trace"


def tracer() -> Any | None:
    """The OpenTelemetry tracer for this run, or None (no API imported, no provider set)."""
    trace = sys.modules.get(TRACING)
    if trace is None:
        return None
    try:
        provider = trace.get_tracer_provider()
        if isinstance(provider, trace.ProxyTracerProvider | trace.NoOpTracerProvider):
            return None
        return provider.get_tracer(TRACER_NAME)
    except Exception:  # an API of another shape: no spans rather than a broken run
        return None


def start_run_span(t: Any) -> Any:
    return t.start_span("dialectic.run")


def start_call_span(t: Any, run_span: Any, function: str, path: str) -> Any:
    """A span for one call, a child of the run's span (passed explicitly: concurrent calls
    run in tasks that do not share a current span)."""
    trace = sys.modules[TRACING]
    return t.start_span(
        f"dialectic.call {function}",
        context=trace.set_span_in_context(run_span),
        attributes={"dialectic.function": function, "dialectic.path": path},
    )


def end_call_span(span: Any, status: str, duration: float | None, replayed: bool) -> None:
    span.set_attribute("dialectic.status", status)
    if duration is not None:
        span.set_attribute("dialectic.duration", duration)
    if replayed:
        span.set_attribute("dialectic.replayed", True)
    span.end()


def end_run_span(span: Any, status: str, calls: int) -> None:
    span.set_attribute("dialectic.status", status)
    span.set_attribute("dialectic.calls", calls)
    span.end()
