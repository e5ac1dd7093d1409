"""Calls compiled straight to their closure (:mod:`dialectic.compiler.calls`: a synchronous
function with no validator, context, call log or effects, of one or two synchronous arguments,
whose call site is built only when a run needs it) give what the general call gives, value for
value and error for error; the call-site facts kept per function follow the function when it
changes, and keep nothing alive; a ``+`` chain compiled from its innermost ``+`` out gives what
one closure per ``+`` gives, asynchronous operands included."""

from __future__ import annotations

import asyncio
import gc
import random
import weakref
from typing import Any

import pytest

import dialectic.compiler.calls as calls
import dialectic.compiler.invoke as invoke
import dialectic.compiler.plus as plus_module
from dialectic import FunctionDescription, Runtime
from dialectic.compiler import sitefacts

from .test_fused_closures import OPERANDS, outcome, runtime

#: calls of the built-in library (the functions that are plain): every argument form, every
#: way to fail (undefined, coercion, a refused or ambiguous argument, text too long)
PLAIN = [
    "upper(x.s)",
    "upper('ab')",
    "upper(3)",
    "upper(x.n)",
    "upper(x.nil)",
    "upper(undefined)",
    "upper(x.arr)",
    "upper(pick('p'))",
    "lower(x.obj)",
    "trim(x.e)",
    "str(x.n)",
    "str(2.5)",
    "str(null)",
    "str(x.obj)",
    "str(x.big)",
    "str(undefined)",
    "str([1, undefined])",
    "str(pick('p'))",
    "length(x.s)",
    "length([1, undefined])",
    "unwrap([x.obj])",
    "unwrap([undefined])",
    "max(x.n, 3)",
    "max(3, x.n)",
    "max(1, 2)",
    "max('1', 2)",
    "max(2.5, x.n)",
    "max(x.n, 2.5)",
    "max(undefined, 3)",
    "max(x.n, undefined)",
    "max(x.num_text, 3)",
    "max(x.arr, 3)",
    "max(x.s, 3)",
    "max(x.nil, 3)",
    "max(x.n, '4')",
    "max(x.n, x.f)",
    "max(pick('p'), 3)",
    "max(pick('p'), pick('q'))",
    "min(x.z, 0)",
    "split(x.s)",
    "split('a,b', ',')",
    "split(x.s, undefined)",
    "split(undefined)",
    "split(x.s, x.n)",
    "join(x.arr)",
    "join([1, undefined, 'z'], '-')",
    "join(x.arr, x.n)",
    "join(x.s)",
    "join(x.obj)",
    "convert(x.n, 'string')",
    "convert(x.s, 'integer')",
]


@pytest.mark.parametrize("limit", [None, 4])
def test_plain_calls_agree_with_the_general_call(
    monkeypatch: pytest.MonkeyPatch, limit: int | None
) -> None:
    limits = {"max_string_length": limit} if limit else {}
    plain = runtime(**limits)
    programs = [f"return {c};" for c in PLAIN] + [f"return [{c}, {c}];" for c in PLAIN[:12]]
    fast = [outcome(plain, p) for p in programs]
    monkeypatch.setattr(calls, "PLAIN_CALLS", False)
    monkeypatch.setattr(invoke.SyncOne, "fits", staticmethod(lambda site: False))
    monkeypatch.setattr(invoke.SyncTwo, "fits", staticmethod(lambda site: False))
    general = runtime(**limits)
    for program, want in zip(programs, fast, strict=True):
        assert outcome(general, program) == want, program
    assert {w["status"] for w in fast} == {"success", "failure", "ambiguous"}
    if limit:
        codes = {w["error"]["code"] for w in fast if w["status"] == "failure"}
        assert "limit_exceeded" in codes


