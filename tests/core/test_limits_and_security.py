"""Limits with sane defaults (each overridable, each named on breach) and the sandbox rules."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import orjson
import pytest

import dialectic.testing
from dialectic import FunctionDescription, Limits, Runtime, TypeDescription


def rt_with(**limits: Any) -> Runtime:
    return Runtime(plugins=[dialectic.testing], load_entry_points=False, limits=limits or None)


def limit_of(out: Any) -> str:
    assert out.status == "failure", out.to_json()
    assert out.error.code == "limit_exceeded", out.to_json()
    return str(out.error.details["limit"])


def deep_list(depth: int) -> Any:
    tree: Any = 1
    for _ in range(depth):
        tree = [tree]
    return tree


def test_100k_deep_parsed_json_is_a_clean_failure() -> None:
    assert limit_of(rt_with().run(deep_list(100_000))) == "max_depth"


def test_100k_deep_json_text_is_a_clean_failure() -> None:
    out = rt_with().run("[" * 100_000 + "]" * 100_000)
    assert out.status == "failure"
    assert out.error is not None and out.error.code in ("syntax_error", "limit_exceeded")
    assert "deep" in (out.message or "")


def test_100k_deep_calls_in_json_and_plan() -> None:
    tree: Any = 1
    for _ in range(100_000):
        tree = {"echo": [tree]}
    assert limit_of(rt_with().run(tree)) == "max_depth"
    plan = "return " + "echo(" * 100_000 + "1" + ")" * 100_000 + ";"
    out = rt_with(max_program_bytes=10_000_000).run(plan, lang="plan")
    assert out.status == "failure"
    assert "deep" in (out.message or "") or "nest" in (out.message or "")


def test_depth_limit_is_configurable_but_bounded() -> None:
    assert rt_with(max_depth=5).run(deep_list(5)).status == "success"
    assert limit_of(rt_with(max_depth=5).run(deep_list(6))) == "max_depth"
    with pytest.raises(ValueError, match="at most 250"):
        Limits(max_depth=10_000)
    with pytest.raises(ValueError, match="unknown limits"):
        Limits.coerce({"max_dept": 3})


def test_max_depth_at_the_hard_cap_evaluates_without_recursion_error() -> None:
    for fn in ("echo", "sleepEcho"):  # sync and async evaluation
        tree: Any = 1
        for _ in range(124):  # each call is two JSON levels: {"echo": [ ... ]}
            tree = {fn: [tree]}
        assert rt_with(max_depth=250).run(tree).value == 1


def test_node_call_output_string_and_program_size_limits() -> None:
    assert limit_of(rt_with(max_nodes=100).run(list(range(200)))) == "max_nodes"
    calls = [{"add": [i, 1]} for i in range(30)]
    assert limit_of(rt_with(max_calls=20).run(calls)) == "max_calls"
    assert rt_with(max_calls=30).run(calls).status == "success"
    assert limit_of(rt_with(max_output_bytes=100).run({"echo": "x" * 500})) == "max_output_bytes"
    big = {"$template": ["x" * 60, "y" * 60]}
    assert limit_of(rt_with(max_string_length=100).run(big)) == "max_string_length"
    assert limit_of(rt_with(max_string_length=10).run("x" * 50 and {"echo": "x" * 50})) == (
        "max_string_length"
    )
    assert limit_of(rt_with(max_program_bytes=50).run(orjson.dumps(["x" * 100]).decode())) == (
        "max_program_bytes"
    )


def test_limit_failures_name_the_limit_in_the_message() -> None:
    out = rt_with(max_calls=1).run([{"add": [1, 1]}, {"add": [2, 2]}])
    assert "max_calls" in (out.message or "")


@pytest.mark.parametrize(
    "name",
    [
        "__class__",
        "__dict__",
        "__init__",
        "__proto__",
        "constructor",
        "prototype",
        "__globals__",
        "toString",
        "valueOf",
        "hasOwnProperty",
    ],
)
def test_forbidden_members_everywhere(name: str) -> None:
    rt = rt_with()
    ctx = {"x": {name: 1, "k": name}}
    for program in (
        {"$get": [{"$ref": "x"}, name]},
        {"$get": [{"$ref": "x"}, {"$get": [{"$ref": "x"}, "k"]}]},
        {"$get": [{"point": [1, 2]}, name]},
    ):
        out = rt.run(program, context=ctx)
        assert out.error is not None and out.error.code == "forbidden_member", (program, out)


def test_forbidden_members_in_plan() -> None:
    rt = rt_with()
    for plan in (
        "return x.constructor;",
        "return x['__proto__'];",
        "return x.__class__;",
        "return point(1, 2).__dict__;",
        "return {__proto__: 1};",
    ):
        out = rt.run(plan, lang="plan", context={"x": {}})
        assert out.status == "failure", plan
        assert out.error is not None and out.error.code == "forbidden_member", (plan, out.message)


def test_python_attributes_of_registered_types_are_unreachable() -> None:
    class Secretive:
        def __init__(self, name: str) -> None:
            self.name = name
            self.password = "hunter2"

        def delete_everything(self) -> str:
            return "deleted"

    rt = Runtime(load_entry_points=False)
    rt.register(TypeDescription("account", "an account", Secretive, {"name": "string"}, Secretive))
    for member in ("password", "delete_everything"):
        out = rt.run({"$get": [{"account": "ada"}, member]})
        assert out.error is not None and out.error.code == "member_not_found"
        assert "hunter2" not in (out.message or "")
    assert rt.run({"$get": [{"account": "ada"}, "name"]}).value == "ada"


def test_functions_cannot_be_stored_or_returned() -> None:
    out = rt_with().run("f = add;\nreturn f;", lang="plan")
    assert out.error is not None and out.error.code == "not_a_value"


def test_an_unexpected_exception_never_leaks_a_traceback() -> None:
    out = rt_with().run({"boom": "secret internals"})
    assert "Traceback" not in (out.message or "")
    assert "traceback" not in out.error.details  # type: ignore[union-attr]
    debug = Runtime(plugins=[dialectic.testing], load_entry_points=False, debug=True)
    out = debug.run({"boom": "x"})
    assert "Traceback" in out.error.details["traceback"]  # type: ignore[union-attr]


def test_functions_returning_non_json_fail_cleanly() -> None:
    rt = Runtime(load_entry_points=False)
    rt.register(FunctionDescription("obj", "an object", lambda: object(), {}))
    out = rt.run([{"obj": {}}])
    assert out.error is not None and out.error.code == "invalid_value"


#: the builtins that run or load code from text (SPEC section 8)
DYNAMIC_CODE = frozenset({"eval", "exec", "compile", "__import__"})


def dynamic_code_calls(source: str) -> list[int]:
    """The lines that call a builtin of :data:`DYNAMIC_CODE` (``compile(...)``,
    ``builtins.eval(...)``); a method or a module function of the same name (``self.compile``,
    ``re.compile``, a module's own ``def compile``) is not the builtin."""
    tree = ast.parse(source)
    own = {
        n.name
        for n in ast.walk(tree)
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
    }
    own |= {
        (a.asname or a.name).split(".")[0]
        for n in ast.walk(tree)
        if isinstance(n, ast.Import | ast.ImportFrom)
        for a in n.names
    }
    own |= {
        n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    }
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name):
            builtin = func.id in DYNAMIC_CODE and func.id not in own
        else:
            builtin = (
                isinstance(func, ast.Attribute)
                and func.attr in DYNAMIC_CODE
                and isinstance(func.value, ast.Name)
                and func.value.id == "builtins"
            )
        if builtin:
            lines.append(node.lineno)
    return lines


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("compile('1', '<program>', 'eval')", [1]),
        ("x = 1\neval('x')", [2]),
        ("exec('x = 1')", [1]),
        ("__import__('os')", [1]),
        ("import builtins\nbuiltins.compile('1', '', 'eval')", [2]),
        ("self.compile(node)\nre.compile('x')\ncompiler.compile(root)", []),
        ("def compile(node):\n    return node\ncompile(1)", []),
        ("from re import compile\ncompile('x')", []),
    ],
)
def test_the_package_scan_finds_calls_of_the_builtins(source: str, found: list[int]) -> None:
    assert dynamic_code_calls(source) == found


