"""What preparing shares between the parts of a program, and what it must keep apart.

Preparing reuses what does not depend on the place of a call: one compiled literal per scalar
value, a literal of its parameter's type passed with no coercion check, the binding facts of a
function's parameters kept per registry, the dispatch tables of the resolver and the compiler
built once per class. Each test checks that what is shared still gives every call site its own
answer and its own error path, and that the Plan parser's shortcuts for plain operands build
the same trees (and the same errors) as the general path."""

from __future__ import annotations

import asyncio
import gc
from typing import Any

import pytest

from dialectic import Failure, FunctionDescription, Optional, Runtime
from dialectic.frontends.base import SourceError
from dialectic.frontends.plan import parse_plan
from dialectic.resolve.resolver import Resolver
from dialectic.tree.dispatch import unbound_table
from dialectic.tree.nodes import Invoke, Lit


def _runtime() -> Runtime:
    async def lookup(id: int) -> int:
        await asyncio.sleep(0)
        if id == 7:
            raise Failure("no record 7")
        return id * 10

    def double(x: int) -> int:
        return x * 2

    def echo(value: Any) -> Any:
        return value

    rt = Runtime(load_entry_points=False)
    rt.register(
        FunctionDescription("lookup", "look an id up", lookup, {"id": "integer"}, "integer"),
        FunctionDescription("double", "twice x", double, {"x": "integer"}, "integer"),
        FunctionDescription("echo", "the value", echo, {"value": "any"}, "any"),
    )
    return rt


# -- one compiled literal per value, an error path per call site --------------------------------


def test_call_sites_sharing_a_literal_keep_their_own_results_and_paths() -> None:
    rt = _runtime()
    out = rt.run([{"lookup": 5}, {"lookup": 5}, {"double": 5}, {"echo": 5}])
    assert out.status == "success" and out.value == [50, 50, 10, 5]
    failed = rt.run([{"lookup": 5}, {"lookup": 7}, {"lookup": 5}])
    assert failed.status == "failure"
    assert failed.error is not None and failed.error.path == "program[1]"
    assert "no record 7" in failed.error.message


def test_the_same_literal_in_several_places_of_a_plan() -> None:
    rt = _runtime()
    out = rt.run("return [lookup(5), double(5), echo(5), lookup(5)];", lang="plan")
    assert out.status == "success" and out.value == [50, 10, 5, 50]


@pytest.mark.parametrize(
    ("argument", "value"),
    [
        (3, 6),  # a literal of the parameter's type: passed as it is
        ("3", 6),  # text that reads as an integer: still converted
        (3.0, 6),  # a whole float: still converted
    ],
)
def test_a_literal_of_another_type_is_still_coerced(argument: Any, value: Any) -> None:
    out = _runtime().run({"double": argument})
    assert out.status == "success", out.message
    assert out.value == value and type(out.value) is int


def test_a_literal_that_cannot_become_the_type_fails_at_its_call() -> None:
    out = _runtime().run([{"double": 1}, {"double": "many"}])
    assert out.status == "failure"
    assert out.error is not None and out.error.path == "program[1].double"


def test_booleans_and_integers_are_different_literals() -> None:
    # True == 1 and hash(True) == hash(1): a table of literals by value alone would mix them
    rt = _runtime()
    out = rt.run([{"echo": 1}, {"echo": True}, {"echo": 1.0}, {"echo": 0}, {"echo": False}])
    assert out.status == "success"
    assert out.value == [1, True, 1.0, 0, False]
    assert [type(v) for v in out.value] == [int, bool, float, int, bool]


def test_negative_zero_keeps_its_sign() -> None:
    out = _runtime().run([{"echo": 0.0}, {"echo": -0.0}])
    assert out.status == "success"
    assert [str(v) for v in out.value] == ["0.0", "-0.0"]


# -- binding facts per registry and function ------------------------------------------------


