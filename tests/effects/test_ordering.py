"""Program order for write and destructive calls (SPEC 17), in every notation, with synchronous
and asynchronous implementations, on asyncio and trio. The asynchronous file system's calls
sleep less the later they start, so calls that ran concurrently would act in reverse order:
every test here would see a different order (or no call at all) under pure data flow."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from backends import run
from memfs import MemoryFS

import dialectic
from dialectic import Outcome, Runtime

#: (asynchronous implementations, event loop): sync programs run without one
MODES = [(False, None), (True, "asyncio"), (True, "trio")]
IDS = ["sync", "asyncio", "trio"]

Make = Callable[..., tuple[Runtime, MemoryFS]]


@pytest.fixture(params=MODES, ids=IDS)
def fs_run(
    request: pytest.FixtureRequest, make_fs: Make
) -> tuple[Callable[..., Outcome], MemoryFS]:
    use_async, backend = request.param
    rt, fs = make_fs(use_async=use_async)
    return (lambda program, **kw: run(rt, backend, program, **kw)), fs


def ok(out: Outcome) -> Any:
    assert out.status == "success", out.message
    return out.value


def test_an_unreferenced_write_runs(fs_run: Any) -> None:
    go, fs = fs_run
    assert ok(go("mkdir({dir_name: 'tmp'});\nreturn 1;", lang="plan")) == 1
    assert fs.log == ["mkdir tmp"] and fs.root["tmp"] == {}


def test_writes_run_in_program_order(fs_run: Any) -> None:
    go, fs = fs_run
    program = """
    cd({folder: 'docs'});
    mkdir({dir_name: 'tmp'});
    mv({source: 'a.pdf', destination: 'tmp'});
    return ls();
    """
    assert ok(go(program, lang="plan")) == {"current_directory_content": ["b.txt", "tmp"]}
    assert fs.log == ["cd docs", "mkdir tmp", "mv a.pdf tmp", "ls"]
    assert fs.root["docs"]["tmp"] == {"a.pdf": "A"}


def test_a_read_sees_the_writes_before_it_and_not_those_after(fs_run: Any) -> None:
    go, fs = fs_run
    program = """
    before = ls();
    mkdir({dir_name: 'new'});
    after = ls();
    return {before: before.current_directory_content, after: after.current_directory_content};
    """
    assert ok(go(program, lang="plan")) == {"before": ["docs"], "after": ["docs", "new"]}
    assert fs.log == ["ls", "mkdir new", "ls"]


def test_json_let_keeps_document_order(fs_run: Any) -> None:
    go, fs = fs_run
    program = {
        "$let": {"made": {"mkdir": {"dir_name": "x"}}, "moved": {"cd": {"folder": "x"}}},
        "$return": {"pwd": {}},
    }
    assert ok(go(program)) == {"current_working_directory": "/x"}
    assert fs.log == ["mkdir x", "cd x", "pwd"]


def test_json_do_sequence(fs_run: Any) -> None:
    go, fs = fs_run
    program = {
        "$do": [
            {"cd": {"folder": "docs"}},
            {"$let": {"listed": {"ls": {}}}},
            {"rm": {"file_name": "a.pdf"}},
        ],
        "$return": {"$ref": "listed"},
    }
    assert ok(go(program)) == {"current_directory_content": ["a.pdf", "b.txt"]}
    assert "a.pdf" not in fs.root["docs"]
    assert fs.log == ["cd docs", "ls", "rm a.pdf"]


def test_plan2_aliases_in_document_order(fs_run: Any) -> None:
    go, fs = fs_run
    program = (
        "made:\n  mkdir:\n    dir_name: tmp\ninto:\n  cd:\n    folder: tmp\nresult:\n  pwd: {}\n"
    )
    assert ok(go(program, lang="plan2")) == {"current_working_directory": "/tmp"}
    assert fs.log == ["mkdir tmp", "cd tmp", "pwd"]


def test_map_runs_effects_in_element_order(fs_run: Any) -> None:
    go, fs = fs_run
    program = "made = ['a', 'b', 'c', 'd'].map(d => mkdir({dir_name: d}));\nreturn ls();"
    assert ok(go(program, lang="plan")) == {
        "current_directory_content": ["a", "b", "c", "d", "docs"]
    }
    assert fs.log == ["mkdir a", "mkdir b", "mkdir c", "mkdir d", "ls"]


def test_effectful_arguments_run_left_to_right(fs_run: Any) -> None:
    go, fs = fs_run
    program = "return [mkdir({dir_name: 'one'}), mkdir({dir_name: 'two'}), ls()];"
    value = ok(go(program, lang="plan"))
    assert value[2] == {"current_directory_content": ["docs", "one", "two"]}
    assert fs.log == ["mkdir one", "mkdir two", "ls"]


@pytest.mark.parametrize("flag", [True, False])
def test_a_write_in_a_branch_not_taken_does_not_run(fs_run: Any, flag: bool) -> None:
    go, fs = fs_run
    program = "made = flag ? mkdir({dir_name: 'yes'}) : null;\nreturn ls();"
    listed = ok(go(program, lang="plan", context={"flag": flag}))["current_directory_content"]
    assert ("yes" in listed) is flag
    assert fs.log == (["mkdir yes", "ls"] if flag else ["ls"])


def test_a_failure_stops_the_writes_after_it(fs_run: Any) -> None:
    go, fs = fs_run
    program = """
    mkdir({dir_name: 'a'});
    cd({folder: 'nope'});
    mkdir({dir_name: 'b'});
    return ls();
    """
    out = go(program, lang="plan")
    assert out.status == "failure" and out.error is not None
    assert "no such directory" in str(out.message)
    assert out.error.path == "program.$do[1]"
    assert out.error.details["effects_done"] == [{"function": "mkdir", "path": "program.$do[0]"}]
    assert fs.log == ["mkdir a", "cd nope"]
    assert "b" not in fs.root


def test_reads_of_other_scopes_and_pure_aliases_stay_lazy(make_fs: Make) -> None:
    rt, fs = make_fs()
    seen: list[str] = []

    def lookup(key: str) -> str:
        seen.append(key)
        return key.upper()

    rt.register(dialectic.FunctionDescription("lookup", "a read", lookup, {"key": "string"}))
    program = "unused = lookup('x');\nmkdir({dir_name: 'tmp'});\nused = lookup('y');\nreturn used;"
    assert ok(rt.run(program, lang="plan")) == "Y"
    assert seen == ["y"] and fs.log == ["mkdir tmp"]


def test_expression_statements_in_every_front_end_form() -> None:
    source = "cd({folder: 'docs'});\nx = ls();\nmkdir({dir_name: 'tmp'});\nreturn x;"
    tree = dialectic.compile(source, "plan")
    assert tree == {
        "$do": [
            {"cd": [{"$object": {"folder": "docs"}}]},
            {"$let": {"x": {"ls": []}}},
            {"mkdir": [{"$object": {"dir_name": "tmp"}}]},
        ],
        "$return": {"$ref": "x"},
    }
    from dialectic.frontends.plan.decompile import decompile

    assert dialectic.compile(decompile(tree), "plan") == tree


def test_canonical_form_keeps_the_statements(make_fs: Make) -> None:
    rt, _ = make_fs()
    source = "cd({folder: 'docs'});\nx = ls();\nmkdir({dir_name: 'tmp'});\nreturn x;"
    canonical = rt.compile(source, lang="plan")
    assert canonical == {
        "$do": [
            {"cd": {"folder": "docs"}},
            {"$let": {"x": {"ls": {}}}},
            {"mkdir": {"dir_name": "tmp"}},
        ],
        "$return": {"$ref": "x"},
    }
    rt2, fs2 = make_fs()
    assert ok(rt2.run(canonical)) == {"current_directory_content": ["a.pdf", "b.txt"]}
    assert fs2.log == ["cd docs", "ls", "mkdir tmp"]


@pytest.mark.parametrize(
    ("program", "problem"),
    [
        ({"$do": {"cd": {}}, "$return": 1}, "$do takes an array"),
        ({"$do": [{"$let": [1]}], "$return": 1}, "$let takes an object"),
        ({"$do": [{"$let": {"a": 1}}, {"$let": {"a": 2}}], "$return": 1}, "defined twice"),
        ({"$do": [{"$let": {"$a": 1}}], "$return": 1}, "invalid alias name"),
    ],
)
def test_bad_do_forms_are_clear_failures(make_fs: Make, program: Any, problem: str) -> None:
    rt, fs = make_fs()
    out = rt.run(program)
    assert out.status == "failure" and out.error is not None
    assert out.error.code == "invalid_program" and problem in str(out.message)
    assert fs.log == []


def test_pure_programs_compile_without_effect_plans(make_fs: Make) -> None:
    rt, _ = make_fs()
    prepared = rt.prepare("x = ls();\nreturn x;", lang="plan")
    assert prepared.resolved is not None and prepared.resolved.effects is None


def test_the_json_schema_accepts_statements(make_fs: Make) -> None:
    import json

    import jsonschema

    rt, _ = make_fs()
    described = rt.describe("json-schema")
    schema = json.loads(described) if isinstance(described, str) else described
    source = "cd({folder: 'docs'});\nx = ls();\nmkdir({dir_name: 'tmp'});\nreturn x;"
    check = jsonschema.Draft202012Validator(schema)
    check.validate(dialectic.compile(source, "plan"))
    check.validate(rt.compile(source, lang="plan"))
    with pytest.raises(jsonschema.ValidationError):
        check.validate({"$do": [{"$let": {"a": 1}, "$ref": "a"}], "$return": 1})


@pytest.mark.parametrize(
    ("method", "expected", "touched"),
    [
        ("some", True, ["a", "b"]),
        ("find", "b", ["a", "b"]),
        ("findIndex", 1, ["a", "b"]),
        ("findLast", "b", ["c", "b"]),
        ("every", False, ["a"]),
        ("filter", ["b"], ["a", "b", "c"]),
    ],
)
def test_array_methods_visit_what_javascript_visits(
    make_fs: Make, method: str, expected: Any, touched: list[str]
) -> None:
    """An effectful arrow runs for exactly the elements JavaScript visits, in its order."""
    program = (
        f"return ['a', 'b', 'c'].{method}(f => touch({{file_name: f}}) === null && f === 'b');"
    )
    for use_async, backend in MODES:
        rt, fs = make_fs(use_async=use_async)
        assert ok(run(rt, backend, program, lang="plan")) == expected, (use_async, backend)
        assert fs.log == [f"touch {f}" for f in touched], (use_async, backend)


@pytest.mark.parametrize("flag", [True, False])
def test_statements_in_an_if_branch(fs_run: Any, flag: bool) -> None:
    go, fs = fs_run
    program = """
    mkdir({dir_name: 'a'});
    if (flag) {
      cd({folder: 'a'});
      touch({file_name: 'inside'});
      return pwd();
    }
    return ls();
    """
    value = ok(go(program, lang="plan", context={"flag": flag}))
    if flag:
        assert value == {"current_working_directory": "/a"}
        assert fs.log == ["mkdir a", "cd a", "touch inside", "pwd"]
    else:
        assert value == {"current_directory_content": ["a", "docs"]}
        assert fs.log == ["mkdir a", "ls"]


def test_an_ambiguity_stops_the_effects_after_it(make_fs: Make) -> None:
    """An ambiguous call is reported, and nothing effectful after it runs: the model will send
    the program again with the call chosen, so a write after it must not have happened."""
    from dialectic import Ambiguous, Candidate, FunctionDescription

    for use_async, backend in MODES:
        rt, fs = make_fs(use_async=use_async)

        def which(name: str) -> str:
            raise Ambiguous("Which folder?", [Candidate("docs", {"which": {"name": "docs"}})])

        rt.register(FunctionDescription("which", "pick a folder", which, {"name": "string"}))
        program = (
            "mkdir({dir_name: 'a'});\n"
            "return [mkdir({dir_name: which('d')}), mkdir({dir_name: 'b'}), "
            "touch({file_name: 'c'})];"
        )
        out = run(rt, backend, program, lang="plan")
        assert out.status == "ambiguous", (use_async, backend, out.message)
        assert fs.log == ["mkdir a"], (use_async, backend)
