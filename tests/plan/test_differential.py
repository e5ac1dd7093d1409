"""Differential test against a real JavaScript parser (acorn, under Node.js).

Every program that ``parse_plan(strict=True)`` accepts must be valid JavaScript inside
``async function plan() { ... }`` (with ``use`` read as ``return``), and acorn's syntax tree,
converted to the call tree by an independent converter (``acorn_tree.js``), must equal ours:
same structure, same string values, same template cooked values, same numbers. A program with a
``for...of`` loop is only checked to be JavaScript (its tree is a desugaring, SPEC 10 "Loops").

Set-up: ``python3 tasks.py setup`` (run by ``tasks.py test``) installs the pinned acorn into
``.node/`` at the repository root (git-ignored). The test installs nothing: it fails, saying
what to run, if Node.js or acorn is missing (fixtures ``node`` and ``acorn_dir``, conftest.py).
"""

from __future__ import annotations

import copy
import itertools
import json
import subprocess
from pathlib import Path
from typing import Any

import yaml

from dialectic.frontends.base import SourceError
from dialectic.frontends.envelopes import looks_like_llmcompiler
from dialectic.frontends.plan import parse_plan
from dialectic.frontends.plan.caselookup import chains_as_lookups
from dialectic.frontends.plan.postfix import CONSTANTS
from dialectic.values.jsmethods import ALL_METHODS, GLOBALS
from dialectic.values.lookalikes import FOREIGN_METHODS, METHOD_LOOKALIKES

HERE = Path(__file__).parent
SPEC_DIR = HERE.parent / "spec"

