"""An expression with one asynchronous part among synchronous ones (``{id, v: await f(id)}``,
``(await f(x)) + 1``) awaits that part in its own frame (``run.gather.one_awaited``): the
synchronous parts first, in order, then the one awaited; ambiguities of all of them together,
in the order written, whichever was found first."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from dialectic import Ambiguous, Candidate, FunctionDescription, Runtime


def _ambiguous(name: str) -> Ambiguous:
    return Ambiguous(
        f"Which {name}?",
        [Candidate(f"{name} one", f"{name}1"), Candidate(f"{name} two", f"{name}2")],
    )


async def pick(name: str) -> str:
    await anyio.sleep(0)
    raise _ambiguous(name)


def ask(name: str) -> str:
    raise _ambiguous(name)


async def later(x: Any) -> Any:
    await anyio.sleep(0)
    return x


def runtime() -> Runtime:
    rt = Runtime(load_entry_points=False)
    rt.register(
        FunctionDescription("pick", "asks, later", pick, {"name": "string"}, "string"),
        FunctionDescription("ask", "asks now", ask, {"name": "string"}, "string"),
        FunctionDescription("later", "x, later", later, {"x": "any"}, "any"),
    )
    return rt


@pytest.mark.parametrize(
    ("program", "order"),
    [
        ("return {x: await pick('city'), y: ask('date')};", ["city", "date"]),
        ("return {x: ask('city'), y: await pick('date')};", ["city", "date"]),
        ("return [ask('a'), await pick('b'), ask('c')];", ["a", "b", "c"]),
        ("return `${await pick('a')}-${ask('b')}`;", ["a", "b"]),
    ],
)
def test_ambiguities_in_the_order_written(program: str, order: list[str]) -> None:
    out = runtime().run(program, lang="plan")
    assert out.status == "ambiguous", out.message
    message = out.message or ""
    places = [message.index(f"Which {name}?") for name in order]
    assert places == sorted(places), message


@pytest.mark.parametrize(
    ("program", "value"),
    [
        ("const id = 4; return {id, v: (await later(id)) + 1};", {"id": 4, "v": 5}),
        ("return [1, await later(2), 3];", [1, 2, 3]),
        ("return (await later(2)) * 10 + 1;", 21),
        ("return `a${await later('b')}c`;", "abc"),
    ],
)
def test_values(program: str, value: Any) -> None:
    out = runtime().run(program, lang="plan")
    assert out.status == "success" and out.value == value, out.message


def test_a_synchronous_part_s_failure_comes_before_the_call() -> None:
    """The synchronous parts are evaluated first (as before): their failure is the run's, and
    the asynchronous part's call is never made."""
    rt = runtime()
    made: list[Any] = []

    async def record(x: Any) -> Any:
        made.append(x)
        return x

    rt.register(FunctionDescription("record", "x", record, {"x": "any"}, "any"))
    out = rt.run("return [await record(1), JSON.parse('{')];", lang="plan")
    assert out.status == "failure" and made == [], (out.message, made)