def test_two_runtimes_with_a_function_of_the_same_name_bind_their_own_parameters() -> None:
    def first(a: int) -> int:
        return a

    def second(b: int, c: int = 1) -> int:
        return b * 100 + c

    one = Runtime(load_entry_points=False)
    one.register(FunctionDescription("pick", "a", first, {"a": "integer"}, "integer"))
    two = Runtime(load_entry_points=False)
    two.register(
        FunctionDescription(
            "pick", "b", second, {"b": "integer", "c": Optional("integer")}, "integer"
        )
    )
    for _ in range(2):  # alternating: neither keeps the other's facts
        assert one.run({"pick": {"a": 4}}).value == 4
        assert two.run({"pick": {"b": 4, "c": 2}}).value == 402
        assert one.run("return pick(5);", lang="plan").value == 5
        assert two.run("return pick(5, 3);", lang="plan").value == 503
    wrong = one.run({"pick": {"b": 4, "c": 1}})
    assert wrong.status == "failure" and wrong.error is not None
    assert wrong.error.code == "unknown_parameter"


def test_a_replaced_builtin_binds_its_new_parameters() -> None:
    rt = Runtime(load_entry_points=False)
    assert rt.run({"upper": "ab"}).value == "AB"

    def shout(words: str, times: int = 1) -> str:
        return (words.upper() + "!") * times

    rt.register(
        FunctionDescription(
            "upper", "shout", shout, {"words": "string", "times": Optional("integer")}, "string"
        )
    )
    assert rt.run({"upper": {"words": "ab", "times": 2}}).value == "AB!AB!"
    assert rt.run("return upper('ab', 3);", lang="plan").value == "AB!AB!AB!"


def test_preparing_frees_nothing_it_did_not_make() -> None:
    # (objects the host froze stay frozen: the caches replace no entry of an earlier program)
    rt = _runtime()
    rt.prepare([{"lookup": 1}, {"double": 2}])
    other = _runtime()
    gc.collect()
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        other.prepare([{"lookup": 3}, {"double": 4}, {"echo": 5}])
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()


# -- tables built once per class ----------------------------------------------------------


def test_dispatch_tables_are_built_once_per_class() -> None:
    assert unbound_table(Resolver, "_") is unbound_table(Resolver, "_")
    table = unbound_table(Resolver, "_")
    assert table[Lit] is Resolver._Lit
    assert Invoke not in table  # the resolver makes Invoke nodes; it never reads them


def test_error_messages_still_list_the_known_names() -> None:
    out = Runtime(load_entry_points=False).run({"$let": {"total": 1}, "$return": {"$ref": "totl"}})
    assert out.status == "failure" and out.error is not None
    assert out.error.code == "unknown_identifier"
    assert "`total`" in out.error.message


# -- the Plan parser's shortcuts build the general path's trees -----------------------------

PLAN_TREES: list[tuple[str, Any]] = [
    ("return f(x) ? 1 : 2;", {"$if": [{"f": [{"$ref": "x"}]}, 1, 2]}),
    ("return f(x).a;", {"$get": [{"f": [{"$ref": "x"}]}, "a"]}),
    ("return f(x)[0] ?? 1;", {"$op": ["??", {"$get": [{"f": [{"$ref": "x"}]}, 0]}, 1]}),
    (
        "return a.b ? c : d;",
        {"$if": [{"$get": [{"$ref": "a"}, "b"]}, {"$ref": "c"}, {"$ref": "d"}]},
    ),
    ("return 1 ? f(1) : g(2);", {"$if": [1, {"f": [1]}, {"g": [2]}]}),
    (
        "return [f(1), x, 'a', `t`, 2, -1, null, true, undefined];",
        [{"f": [1]}, {"$ref": "x"}, "a", "t", 2, -1, None, True, {"$undefined": None}],
    ),
    (
        "return xs.map(async x => f(x));",
        {"$method": [{"$ref": "xs"}, "map", {"$fn": [["x"], {"f": [{"$ref": "x"}]}]}]},
    ),
    ("return await f(1);", {"f": [1]}),
    (
        "return `a${x}b${f(y)}c${1}d${u.v}`;",
        {
            "$template": [
                "a",
                {"$ref": "x"},
                "b",
                {"f": [{"$ref": "y"}]},
                "c",
                1,
                "d",
                {"$get": [{"$ref": "u"}, "v"]},
            ]
        },
    ),
    (
        "return f(a, b.c, [1], {k: 1}, ...xs);",
        {
            "f": [
                {"$ref": "a"},
                {"$get": [{"$ref": "b"}, "c"]},
                [1],
                {"$object": {"k": 1}},
                {"$spread": {"$ref": "xs"}},
            ]
        },
    ),
    ("return x?.y;", {"$get?": [{"$ref": "x"}, "y"]}),
    (
        "return f(x) && g(y) || h(z);",
        {
            "$op": [
                "||",
                {"$op": ["&&", {"f": [{"$ref": "x"}]}, {"g": [{"$ref": "y"}]}]},
                {"h": [{"$ref": "z"}]},
            ]
        },
    ),
    ("return f(1) ** 2;", {"$op": ["**", {"f": [1]}, 2]}),
]