# Hand-written strict programs: the seed's examples and the corners of the syntax.
HANDWRITTEN = [
    "return domainA({slot1: 'hello'});",
    # regular expressions where an expression starts, and divisions after a value (SPEC 10)
    "const r = [/a\\/[/]b/gi, new RegExp('x', 'u'), f(/\\s+/), !/c/.test(s), y ? /d/ : /e/];\n"
    "return [r, a / b / c, (a) / 2, xs[0] / 2, g() / 2, `${/t/.test(s)}`];",
    # a Map and a Set as values (SPEC 10, "Maps and Sets")
    "const m = new Map([[1, 'a']]);\nconst s = new Set(m.keys());\n"
    "return [m.get(1), m.has(2), m.size, [...m.values()], s.has(1), [...new Map()], [...s]];",
    "return domainC({\n  slot3: domainA({slot1: 'foo'}).field1,\n"
    "  slot4: domainB({slot2: 'bar'})[0].field2,\n});",
    "flight = flightInfo({airline: 'AA', flight: 1234});\n"
    "return other({start: flight.departs, end: flight.arrives});",
    "x = next(Thursday).at('9:00am');\ny = last(Tuesday).plus(23, day).at('9:00am');\n"
    "return [x, y];",
    "return this(week);",
    "return this.x;",
    "use search({q: `flights to ${city}`});",
    "return [1, -2, +3, 1.5, .5, 5., 1e21, 1e-7, 0x1F, 0o17, 0b11, -0, 9007199254740992, "
    "1152921504606846976];",
    "return ['\\n\\t\\r\\b\\f\\v\\0\\\\\\'\\\"\\x41\\u0041\\u{1F600}\\ud83d\\ude00', \"a\\\nb\"];",
    "return `a${b}c${`d${e}f`}g`;",
    "return `${'x'}${1}${`y`}`;",
    "return `line1\nline2\r\nline3\\r`;",
    "return {jfk, lga, 'a b': 1, 2: 3, 1.50: 4, 0x10: 5, if: 6, $x: 7,};",
    "return {a: 1};",
    "return {};",
    "return [undefined, null, true, false];",
    "return a.b.c[0]['d'][e.f].g(1).h;",
    "return (a.b).c;",
    "return (f(1)).x;",
    "return x.delete(y).new;",
    "a = 1; b = a; ; return [a, b];",
    "/* leading */ return f(/* inside */ 1) // trailing\n;",
    "return '\u2028\u2029';",
    "use = 1;\nreturn use;",
    # for...of loops (acorn checks that they are JavaScript; their trees, which are desugared,
    # are checked against Node's values in tests/expressions/test_loops.py)
    "const out = [];\nlet t = 0;\nconst by = {};\nfor (const [a, {b}] of xs) {\n"
    "  if (a) continue;\n  else if (b) { const c = b + 1; out.push(c, ...b); }\n  else t += 1;\n"
    "  by[a] = b;\n  by.last = a;\n  t++;\n  --t;\n  t -= 1;\n  t = t + 1;\n  { f(a); }\n}\n"
    "return [out, t, by];",
    "let s = '';\nfor (let w of ws) s += w;\nreturn s;",
    # top-level `if` whose branches end in return (SPEC 10)
    "a = f(1);\nif (a.ok) {\n  const b = g(a);\n  return b;\n} else if (a.n > 2) return 3;\n"
    "else { return 4; }",
    "if (x) return 1;\nc = h(2);\nreturn c;",
    "if (x) { if (y) { return 1; } return 2; } else { return 3; }",
    "if (x) { return 1; } else if (y) { return 2; }\nreturn 3;",
    # optional calls and chains through method calls (SPEC 1.2, `$method?`)
    "return [x?.toUpperCase(), list?.map(f => f.n), a?.b.trim().length];",
    "return x?.trim()?.at(0) ?? a?.b?.c.slice(1, 2).concat('!');",
    "return x?.echo(1, ...ys);",
    # destructuring defaults (SPEC 10)
    "const {a = 1, b: {c} = {}, d: [e = f(1), , g] = []} = h;\nreturn [a, c, e, g];",
    "const [x = 0, [y = {k: 1}] = [], ...r] = xs;\nconst {k: z = y.k} = y;\nreturn [x, y, r, z];",
    "const {q: {r: [s = 's'] = 'q'} = {r: 't'}} = o;\nreturn s;",
    # a Set's items, count and membership (SPEC 10)
    "return [[...new Set(xs)], Array.from(new Set('ab')), new Set(xs).size, new Set().has(x)];",
    "return [0, ...new Set(xs), ...(new Set([1, 1]))].concat(Array.from(new Set(ys), y => y));",
    "return f(...new Set(xs), [...new Set(null)].length, new Set(xs.map(x => x.id)).size > 1);",
    # a dollar next to a brace in a template (a generator bug once wrote `${` meaning text)
    "return `$${a}`;",
    "return `$$${a}$`;",
    "return `\\${a}\\{`;",
    "return `$\\{a}$ {a}`;",
    "return `${{a: 1}.a}`;",
    "return `${`${a}`}{}`;",
    "return `}${'{'}$`;",
]


def _acorn(node: str, acorn_dir: Path, sources: list[str]) -> list[dict[str, Any]]:
    """All sources through acorn in one Node process."""
    # `s.length()`, `xs.count()` and their kin are written as methods too (the resolver's)
    methods = sorted(ALL_METHODS | set(METHOD_LOOKALIKES) | set(FOREIGN_METHODS))
    names = json.dumps(
        {"methods": methods, "globals": sorted(GLOBALS), "constants": sorted(CONSTANTS)}
    )
    done = subprocess.run(
        [node, str(HERE / "acorn_tree.js"), str(acorn_dir), names],
        input=json.dumps(sources),
        capture_output=True,
        text=True,
        timeout=300,
        encoding="utf-8",
    )
    assert done.returncode == 0, done.stderr
    results: list[dict[str, Any]] = json.loads(done.stdout)
    return results


