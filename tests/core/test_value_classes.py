"""Values of other Python classes than the JSON ones (SPEC section 3): one classification gives
both the type name and the type check; a function's result is held as JSON data (tuples as
lists, every Mapping as a dict, enums of text or numbers as their plain value, all the way
down), registered types excepted; ``bool`` is never an integer."""

from __future__ import annotations

import enum
from collections import OrderedDict, defaultdict
from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

import pytest

from dialectic import FunctionDescription, Runtime, TypeDescription
from dialectic.values.coercion import TypeSystem


class Colour(str, enum.Enum):  # noqa: UP042 (not StrEnum: its str() is "Colour.RED")
    RED = "red"


class Size(enum.IntEnum):
    LARGE = 3


class Point(NamedTuple):
    x: int
    y: int


class Text(str):
    def __str__(self) -> str:
        return "not the text"


class Computed(Mapping[str, Any]):
    """A Mapping that builds a fresh value each time one is read."""

    def __getitem__(self, key: str) -> Any:
        return {"key": [key] * 2}

    def __iter__(self) -> Iterator[str]:
        return iter(["a", "b", "c"])

    def __len__(self) -> int:
        return 3


class Broken(Mapping[str, Any]):
    def __getitem__(self, key: str) -> Any:
        raise RuntimeError("cannot read it")

    def __iter__(self) -> Iterator[str]:
        return iter(["a"])

    def __len__(self) -> int:
        return 1


received: list[Any] = []


def keep(value: Any) -> Any:
    received.append(value)
    return value


def runtime(result: Any) -> Runtime:
    """A runtime whose `make` returns ``result`` and whose `takes_*` record what they get."""
    rt = Runtime(load_entry_points=False)
    rt.register(
        FunctionDescription("make", "the value", lambda: result, {}, "any"),
        TypeDescription("point", "a point", Point, {"x": "integer", "y": "integer"}, Point),
    )
    for kind in ("array", "object", "string", "integer", "number", "boolean"):
        rt.register(FunctionDescription(f"takes_{kind}", kind, keep, {"value": kind}, kind))
    received.clear()
    return rt


def test_a_tuple_result_is_an_array() -> None:
    rt = runtime((1, (2, 3)))
    out = rt.run({"takes_array": {"make": {}}})
    assert out.status == "success", out.message
    assert out.value == [1, [2, 3]]
    assert type(received[0]) is list and type(received[0][1]) is list
    out = rt.run("x = make(); return [x[1][0], length(x), join(x[1], '-')];", lang="plan")
    assert out.status == "success", out.message
    assert out.value == [2, 2, "2-3"]


@pytest.mark.parametrize(
    "mapping",
    [
        OrderedDict(a=1, b=(2,)),
        defaultdict(lambda: "made up", {"a": 1, "b": (2,)}),
        MappingProxyType({"a": 1, "b": (2,)}),
    ],
    ids=["OrderedDict", "defaultdict", "MappingProxyType"],
)
def test_a_mapping_result_is_an_object(mapping: Any) -> None:
    rt = runtime(mapping)
    out = rt.run("return [make().a, make().b[0]];", lang="plan")
    assert out.status == "success", out.message
    assert out.value == [1, 2]
    out = rt.run({"takes_object": {"make": {}}})
    assert out.status == "success", out.message
    assert out.value == {"a": 1, "b": [2]}
    assert type(received[0]) is dict and type(received[0]["b"]) is list
    # a missing member is missing: a defaultdict's default is not a value of the program
    out = rt.run("return make().missing;", lang="plan")
    assert out.error is not None and out.error.code == "member_not_found"
    assert out.to_json()["status"] == "failure"


def test_nested_values_of_other_classes_are_plain_all_the_way_down() -> None:
    value = {"list": [OrderedDict(k=(Colour.RED, Size.LARGE))], "tuple": ({"t": ()},)}
    out = runtime(value).run({"make": {}})
    assert out.status == "success", out.message
    assert out.value == {"list": [{"k": ["red", 3]}], "tuple": [{"t": []}]}
    inner = out.value["list"][0]["k"]
    assert type(inner) is list and type(inner[0]) is str and type(inner[1]) is int