@pytest.mark.parametrize(("source", "expected"), PLAN_TREES)
def test_plain_operands_parse_as_before(source: str, expected: Any) -> None:
    assert parse_plan(source).tree == {"$return": expected}


@pytest.mark.parametrize(
    ("source", "message", "column"),
    [
        ("return f(1)(2);", "only a function name or a method can be called", 12),
        ("return f(x) ?? g(y) || h(z);", "`??` cannot be mixed with `||`", 13),
        ("return f(x) ? : 1;", "expected an expression, found `:`", 15),
        ("return f(,);", "expected an expression, found `,`", 10),
    ],
)
def test_plain_operands_fail_as_before(source: str, message: str, column: int) -> None:
    with pytest.raises(SourceError) as info:
        parse_plan(source)
    problem = info.value.problems[0]
    assert message in problem.message and problem.column == column


def test_a_text_is_kept_the_second_time_it_is_prepared() -> None:
    """A text prepared once is not kept (most texts a model writes come once, and a kept
    program is later freed from cold memory); the second time, it is; from then on, the same
    prepared program comes back, and runs the same."""
    rt = Runtime(load_entry_points=False)
    text = "return upper('kept');"
    first = rt.prepare(text, lang="plan")
    second = rt.prepare(text, lang="plan")
    assert second is not first
    assert rt.prepare(text, lang="plan") is second
    assert rt.prepare(text, lang="plan").run().value == "KEPT"
    # the key is the whole of (text, notation, strictness): another notation is another entry
    other = rt.prepare(text, lang="plan", strict=True)
    assert other is not second
    assert rt.prepare(text, lang="plan", strict=True) is not other
    assert rt.prepare(text, lang="plan", strict=True) is rt.prepare(text, lang="plan", strict=True)
    # a program that fails to compile is kept the same way, and fails the same way
    bad = "return nope(;"
    outs = [rt.run(bad, lang="plan") for _ in range(3)]
    assert {o.status for o in outs} == {"failure"}
    assert len({o.message for o in outs}) == 1


def test_texts_seen_once_are_remembered_within_a_bound() -> None:
    from dialectic import runtime as runtime_module

    rt = Runtime(load_entry_points=False)
    for i in range(runtime_module._SEEN_SIZE + 50):
        rt.prepare(f"return {i};", lang="plan")
    assert len(rt._seen) == runtime_module._SEEN_SIZE
    assert len(rt._cache) == 0
    # the oldest were forgotten: seen again, they count as first sight
    rt.prepare("return 0;", lang="plan")
    assert len(rt._cache) == 0
    # the newest are remembered: seen again, they are kept
    last = f"return {runtime_module._SEEN_SIZE + 49};"
    kept = rt.prepare(last, lang="plan")
    assert rt.prepare(last, lang="plan") is kept
