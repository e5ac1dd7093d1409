"""The command line: exit codes 0/1/3/2, formats, compile, decompile, describe."""

from __future__ import annotations

from pathlib import Path

import orjson
from click.testing import CliRunner

from dialectic.tools.cli import main

PLUGIN = ["--plugin", "dialectic.testing", "--no-entry-points"]


def invoke(*args: str, stdin: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), input=stdin)
    return result.exit_code, result.output


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_run_success_prints_the_value(tmp_path: Path) -> None:
    f = write(tmp_path, "p.json", '{"greet": "Ada"}')
    code, out = invoke("run", f, *PLUGIN)
    assert code == 0
    assert out.strip() == "Hello, Ada!"


def test_run_plan_file_by_extension_and_json_format(tmp_path: Path) -> None:
    f = write(tmp_path, "p.js", "a = add(1, 2);\nuse add(a, answer);")
    code, out = invoke("run", f, *PLUGIN, "--format", "json")
    assert code == 0
    assert orjson.loads(out) == {"status": "success", "value": 45, "mode": "use"}


def test_run_failure_exits_1_with_location(tmp_path: Path) -> None:
    f = write(tmp_path, "p.js", "x = add(1, 2);\nreturn ad(x, 1);")
    code, out = invoke("run", f, *PLUGIN)
    assert code == 1
    assert "line 2, column 8" in out
    assert "did you mean `add`" in out
    assert "^" in out


def test_run_ambiguous_exits_3_with_runnable_suggestions(tmp_path: Path) -> None:
    f = write(tmp_path, "p.json", '{"find": {"name": "validateToken"}}')
    code, out = invoke("run", f, *PLUGIN, "--format", "json")
    assert code == 3
    data = orjson.loads(out)
    assert data["status"] == "ambiguous"
    program = data["suggestions"][0]["program"]
    g = write(
        tmp_path,
        "again.json",
        program if isinstance(program, str) else orjson.dumps(program).decode(),
    )
    assert invoke("run", g, *PLUGIN)[0] == 0


def test_run_from_stdin_with_context(tmp_path: Path) -> None:
    code, out = invoke(
        "run", "-", *PLUGIN, "--lang", "plan", "--context", "n=41", stdin="return add(n, 1);"
    )
    assert (code, out.strip()) == (0, "42")


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    assert invoke("run", str(tmp_path / "missing.json"))[0] == 2
    f = write(tmp_path, "p.json", "1")
    code, out = invoke("run", f, "--plugin", "no_such_module_xyz", "--no-entry-points")
    assert code == 2 and "no_such_module_xyz" in out
    assert invoke("run", f, "--lang", "cobol")[0] == 2
    assert invoke("run", f, "--limit", "nonsense=1")[0] == 2
    assert invoke("run", f, "--context", "novalue")[0] == 2


def test_limits_from_the_command_line(tmp_path: Path) -> None:
    f = write(tmp_path, "p.json", '[{"add": [1, 1]}, {"add": [2, 2]}]')
    code, out = invoke("run", f, *PLUGIN, "--limit", "max_calls=1")
    assert code == 1 and "max_calls" in out


def test_compile_prints_the_canonical_tree(tmp_path: Path) -> None:
    f = write(tmp_path, "p.js", "return greet('Ada');")
    code, out = invoke("compile", f, *PLUGIN)
    assert code == 0
    assert orjson.loads(out) == {"$return": {"greet": {"name": "Ada"}}}
    code, out = invoke("compile", f, "--raw")
    assert orjson.loads(out) == {"$return": {"greet": ["Ada"]}}


def test_decompile_turns_a_call_tree_into_plan(tmp_path: Path) -> None:
    f = write(
        tmp_path,
        "p.json",
        '{"$let": {"a": {"greet": ["Ada"]}}, "$return": {"upper": [{"$ref": "a"}]}}',
    )
    code, out = invoke("decompile", f)
    assert code == 0
    assert "a = greet('Ada');" in out and "return upper(a);" in out


def test_decompile_of_a_tree_plan_cannot_write_says_why(tmp_path: Path) -> None:
    f = write(tmp_path, "bad.json", '{"$let": 5, "$return": 1}')
    code, out = invoke("decompile", f)
    assert code == 1
    assert out.startswith("cannot write ") and "$let takes an object of aliases" in out
    assert "Traceback" not in out


def test_describe_markdown_and_schema() -> None:
    code, out = invoke("describe", *PLUGIN)
    assert code == 0
    assert "`greet(name: string, punctuation?: string) -> string`" in out
    assert "## Conversions" in out and "## Constants" in out
    code, out = invoke("describe", *PLUGIN, "--format", "json-schema")
    assert code == 0
    schema = orjson.loads(out)
    assert "args:greet" in schema["$defs"]
    assert schema["$defs"]["call"]["properties"]["greet"] == {"$ref": "#/$defs/args:greet"}
