"""The fused and unrolled closures give what the node-per-closure forms give, value for value and
error for error (code, message, path): a chain of ``+`` fused into one closure
(:mod:`dialectic.compiler.plus`) against one closure per ``+``; templates of one to four
expressions unrolled (:mod:`dialectic.compiler.templates`) against the loop; the unrolled
reads of a context value's member path (:mod:`dialectic.compiler.getters`) against the general
reader; the call sites of one argument and of two with a literal second
(:mod:`dialectic.compiler.invoke`) against the general call. The ``+`` chains are also checked
against Node.js."""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest

import dialectic.compiler.calls as calls
import dialectic.compiler.invoke as invoke
import dialectic.compiler.plus as plus_module
import dialectic.compiler.templates as templates_module
from dialectic import Ambiguous, Candidate, FunctionDescription, Runtime
from dialectic.limits import Limits
from dialectic.outcome.errors import format_path

from .node_oracle import node_values

X = {
    "s": "ab",
    "e": "",
    "n": 7,
    "f": 2.5,
    "z": -0.0,
    "t": True,
    "nil": None,
    "arr": [1, "two"],
    "obj": {"k": 1, "inner": {"deep": "yes"}},
    "num_text": "1e3",
    "big": 2**53,
}
#: operands of `+`: literals (read in place), context reads, calls
OPERANDS = [
    '"a"',
    '""',
    "1",
    "2.5",
    "true",
    "null",
    "undefined",
    "x.s",
    "x.e",
    "x.n",
    "x.z",
    "x.t",
    "x.nil",
    "x.arr",
    "x.obj",
    "x.num_text",
    "x.big",
    "upper(x.s)",
]


def _pick(name: str) -> str:
    raise Ambiguous(
        f"Which {name}?",
        [Candidate(f"{name} one", {"ok": {}}), Candidate(f"{name} two", {"ok": {}})],
    )


def runtime(**limits: Any) -> Runtime:
    rt = Runtime(load_entry_points=False, limits=Limits(**limits) if limits else None)
    rt.register(
        FunctionDescription("pick", "ambiguous", _pick, {"name": "string"}),
        FunctionDescription("ident", "its argument", lambda value: value, {"value": "any"}),
        FunctionDescription("pair", "a pair", lambda a, b: [a, b], {"a": "any", "b": "any"}),
    )
    return rt


def outcome(rt: Runtime, program: Any, lang: str = "plan", x: Any = None) -> dict[str, Any]:
    return rt.prepare(program, lang=lang).run({"x": X if x is None else x}).to_json()


# -- `+` chains -------------------------------------------------------------------------------


def _chains() -> list[str]:
    rng = random.Random(7)
    triples = [" + ".join(t) for t in itertools.product(OPERANDS[:9], repeat=3)]
    longer = [
        " + ".join(rng.choice(OPERANDS) for _ in range(rng.randint(4, 9))) for _ in range(300)
    ]
    return triples + longer


