"""Scopes and concurrency (SPEC 17): calls of different scopes never wait for each other,
reads between two writes of a scope run together, and a key-value store from BFCL's real
multi-turn documents keeps its writes in order. Orders of events are checked, never times."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest
from memfs import DOCS

from dialectic import FunctionDescription, Runtime
from dialectic.registry.importers import from_bfcl

BACKENDS = ["asyncio", "trio"]


class Recorder:
    """Async functions that record when each call starts and ends."""

    def __init__(self) -> None:
        self.events: list[str] = []

    def function(self, name: str, effects: str, scope: str, delay: float) -> FunctionDescription:
        async def impl(key: str) -> str:
            self.events.append(f"start {name} {key}")
            await anyio.sleep(delay)
            self.events.append(f"end {name} {key}")
            return key

        return FunctionDescription(
            name, name, impl, {"key": "string"}, "string", effects=effects, scope=scope
        )


def run(rt: Runtime, program: str, backend: str) -> Any:
    async def main() -> Any:
        return await rt.run_async(program, lang="plan")

    out = anyio.run(main, backend=backend)
    assert out.status == "success", out.message
    return out.value


@pytest.mark.parametrize("backend", BACKENDS)
def test_scopes_do_not_wait_for_each_other(backend: str) -> None:
    rec = Recorder()
    rt = Runtime(load_entry_points=False)
    rt.register(
        rec.function("slow_put", "write", "a", 0.2),
        rec.function("quick_put", "write", "b", 0.0),
        rec.function("other_put", "write", "b", 0.0),
    )
    run(rt, "slow_put('x');\nquick_put('y');\nother_put('z');\nreturn 1;", backend)
    # b's two writes ran (in order) while a's write was still running
    assert rec.events.index("end other_put z") < rec.events.index("end slow_put x")
    assert rec.events.index("end quick_put y") < rec.events.index("start other_put z")


@pytest.mark.parametrize("backend", BACKENDS)
def test_reads_between_writes_run_together(backend: str) -> None:
    rec = Recorder()
    rt = Runtime(load_entry_points=False)
    rt.register(rec.function("put", "write", "s", 0.0), rec.function("get", "read", "s", 0.05))
    program = "put('1');\na = get('a');\nb = get('b');\nput('2');\nreturn [a, b];"
    assert run(rt, program, backend) == ["a", "b"]
    e = rec.events
    assert e[0:2] == ["start put 1", "end put 1"]
    assert sorted(e[2:4]) == ["start get a", "start get b"]  # both started before either ended
    assert sorted(e[4:6]) == ["end get a", "end get b"]
    assert e[6:] == ["start put 2", "end put 2"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_lazy_read_after_the_last_write_waits_for_it(backend: str) -> None:
    rec = Recorder()
    rt = Runtime(load_entry_points=False)
    rt.register(rec.function("put", "write", "s", 0.05), rec.function("get", "read", "s", 0.0))
    assert run(rt, "put('1');\nx = get('x');\nunused = get('u');\nreturn x;", backend) == "x"
    assert rec.events == ["start put 1", "end put 1", "start get x", "end get x"]


def test_bfcl_key_value_store_keeps_its_writes_in_order() -> None:
    docs = {
        d["name"]: d
        for d in map(json.loads, (DOCS / "memory_kv.json").read_text("utf-8").splitlines())
        if d
    }
    store: dict[str, str] = {}
    log: list[str] = []
    writes = [n for n in docs if any(w in n for w in ("add", "replace", "remove", "clear"))]
    reads = [n for n in docs if n not in writes]
    assert writes and reads, sorted(docs)

    def impl_for(name: str) -> Any:
        def impl(**kwargs: Any) -> Any:
            log.append(name)
            return {"status": "ok", "keys": sorted(store)}

        return impl

    rt = Runtime(load_entry_points=False)
    for name in writes:
        rt.register(from_bfcl(docs[name], impl_for(name), effects="write", scope="memory"))
    for name in reads:
        rt.register(from_bfcl(docs[name], impl_for(name), scope="memory"))
    first, second = writes[0], writes[-1]
    prepared = rt.prepare(
        f"{first}({_args(docs[first])});\n{second}({_args(docs[second])});\nreturn 1;", lang="plan"
    )
    assert prepared.error is None, prepared.error
    shown = prepared.preview().to_json()
    assert [c["function"] for c in shown] == [first, second]
    assert prepared.run().status == "success"
    assert log == [first, second]


def _args(doc: dict[str, Any]) -> str:
    """Literal arguments for a BFCL document's required parameters."""
    params = doc["parameters"]
    required = params.get("required", [])
    values = {"string": "'k'", "integer": "1", "float": "1.5", "boolean": "true", "array": "[]"}
    parts = []
    for name in required:
        kind = params["properties"][name].get("type")
        parts.append(f"{name}: {values.get(kind, repr('k'))}")
    return "{" + ", ".join(parts) + "}"


def test_docs_are_the_real_corpus() -> None:
    assert Path(DOCS, "gorilla_file_system.json").is_file()


def test_declaring_effects() -> None:
    from dialectic import function

    def drop_table(table: str) -> str:
        """Drop a table."""
        return table

    drop: FunctionDescription = function(effects="destructive", idempotent=True, scope="db")(
        drop_table
    )

    assert (drop.effects, drop.idempotent, drop.effect_scope) == ("destructive", True, "db")
    assert drop.changes_things
    plain = FunctionDescription("f", "f", lambda: 1)
    assert (plain.effects, plain.idempotent, plain.effect_scope) == ("read", False, "")
    assert FunctionDescription("g", "g", lambda: 1, namespace="ns").effect_scope == "ns"
    with pytest.raises(ValueError, match="use one of pure, read, write, destructive"):
        FunctionDescription("h", "h", lambda: 1, effects="delete")


def test_a_plugin_is_the_default_scope() -> None:
    import types

    from dialectic import hookimpl

    plugin = types.ModuleType("kvplugin")

    @hookimpl
    def dialectic_register_functions(register: Any) -> None:
        register(FunctionDescription("put", "a write", lambda: None, effects="write"))
        register(FunctionDescription("own", "a write", lambda: None, effects="write", scope="x"))

    plugin.dialectic_register_functions = dialectic_register_functions  # type: ignore[attr-defined]
    rt = Runtime(plugins=(plugin,), load_entry_points=False)
    rt.register(FunctionDescription("mine", "a write", lambda: None, effects="write"))
    scopes = {n: rt.registry.functions[n].effect_scope for n in ("put", "own", "mine")}
    assert scopes == {"put": "kvplugin", "own": "x", "mine": ""}
