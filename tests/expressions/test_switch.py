"""``switch`` whose cases end in ``return`` (SPEC 10, "Switch"): the choice over a value read
once, as Node gives it; a case that `break`s is refused with what to write instead."""

from __future__ import annotations

import pytest

from dialectic import Runtime

from .program_oracle import runs_as_in_node, runtime

RT: Runtime = runtime()

PROGRAMS = [
    "switch (n) {\n  case 7: return 'seven';\n  default: return 'other';\n}",
    "switch (s.length) {\n  case 1:\n  case 12: return 'twelve';\n  case 3: return 'three';\n}\n"
    "return 'none';",
    "function kind(x) {\n  switch (typeof x) {\n    case 'number': return 'n';\n"
    "    case 'string': { const u = x.toUpperCase(); return u; }\n    default: return '?';\n"
    "  }\n}\nreturn [kind(1), kind('a'), kind(null)];",
    "return people.map(p => {\n  switch (p.city) {\n    case 'Oslo': return 'NO';\n"
    "    case 'Rome': return 'IT';\n    default: return '??';\n  }\n});",
    "switch (n) {\n  default: return 'd';\n  case 7: return 'seven';\n}",
    "switch (n) {\n  case 1: return 'one';\n}\nreturn 'fallback';",
    "switch (n) {\n  case 7: const y = n * 2; return y;\n  default: return 0;\n}",
    # the value is read once: a call in it runs once
    "switch (await echo(n)) {\n  case 1: return 'a';\n  case 7: return 'b';\n"
    "  default: return 'c';\n}",
    "switch (true) {\n  case n > 10: return 'big';\n  case n > 5: return 'mid';\n"
    "  default: return 'small';\n}",
    "if (flag) {\n  switch (n) { case 7: return 1; default: return 2; }\n}\nreturn 3;",
]


def test_switch_gives_what_node_gives() -> None:
    runs_as_in_node(PROGRAMS, RT)


#: cases that `break`: in a loop's body, or a statement that changes values
BREAKING = [
    "let label;\nswitch (n) {\n  case 7: label = 'seven'; break;\n  default: label = 'x';\n}\n"
    "return label;",
    "let bugs = 0;\nconst ideas = [];\nfor (const p of people) {\n  switch (p.city) {\n"
    "    case 'Oslo': bugs++; break;\n    case 'Rome':\n    case null: ideas.push(p.name); break;\n"
    "    default: bugs += 10;\n  }\n}\nreturn [bugs, ideas];",
    "const out = [];\nfor (const w of words) {\n  switch (w.length) {\n    case 0: continue;\n"
    "    case 1: out.push('one'); break;\n    default: out.push(w);\n  }\n}\nreturn out;",
    "let r = 0;\nswitch (n) {\n  default: r = -1; break;\n  case 7: r = 7;\n}\nreturn r;",
    "let total = 0;\nfor (const x of nums) {\n  switch (true) {\n"
    "    case x > 5: total += 100; break;\n    case x > 0: total += 1; break;\n  }\n}\n"
    "return total;",
    "let s2 = '';\nswitch (n % 3) {\n  case 1: { s2 = 'one'; break; }\n"
    "  case 0: s2 = 'fizz'; break;\n  default: { const q = n * 2; s2 = `${q}`; }\n}\nreturn s2;",
    "const o = {};\nfor (const p of people) {\n  switch (typeof p.city) {\n"
    "    case 'string': o[p.name] = p.city; break;\n    default: o[p.name] = '-';\n  }\n}\n"
    "return o;",
    # a call in a case runs only when the case is taken
    "const got = [];\nswitch (n) {\n  case 1: got.push(await echo('a')); break;\n"
    "  case 7: got.push(await echo('b')); break;\n}\nreturn got;",
]


def test_switch_with_break_gives_what_node_gives() -> None:
    outcomes = runs_as_in_node(BREAKING, RT)
    done = [c for c in outcomes[-1].calls if c["status"] == "done"]
    assert len(done) == 1


def test_the_value_of_switch_is_read_once() -> None:
    out = RT.run(PROGRAMS[7], lang="plan", context={"n": 7})
    assert out.status == "success" and out.value == "b"
    assert len([c for c in out.calls if c["status"] == "done"]) == 1


@pytest.mark.parametrize(
    ("text", "message", "line", "column"),
    [
        (  # (a case falling into one whose statements declare a name: SPEC 10, "Switch")
            "let r = 0;\nswitch (n) {\n  case 1: r = 1;\n  case 7: const q = 7; r = q; break;\n}\n"
            "return r;",
            "a case of `switch` falls into the next case's statements",
            4,
            3,
        ),
        (
            "let r = 0;\nswitch (n) {\n  case 7: if (flag) break; r = 1; break;\n}\nreturn r;",
            "a `break` inside a case of `switch`, before its end",
            3,
            21,
        ),
        ("switch (n) {\n  return 1;\n  case 7: return 2;\n}", "before its first `case`", 2, 3),
        (
            "switch (n) {\n  case 1: return 1;\n  case 7:\n}\nreturn 1;",
            "the last case of `switch` has no",
            3,
            3,
        ),
        (
            "switch (n) {\n  case 7: const a = 1;\n  default: return 2;\n}",
            "a case of `switch` falls into the next case's statements",
            3,
            3,
        ),
    ],
)
def test_switch_refused(text: str, message: str, line: int, column: int) -> None:
    out = RT.run(text, lang="plan", context={"n": 7})
    assert out.status == "failure" and out.error is not None
    assert message in (out.message or ""), out.message
    assert (out.error.line, out.error.column) == (line, column), out.message
    assert out.error.hint
