"""Every resource a hostile program can consume is bounded: size, depth, nodes, calls, time,
concurrency, output and string length. Bombs end in a quick, clean ``limit_exceeded``."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from typing import Any

import anyio
import pytest

from dialectic import FunctionDescription, Outcome, Runtime

Clean = Callable[..., Outcome]


def limit(out: Outcome, *names: str) -> None:
    assert out.status == "failure", str(out.to_json())[:500]
    assert out.error is not None
    assert out.error.code == "limit_exceeded", out.message
    if names:
        assert (out.error.details or {}).get("limit") in names, out.error.details


#: A bound against hangs, not a measurement: a clean run here takes milliseconds, an unbounded
#: bomb runs for minutes or forever, and the sleeps in this file last 30 s or more, so a run
#: under this bound proves nothing waited for them, even on a loaded machine.
HANG_SECONDS = 20.0


def quick(clean: Clean, program: Any, **kw: Any) -> Outcome:
    start = time.monotonic()
    out = clean(program, **kw)
    took = time.monotonic() - start
    assert took < HANG_SECONDS, f"took {took:.1f}s: a limit did not stop the run"
    return out


# -- exponential growth through alias reuse ---------------------------------------------------


def plan_doubling(levels: int, seed: str = "xxxxxxxxxx") -> str:
    lines = [f"a0 = '{seed}';"]
    lines += [f"a{i + 1} = `${{a{i}}}${{a{i}}}`;" for i in range(levels)]
    return "\n".join(lines) + f"\nreturn a{levels};"


def json_doubling(levels: int) -> dict[str, Any]:
    binds: dict[str, Any] = {"a0": "xxxxxxxxxx"}
    for i in range(levels):
        ref = {"$ref": f"a{i}"}
        binds[f"a{i + 1}"] = {"$template": [ref, ref]}
    return {"$let": binds, "$return": {"$ref": f"a{levels}"}}


def plan2_doubling(levels: int) -> str:
    lines = ["a0: xxxxxxxxxx"]
    lines += [f"a{i + 1}: ${{a{i}}}${{a{i}}}" for i in range(levels)]
    return "\n".join(lines) + f"\nresult: ${{a{levels}}}\n"


@pytest.mark.parametrize("levels", [17, 60, 200])
def test_template_doubling_through_aliases(clean: Clean, levels: int) -> None:
    limit(quick(clean, plan_doubling(levels), lang="plan"), "max_string_length")
    limit(quick(clean, json_doubling(levels)), "max_string_length")
    limit(quick(clean, plan2_doubling(levels), lang="plan2"), "max_string_length")


def test_template_doubling_inside_one_template(clean: Clean) -> None:
    # b is referenced 2**k times by one expression tree via nested templates
    source = "b = 'yyyyyyyyyyyyyyyyyyyy';\n"
    source += "c1 = `${b}${b}${b}${b}${b}${b}${b}${b}${b}${b}`;\n"
    for i in range(1, 12):
        source += f"c{i + 1} = `" + f"${{c{i}}}" * 10 + "`;\n"
    source += "return [c12, c12];"
    limit(quick(clean, source, lang="plan"), "max_string_length", "max_output_bytes")


def array_explosion(levels: int, final: str) -> str:
    lines = ["a0 = [1,2,3,4,5,6,7,8,9,10];"]
    lines += [f"a{i + 1} = [" + ", ".join([f"a{i}"] * 10) + "];" for i in range(levels)]
    return "\n".join(lines) + "\n" + final.replace("X", f"a{levels}")


@pytest.mark.parametrize(
    "final",
    [
        "return X;",
        "return str(X);",
        "return `${X}`;",
        "return join(X, ',');",
        "return echo(X);",
        "return [X, X];",
        "return {a: X, b: X};",
        "return convert(X, 'string');",
        "return split(str(X), ',');",
        "return sleepEcho(X);",
    ],
)
def test_array_explosion_through_aliases(clean: Clean, final: str) -> None:
    limit(quick(clean, array_explosion(12, final), lang="plan"))


@pytest.mark.parametrize(
    "final",
    [
        "return count(X);",
        "return length(X);",
        "return keys({a: X, b: 1});",
        "return X" + "[0]" * 13 + ";",
    ],
)
def test_array_explosion_that_is_never_materialized_is_fine(clean: Clean, final: str) -> None:
    out = quick(clean, array_explosion(12, final), lang="plan")
    assert out.status == "success", out.message


def test_function_doubling_through_aliases(clean: Clean) -> None:
    lines = ["a0 = '" + "x" * 1000 + "';"]
    lines += [f"a{i + 1} = concat(a{i}, a{i});" for i in range(15)]
    source = "\n".join(lines) + "\nreturn length(a15);"
    limit(quick(clean, source, lang="plan"), "max_string_length")


def test_function_doubling_result_is_bounded_at_output(clean: Clean) -> None:
    lines = ["a0 = '" + "x" * 1000 + "';"]
    lines += [f"a{i + 1} = concat(a{i}, a{i});" for i in range(13)]
    out = quick(clean, "\n".join(lines) + "\nreturn a13;", lang="plan")
    # 8 MB of text: stopped by max_string_length (1 MB) as it is built, before the output check
    limit(out, "max_string_length")


# -- depth ------------------------------------------------------------------------------------

DEEP = 100_000


def nested_list(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


def nested_calls(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = {"echo": value}
    return value


DEEP_TEXTS: list[tuple[str, str | None]] = [
    ("[" * DEEP + "]" * DEEP, "json"),
    ("[" * DEEP, "json"),
    ('{"echo": ' * DEEP + "1" + "}" * DEEP, "json"),
    ('{"$quote": ' * DEEP + "1" + "}" * DEEP, "json"),
    ('{"$get": [' * DEEP + "1" + "]}" * DEEP, "json"),
    ("return " + "echo(" * DEEP + "1" + ")" * DEEP + ";", "plan"),
    ("return " + "[" * DEEP + "]" * DEEP + ";", "plan"),
    ("return " + "(" * DEEP + "1" + ")" * DEEP + ";", "plan"),
    ("return " + "{a: " * DEEP + "1" + "}" * DEEP + ";", "plan"),
    ("return " + "`${" * DEEP + "1" + "}`" * DEEP + ";", "plan"),
    ("return x" + "[0]" * DEEP + ";", "plan"),
    ("return x" + ".a" * DEEP + ";", "plan"),
    ("return x" + "[x" * DEEP + "]" * DEEP + ";", "plan"),
    ("return " + "-" * DEEP + "1;", "plan"),
    ("return " + "a.m(" * DEEP + ")" * DEEP + ";", "plan"),
    ("result: " + "[" * DEEP + "]" * DEEP + "\n", "plan2"),
    ("result: " + "{a: " * DEEP + "1" + "}" * DEEP + "\n", "plan2"),
    ("result: ${" + "echo(" * DEEP + "1" + ")" * DEEP + "}\n", "plan2"),
    ("result: '" + "${`" * 2000 + "x" + "`}" * 2000 + "'\n", "plan2"),
    ("result:\n" + "".join(" " * i + "- \n" for i in range(0, 3000, 2)), "plan2"),
    ("result:\n" + "".join(" " * i + f"k{i}:\n" for i in range(0, 4000, 1)), "plan2"),
    ("[" * DEEP + "]" * DEEP, None),
    ("return " + "echo(" * DEEP + "1" + ")" * DEEP + ";", None),
]


@pytest.mark.parametrize(("text", "lang"), DEEP_TEXTS, ids=lambda v: repr(v)[:30])
def test_very_deep_programs_fail_cleanly(clean: Clean, text: str, lang: str | None) -> None:
    out = quick(clean, text, lang=lang, context={"x": [1]})
    assert out.status == "failure"


@pytest.mark.parametrize(
    "program",
    [nested_list(DEEP), nested_calls(DEEP), nested_list(1000), nested_calls(300)],
    ids=["list100k", "calls100k", "list1k", "calls300"],
)
def test_deep_parsed_programs_fail_cleanly(clean: Clean, program: Any) -> None:
    limit(quick(clean, program), "max_depth")


def test_depth_built_at_run_time_by_functions(
    make_rt: Callable[..., Runtime], clean: Clean
) -> None:
    rt = make_rt()
    rt.register(
        FunctionDescription(
            "deep", "a nested list", lambda n: nested_list(n), {"n": "integer"}, "array"
        ),
        FunctionDescription(
            "deepObj",
            "a nested object",
            lambda n: _nested_dict(n),
            {"n": "integer"},
            "object",
        ),
    )
    for n in (50, 1000, DEEP):
        for program in (
            {"deep": n},
            {"deepObj": n},
            {"$template": [{"deep": n}]},
            {"str": {"deep": n}},
            {"join": [{"deep": n}, ","]},
            {"count": {"deep": n}},
            {"keys": {"deepObj": n}},
            {"convert": {"value": {"deep": n}, "type": "string"}},
            {"$get": [{"deep": n}, 0, 0, 0]},
            {"echo": {"deep": n}},
            [{"deep": n}, {"deepObj": n}],
        ):
            quick(clean, program, runtime=rt)


def _nested_dict(n: int) -> Any:
    value: Any = {}
    for _ in range(n):
        value = {"a": value, "b": 1}
    return value


# -- size, nodes and calls ---------------------------------------------------------------------


def test_program_size_limit(clean: Clean, make_rt: Callable[..., Runtime]) -> None:
    big = "[" + ",".join(["1"] * 600_000) + "]"
    limit(quick(clean, big), "max_program_bytes", "max_nodes")
    limit(quick(clean, big.encode()), "max_program_bytes", "max_nodes")
    limit(quick(clean, "return '" + "x" * 1_100_000 + "';", lang="plan"), "max_program_bytes")
    limit(quick(clean, "result: " + "x" * 1_100_000 + "\n", lang="plan2"), "max_program_bytes")
    small = make_rt(max_program_bytes=100)
    limit(quick(clean, "return '" + "é" * 60 + "';", lang="plan", runtime=small))


def test_node_and_call_limits(clean: Clean) -> None:
    limit(quick(clean, [[1, 2, 3]] * 10_000), "max_nodes")
    limit(quick(clean, [{"echo": 1}] * 2_001), "max_calls", "max_nodes")
    source = "return [" + ",".join(["echo(1)"] * 2_001) + "];"
    limit(quick(clean, source, lang="plan"), "max_calls")
    # calls through aliases are counted where they are written
    out = quick(clean, "a = echo(1);\nreturn [" + ",".join(["a"] * 5000) + "];", lang="plan")
    assert out.status == "success"


def test_string_limit_on_literals(make_rt: Callable[..., Runtime], clean: Clean) -> None:
    rt = make_rt(max_string_length=100)
    limit(quick(clean, ["x" * 101], runtime=rt), "max_string_length")
    limit(quick(clean, "return '" + "x" * 101 + "';", lang="plan", runtime=rt), "max_string_length")
    limit(quick(clean, {"$quote": {"k": "x" * 101}}, runtime=rt), "max_string_length")
    limit(quick(clean, {"$template": ["x" * 60, "y" * 60]}, runtime=rt), "max_string_length")
    limit(quick(clean, {"join": [["x" * 60, "y" * 60], ""]}, runtime=rt))
    limit(quick(clean, {"greet": {"$quote": ["x" * 60, "y" * 60]}}, runtime=rt))


def test_join_limit_failure_names_the_limit(make_rt: Callable[..., Runtime], clean: Clean) -> None:
    rt = make_rt(max_string_length=100)
    out = quick(clean, {"join": [["x" * 60, "y" * 60], ""]}, runtime=rt)
    limit(out, "max_string_length")


def test_builtin_str_respects_max_string_length(
    make_rt: Callable[..., Runtime], clean: Clean
) -> None:
    rt = make_rt(max_string_length=100)
    limit(quick(clean, {"str": [["x" * 60, "y" * 60]]}, runtime=rt), "max_string_length")


# -- time and concurrency ---------------------------------------------------------------------


def test_call_timeout_and_deadline(make_rt: Callable[..., Runtime], clean: Clean) -> None:
    rt = make_rt(call_timeout=0.05)
    out = quick(clean, {"sleepEcho": {"value": 1, "seconds": 30}}, runtime=rt)
    assert out.status == "failure" and out.error is not None
    assert out.error.code == "timeout", out.message
    assert "sleepEcho" in (out.message or "")
    rt = make_rt(deadline=0.2)
    program = {
        "$let": {"a": {"sleepEcho": {"value": 1, "seconds": 0.15}}},
        "$return": {"sleepEcho": {"value": {"$ref": "a"}, "seconds": 0.15}},
    }
    out = quick(clean, program, runtime=rt)
    assert out.status == "failure" and out.error is not None
    assert out.error.code in ("timeout", "limit_exceeded"), out.message


def test_deadline_with_blocking_functions(make_rt: Callable[..., Runtime], clean: Clean) -> None:
    release = threading.Event()
    returned = threading.Event()

    def hold(s: float) -> float:
        release.wait(s)  # blocks its worker thread until the test lets it go
        returned.set()
        return s

    rt = make_rt(deadline=0.2, call_timeout=0.1)
    rt.register(
        FunctionDescription(
            "nap",
            "blocks in a thread",
            hold,
            {"s": "number"},
            "number",
            blocking=True,
        )
    )
    try:
        out = quick(clean, {"nap": 60}, runtime=rt)
        # the run ended while the function still held its thread: nothing waited for it
        assert not returned.is_set()
    finally:
        release.set()
    assert out.status == "failure" and out.error is not None
    assert out.error.code in ("timeout", "limit_exceeded"), out.message


def _tracking_runtime(make_rt: Callable[..., Runtime], **limits: Any) -> tuple[Runtime, list[int]]:
    rt = make_rt(**limits)
    lock = threading.Lock()
    state = {"now": 0}
    peak = [0]

    async def probe(n: int) -> int:
        with lock:
            state["now"] += 1
            peak[0] = max(peak[0], state["now"])
        await anyio.sleep(0.01)
        with lock:
            state["now"] -= 1
        return n

    rt.register(
        FunctionDescription("probe", "tracks concurrency", probe, {"n": "integer"}, "integer")
    )
    return rt, peak


def test_max_concurrency(make_rt: Callable[..., Runtime], clean: Clean) -> None:
    rt, peak = _tracking_runtime(make_rt, max_concurrency=3)
    out = quick(clean, [{"probe": i} for i in range(40)], runtime=rt)
    assert out.status == "success" and out.value == list(range(40))
    assert 1 <= peak[0] <= 3, peak


def test_per_function_concurrency(make_rt: Callable[..., Runtime], clean: Clean) -> None:
    rt, peak = _tracking_runtime(make_rt, per_function_concurrency={"probe": 2})
    source = "return [" + ", ".join(f"probe({i})" for i in range(30)) + "];"
    out = quick(clean, source, lang="plan", runtime=rt)
    assert out.status == "success"
    assert 1 <= peak[0] <= 2, peak


# -- YAML bombs ---------------------------------------------------------------------------------

BILLION_LAUGHS = """\
a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
result: *i
"""


@pytest.mark.parametrize(
    "source",
    [
        BILLION_LAUGHS,
        "a: &x [1]\nresult: *x\n",
        "base: &b {k: 1}\nresult:\n  <<: *b\n",
        "result: &r [*r]\n",
        "result: !!python/object/apply:os.system ['echo hi']\n",
        "result: !!python/name:os.system\n",
        "result: !custom 1\n",
        "result: 1\n---\nresult: 2\n",
        "result: 1\nresult: 2\n",
        "? [a]\n: 1\nresult: 2\n",
        "result: *undefined\n",
    ],
    ids=lambda s: repr(s[:30]),
)
def test_yaml_bombs_and_tags_are_refused(clean: Clean, source: str) -> None:
    out = quick(clean, source, lang="plan2")
    assert out.status == "failure" and out.error is not None
    assert out.error.code in ("syntax_error", "limit_exceeded"), out.message
    assert out.error.line is not None


def test_output_limit_counts_repeated_references(clean: Clean) -> None:
    # 2**21 references to one 10-character string: small in memory, huge as JSON
    binds: dict[str, Any] = {"a0": "xxxxxxxxxx"}
    for i in range(21):
        binds[f"a{i + 1}"] = [{"$ref": f"a{i}"}, {"$ref": f"a{i}"}]
    out = quick(clean, {"$let": binds, "$return": {"$ref": "a21"}})
    limit(out, "max_output_bytes")
    assert len(json.dumps(out.to_json())) < 10_000


# -- the size of failure and ambiguous outcomes --------------------------------------------------


def _outcome_bytes(out: Outcome) -> int:
    return len(json.dumps(out.to_json(), ensure_ascii=False).encode())


@pytest.mark.parametrize("lang", ["json", "plan"])
def test_ambiguous_outcome_fits_max_output_bytes(clean: Clean, lang: str) -> None:
    program: Any = [{"find": "parse"}] * 400
    if lang == "plan":
        program = "return [" + ", ".join(["find('parse')"] * 400) + "];"
    out = quick(clean, program, lang=lang)
    assert out.status == "ambiguous"
    assert _outcome_bytes(out) <= 5_000_000


@pytest.mark.parametrize(
    "program",
    [
        {"x" * 60_000: 1},
        {"$ref": "y" * 60_000},
        {"greet": {"name": "x", "bogus" * 12_000: 1}},
        {"add": ["x" * 60_000, 1]},
        [{f"nope{i}": 1} for i in range(1500)],
    ],
    ids=["function", "ref", "parameter", "value", "many"],
)
def test_failure_outcome_fits_max_output_bytes(
    make_rt: Callable[..., Runtime], clean: Clean, program: Any
) -> None:
    rt = make_rt(max_output_bytes=100_000)
    out = quick(clean, program, runtime=rt)
    assert out.status == "failure"
    assert _outcome_bytes(out) <= 100_000


# -- depth of values built through aliases --------------------------------------------------------

DEEP_ALIASES = "a0 = 1;\n" + "".join(f"a{i + 1} = [a{i}];\n" for i in range(300))


@pytest.mark.parametrize(
    "final",
    [
        "return greet(a300);",
        "return concat(a300, 'x');",
        "return double(a300);",
        "return find(a300);",
        "return str(a300);",
        "return join(a300, ',');",
        "return convert(a300, 'string');",
        "return a300;",
        "return `${a300}`;",
    ],
)
def test_deep_values_built_through_aliases(clean: Clean, final: str) -> None:
    out = quick(clean, DEEP_ALIASES + final, lang="plan")
    limit(out, "max_depth", "max_output_bytes", "max_string_length")


def test_deep_values_built_through_aliases_json(clean: Clean) -> None:
    binds: dict[str, Any] = {"a0": 1}
    for i in range(300):
        binds[f"a{i + 1}"] = [{"$ref": f"a{i}"}]
    for body in ({"count": {"$ref": "a300"}}, {"$get": [{"$ref": "a300"}] + [0] * 300}):
        assert quick(clean, {"$let": binds, "$return": body}).status == "success"


@pytest.mark.parametrize(
    "program",
    [
        [{"sleepEcho": {"value": 1, "seconds": 30}}, {"refuse": "no"}],
        [{"sleepEcho": {"value": 1, "seconds": 30}}, {"boom": "no"}],
        {"asyncAdd": [{"sleepEcho": {"value": 1, "seconds": 30}}, {"$get": [[1], 5]}]},
        {"$template": [{"sleepEcho": {"value": 1, "seconds": 30}}, {"$get": [[1], "__class__"]}]},
        {
            "$let": {"a": {"sleepEcho": {"value": 1, "seconds": 30}}, "b": {"refuse": "x"}},
            "$return": [{"$ref": "a"}, {"$ref": "b"}],
        },
    ],
    ids=["array", "boom", "args", "template", "aliases"],
)
def test_a_failure_cancels_slow_siblings(clean: Clean, program: Any) -> None:
    out = quick(clean, program)
    assert out.status == "failure"


@pytest.mark.parametrize("seconds", [1e308, 30])
def test_deadline_bounds_any_sleep(
    make_rt: Callable[..., Runtime], clean: Clean, seconds: float
) -> None:
    rt = make_rt(deadline=0.2)
    out = quick(clean, {"sleepEcho": {"value": 1, "seconds": seconds}}, runtime=rt)
    limit(out, "deadline")


def test_an_infinite_number_is_not_a_program(clean: Clean) -> None:
    out = clean({"sleepEcho": {"value": 1, "seconds": float("inf")}})
    assert out.error is not None and out.error.code == "invalid_program"
