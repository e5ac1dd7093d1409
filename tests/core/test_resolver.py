"""The resolver pass and the typed nodes it works on (SPEC.md sections 1.4-1.6, 6)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

import dialectic.testing
from dialectic import DialecticError, FunctionDescription, Runtime
from dialectic.limits import Limits
from dialectic.resolve.resolver import ResolveErrors, resolve
from dialectic.tree.nodes import (
    AliasRef,
    Block,
    Call,
    ConstRef,
    ContextRef,
    Invoke,
    Let,
    Lit,
    Node,
    Ref,
)
from dialectic.tree.parse import parse_tree
from dialectic.tree.walking import Visitor, children, walk

ROOT = Path(__file__).resolve().parents[2]


def _runtime() -> Runtime:
    limits = {"max_calls": 20_000, "max_nodes": 100_000}
    rt = Runtime(plugins=[dialectic.testing], load_entry_points=False, limits=limits)

    async def slow_inc(x: int) -> int:
        await anyio.sleep(0)
        return x + 1

    rt.register(
        FunctionDescription("inc", "x + 1", lambda x: x + 1, {"x": "integer"}, "integer"),
        FunctionDescription("ainc", "x + 1, later", slow_inc, {"x": "integer"}, "integer"),
    )
    return rt


RT = _runtime()


# -- typed nodes ----------------------------------------------------------------------------
def test_nodes_are_immutable() -> None:
    node = Lit((), 1)
    with pytest.raises(AttributeError):
        node.value = 2


def test_walk_and_children_follow_the_declared_fields() -> None:
    tree = parse_tree(
        {"$let": {"a": {"inc": [1]}}, "$return": {"$get": [{"$ref": "a"}, 0]}}, Limits()
    )
    kinds = [type(n).__name__ for n in walk(tree)]
    assert kinds == ["Let", "Call", "Lit", "Get", "Ref", "Lit"]
    assert [type(n).__name__ for n in children(tree)] == ["Call", "Get"]


def test_walk_is_iterative() -> None:
    node: Node = Lit((), 0)
    from dialectic.tree.nodes import Unwrap

    for _ in range(50_000):
        node = Unwrap((), node)
    assert sum(1 for _ in walk(node)) == 50_001


def test_visitor_dispatches_on_the_class() -> None:
    class Count(Visitor):
        def __init__(self) -> None:
            self.refs = 0

        def visit_Ref(self, node: Ref) -> None:
            self.refs += 1

        def generic_visit(self, node: Node) -> None:
            for child in children(node):
                self.visit(child)

    tree = parse_tree({"echo": [[{"$ref": "x"}, {"$ref": "y"}]]}, Limits())
    counter = Count()
    counter.visit(tree)
    assert counter.refs == 2


# -- what the resolver decides --------------------------------------------------------------
def test_names_resolve_to_alias_constant_or_context() -> None:
    tree = parse_tree(
        {"$let": {"a": 1}, "$return": [{"$ref": "a"}, {"$ref": "pi"}, {"$ref": "user"}]},
        Limits(),
    )
    rt = Runtime(plugins=[dialectic.testing], load_entry_points=False)
    from dialectic import Constant

    rt.register(Constant("pi", "3.14", 3.14))
    resolved = resolve(rt.registry, rt.limits, tree)
    block = resolved.root
    assert isinstance(block, Block)
    items = list(children(block.body))
    assert isinstance(items[0], AliasRef) and items[0].slot == block.bindings[0].slot
    assert isinstance(items[1], ConstRef) and items[1].const.name == "pi"
    assert isinstance(items[2], ContextRef)
    assert resolved.context_refs == {"user": ("$return", 2)}


def test_calls_are_bound_to_parameters() -> None:
    tree = parse_tree({"inc": [1]}, Limits())
    resolved = resolve(RT.registry, RT.limits, tree)
    assert isinstance(resolved.root, Invoke)
    assert [a.param.name for a in resolved.root.args] == ["x"]
    assert isinstance(tree, Call)


def test_bindings_come_in_dependency_order() -> None:
    tree = parse_tree(
        {
            "$let": {"c": {"inc": [{"$ref": "b"}]}, "b": {"inc": [{"$ref": "a"}]}, "a": 1},
            "$return": {"$ref": "c"},
        },
        Limits(),
    )
    assert isinstance(tree, Let)
    block = resolve(RT.registry, RT.limits, tree).root
    assert isinstance(block, Block)
    assert [b.name for b in block.bindings] == ["a", "b", "c"]
    depth = {b.name: b.depth for b in block.bindings}
    assert depth["a"] < depth["b"] < depth["c"]


def test_every_problem_is_reported_in_one_pass() -> None:
    tree = parse_tree(
        {
            "$let": {"a": {"nosuchfn": [1]}, "b": {"$get": [{"$ref": "x"}, "__class__"]}},
            "$return": [{"$ref": "a"}, {"$ref": "b"}],
        },
        Limits(),
    )
    with pytest.raises(ResolveErrors) as info:
        resolve(RT.registry, RT.limits, tree)
    assert [e.code for e in info.value.errors] == ["unknown_function", "forbidden_member"]


# -- compile fails exactly where run fails --------------------------------------------------
FAILING: list[tuple[str, Any, str]] = [
    (
        "cycle",
        {"$let": {"a": {"$ref": "b"}, "b": {"$ref": "a"}}, "$return": {"$ref": "a"}},
        "cycle",
    ),
    ("dunder", {"$get": [{"$ref": "user"}, "__class__"]}, "forbidden_member"),
    ("unknown function", {"nosuchfn": [1]}, "unknown_function"),
    ("function as a value", {"$ref": "inc"}, "not_a_value"),
    ("unknown identifier", {"inc": [{"$ref": "nobody"}]}, "unknown_identifier"),
    ("use inside", {"inc": [{"$use": 1}]}, "invalid_program"),
]


@pytest.mark.parametrize(("title", "program", "code"), FAILING, ids=[f[0] for f in FAILING])
def test_compile_fails_where_run_fails(title: str, program: Any, code: str) -> None:
    context = {"user": {"name": "Ada"}}
    outcome = RT.run(program, context=context)
    assert outcome.status == "failure" and outcome.error is not None
    assert outcome.error.code == code
    with pytest.raises(DialecticError) as info:
        RT.compile(program, context=context)
    assert info.value.code == code
    assert info.value.message == outcome.error.message


def test_compile_of_a_valid_program_is_canonical() -> None:
    program = "a = inc(1); return inc(a);"
    assert RT.compile(program, lang="plan") == {
        "$let": {"a": {"inc": {"x": 1}}},
        "$return": {"inc": {"x": {"$ref": "a"}}},
    }


def test_cli_compile_fails_like_run(tmp_path: Path) -> None:
    src = tmp_path / "p.json"  # (Plan reads names after their definitions: no cycle there)
    src.write_text('{"$let": {"a": {"$ref": "b"}, "b": {"$ref": "a"}}, "$return": {"$ref": "a"}}')
    cli = [sys.executable, "-m", "dialectic.tools.cli"]
    ran = subprocess.run([*cli, "run", str(src)], capture_output=True, text=True, check=False)
    compiled = subprocess.run(
        [*cli, "compile", str(src)], capture_output=True, text=True, check=False
    )
    assert ran.returncode == compiled.returncode == 1
    assert "cycle" in ran.stdout and ran.stdout == compiled.stdout
    ok = tmp_path / "ok.js"
    ok.write_text("return upper(name);\n")
    missing = subprocess.run(
        [*cli, "compile", str(ok)], capture_output=True, text=True, check=False
    )
    assert missing.returncode == 1 and "unknown identifier `name`" in missing.stdout
    given = subprocess.run(
        [*cli, "compile", str(ok), "--context", "name=ada"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert given.returncode == 0, given.stdout + given.stderr
    assert '"upper"' in given.stdout


# -- alias chains of any length -------------------------------------------------------------
def _chain(fn: str, n: int) -> str:
    lines = ["a0 = 0;"]
    lines += [f"a{i} = {fn}(a{i - 1});" for i in range(1, n + 1)]
    lines.append(f"return a{n};")
    return "\n".join(lines)


def test_a_long_synchronous_alias_chain_runs() -> None:
    out = RT.run(_chain("inc", 10_000), lang="plan")
    assert out.status == "success", out.message
    assert out.value == 10_000


def test_a_long_asynchronous_alias_chain_runs() -> None:
    out = RT.run(_chain("ainc", 5000), lang="plan")
    assert out.status == "success", out.message
    assert out.value == 5000


def test_a_long_chain_inside_an_event_loop_runs() -> None:
    prepared = RT.prepare(_chain("ainc", 1500), lang="plan")

    async def main() -> Any:
        return (await prepared.run_async()).value

    assert anyio.run(main) == 1500


def test_a_deep_chain_keeps_laziness_and_memoization() -> None:
    calls: list[int] = []

    def tick(x: int) -> int:
        calls.append(x)
        return x + 1

    rt = Runtime(plugins=[dialectic.testing], load_entry_points=False)
    rt.register(FunctionDescription("tick", "x + 1", tick, {"x": "integer"}, "integer"))
    program = _chain("tick", 300) + "\nunused = tick(-100);"
    program = program.replace("return a300;", "") + "\nreturn [a300, a299];"
    out = rt.run(program, lang="plan")
    assert out.status == "success", out.message
    assert out.value == [300, 299]
    assert sorted(calls) == list(range(300))  # each alias once, the unused one never


def test_a_failure_deep_in_a_chain_is_reported_with_its_path() -> None:
    program = _chain("inc", 500).replace("a250 = inc(a249);", "a250 = inc('x');")
    out = RT.run(program, lang="plan")
    assert out.status == "failure"
    assert out.error is not None and out.error.path == "program.$let.a250.inc[0]"
