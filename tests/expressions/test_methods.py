"""Arrow functions, array and text methods, JavaScript's globals, spread and optional access
(SPEC 1.8): JavaScript's value (checked against Node.js on generated programs) or a refusal."""

from __future__ import annotations

import threading
from typing import Any

import anyio
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dialectic.testing
from dialectic import FunctionDescription, Runtime

from .test_node_differential import _check

ACTIVE = {"now": 0, "peak": 0}
LOCK = threading.Lock()


async def lookup(code: str) -> dict[str, Any]:
    with LOCK:
        ACTIVE["now"] += 1
        ACTIVE["peak"] = max(ACTIVE["peak"], ACTIVE["now"])
    await anyio.sleep(0.01)
    with LOCK:
        ACTIVE["now"] -= 1
    return {"code": code, "price": len(code) * 100}


def _runtime(**limits: Any) -> Runtime:
    rt = Runtime(plugins=[dialectic.testing], load_entry_points=False, limits=limits or None)
    rt.register(
        FunctionDescription("lookup", "a slow lookup", lookup, {"code": "string"}, "object")
    )
    return rt


RT = _runtime()


def fn(params: list[str], body: Any) -> dict[str, Any]:
    return {"$fn": [params, body]}


def ref(name: str) -> dict[str, Any]:
    return {"$ref": name}


def get(target: Any, *keys: Any) -> dict[str, Any]:
    return {"$get": [target, *keys]}


def m(target: Any, name: str, *args: Any) -> dict[str, Any]:
    return {"$method": [target, name, *args]}


def op(o: str, *xs: Any) -> dict[str, Any]:
    return {"$op": [o, *xs]}


FLIGHTS = [
    {"airline": "United", "price_usd": 320},
    {"airline": "Delta", "price_usd": 210},
    {"airline": "United", "price_usd": 180},
]


def test_cheapest_united_flight_and_total() -> None:
    united = m(ref("flights"), "filter", fn(["f"], op("===", get(ref("f"), "airline"), "United")))
    cheapest = get(
        m(
            united,
            "toSorted",
            fn(["a", "b"], op("-", get(ref("a"), "price_usd"), get(ref("b"), "price_usd"))),
        ),
        0,
    )
    total = op("*", get(cheapest, "price_usd"), 2)
    out = RT.run(
        {"$return": {"$object": {"cheapest": cheapest, "for_two": total}}},
        context={"flights": FLIGHTS},
    )
    assert out.value == {"cheapest": FLIGHTS[2], "for_two": 360}


def test_map_over_airports_is_a_fan_out() -> None:
    ACTIVE["peak"] = 0
    program = m(["SFO", "OAK", "SJC", "LAX"], "map", fn(["a"], {"lookup": [ref("a")]}))
    out = RT.run(program)
    assert out.status == "success", out.message
    assert [r["code"] for r in out.value] == ["SFO", "OAK", "SJC", "LAX"]
    assert ACTIVE["peak"] == 4  # all four calls were in flight at once


def test_async_filter_and_reduce_keep_javascripts_order() -> None:
    cheap = m(
        ["SFO", "OAKX", "SJ"],
        "filter",
        fn(["a"], op("<", get({"lookup": [ref("a")]}, "price"), 350)),
    )
    assert RT.run(cheap).value == ["SFO", "SJ"]
    total = m(
        ["A", "BB"],
        "reduce",
        fn(["s", "a"], op("+", ref("s"), get({"lookup": [ref("a")]}, "price"))),
        0,
    )
    assert RT.run(total).value == 300


def test_nested_arrows_see_their_own_parameters() -> None:
    program = m(
        [1, 2], "flatMap", fn(["x"], m([10, 20], "map", fn(["y"], op("+", ref("x"), ref("y")))))
    )
    assert RT.run(program).value == [11, 21, 12, 22]


def test_parameters_shadow_aliases_and_read_outer_ones() -> None:
    program = {
        "$let": {"x": 100, "k": 5},
        "$return": m([1, 2], "map", fn(["x"], op("+", ref("x"), ref("k")))),
    }
    assert RT.run(program).value == [6, 7]


def test_an_arrow_outside_a_method_is_refused() -> None:
    out = RT.run({"$let": {"f": fn(["x"], 1)}, "$return": ref("f")})
    assert out.error is not None and out.error.code == "invalid_program"
    assert "arrow function" in (out.message or "")


def test_unknown_methods_suggest_close_ones() -> None:
    out = RT.run(m([1], "fliter", fn(["x"], True)))
    assert out.error is not None and out.error.code == "unknown_function"
    assert "`filter`" in (out.message or "")


