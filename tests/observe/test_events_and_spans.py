"""The event hook and OpenTelemetry spans (SPEC 18)."""

from __future__ import annotations

from typing import Any

import pytest
from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from dialectic import Runtime
from dialectic.run import telemetry

from .conftest import Tools, make_runtime

PROGRAM = (
    "a = fetch({key: 'ab'}); b = book({city: 'Oslo'});"
    " return [a.value, b.ref, fail({reason: 'x'})];"
)


def test_events_in_order(tools: Tools) -> None:
    events: list[dict[str, Any]] = []
    out = make_runtime(tools).run(PROGRAM, lang="plan", on_event=events.append)
    assert out.status == "failure"
    kinds = [e["event"] for e in events]
    assert kinds[0] == "run_started" and kinds[-1] == "run_finished"
    assert events[-1]["status"] == "failure"
    calls = [e for e in events if e["event"].startswith("call_")]
    assert len(calls) == 6
    for fn in ("fetch", "book", "fail"):
        mine = [e for e in calls if e["function"] == fn]
        assert [e["event"] for e in mine] == ["call_started", "call_finished"]
        assert mine[0]["path"] == mine[1]["path"]
        assert mine[1]["time"] >= mine[0]["time"] >= 0
        assert mine[1]["duration"] >= 0
    finished = {e["function"]: e["status"] for e in calls if e["event"] == "call_finished"}
    assert finished == {"fetch": "done", "book": "done", "fail": "failed"}
    times = [e["time"] for e in events]
    assert times == sorted(times)


def test_a_failing_hook_does_not_break_the_run(tools: Tools) -> None:
    seen: list[str] = []

    def hook(event: dict[str, Any]) -> None:
        seen.append(event["event"])
        raise RuntimeError("hook broke")

    rt = Runtime(load_entry_points=False, on_event=hook)
    rt.register(*tools.functions())
    out = rt.run("return book({city: 'Oslo'}).ref;", lang="plan")
    assert out.status == "success" and out.value == "B-Oslo-1"
    assert seen == ["run_started", "call_started", "call_finished", "run_finished"]
    assert len([w for w in out.warnings if "on_event hook raised RuntimeError" in w]) == 1
    assert tools.calls == {"book": 1}


@pytest.fixture
def exporter(monkeypatch: pytest.MonkeyPatch) -> InMemorySpanExporter:
    """A real SDK tracer provider with the in-memory exporter, as the global provider for
    this test only (the API allows setting the global one once per process)."""
    memory = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(memory))
    monkeypatch.setattr(trace, "get_tracer_provider", lambda: provider)
    return memory


def test_spans_for_the_run_and_each_call(tools: Tools, exporter: InMemorySpanExporter) -> None:
    out = make_runtime(tools).run(PROGRAM, lang="plan")
    assert out.status == "failure"
    spans = exporter.get_finished_spans()
    runs = [s for s in spans if s.name == "dialectic.run"]
    calls = [s for s in spans if s.name.startswith("dialectic.call ")]
    assert len(runs) == 1 and len(calls) == 3
    run = runs[0]
    assert run.attributes is not None and run.attributes["dialectic.status"] == "failure"
    by_fn = {}
    for span in calls:
        attrs = span.attributes
        assert attrs is not None
        assert span.parent is not None and span.parent.span_id == run.context.span_id
        assert span.context.trace_id == run.context.trace_id
        by_fn[attrs["dialectic.function"]] = attrs
        assert str(attrs["dialectic.path"]).startswith("program.")
        assert isinstance(attrs["dialectic.duration"], float)
    assert {k: v["dialectic.status"] for k, v in by_fn.items()} == {
        "fetch": "done",
        "book": "done",
        "fail": "failed",
    }


def test_a_span_for_a_call_cut_short_by_the_deadline(
    tools: Tools, exporter: InMemorySpanExporter
) -> None:
    tools.slow = True
    out = make_runtime(tools, limits={"deadline": 0.2}).run(
        "return lookup({key: 'k'});", lang="plan"
    )
    assert out.status == "failure"
    [call] = [s for s in exporter.get_finished_spans() if s.name.startswith("dialectic.call")]
    assert call.attributes is not None and call.attributes["dialectic.status"] == "in_flight"


def test_no_tracer_without_a_configured_provider(monkeypatch: pytest.MonkeyPatch) -> None:
    # the API's default: a proxy provider, whose spans record nothing: no tracer, no work
    monkeypatch.setattr(trace, "get_tracer_provider", lambda: trace.ProxyTracerProvider())
    assert telemetry.tracer() is None
    monkeypatch.setattr(trace, "get_tracer_provider", lambda: trace.NoOpTracerProvider())
    assert telemetry.tracer() is None
