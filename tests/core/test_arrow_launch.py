"""An arrow whose body is an asynchronous call of ready arguments (``ids.map(id => get(id))``),
applied to many elements at once, starts each application as the call itself starts in a
fan-out (``compiler.arrows.ArrowLaunch``): the arguments evaluated in the application's frame,
the implementation's own coroutine the task. Each program here runs that way and the general
way (``arrows.LAUNCHES`` off: a coroutine of the arrow's around the call's), and the outcomes
must agree: value, failure and its message, ambiguities in order, and the call log (which
calls were made, with what, from which element, and how each ended)."""

from __future__ import annotations

import asyncio
from typing import Any

import anyio
import pytest

from dialectic import Ambiguous, Candidate, Failure, FunctionDescription, Limits, Outcome, Runtime
from dialectic.compiler import arrows
from dialectic.run.journal import MemoryJournal

launched: list[Any] = []


async def step(a: int, b: int) -> int:
    await anyio.sleep(0)
    return a * 10 + b


async def slow(x: Any, seconds: float) -> Any:
    await anyio.sleep(seconds)
    return x


async def boom(msg: str, seconds: float) -> Any:
    await anyio.sleep(seconds)
    raise Failure(msg)


async def pick(name: str) -> str:
    await anyio.sleep(0)
    raise Ambiguous(
        f"Which {name}?",
        [Candidate(f"{name} one", f"{name}1"), Candidate(f"{name} two", f"{name}2")],
    )


async def hang(x: Any) -> Any:
    await anyio.sleep(3600)
    return x


def runtime(**limits: Any) -> Runtime:
    rt = Runtime(load_entry_points=False, limits=Limits(**limits) if limits else None)
    rt.register(
        FunctionDescription("step", "combine", step, {"a": "integer", "b": "integer"}, "integer"),
        FunctionDescription("slow", "x, later", slow, {"x": "any", "seconds": "number"}, "any"),
        FunctionDescription("boom", "fails later", boom, {"msg": "string", "seconds": "number"}),
        FunctionDescription("pick", "asks", pick, {"name": "string"}, "string"),
        FunctionDescription("hang", "never ends", hang, {"x": "any"}, "any", timeout=0.05),
    )
    return rt


def summary(out: Outcome) -> dict[str, Any]:
    """The outcome as JSON, the call log's timings left out (and its order: calls that start
    together may be logged in either order)."""
    got = out.to_json(calls=True)
    log = got.pop("calls", [])
    got["calls"] = sorted(
        repr({k: v for k, v in c.items() if k not in ("start", "duration")}) for c in log
    )
    return got


def run_both(program: str, context: dict[str, Any] | None = None, **limits: Any) -> tuple[Any, Any]:
    """The program's outcome with arrow applications launched and the general way."""
    outs = []
    for launch in (True, False):
        arrows.LAUNCHES = launch
        try:
            prepared = runtime(**limits).prepare(program, lang="plan")
            assert not prepared.errors, prepared.errors

            async def main(prepared: Any = prepared) -> Outcome:
                out = await prepared.run_async(context)
                assert asyncio.all_tasks() == {asyncio.current_task()}  # none left behind
                return out  # type: ignore[no-any-return]

            outs.append(summary(asyncio.run(main())))
        finally:
            arrows.LAUNCHES = True
    return outs[0], outs[1]