def test_no_eval_exec_or_compile_in_the_package() -> None:
    root = Path(dialectic.testing.__file__).parent
    scanned = 0
    for path in root.rglob("*.py"):
        assert dynamic_code_calls(path.read_text(encoding="utf-8")) == [], path
        scanned += 1
    assert scanned > 30


def doubling(levels: int, body: Any) -> Any:
    """`a1 = [a0, a0]; a2 = [a1, a1]; ...`: a value of 2**levels elements from a tiny program."""
    lets: dict[str, Any] = {"a0": ["x" * 10] * 10}
    for i in range(1, levels + 1):
        lets[f"a{i}"] = [{"$ref": f"a{i - 1}"}, {"$ref": f"a{i - 1}"}]
    return {"$let": lets, "$return": body(f"a{levels}")}


@pytest.mark.parametrize(
    ("body", "limit"),
    [
        (lambda top: {"$ref": top}, "max_output_bytes"),
        (lambda top: {"$template": ["x", {"$ref": top}]}, "max_string_length"),
        (lambda top: {"upper": {"$ref": top}}, "max_string_length"),
        (lambda top: {"str": {"$ref": top}}, "max_string_length"),
    ],
)
def test_exponential_values_through_aliases_are_bounded(body: Any, limit: str) -> None:
    import time

    start = time.perf_counter()
    out = rt_with().run(doubling(60, body))
    assert limit_of(out) == limit
    # a bound against hangs, not a timing window: unbounded, 2**60 copies would never finish
    assert time.perf_counter() - start < 20.0


def test_templates_and_join_measure_before_building() -> None:
    big = {
        "$let": {"s": {"$template": ["x" * 900_000, ""]}},
        "$return": {"$template": [{"$ref": "s"}, {"$ref": "s"}]},
    }
    assert limit_of(rt_with().run(big)) == "max_string_length"
    joined = {
        "$let": {"s": {"$template": ["x" * 600_000, ""]}},
        "$return": {"join": [[{"$ref": "s"}, {"$ref": "s"}]]},
    }
    out = rt_with().run(joined)
    assert out.error is not None and out.error.code == "limit_exceeded"


def test_ambiguous_program_with_an_integer_beyond_64_bits() -> None:
    # the suggestions carry the whole program, which must still be written as JSON
    out = rt_with().run({"keys": -9223372036854775809})
    assert out.status == "ambiguous"
    assert out.suggestions and out.to_json()["status"] == "ambiguous"
