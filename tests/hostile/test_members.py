"""Member access reaches only JSON data and declared fields/properties: every route a hostile
program could take to a Python attribute (or a JavaScript prototype member) is refused."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from dialectic import FunctionDescription, Outcome, Runtime, TypeDescription

Clean = Callable[..., Outcome]

FORBIDDEN = [
    "__class__",
    "__dict__",
    "__init__",
    "__globals__",
    "__builtins__",
    "__import__",
    "__subclasses__",
    "__getattribute__",
    "__reduce_ex__",
    "__dataclass_fields__",
    "__proto__",
    "__defineGetter__",
    "__lookupSetter__",
    "__",
    "___x",
    "constructor",
    "prototype",
    "toString",
    "valueOf",
    "hasOwnProperty",
    "isPrototypeOf",
    "propertyIsEnumerable",
    "toLocaleString",
    "mro",
]

TARGETS: list[tuple[str, Any, dict[str, Any] | None]] = [
    ("json object", {"$quote": {"a": 1}}, None),
    ("json object holding the key", {"$quote": {"__class__": 1, "constructor": 2, "mro": 3}}, None),
    ("array", [1, 2], None),
    ("string", "text", None),
    ("number", 5, None),
    ("null", None, None),
    ("registered constant", {"$ref": "origin"}, None),
    ("plain constant", {"$ref": "answer"}, None),
    ("registered value", {"point": {"x": 1, "y": 2}}, None),
    ("function result", {"echo": {"$quote": {"a": 1}}}, None),
    ("context object", {"$ref": "ctx"}, {"ctx": object()}),
    ("context dict", {"$ref": "ctx"}, {"ctx": {"a": {"b": 1}}}),
    ("context function", {"$ref": "ctx"}, {"ctx": print}),
]


def refused(out: Outcome, *codes: str) -> None:
    assert out.status == "failure", out.to_json()
    assert out.error is not None
    allowed = codes or ("forbidden_member",)
    assert out.error.code in allowed, out.message


@pytest.mark.parametrize("name", FORBIDDEN)
@pytest.mark.parametrize(("label", "target", "context"), TARGETS, ids=[t[0] for t in TARGETS])
def test_literal_get_keys_are_refused(
    clean: Clean, name: str, label: str, target: Any, context: dict[str, Any] | None
) -> None:
    refused(clean({"$get": [target, name]}, context=context))
    refused(clean({"$get": [target, "a", name]}, context=context))


@pytest.mark.parametrize("name", ["__class__", "constructor", "__proto__", "mro", "__dict__"])
@pytest.mark.parametrize(("label", "target", "context"), TARGETS, ids=[t[0] for t in TARGETS])
def test_computed_get_keys_are_refused(
    clean: Clean, name: str, label: str, target: Any, context: dict[str, Any] | None
) -> None:
    half = len(name) // 2
    routes = [
        {"concat": [name[:half], name[half:]]},
        {"$template": [name[:half], {"$ref": "tail"}]},
        {"echo": name},
        {"$get": [{"$quote": {"k": name, "z": 0}}, "k"]},
        {"$ref": "key"},
    ]
    ctx = {**(context or {}), "tail": name[half:], "key": name}
    for key in routes:
        refused(clean({"$get": [target, key]}, context=ctx))
        # through an alias, too
        refused(
            clean({"$let": {"k": key}, "$return": {"$get": [target, {"$ref": "k"}]}}, context=ctx)
        )


PLAN_ROUTES = [
    "return x.__class__;",
    "return x['__class__'];",
    'return x["constructor"];',
    "return x[`__cl${'ass__'}`];",
    "return x[concat('__cl', 'ass__')];",
    "return x.a.__proto__;",
    "return (x.a).constructor;",
    "return echo(x).__class__;",
    "return echo(x).a.__dict__;",
    "return echo(x)['__globals__'];",
    "return [x][0].__class__;",
    "return {k: x}.k.__class__;",
    "return origin.__class__;",
    "return origin.__dict__;",
    "return point(1, 2).__reduce__;",
    "return point(1, 2)[concat('__re', 'duce__')];",
    "return answer.__class__;",
    "return 'text'.__class__;",
    "return (5).__class__;",
    "return [1, 2].constructor;",
    "return x.prototype;",
    "return x.valueOf;",
    "return x.toString;",
    "k = concat('__cl', 'ass__'); return x[k];",
    "k = `__${'class'}__`; return x[k];",
    "y = x.a; return y.__class__;",
    "return `${x.__class__}`;",
    "return {a: 1, __proto__: 2};",
    "return {'__proto__': x};",
    "return echo({a: 1, __proto__: x});",
    "return __builtins__;",
    "return __import__;",
    "return __class__;",
]


@pytest.mark.parametrize("source", PLAN_ROUTES)
@pytest.mark.parametrize(
    "ctx",
    [{"a": 1}, {"a": {"b": 1}}, object(), print],
    ids=lambda v: re.sub(" at 0x[0-9a-f]+", "", str(v)),
)
def test_plan_routes_are_refused(clean: Clean, source: str, ctx: Any) -> None:
    out = clean(source, lang="plan", context={"x": ctx})
    refused(out, "forbidden_member", "unknown_identifier")
    assert out.error is not None
    if "__" in source.split("return", 1)[-1] or "constructor" in source:
        # the failure points into the source
        assert out.error.line is not None, out.message


@pytest.mark.parametrize(
    "source",
    [
        "return x.__class__();",
        "return x.__init__(1);",
        "return x.constructor('return 1');",
        "return x.__getattribute__('a');",
        "return origin.__reduce_ex__(2);",
        "return echo(x).__class__();",
        "return __import__('os');",
        "return x.mro();",
        "return x.valueOf();",
        "return x.toString;",
    ],
)
def test_method_calls_on_dunders_are_refused(clean: Clean, source: str) -> None:
    out = clean(source, lang="plan", context={"x": {"a": 1}})
    refused(out, "forbidden_member", "unknown_function", "syntax_error")


def test_dunder_method_names_do_not_resolve_to_functions(clean: Clean) -> None:
    out = clean("return x.__add__(1);", lang="plan", context={"x": 1})
    refused(out, "forbidden_member", "unknown_function")


@pytest.mark.parametrize(
    "program",
    [
        {"__class__": {}},
        {"__import__": ["os"]},
        {"constructor": []},
        {"$object": {"__proto__": 1}},
        {"__proto__": 1, "b": 2},
        {"$let": {"a": {"$quote": {"x": 1}}}, "$return": {"$get": [{"$ref": "a"}, "__class__"]}},
        {"$ref": "__builtins__"},
        {"$ref": "__class__"},
    ],
    ids=str,
)
def test_json_routes_are_refused(clean: Clean, program: Any) -> None:
    refused(clean(program), "forbidden_member", "unknown_function")


@pytest.mark.parametrize(
    "source",
    [
        "result: ${x.__class__}\n",
        "result: '${x[\"__class__\"]}'\n",
        "result: ${x[concat('__cl', 'ass__')]}\n",
        "result: text ${x.constructor} more\n",
        "result: ${origin.__dict__}\n",
        "a:\n  echo:\n    value: ${x}\nresult: ${a.__class__}\n",
        "result:\n  echo:\n    value: ${x.__proto__}\n",
        "result:\n  echo:\n    value:\n      k: ${x.mro}\n",
        "result: '${{__proto__: 1}}'\n",
    ],
)
def test_plan2_routes_are_refused(clean: Clean, source: str) -> None:
    out = clean(source, lang="plan2", context={"x": {"a": 1}})
    refused(out, "forbidden_member", "syntax_error")
    assert out.error is not None
    assert out.error.line is not None, out.message


@pytest.mark.parametrize(
    "program",
    [
        {"$ref": "add"},
        [{"$ref": "echo"}],
        {"echo": {"$ref": "greet"}},
        {"$let": {"f": {"$ref": "add"}}, "$return": 1},
        {"$let": {"f": {"$ref": "add"}}, "$return": {"$ref": "f"}},
        {"$get": [{"$ref": "add"}, "__code__"]},
        {"$template": [{"$ref": "boom"}]},
        {"$object": {"f": {"$ref": "str"}}},
    ],
    ids=str,
)
def test_functions_are_not_values(clean: Clean, program: Any) -> None:
    refused(clean(program), "not_a_value", "forbidden_member")


@pytest.mark.parametrize(
    "source",
    [
        "f = add; return f;",
        "return [add];",
        "return echo(add);",
        "return add.name;",
        "return `${add}`;",
    ],
)
def test_functions_are_not_values_in_plan(clean: Clean, source: str) -> None:
    refused(clean(source, lang="plan"), "not_a_value", "syntax_error")


def test_plan_calling_a_value_is_refused(clean: Clean) -> None:
    for source in ["return f(1)(2);", "return x[0](1);", "return (add)(1, 2);", "return x.a.b();"]:
        out = clean(source, lang="plan", context={"x": [1]})
        assert out.status == "failure"


# -- values of odd Python types reaching member access -----------------------------------------


class Sneaky(dict[str, Any]):
    """A dict subclass whose item access would run code."""

    def __getitem__(self, key: str) -> Any:
        raise AssertionError("a dict subclass's __getitem__ ran")

    def __contains__(self, key: object) -> bool:
        raise AssertionError("a dict subclass's __contains__ ran")


@dataclass
class Secretive:
    x: int
    secret: str = "s3cret"

    @property
    def computed(self) -> str:
        raise AssertionError("an undeclared Python property ran")


_ODD: list[Runtime] = []


def _odd_runtime(make_rt: Callable[..., Runtime]) -> Runtime:
    if _ODD:
        return _ODD[0]
    rt = make_rt()
    rt.register(
        FunctionDescription("sneaky", "a dict subclass", lambda: Sneaky(a=1), {}, "object"),
        FunctionDescription("pyobj", "a Python object", lambda: object(), {}, "any"),
        FunctionDescription("makeSecretive", "a registered value", lambda: Secretive(1), {}, "any"),
        FunctionDescription("module", "a module", lambda: pytest, {}, "any"),
        TypeDescription("secretive", "a thing", Secretive, {"x": "integer"}, Secretive),
    )
    _ODD.append(rt)
    return rt


@pytest.mark.parametrize(
    "program",
    [
        {"$get": [{"sneaky": []}, "a"]},
        {"$get": [{"sneaky": []}, {"concat": ["", "a"]}]},
        {"$template": [{"sneaky": []}]},
        {"keys": {"sneaky": []}},
        {"$get": [{"pyobj": []}, "a"]},
        {"$get": [{"module": []}, "fail"]},
        {"$get": [{"module": []}, "__name__"]},
        {"$get": [{"makeSecretive": []}, "secret"]},
        {"$get": [{"makeSecretive": []}, "computed"]},
        {"$get": [{"makeSecretive": []}, {"concat": ["sec", "ret"]}]},
        {"$template": ["v=", {"makeSecretive": []}]},
        {"str": {"sneaky": []}},
        {"convert": {"value": {"makeSecretive": []}, "type": "object"}},
        {"sneaky": []},
        {"pyobj": []},
        {"module": []},
    ],
    ids=str,
)
def test_function_results_of_odd_types(
    make_rt: Callable[..., Runtime], clean: Clean, program: Any
) -> None:
    out = clean(program, runtime=_odd_runtime(make_rt))
    if out.status == "success":
        text = str(out.to_json())
        assert "s3cret" not in text and "pytest" not in text, text
    else:
        assert out.error is not None
        assert out.error.code not in ("internal_error", "function_error"), out.message
        assert "s3cret" not in (out.message or "")


def test_declared_field_of_registered_value_is_reachable(
    make_rt: Callable[..., Runtime], clean: Clean
) -> None:
    out = clean({"$get": [{"makeSecretive": []}, "x"]}, runtime=_odd_runtime(make_rt))
    assert out.status == "success" and out.value == 1


@pytest.mark.parametrize(
    "context",
    [
        {"x": object()},
        {"x": Sneaky(a=1)},
        {"x": Secretive(1)},
        {"x": pytest},
        {"x": print},
        {"x": (1, 2)},
        {"x": {1, 2}},
        {"x": b"bytes"},
        {"x": {"a": object(), "b": 1}},
    ],
    ids=lambda c: type(c["x"]).__name__,
)
@pytest.mark.parametrize(
    "program",
    [
        {"$ref": "x"},
        {"$get": [{"$ref": "x"}, "a"]},
        {"$get": [{"$ref": "x"}, 0]},
        {"$get": [{"$ref": "x"}, "length"]},
        {"$template": ["v=", {"$ref": "x"}]},
        {"echo": {"$ref": "x"}},
        {"count": {"$ref": "x"}},
        {"keys": {"$ref": "x"}},
        {"convert": {"value": {"$ref": "x"}, "type": "string"}},
    ],
    ids=str,
)
def test_context_python_objects(clean: Clean, context: dict[str, Any], program: Any) -> None:
    out = clean(program, context=context)
    if out.status == "success":
        assert "s3cret" not in str(out.to_json())


@pytest.mark.parametrize(
    "program",
    [{"str": {"$ref": "x"}}, {"join": [[{"$ref": "x"}], ","]}],
    ids=["str", "join"],
)
def test_stringifying_an_unregistered_object_reveals_nothing(clean: Clean, program: Any) -> None:
    out = clean(program, context={"x": Secretive(1)})
    assert "s3cret" not in str(out.to_json())


@pytest.mark.parametrize(
    "program",
    [{"$ref": "x"}, {"$template": ["v", {"$ref": "x"}]}, {"echo": {"$ref": "x"}}],
    ids=str,
)
def test_unregistered_objects_do_not_leave_the_run(clean: Clean, program: Any) -> None:
    out = clean(program, context={"x": Secretive(1)})
    refused(out, "invalid_value", "type_mismatch")