CASES: dict[str, tuple[str, dict[str, Any]]] = {
    "values": ("return await Promise.all(ids.map(id => step(id, 1)));", {"ids": [1, 2, 3]}),
    "the index and a context value": (
        "return await Promise.all(ids.map((id, i) => step(id + k, i)));",
        {"ids": [1, 2, 3], "k": 5},
    ),
    "without Promise.all": ("const xs = ids.map(id => step(id, 2)); return xs;", {"ids": [4, 5]}),
    "a member of the element": (
        "return await Promise.all(users.map(u => step(u.id, u.n)));",
        {"users": [{"id": 1, "n": 2}, {"id": 3, "n": 4}]},
    ),
    "an argument that is not an integer": (
        "return await Promise.all(xs.map(x => step(x, 1)));",
        {"xs": [1, "a", 3]},
    ),
    "a member missing": (
        "return await Promise.all(users.map(u => step(u.id, u.nope.x)));",
        {"users": [{"id": 1}, {"id": 2}]},
    ),
    "an element's call fails": (
        "return await Promise.all(ms.map(m => boom(m, 0.01)));",
        {"ms": ["first", "second"]},
    ),
    "a failure stops the other calls": (
        "return await Promise.all(xs.map(x => x > 1 ? boom('broke', 0.01) : slow(x, 30)));",
        {"xs": [1, 2]},
    ),
    "ambiguities in element order": (
        "return await Promise.all(names.map(n => pick(n)));",
        {"names": ["city", "date", "time"]},
    ),
    "a call's own timeout": ("return await Promise.all(xs.map(x => hang(x)));", {"xs": [1, 2]}),
    "nested arrows": (
        "return await Promise.all(rows.map(r =>"
        " Promise.all(r.map((x, j) => step(x, r.length + j)))));",
        {"rows": [[1, 2], [3], [4, 5, 6]]},
    ),
    "an empty array and one element": (
        "return [await Promise.all(e.map(x => step(x, 1))),"
        " await Promise.all(one.map(x => step(x, 1)))];",
        {"e": [], "one": [7]},
    ),
    "filter's results, then the calls": (
        "const big = ids.filter(i => i > 1); return await Promise.all(big.map(i => step(i, 0)));",
        {"ids": [1, 2, 3]},
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_launched_applications_agree_with_the_general_way(name: str) -> None:
    program, context = CASES[name]
    launched_out, general = run_both(program, context)
    assert launched_out == general


def test_the_cases_show_what_they_say() -> None:
    out, _ = run_both(*CASES["values"])
    assert out["value"] == [11, 21, 31] and len(out["calls"]) == 3
    out, _ = run_both(*CASES["the index and a context value"])
    assert out["value"] == [60, 71, 82]
    out, _ = run_both(*CASES["an argument that is not an integer"])
    assert out["status"] == "failure" and "integer" in out["message"]
    out, _ = run_both(*CASES["ambiguities in element order"])
    assert out["status"] == "ambiguous"
    message = out["message"]
    assert (
        message.index("Which city?") < message.index("Which date?") < message.index("Which time?")
    )
    out, _ = run_both(*CASES["a call's own timeout"])
    assert out["error"]["code"] == "timeout"
    out, _ = run_both(*CASES["nested arrows"])
    assert out["value"] == [[12, 23], [31], [43, 54, 65]]


def test_the_arrow_takes_the_launch_only_when_its_body_is_such_a_call() -> None:
    rt = runtime()

    def launches(text: str) -> list[bool]:
        found: list[bool] = []
        original = arrows.Arrow.__init__

        def spy(self: arrows.Arrow, *args: Any, **kwargs: Any) -> None:
            original(self, *args, **kwargs)
            found.append(self.launch is not None)

        arrows.Arrow.__init__ = spy  # type: ignore[method-assign]
        try:
            assert not rt.prepare(text, lang="plan").errors
        finally:
            arrows.Arrow.__init__ = original  # type: ignore[method-assign]
        return found

    assert launches("return await Promise.all(ids.map(id => step(id, 1)));") == [True]
    # a body that does more than the call, or has aliases of its own: the general way
    assert launches("return await Promise.all(ids.map(async id => (await step(id, 1)) + 1));") == [
        False
    ]
    assert launches(
        "return await Promise.all(ids.map(async id => { const v = await step(id, 1); return v; }));"
    ) == [False]
    assert launches("return ids.map(id => id + 1);") == [False]


def test_observed_limited_and_trio_runs_take_the_general_way_with_the_same_answer() -> None:
    program, context = CASES["values"]
    prepared = runtime(max_concurrency=1).prepare(program, lang="plan")
    assert asyncio.run(prepared.run_async(context)).value == [11, 21, 31]
    prepared = runtime().prepare(program, lang="plan")
    journal = MemoryJournal()
    assert asyncio.run(prepared.run_async(context, journal=journal)).value == [11, 21, 31]
    assert journal.entries

    async def on_trio() -> Outcome:
        return await prepared.run_async(context)

    assert anyio.run(on_trio, backend="trio").value == [11, 21, 31]


def test_the_deadline_stops_every_application_and_leaves_no_task() -> None:
    out, general = run_both(
        "return await Promise.all(xs.map(x => slow(x, 30)));", {"xs": [1, 2, 3]}, deadline=0.1
    )
    assert out == general and out["status"] == "failure" and "deadline" in out["message"]