def test_a_registered_function_is_callable_as_a_method() -> None:
    assert RT.run(m(21, "double")).value == 42
    assert RT.run(m([1, 2, 3], "count")).value == 3
    # the built-in library's names JavaScript spells otherwise are refused as methods (Node
    # throws `x.upper is not a function`), the function form stays the call
    out = RT.run(m("abc", "upper"))
    assert out.error is not None and "toUpperCase" in (out.message or ""), out.message
    assert RT.run({"upper": ["abc"]}).value == "ABC"


def test_steps_are_bounded() -> None:
    rt = _runtime(max_steps=1000)
    out = rt.run(m(ref("xs"), "map", fn(["x"], ref("x"))), context={"xs": list(range(5000))})
    assert out.error is not None and out.error.code == "limit_exceeded"
    assert "max_steps" in (out.message or "") or out.error.details.get("limit") == "max_steps"


def test_sort_of_a_name_read_elsewhere_is_refused() -> None:
    program = {
        "$let": {"s": m(ref("xs"), "sort", fn(["a", "b"], op("-", ref("a"), ref("b"))))},
        "$return": [ref("s"), ref("xs")],
    }
    out = RT.run(program, context={"xs": [2, 1]})
    assert out.error is not None and "toSorted" in (out.message or "")
    alone = RT.run(
        m(ref("xs"), "sort", fn(["a", "b"], op("-", ref("a"), ref("b")))), context={"xs": [2, 1]}
    )
    assert alone.value == [1, 2]


def test_boolean_comparators_are_refused() -> None:
    out = RT.run(m([2, 1], "toSorted", fn(["a", "b"], op(">", ref("a"), ref("b")))))
    assert out.error is not None and "must return a number" in (out.message or "")


def test_optional_access_spread_and_merge() -> None:
    ctx = {"user": None, "a": {"x": 1}, "xs": [1, 2]}
    assert RT.run({"$get?": [ref("user"), "name"]}, context=ctx).value is None
    assert RT.run(op("??", {"$get?": [ref("user"), "name"]}, "anon"), context=ctx).value == "anon"
    assert RT.run([0, {"$spread": ref("xs")}, 3], context=ctx).value == [0, 1, 2, 3]
    merged = RT.run({"$merge": [ref("a"), {"$object": {"y": 2}}]}, context=ctx)
    assert merged.value == {"x": 1, "y": 2}
    biggest = RT.run({"$global": ["Math.max", {"$spread": ref("xs")}]}, context=ctx)
    assert biggest.value == 2


def test_canonical_form_keeps_the_new_forms() -> None:
    program = m(ref("xs"), "map", fn(["x"], {"$get?": [ref("x"), "a"]}))
    assert RT.compile(program, context={"xs": []}) == program


# -- against Node.js --------------------------------------------------------------------------
ITEMS = st.one_of(st.integers(-20, 20), st.sampled_from([0.5, -1.5, 2.25]))
WORDS = st.sampled_from(["", "a", "Bc", "a,b", "  pad ", "é😀", "x-y-z", "10"])
NUM_ARRAYS = st.lists(ITEMS, max_size=6)
K = st.integers(-3, 6)


def _num_method(xs: Any) -> st.SearchStrategy[Any]:
    x, a, b = ref("x"), ref("a"), ref("b")
    return st.one_of(
        st.builds(lambda k, o: m(xs, "map", fn(["x"], op(o, x, k))), K, st.sampled_from("+-*")),
        st.builds(
            lambda k, o: m(xs, "filter", fn(["x"], op(o, x, k))),
            K,
            st.sampled_from(["<", ">=", "===", "!=="]),
        ),
        st.builds(lambda k: m(xs, "find", fn(["x"], op(">", x, k))), K),
        st.builds(lambda k: m(xs, "findIndex", fn(["x"], op(">", x, k))), K),
        st.builds(lambda k: m(xs, "some", fn(["x"], op("===", x, k))), K),
        st.builds(lambda k: m(xs, "every", fn(["x"], op("<", x, k))), K),
        st.just(m(xs, "toSorted", fn(["a", "b"], op("-", a, b)))),
        st.just(m(xs, "toSorted", fn(["a", "b"], op("-", b, a)))),
        st.just(m(xs, "reduce", fn(["a", "b"], op("+", a, b)), 0)),
        st.just(m(xs, "flatMap", fn(["x"], [x, op("*", x, 2)]))),
        st.builds(lambda i, j: m(xs, "slice", i, j), K, K),
        st.builds(lambda i: m(xs, "at", i), K),
        st.builds(lambda k: m(xs, "includes", k), K),
        st.builds(lambda k: m(xs, "indexOf", k), K),
        st.builds(lambda s: m(xs, "join", s), st.sampled_from([",", " | ", ""])),
        st.just(m(xs, "toReversed")),
        st.builds(lambda ys: m(xs, "concat", ys), NUM_ARRAYS),
        st.just({"$global": ["Math.max", 0, {"$spread": xs}]}),
        st.just({"$global": ["Math.min", 0, {"$spread": xs}]}),
        st.just(m(xs, "map", fn(["x"], {"$global": ["Math.round", op("/", x, 3)]}))),
        st.just(m(xs, "map", fn(["x", "i"], op("*", x, ref("i"))))),
    )