def test_a_fused_chain_gives_what_one_closure_per_plus_gives(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    programs = [f"return {c};" for c in _chains()]
    fused = runtime()
    expected = [outcome(fused, p) for p in programs]
    monkeypatch.setattr(plus_module, "CHAIN_MAX", 2)  # each `+` its own closure
    unfused = runtime()
    for program, want in zip(programs, expected, strict=True):
        assert outcome(unfused, program) == want, program
    failed = [w for w in expected if w["status"] == "failure"]
    assert len(failed) > 50 and len(failed) < len(expected) - 50  # both kinds are covered
    # a refusal names the `+` that failed, by its path
    paths = {w["error"]["path"] for w in failed if w["error"]["code"] == "expression_error"}
    assert {"program.$return", "program.$return.$op[1]", "program.$return.$op[1].$op[1]"} <= paths


def test_a_fused_chain_agrees_with_node() -> None:
    rt = runtime()
    chains = [c for c in _chains() if "upper" not in c][:400]
    oracle = node_values(chains, X)
    agreed = 0
    for chain, node in zip(chains, oracle, strict=True):
        got = outcome(rt, f"return {chain};")
        if got["status"] == "success":
            assert "ok" in node, chain
            assert json.dumps(got["value"]) == json.dumps(node["ok"]), chain
            agreed += 1
        else:  # a refusal (`+` with null, undefined, an array or an object), never a wrong text
            assert got["error"]["code"] == "expression_error", (chain, got)
    assert agreed > 100


def test_a_chain_longer_than_one_closure_keeps_every_path(monkeypatch: pytest.MonkeyPatch) -> None:
    n = 2 * plus_module.CHAIN_MAX + 5  # (within the depth limit: one level per `+`)
    for bad in (1, plus_module.CHAIN_MAX - 1, plus_module.CHAIN_MAX, n - 2):
        terms = ["x.s"] * n
        terms[bad] = "x.nil"
        program = f"return {' + '.join(terms)};"
        fused = outcome(runtime(), program)
        assert fused["status"] == "failure"
        # the `+` that adds term `bad` is nested n - 1 - bad levels deep
        assert fused["error"]["path"] == format_path(("$return",) + ("$op", 1) * (n - 1 - bad))
        with monkeypatch.context() as m:
            m.setattr(plus_module, "CHAIN_MAX", 2)
            assert outcome(runtime(), program) == fused
    ok = outcome(runtime(), f"return {' + '.join(['x.s', '1'] * (n // 2))};")
    assert ok["value"] == "ab1" * (n // 2)


def test_an_ambiguous_operand_stops_the_chain_where_it_is() -> None:
    rt = runtime()
    for program in (
        'return x.s + pick("a") + pick("b") + x.nil;',
        'return "<" + pick("a") + pick("b") + ">";',  # a text chain (unrolled)
        'return "<" + x.s + 1 + pick("a") + x.nil + pick("b") + ">";',
    ):
        got = outcome(rt, program)
        assert got["status"] == "ambiguous", program
        assert "Which a?" in got["message"] and "Which b?" not in got["message"]
    refused = outcome(rt, 'return "<" + x.s + x.nil + pick("a") + ">";')
    assert refused["error"]["path"] == "program.$return.$op[1].$op[1]"


def test_other_operators_read_a_literal_right_operand_in_place() -> None:
    rt = runtime()
    pairs = [
        ("x.n * 2", "x.n * ident(2)"),
        ("x.s === 'ab'", "x.s === ident('ab')"),
        ("x.arr - 1", "x.arr - ident(1)"),
        ("x.nil < 3", "x.nil < ident(3)"),
        ("x.s ?? 1", "x.s ?? ident(1)"),
    ]
    for literal, called in pairs:
        a, b = outcome(rt, f"return {literal};"), outcome(rt, f"return {called};")
        assert a.get("value") == b.get("value"), literal
        if a["status"] == "failure":
            assert (a["error"]["code"], a["error"]["message"]) == (
                b["error"]["code"],
                b["error"]["message"],
            )
            assert a["error"]["path"] == "program.$return"


# -- templates --------------------------------------------------------------------------------

PARTS = ["x.s", "x.n", "x.z", "x.t", "x.nil", "x.arr", "x.obj", "undefined", 'pick("p")']


def _templates() -> list[str]:
    rng = random.Random(11)
    out = []
    for n in range(1, 7):
        for _ in range(40):
            texts = [rng.choice(["", "a", " - ", "é"]) for _ in range(n + 1)]
            exprs = [rng.choice(PARTS) for _ in range(n)]
            body = "".join(t + "${" + e + "}" for t, e in zip(texts, exprs, strict=False))
            out.append("return `" + body + texts[-1] + "`;")
    return out


@pytest.mark.parametrize("limit", [None, 12])
def test_unrolled_templates_give_what_the_loop_gives(
    monkeypatch: pytest.MonkeyPatch, limit: int | None
) -> None:
    limits = {"max_string_length": limit} if limit else {}
    programs = _templates()
    unrolled = [outcome(runtime(**limits), p) for p in programs]
    monkeypatch.setattr(templates_module, "_UNROLLED", {})
    looped = runtime(**limits)
    for program, want in zip(programs, unrolled, strict=True):
        assert outcome(looped, program) == want, program
    statuses = {w["status"] for w in unrolled}
    assert statuses == {"success", "ambiguous"} | ({"failure"} if limit else set())


def test_a_template_reports_every_ambiguity_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    programs, names = [], []
    for n in range(1, 7):
        for mask in itertools.product([False, True], repeat=n):
            if any(mask):
                asked = [f"q{i}" for i, amb in enumerate(mask) if amb]
                body = "-".join(
                    "${pick('" + f"q{i}" + "')}" if amb else "${x.n}" for i, amb in enumerate(mask)
                )
                programs.append("return `" + body + "`;")
                names.append(asked)
    unrolled = [outcome(runtime(), p) for p in programs]
    for got, asked in zip(unrolled, names, strict=True):
        assert got["status"] == "ambiguous"
        where = [got["message"].index(f"Which {q}?") for q in asked]
        assert where == sorted(where), got["message"]
    monkeypatch.setattr(templates_module, "_UNROLLED", {})
    looped = runtime()
    for program, want in zip(programs, unrolled, strict=True):
        assert outcome(looped, program) == want, program


def test_json_templates_join_adjacent_texts() -> None:
    rt = runtime(max_string_length=10)
    tree = {"$template": ["a", "b", {"$get": [{"$ref": "x"}, "s"]}, "c", "d"]}
    assert outcome(rt, tree, "json")["value"] == "ababcd"
    long = {"$template": ["abcd", "efg", {"$get": [{"$ref": "x"}, "s"]}, "hij"]}
    got = outcome(rt, long, "json")
    assert got["error"]["code"] == "limit_exceeded", got
    assert "12 characters" in got["error"]["message"]


# -- member reads of a context value ----------------------------------------------------------

KEYS = ["s", "nil", "arr", "obj", "missing", "length", "0", "k", "inner", "deep"]


def test_unrolled_member_reads_give_what_the_general_reader_gives() -> None:
    rt = runtime()
    seen = set()
    for depth in (1, 2):
        for keys in itertools.product(KEYS, repeat=depth):
            path = (
                ".".join(keys)
                if "0" not in keys
                else "".join(f"[{k}]" if k == "0" else f".{k}" for k in keys).lstrip(".")
            )
            sep = "" if path.startswith("[") else "."
            short = outcome(rt, f"return x{sep}{path};")  # unrolled: one or two keys
            long = outcome(rt, f"return x.w{'' if sep == '' else '.'}{path};", x={"w": X})
            short.pop("message", None)  # (which quotes the program's text)
            long.pop("message", None)
            assert short == long, path
            seen.add(short["status"])
    assert seen == {"success", "failure"}


# -- call sites -------------------------------------------------------------------------------


CALLS = [
    "str(x.n)",
    "str(x.obj)",
    "str(undefined)",
    "upper(x.s)",
    "upper(x.n)",
    "upper(undefined)",
    "upper(x.arr)",
    "upper(pick('p'))",
    "max(x.n, 3)",
    "max(3, x.n)",
    "max(undefined, 3)",
    "max(x.num_text, 3)",
    "max(x.arr, 3)",
    "max(x.s, 3)",
    "max(x.nil, 3)",
    "max(pick('p'), 3)",
    "max(pick('p'), pick('q'))",
    "max(x.n, '4')",
    "max(x.n, x.f)",
    "pair(pick('p'), 3)",
    "pair(undefined, 3)",
    "pair(x.obj, null)",
    "ident(pick('p'))",
    "ident(x.arr)",
]


def test_the_fast_call_sites_agree_with_the_general_call(monkeypatch: pytest.MonkeyPatch) -> None:
    rt = runtime()
    fast = [outcome(rt, f"return {c};") for c in CALLS]
    monkeypatch.setattr(calls, "PLAIN_CALLS", False)  # every call site built first
    plain_off = runtime()
    for call, want in zip(CALLS, fast, strict=True):
        assert outcome(plain_off, f"return {call};") == want, call
    monkeypatch.setattr(invoke.SyncOne, "fits", staticmethod(lambda site: False))
    monkeypatch.setattr(invoke.SyncTwo, "fits", staticmethod(lambda site: False))
    general = runtime()
    for call, want in zip(CALLS, fast, strict=True):
        assert outcome(general, f"return {call};") == want, call
    assert {w["status"] for w in fast} == {"success", "failure", "ambiguous"}