def test_a_plain_call_runs_again_and_again() -> None:
    # the call site built on the first failure serves every later run, failing or not
    rt = runtime()
    prepared = rt.prepare("return max(x.v, 3);", lang="plan")
    for v, want in [(5, 5), ("a", None), (1, 3), (None, None), (7.5, 7.5)]:
        out = prepared.run({"x": {"v": v}})
        if want is None:
            assert out.status == "failure"
            assert out.error is not None and out.error.path == "program.$return.max[0]"
        else:
            assert out.value == want


def _flag(value: Any, ctx: Any = None) -> Any:
    return [value, ctx is not None]


def test_the_call_facts_follow_the_function() -> None:
    rt = Runtime(load_entry_points=False)
    fn = FunctionDescription("flag", "its argument", _flag, {"value": "any"})
    rt.register(fn)
    program = "return flag(x.s);"
    assert outcome(rt, program)["value"] == ["ab", False]
    fn.pass_context = True
    assert outcome(rt, program + " ")["value"] == ["ab", True]
    fn.pass_context = False
    fn.validator = lambda kwargs: {"value": kwargs["value"] * 2}
    assert outcome(rt, program + "  ")["value"] == ["abab", False]
    fn.validator = None
    fn.implementation = lambda value: value.upper()
    assert outcome(rt, program + "   ")["value"] == "AB"
    # a built-in replaced by another registration: its calls call the new one
    upper = "return upper(x.s);"
    assert outcome(rt, upper)["value"] == "AB"
    rt.register(
        FunctionDescription("upper", "not upper", lambda text: f"<{text}>", {"text": "string"})
    )
    assert outcome(rt, upper + " ")["value"] == "<ab>"


def test_the_call_facts_keep_nothing_alive() -> None:
    rt = Runtime(load_entry_points=False)

    class Service:
        def call(self, value: Any) -> Any:
            return value

    service = Service()
    rt.register(FunctionDescription("call", "a method", service.call, {"value": "any"}))
    assert outcome(rt, "return [call(1), upper('a')];")["value"] == [1, "A"]
    registry, held = weakref.ref(rt.registry), weakref.ref(service)
    assert id(rt.registry) in sitefacts._TABLES
    key = id(rt.registry)
    del rt, service
    gc.collect()
    assert registry() is None and held() is None
    assert key not in sitefacts._TABLES


async def _later(value: Any) -> Any:
    await asyncio.sleep(0)
    return value


def _chains(rng: random.Random) -> list[str]:
    out = []
    for _ in range(80):
        terms = [rng.choice(OPERANDS) for _ in range(rng.randint(2, 22))]
        for i in rng.sample(range(len(terms)), rng.randint(1, min(3, len(terms)))):
            terms[i] = f"@({terms[i]})"
        out.append(" + ".join(terms))
    return out


@pytest.mark.parametrize("chain_max", [plus_module.CHAIN_MAX, 3])
def test_a_chain_compiled_in_one_walk_gives_what_one_compile_per_plus_gives(
    monkeypatch: pytest.MonkeyPatch, chain_max: int
) -> None:
    monkeypatch.setattr(plus_module, "CHAIN_MAX", chain_max)
    rt = runtime()
    rt.register(FunctionDescription("later", "its argument, later", _later, {"value": "any"}))
    rt.register(FunctionDescription("now", "its argument", lambda value: value, {"value": "any"}))
    chains = _chains(random.Random(5))
    programs = [f"return {c.replace('@', f)};" for c in chains for f in ("later", "now")]
    programs += [f"return {c.replace('@', '')};" for c in chains[:30]]
    walked = [outcome(rt, p) for p in programs]
    monkeypatch.setattr(plus_module, "SPINE", False)
    each = runtime()
    each.register(FunctionDescription("later", "its argument, later", _later, {"value": "any"}))
    each.register(FunctionDescription("now", "its argument", lambda value: value, {"value": "any"}))
    for program, want in zip(programs, walked, strict=True):
        assert outcome(each, program) == want, program
    assert {w["status"] for w in walked} >= {"success", "failure"}