def test_enums_and_subclasses_are_their_plain_values() -> None:
    out = runtime(Colour.RED).run("return `${make()}!${upper(make())}`;", lang="plan")
    assert out.value == "red!RED"
    program = "return [takes_integer(make()), takes_string(make())];"
    out = runtime(Size.LARGE).run(program, lang="plan")
    assert out.value == [3, "3"]
    assert [type(v) for v in received] == [int, str]
    out = runtime(Text("abc")).run("return `${make()}!`;", lang="plan")
    assert out.value == "abc!"


def test_a_shared_or_cyclic_result_is_copied_once() -> None:
    part = (1, 2)
    out = runtime([part, part]).run({"make": {}})
    assert out.value == [[1, 2], [1, 2]]
    cyclic: list[Any] = [1]
    cyclic.append(cyclic)
    out = runtime((cyclic,)).run({"make": {}})  # normalised, then refused when written
    assert out.error is not None and out.error.details.get("limit") == "max_depth"


def test_a_mapping_that_builds_its_values_is_read_once_per_key() -> None:
    out = runtime(Computed()).run({"make": {}})
    assert out.value == {
        "a": {"key": ["a", "a"]},
        "b": {"key": ["b", "b"]},
        "c": {"key": ["c", "c"]},
    }


def test_a_result_that_cannot_be_read_fails_naming_the_function() -> None:
    out = runtime(Broken()).run({"make": {}})
    assert out.error is not None and out.error.code == "function_error"
    assert "`make` failed unexpectedly: RuntimeError: cannot read it" in (out.message or "")


def test_a_registered_type_that_is_a_tuple_stays_itself() -> None:
    rt = runtime(Point(1, 2))
    out = rt.run("return make().y;", lang="plan")
    assert out.value == 2
    out = rt.run({"make": {}})
    assert out.to_json()["value"] == {"point": {"x": 1, "y": 2}}
    out = rt.run({"make": {}})
    assert type(out.value) is Point


def test_booleans_are_never_integers() -> None:
    rt = runtime(True)
    out = rt.run("return takes_number(make());", lang="plan")
    assert out.value == 1 and [type(v) for v in received] == [int]  # converted, not passed
    out = rt.run("return takes_integer(make());", lang="plan")
    assert out.status == "ambiguous"  # boolean -> number -> integer or via string: no guess
    out = runtime(1).run("return takes_boolean(make());", lang="plan")
    assert out.value is True and received == [True]
    out = runtime(2).run("return takes_boolean(make());", lang="plan")
    assert out.error is not None and out.error.code == "type_mismatch"


@pytest.mark.parametrize(
    ("value", "name", "fits"),
    [
        ((1, 2), "array", False),  # the right kind, of another class: normalised by coerce
        ([1, 2], "array", True),
        (OrderedDict(a=1), "object", False),
        (defaultdict(int), "object", False),
        (MappingProxyType({}), "object", False),
        ({}, "object", True),
        (True, "boolean", True),
        (1, "integer", True),
        (1.5, "number", True),
        (Size.LARGE, "integer", False),
        (Colour.RED, "string", False),
        (Text("x"), "string", False),
        (None, "null", True),
        (Point(1, 2), "point", True),
        (object(), "python:object", None),
    ],
)
def test_one_classification_behind_names_and_checks(value: Any, name: str, fits: bool) -> None:
    types: TypeSystem = runtime(None).types
    assert types.type_of(value) == name
    if fits is None:
        return
    assert types.checker(name)(value) is fits
    exact = types.exact_types(name)
    assert exact is None or (type(value) in exact) is fits
    converted = types.coerce(value, name, _ctx(types))
    assert types.type_of(converted) == name
    assert types.checker(name)(converted)  # what fits its own type passes its check
    assert converted == (list(value) if type(value) is tuple else value) or name == "point"


def _ctx(types: TypeSystem) -> Any:
    from dialectic.limits import Limits
    from dialectic.registry.descriptions import RunContext

    return RunContext({}, [], Limits(), types.coerce, str)


def test_a_value_passed_through_many_calls_is_scanned_once_per_run() -> None:
    from dialectic.values.data import plain

    points = [Point(i, i) for i in range(100)]
    asked: list[type] = []

    def registered(cls: type) -> bool:
        asked.append(cls)
        return cls is Point

    known: dict[int, Any] = {}
    assert plain(points, registered, known) is points
    assert len(asked) == 100  # each registered value checked once
    assert plain(points, registered, known) is points
    assert plain({"wrapped": points}, registered, known)["wrapped"] is points
    assert len(asked) == 100  # not scanned again
    assert plain([(1, 2)], registered, known) == [[1, 2]]  # a new value still is
