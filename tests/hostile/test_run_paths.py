"""The same hostile programs through every way of running one: ``Runtime.run``, ``Prepared.run``
twice (the cache), ``await Prepared.run_async`` and ``Prepared.run`` called from inside an event
loop (the helper-thread path). Each path ends in the same clean outcome."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anyio
import pytest

from dialectic import Outcome, Runtime

Clean = Callable[..., Outcome]

CASES: list[tuple[Any, str | None]] = [
    ({"sleepEcho": {"$quote": {"a": 1}}}, None),
    ({"$get": [{"sleepEcho": {"$quote": {"a": 1}}}, "__class__"]}, None),
    ({"$get": [{"sleepEcho": {"$quote": {"a": 1, "b": 2}}}, {"sleepEcho": "constructor"}]}, None),
    ({"boom": "x"}, None),
    ({"asyncAdd": [{"refuse": "no"}, {"sleepEcho": 1}]}, None),
    ([{"find": "parse"}, {"sleepEcho": {"find": "validateToken"}}], None),
    ({"sleepEcho": float("nan")}, None),
    ({"sleepEcho": [10**400]}, None),
    ({"$template": [{"sleepEcho": "a"}, {"sleepEcho": 1.0}]}, None),
    ("a = sleepEcho(1);\nreturn a.__proto__;", "plan"),
    ("a = sleepEcho('x');\nreturn `${a}${a}`;", "plan"),
    ("return add(sleepEcho(1), boom());", "plan"),
    # the optional argument left out by an undefined value (hypothesis found it unmapped)
    ("return boom(undefined);", "plan"),
    ({"boom": [{"$undefined": None}]}, None),
    ("a:\n  sleepEcho:\n    value: 1\nresult: ${a.constructor}\n", "plan2"),
    ("a:\n  sleepEcho:\n    value: 1\nresult: ${a}\n", "plan2"),
    ("return sleepEcho(", "plan"),
    (b'{"sleepEcho": "\xff"}', None),
]


def _key(out: Outcome) -> tuple[str, str | None]:
    return out.status, out.error.code if out.error else None


@pytest.mark.parametrize(("program", "lang"), CASES, ids=lambda v: repr(v)[:40])
def test_every_run_path_agrees(
    rt: Runtime, clean: Clean, check: Callable[[Outcome], Outcome], program: Any, lang: str | None
) -> None:
    first = clean(program, lang=lang, context={"x": 1})
    again = clean(program, lang=lang, context={"x": 1})
    assert _key(first) == _key(again)
    prepared = rt.prepare(program, lang=lang)

    async def inside_a_loop() -> tuple[Outcome, Outcome]:
        a = await prepared.run_async(context={"x": 1})
        b = prepared.run(context={"x": 1})  # from inside a loop: runs on a helper thread
        return a, b

    a, b = anyio.run(inside_a_loop)
    assert _key(check(a)) == _key(first)
    assert _key(check(b)) == _key(first)


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_in_loop_run_does_not_raise(rt: Runtime, check: Callable[[Outcome], Outcome]) -> None:
    prepared = rt.prepare({"sleepEcho": {"$ref": "x"}})

    async def inside_a_loop() -> Outcome:
        return prepared.run(context={"x": {1: 2}})

    check(anyio.run(inside_a_loop))


@pytest.mark.parametrize(
    ("lang", "options"),
    [(5, {}), ("plan2", {"slots": "bogus"}), ("plan2", {"nonsense": 1})],
    ids=["lang-int", "slots", "unknown-option"],
)
def test_bad_host_arguments_are_outcomes(
    rt: Runtime, check: Callable[[Outcome], Outcome], lang: Any, options: dict[str, Any]
) -> None:
    check(rt.prepare("result: 1\n", lang=lang, **options).run())


def test_unknown_notation_is_a_failure(clean: Clean) -> None:
    out = clean("[1]", lang="bogus")
    assert out.status == "failure"
