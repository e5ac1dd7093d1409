"""What models write, as Plan text (issue: expressions): each program runs to JavaScript's
value, or fails with a located error that says what to write instead."""

from __future__ import annotations

from typing import Any

import pytest

import dialectic.testing
from dialectic import FunctionDescription, Optional, Runtime

FLIGHTS = [
    {"airline": "United", "flight": "UA 1", "price_usd": 320},
    {"airline": "Delta", "flight": "DL 2", "price_usd": 210},
    {"airline": "United", "flight": "UA 3", "price_usd": 180},
]


def _runtime() -> Runtime:
    rt = Runtime(plugins=[dialectic.testing], load_entry_points=False)

    async def flights(origin: str = "SFO", destination: str = "LAX") -> list[dict[str, Any]]:
        return [dict(f, origin=origin) for f in FLIGHTS] if origin != "NOWHERE" else []

    async def trains(origin: str) -> list[str]:
        return [f"train from {origin}"]

    rt.register(
        FunctionDescription(
            "flights",
            "flights",
            flights,
            {"origin": Optional("string"), "destination": Optional("string")},
            "array",
        ),
        FunctionDescription("trains", "trains", trains, {"origin": "string"}, "array"),
    )
    return rt


RT = _runtime()

PROGRAMS: list[tuple[str, Any]] = [
    (
        "const fs = await flights({origin: 'SFO', destination: 'LAX'});\n"
        "return fs.filter(f => f.airline === 'United').map(f => f.flight);",
        ["UA 1", "UA 3"],
    ),
    (
        "const fs = await flights({origin: 'SFO', destination: 'LAX'});\n"
        "return fs.sort((a, b) => a.price_usd - b.price_usd)[0].flight;",
        "UA 3",
    ),
    ("return (await flights({origin: 'SFO'})).reduce((s, f) => s + f.price_usd, 0) * 2;", 1420),
    ("const n = 3;\nreturn `${n} nights for ${n * 120 + 0.5} USD`;", "3 nights for 360.5 USD"),
    (
        "const fs = flights({origin: 'NOWHERE'});\n"
        "return fs.length > 0 ? fs : trains({origin: 'NOWHERE'});",
        ["train from NOWHERE"],
    ),
    ("const x = null;\nreturn x ?? 'none';", "none"),
    ("const x = {a: {b: 1}, c: null};\nreturn [x?.a?.b, x.c?.d];", [1, None]),
    (
        "const a = [1];\nconst b = [2, 3];\nreturn [...a, ...b, {...{k: 1}, j: 2}];",
        [1, 2, 3, {"k": 1, "j": 2}],
    ),
    (
        "const [a, b] = await Promise.all([flights({origin: 'SFO'}), trains({origin: 'SF'})]);\n"
        "return {flights: a.length, trains: b};",
        {"flights": 3, "trains": ["train from SF"]},
    ),
    (
        "const {airline, price_usd: p} = flights({origin: 'SFO'})[1];\nreturn [airline, p];",
        ["Delta", 210],
    ),
    (
        "return ['SFO', 'OAK'].map(a => flights({origin: a}).map(f => f.origin)[0]);",
        ["SFO", "OAK"],
    ),
    (
        "return flights({origin: 'SFO'}).map(f => {\n"
        "  const total = f.price_usd * 2;\n"
        "  return `${f.flight}: ${total}`;\n"
        "});",
        ["UA 1: 640", "DL 2: 420", "UA 3: 360"],
    ),
    ("return Math.max(...flights({origin: 'SFO'}).map(f => f.price_usd));", 320),
    ("return Object.keys({a: 1, b: 2}).join('+');", "a+b"),
    ("return 'SFO-LAX'.split('-').map(s => s.toLowerCase());", ["sfo", "lax"]),
    ("return !true || 2 ** 10 === 1024;", True),
]


@pytest.mark.parametrize(("source", "value"), PROGRAMS, ids=[p[0][:40] for p in PROGRAMS])
def test_programs_models_write(source: str, value: Any) -> None:
    out = RT.run(source, lang="plan", strict=True)
    assert out.status == "success", out.message
    assert out.value == value


REFUSED: list[tuple[str, str, str]] = [
    ("return '5' - 2;", "expression_error", "Number(x)"),
    ("return 1 == '1';", "expression_error", "==="),
    ("const xs = [3, 1];\nreturn [xs.sort(), xs];", "expression_error", "toSorted"),
    ("return [{a: 1}, {a: 2}].sort();", "expression_error", "comparator"),
    ("let i = 0;\nwhile (true) {}\nreturn 1;", "syntax_error", "break"),
    ("if (x) { use 1; }\nreturn 2;", "syntax_error", "use test ? a : b"),
    ("const f = [x => x];\nreturn f;", "invalid_program", "arrow function"),
]


@pytest.mark.parametrize(("source", "code", "hint"), REFUSED, ids=[r[0][:30] for r in REFUSED])
def test_what_javascript_would_answer_differently_is_refused(
    source: str, code: str, hint: str
) -> None:
    out = RT.run(source, lang="plan", strict=True, context={"x": True})
    assert out.status == "failure"
    assert out.error is not None and out.error.code == code, out.message
    assert hint in (out.message or "")
    assert out.error.line is not None  # located in the source


def test_the_branch_not_taken_makes_no_call() -> None:
    calls: list[str] = []

    def probe(name: str) -> str:
        calls.append(name)
        return name

    rt = Runtime(plugins=[dialectic.testing], load_entry_points=False)
    rt.register(FunctionDescription("probe", "records", probe, {"name": "string"}, "string"))
    out = rt.run("return 1 > 2 ? probe('then') : probe('else');", lang="plan")
    assert out.value == "else" and calls == ["else"]


IF_PROGRAMS: list[tuple[str, dict[str, Any], Any]] = [
    ("if (n > 1) { return 'big'; } else { return 'small'; }", {"n": 3}, "big"),
    ("if (n > 1) { return 'big'; } else { return 'small'; }", {"n": 0}, "small"),
    ("if (n > 1) return 'big';\nconst m = n + 10;\nreturn m;", {"n": 0}, 10),
    (
        "if (n > 5) { return 'a'; } else if (n > 1) { return 'b'; } else { return 'c'; }",
        {"n": 3},
        "b",
    ),
    (
        "const fs = flights({origin: 'SFO'});\n"
        "if (fs.length > 0) {\n"
        "  const best = fs.toSorted((a, b) => a.price_usd - b.price_usd)[0];\n"
        "  return best.flight;\n}\nreturn 'none';",
        {"n": 0},
        "UA 3",
    ),
]


@pytest.mark.parametrize(("source", "context", "value"), IF_PROGRAMS)
def test_a_top_level_if_is_a_conditional(source: str, context: dict[str, Any], value: Any) -> None:
    out = RT.run(source, lang="plan", strict=True, context=context)
    assert out.status == "success", out.message
    assert out.value == value


def test_the_branch_of_an_if_not_taken_makes_no_call() -> None:
    calls: list[str] = []

    def probe(name: str) -> str:
        calls.append(name)
        return name

    rt = Runtime(plugins=[dialectic.testing], load_entry_points=False)
    rt.register(FunctionDescription("probe", "records", probe, {"name": "string"}, "string"))
    source = "if (2 > 1) {\n  const a = probe('then');\n  return a;\n}\nreturn probe('else');"
    assert rt.run(source, lang="plan", strict=True).value == "then"
    assert calls == ["then"]