def _text_method(s: Any) -> st.SearchStrategy[Any]:
    return st.one_of(
        st.just(m(s, "toUpperCase")),
        st.just(m(s, "trim")),
        st.builds(lambda i, j: m(s, "slice", i, j), K, K),
        st.builds(lambda sep: m(s, "split", sep), st.sampled_from([",", "-", "", " "])),
        st.builds(lambda n, f: m(s, "padStart", n, f), K, st.sampled_from([" ", "0", "ab"])),
        st.builds(lambda w: m(s, "includes", w), WORDS),
        st.builds(lambda w: m(s, "indexOf", w), WORDS),
        st.builds(lambda i: m(s, "at", i), K),
        st.just(get(s, "length")),
        st.builds(lambda w: m(s, "replaceAll", "a", w), WORDS),
        st.just({"$global": ["parseInt", s]}),
        st.just({"$global": ["Number", s]}),
        st.just({"$global": ["JSON.stringify", [s, 1.5, None, True]]}),
    )


PROGRAMS = st.one_of(NUM_ARRAYS.flatmap(_num_method), WORDS.flatmap(_text_method))


def _compare(programs: list[Any]) -> int:
    return _check(programs, RT)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(PROGRAMS, min_size=20, max_size=40))
def test_methods_agree_with_node(programs: list[Any]) -> None:
    _compare(programs)


def test_most_generated_methods_run() -> None:
    fixed = [
        m([3, 1, 2], "toSorted", fn(["a", "b"], op("-", ref("a"), ref("b")))),
        m("a,b,c", "split", ","),
        m([1, 2, 3], "reduce", fn(["a", "b"], op("+", ref("a"), ref("b")))),
        m("é😀x", "slice", 2),
        get("é😀x", "length"),
        {"$global": ["JSON.stringify", {"$object": {"a": [1, 2.5, "x"], "b": None}}]},
    ]
    assert _compare(fixed) == len(fixed) - 1  # the slice that splits the emoji is refused


@pytest.mark.parametrize("lang", ["json"])
def test_methods_inside_an_event_loop(lang: str) -> None:
    prepared = RT.prepare(m(["A", "B"], "map", fn(["a"], get({"lookup": [ref("a")]}, "price"))))

    async def main() -> Any:
        return (await prepared.run_async()).value

    assert anyio.run(main) == [100, 100]


def test_arrow_bodies_may_have_aliases() -> None:
    body = {
        "$let": {"d": op("*", ref("x"), 2), "e": op("+", ref("d"), 1)},
        "$return": {"$object": {"d": ref("d"), "e": ref("e")}},
    }
    assert RT.run(m([1, 2], "map", fn(["x"], body))).value == [{"d": 2, "e": 3}, {"d": 4, "e": 5}]


def test_an_arrow_alias_first_read_inside_a_nested_arrow_sees_its_own_application() -> None:
    inner = m([1, 2], "map", fn(["z"], op("+", ref("y"), ref("z"))))
    program = m([1, 2], "map", fn(["x"], {"$let": {"y": op("*", ref("x"), 10)}, "$return": inner}))
    assert RT.run(program).value == [[11, 12], [21, 22]]


def test_arrow_aliases_run_once_per_application_with_async_calls() -> None:
    body = {
        "$let": {"info": {"lookup": [ref("a")]}},
        "$return": op("+", get(ref("info"), "price"), get(ref("info"), "price")),
    }
    assert RT.run(m(["A", "BB"], "map", fn(["a"], body))).value == [200, 400]


def test_key_comparators_sort_like_the_comparator() -> None:
    rows = [{"p": 3, "n": "a"}, {"p": 1, "n": "b"}, {"p": 3, "n": "c"}, {"p": 2, "n": "d"}]
    asc = fn(["a", "b"], op("-", get(ref("a"), "p"), get(ref("b"), "p")))
    desc = fn(["a", "b"], op("-", get(ref("b"), "p"), get(ref("a"), "p")))
    up = RT.run(m(ref("rows"), "toSorted", asc), context={"rows": rows}).value
    down = RT.run(m(ref("rows"), "toSorted", desc), context={"rows": rows}).value
    assert [r["n"] for r in up] == ["b", "d", "a", "c"]  # stable: a before c
    assert [r["n"] for r in down] == ["a", "c", "d", "b"]
    bad = RT.run(m(ref("rows"), "toSorted", asc), context={"rows": [{"p": "x"}, {"p": "y"}]})
    assert bad.error is not None and bad.error.code == "expression_error"
