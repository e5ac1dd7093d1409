"""What keeps preparing cheap: the garbage collector paused and restored around it, and the
facts about a function's implementation (``inspect``) computed once per description."""

from __future__ import annotations

import gc
from typing import Any

import pytest

from dialectic import FunctionDescription, Runtime


@pytest.mark.parametrize(
    "program",
    [
        {"upper": "a"},
        {"nope": 1},  # unknown function
        "return (",  # a syntax error (Plan)
        [[[[[[1]]]]]],
        "x" * 2_000_000,  # over max_program_bytes
    ],
)
def test_prepare_restores_the_collector(program: Any) -> None:
    rt = Runtime(load_entry_points=False)
    assert gc.isenabled()
    rt.prepare(program)
    assert gc.isenabled()


def test_prepare_leaves_a_paused_collector_paused() -> None:
    rt = Runtime(load_entry_points=False)
    gc.disable()
    try:
        rt.prepare({"upper": "a"})
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_prepare_restores_the_collector_when_interrupted(monkeypatch: pytest.MonkeyPatch) -> None:
    import dialectic.run.prepared as runtime_module  # where Prepared calls the front end

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(runtime_module, "to_tree", interrupted)
    rt = Runtime(load_entry_points=False)
    with pytest.raises(KeyboardInterrupt):
        rt.prepare('{"upper": "a"}')
    assert gc.isenabled()


async def fetch(id: int, extra: int = 0) -> int:
    return id


def both(a: int, b: int) -> int:
    return a + b


def keyword_only(*, a: int) -> int:
    return a


class AsyncCallable:
    async def __call__(self, x: int) -> int:
        return x


def test_call_facts() -> None:
    f = FunctionDescription("fetch", "", fetch, {"id": "integer"})
    assert f.is_async
    assert f.takes_positionally(["id"])
    assert f.takes_positionally(["id", "extra"])
    assert not f.takes_positionally(["extra"])
    g = FunctionDescription("both", "", both, {"a": "integer", "b": "integer"})
    assert not g.is_async
    assert g.takes_positionally(["a", "b"])
    assert not g.takes_positionally(["a"])  # b would be missing
    assert not g.takes_positionally(["b", "a"])
    k = FunctionDescription("k", "", keyword_only, {"a": "integer"})
    assert not k.takes_positionally(["a"])
    assert FunctionDescription("c", "", AsyncCallable(), {"x": "integer"}).is_async
    assert not FunctionDescription("u", "", str.upper, {"self": "string"}).takes_positionally(
        ["self"]
    )


def test_call_facts_are_computed_once_and_follow_the_implementation() -> None:
    f = FunctionDescription("both", "", both, {"a": "integer", "b": "integer"})
    facts = f.call_facts()
    assert f.call_facts() is facts
    f.implementation = fetch
    assert f.call_facts() is not facts
    assert f.is_async


def test_registration_computes_the_facts() -> None:
    f = FunctionDescription("both", "", both, {"a": "integer", "b": "integer"})
    rt = Runtime(load_entry_points=False)
    rt.register(f)
    assert f._facts is not None
    assert rt.run('{"both": [1, 2]}').value == 3


def test_signature_is_cached_and_follows_the_registration() -> None:
    rt = Runtime(load_entry_points=False)
    f = FunctionDescription("both", "", both, {"a": "integer", "b": "integer"}, "integer")
    rt.register(f)
    text = rt.registry.signature(f)
    assert text == "both(a: integer, b: integer) -> integer"
    assert rt.registry.signature(f) is text
    other = FunctionDescription("both", "", both, {"a": "integer"}, "integer")
    assert rt.registry.signature(other) == "both(a: integer) -> integer"