def _same(a: Any, b: Any) -> bool:
    """JSON equality that does not confuse True with 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        # (acorn's numbers come as Node writes them: 2**60 as 1152921504606847000, the same
        # double; ours must be that double exactly)
        return a == b or float(a) == float(b) == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and bool(a == b)


def _as_javascript(source: str, tree: Any) -> str:
    """``use expr;`` is Plan's one statement JavaScript lacks: read it as ``return``."""
    if "$use" not in tree:
        return source
    prefix = source[: parse_plan(source, strict=True).spans[("$use",)].start]
    at = prefix.rstrip().rfind("use")
    return source[:at] + "return" + source[at + 3 :]


def _spec_programs() -> list[str]:
    """The conformance cases' hand-written Plan texts (a case Plan cannot express has none)."""
    cases = yaml.safe_load((SPEC_DIR / "conformance.yaml").read_text(encoding="utf-8"))
    # an LLMCompiler plan given as `plan` is a model's answer shape, not Plan (SPEC 9)
    # a `lenient` case holds what models write around a program: strict mode refuses it
    # a case of a program nested beyond max_depth: the parser refuses it (a limit)
    return [
        case["plan"]
        for case in cases
        if case["plan"] is not None
        and not case.get("lenient")
        and not looks_like_llmcompiler(case["plan"])
        and "levels deep" not in str(case.get("error", {}).get("contains", ""))
    ]


def _looked_up(tree: Any) -> Any:
    """``tree`` with its long chains of tests of one name against literals as the lookups the
    Plan front end writes (SPEC 10, "Switch": the same value), hidden names ``_sw1``, ..."""
    count = itertools.count(1)
    return chains_as_lookups(copy.deepcopy(tree), lambda prefix: f"{prefix}{next(count)}")


def test_strict_plans_are_javascript_with_the_same_tree(
    plan_corpus: list[str], reordered_corpus: list[str], node: str, acorn_dir: Path
) -> None:
    spec = _spec_programs()
    programs = HANDWRITTEN + spec + plan_corpus + reordered_corpus
    ours: list[tuple[str, Any]] = []
    for source in programs:
        try:
            tree = parse_plan(source, strict=True).tree
        except SourceError:
            continue  # only what strict mode accepts must be JavaScript
        ours.append((source, tree))
    strict = dict(ours)
    # the generator writes strict programs only: one refused is a parser or a generator bug
    # (acorn decides which: run it through _acorn)
    refused = [s for s in plan_corpus + reordered_corpus if s not in strict]
    assert not refused, f"strict mode refused generated programs: {refused[:3]}"
    assert len(spec) > 60 and all(s in strict for s in spec), "conformance Plan texts are strict"
    results = _acorn(node, acorn_dir, [_as_javascript(s, t) for s, t in ours])
    failures = []
    for (source, tree), result in zip(ours, results, strict=True):
        tree = {("$return" if k == "$use" else k): v for k, v in tree.items()}
        if not result["ok"]:
            failures.append(f"acorn rejected {source!r}: {result['error']}")
        elif result.get("loop"):  # valid JavaScript; its desugaring is tested against Node
            continue  # itself (tests/expressions/test_loops.py, test_reduce_in_place.py)
        elif not _same(result["tree"], tree) and not _same(_looked_up(result["tree"]), tree):
            failures.append(
                f"trees differ for {source!r}:\n  acorn: {result['tree']}\n  plan:  {tree}"
            )
    assert not failures, f"{len(failures)} of {len(ours)} differ:\n" + "\n".join(failures[:5])


def test_every_handwritten_program_is_strict() -> None:
    for source in HANDWRITTEN:
        parse_plan(source, strict=True)


def test_acorn_rejects_what_javascript_rejects(node: str, acorn_dir: Path) -> None:
    """The oracle itself works: it rejects non-JavaScript and flags unsupported constructs."""
    results = _acorn(node, acorn_dir, ["return f(;", "return a instanceof b.c;", "return 1;"])
    assert not results[0]["ok"]
    assert not results[1]["ok"] and "unsupported" in results[1]["error"]
    assert results[2] == {"ok": True, "tree": {"$return": 1}}
