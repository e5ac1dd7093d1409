"""Ambiguities are reported in program order on every path: synchronous (an array, a call's
arguments on each fast path, a template), asynchronous, mixed and nested, on asyncio and trio;
an argument's coercion ambiguity is collected with the other arguments' ambiguities."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import anyio
import pytest

from dialectic import (
    Ambiguous,
    Candidate,
    FunctionDescription,
    Outcome,
    Runtime,
    TypeConversion,
    TypeDescription,
)

BACKENDS = ["asyncio", "trio"]


def _question(name: str) -> Ambiguous:
    return Ambiguous(
        f"Which {name}?",
        [Candidate(f"{name} one", {"ok": {}}), Candidate(f"{name} two", {"ok": {}})],
    )


def pick(name: str) -> str:
    raise _question(name)


async def apick(name: str, delay: float = 0) -> str:
    await anyio.sleep(delay)
    raise _question(name)


async def aok(value: Any = None) -> Any:
    await anyio.sleep(0)
    return value


@dataclass
class City:
    name: str


def to_city(text: str) -> City:
    raise _question(text)  # a conversion that finds several results


def runtime() -> Runtime:
    rt = Runtime(load_entry_points=False)
    rt.register(
        FunctionDescription("ok", "1", lambda: 1, {}),
        FunctionDescription("pick", "ambiguous", pick, {"name": "string"}),
        FunctionDescription(
            "apick", "ambiguous, later", apick, {"name": "string", "delay": "number"}
        ),
        FunctionDescription("aok", "its value", aok, {"value": "any"}),
        FunctionDescription("pair", "a pair", lambda a, b: [a, b], {"a": "any", "b": "any"}),
        FunctionDescription(
            "triple", "three", lambda a, b, c: [a, b, c], {"a": "any", "b": "any", "c": "any"}
        ),
        FunctionDescription("apair", "a pair, later", _apair, {"a": "any", "b": "any"}, "array"),
        TypeDescription("city", "a city", City, {"name": "string"}, City),
        TypeConversion("string", "city", "look the city up", to_city),
        FunctionDescription(
            "visit", "visit", lambda who, where: "ok", {"who": "string", "where": "city"}
        ),
        FunctionDescription("avisit", "visit, later", _avisit, {"who": "string", "where": "city"}),
    )
    return rt


async def _avisit(who: str, where: City) -> str:
    await anyio.sleep(0)
    return "ok"


async def _apair(a: Any, b: Any) -> list[Any]:
    await anyio.sleep(0)
    return [a, b]


def questions(out: Outcome) -> list[str]:
    """The ambiguous parts, in the order the outcome lists them."""
    assert out.status == "ambiguous", out.message
    names = []
    for s in out.suggestions:  # a suggestion resolves every part: "a1 and b1 and c1"
        for part in s.description.split(" and "):
            name = part.split()[0]
            if name not in names:
                names.append(name)
    message = out.message or ""
    positions = [message.index(f"Which {n}?") for n in names]
    assert positions == sorted(positions), message  # the message agrees with the suggestions
    return names


def run_on(backend: str, program: Any, lang: str | None = None) -> Outcome:
    prepared = runtime().prepare(program, lang=lang)

    async def main() -> Outcome:
        return await prepared.run_async()

    return anyio.run(main, backend=backend)


@pytest.mark.parametrize(
    ("program", "lang"),
    [
        ([{"pick": "a"}, {"pick": "b"}, {"pick": "c"}], None),  # array elements
        ({"pair": [{"pick": "a"}, {"pick": "b"}]}, None),  # a two-argument call
        ({"triple": [{"pick": "a"}, {"pick": "b"}, {"pick": "c"}]}, None),  # any other call
        ("return `${pick('a')}-${pick('b')}-${pick('c')}`;", "plan"),  # a template
        ("return {x: pick('a'), y: [pick('b'), pick('c')]};", "plan"),  # nested data
        ("return pair(pick('a'), triple(pick('b'), 1, pick('c')));", "plan"),  # nested calls
    ],
)
def test_synchronous_ambiguities_come_in_program_order(program: Any, lang: str | None) -> None:
    out = runtime().run(program, lang=lang)
    assert questions(out) == ["a", "b", "c"][: len(questions(out))]
    assert len(questions(out)) >= 2


def test_a_coercion_ambiguity_is_collected_with_the_other_arguments() -> None:
    out = runtime().run({"visit": {"who": {"pick": "a"}, "where": "b"}})
    assert questions(out) == ["a", "b"]
    out = runtime().run({"pair": [{"visit": ["x", "a"]}, {"visit": [{"pick": "b"}, "c"]}]})
    assert questions(out) == ["a", "b", "c"]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    ("program", "expected"),
    [
        # an asynchronous element before a synchronous one
        ([{"apick": ["a", 0]}, {"pick": "b"}], ["a", "b"]),
        # finishing in reverse order
        ([{"apick": ["a", 0.03]}, {"pick": "b"}, {"apick": ["c", 0]}], ["a", "b", "c"]),
        # a synchronous function with asynchronous arguments, inside a fan-out
        (
            [{"pair": [{"apick": ["a", 0.02]}, {"pick": "b"}]}, {"pick": "c"}, {"apick": ["d", 0]}],
            ["a", "b", "c", "d"],
        ),
        # an asynchronous function with mixed arguments
        ({"apair": [{"pick": "a"}, {"apick": ["b", 0]}]}, ["a", "b"]),
        ({"apair": [{"apick": ["a", 0.02]}, {"pick": "b"}]}, ["a", "b"]),
        # an argument's coercion after an asynchronous argument
        ({"visit": {"who": {"apick": ["a", 0.01]}, "where": "b"}}, ["a", "b"]),
        # launched calls whose arguments (evaluation or coercion) are ambiguous
        (
            [{"avisit": {"who": {"pick": "a"}, "where": "b"}}, {"aok": 1}, {"avisit": ["x", "c"]}],
            ["a", "b", "c"],
        ),
        # a template with asynchronous parts
        ({"$template": [{"apick": ["a", 0.02]}, "-", {"pick": "b"}]}, ["a", "b"]),
        # nested fan-outs
        (
            [
                [{"aok": 1}, {"apick": ["a", 0.03]}, {"pick": "b"}],
                {"triple": [{"pick": "c"}, {"aok": 2}, {"apick": ["d", 0]}]},
            ],
            ["a", "b", "c", "d"],
        ),
    ],
)
def test_ambiguities_in_program_order_on_asynchronous_paths(
    backend: str, program: Any, expected: list[str]
) -> None:
    assert questions(run_on(backend, program)) == expected
