"""A seeded fuzzer for every front end: valid programs (the conformance cases in all three
notations, examples/, NESTFUL and BFCL gold calls, vendors' envelopes) mutated by characters,
tokens, deep nesting, long chains, huge literals, hostile unicode, YAML features and member
names, each checked to end in a clean outcome within a time budget.

Used by ``test_fuzzer.py`` (a few seconds, seeded) and, for long runs, ``python -m
tests.hostile.fuzzer SEED COUNT`` (prints each problem with its input)."""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml

from dialectic import Outcome, Runtime

ROOT = Path(__file__).resolve().parents[2]
CORPORA = ROOT.parent / "shared" / "corpora"
if not CORPORA.is_dir():
    CORPORA = Path("/work/shared/corpora")
LEAKS = ("Traceback", "RecursionError", 'File "', "MemoryError", "internal error")
STATUSES = {"success", "failure", "ambiguous"}


@dataclass(frozen=True)
class Case:
    """One input: ``program`` (text or parsed JSON), its notation (``None``: detected), a
    context, and which runtime runs it (``functions``: stub documents, else the testing
    plugin)."""

    program: Any
    lang: str | None = None
    context: Any = None
    strict: bool = False
    functions: tuple[Any, ...] | None = None
    label: str = ""
    ops: tuple[str, ...] = field(default=())
    #: run with the installed extensions (travel, datetime, ide) instead of the testing plugin
    extensions: bool = False

    def describe(self) -> str:
        program = self.program if isinstance(self.program, str) else json.dumps(self.program)
        shown = program if len(program) < 600 else program[:300] + " ... " + program[-200:]
        return (
            f"[{self.label}] lang={self.lang} strict={self.strict} ops={list(self.ops)} "
            f"len={len(program)}\n{shown!r}"
        )


# -- seeds ----------------------------------------------------------------------------------


def _conformance() -> Iterator[Case]:
    cases = yaml.safe_load((ROOT / "tests/spec/conformance.yaml").read_text(encoding="utf-8"))
    for case in cases:
        for lang in ("json", "plan", "plan2"):
            text = case.get(lang)
            if isinstance(text, str):
                yield Case(text, lang, case.get("context"), label=f"spec:{case['title'][:40]}")


def _examples() -> Iterator[Case]:
    langs = {".js": "plan", ".json": "json", ".yaml": "plan2"}
    for path in sorted((ROOT / "examples").rglob("*")):
        if path.suffix in langs and path.is_file() and "expected" not in path.name:
            text = path.read_text(encoding="utf-8")
            if len(text) < 20_000:
                yield Case(
                    text, langs[path.suffix], EXT_CONTEXT, label=f"ex:{path.name}", extensions=True
                )


def _corpora(limit: int) -> Iterator[Case]:
    from dialectic.batch.corpora import corpus_items

    paths = [CORPORA / "nestful/nestful_last360.json", CORPORA / "bfcl/BFCL_v4_multiple.json"]
    paths += [CORPORA / "bfcl/BFCL_v4_parallel_multiple.json"]
    for path in paths:
        if not path.is_file():
            continue
        kind = "nestful" if "nestful" in path.name else "bfcl"
        for n, item in enumerate(corpus_items(path, kind)):
            if n >= limit:
                break
            if item.problem is None:
                yield Case(item.program, item.lang, functions=item.functions, label=f"{kind}:{n}")


ENVELOPES = [
    '{"name": "add", "arguments": "{\\"a\\": 1, \\"b\\": 2}"}',
    '{"type": "function", "function": {"name": "add", "arguments": "{\\"a\\": 1, \\"b\\": 2}"}}',
    '{"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", '
    '"function": {"name": "greet", "arguments": "{\\"name\\": \\"Ada\\"}"}}, {"id": "c2", '
    '"type": "function", "function": {"name": "add", "arguments": "{\\"a\\": 2, \\"b\\": 3}"}}]}',
    '{"type": "tool_use", "id": "t1", "name": "add", "input": {"a": 1, "b": 2}}',
    '{"role": "assistant", "content": [{"type": "text", "text": "Sure"}, {"type": "tool_use", '
    '"id": "t1", "name": "upper", "input": {"text": "x"}}]}',
    '{"type": "function_call", "call_id": "c", "name": "add", "arguments": "{\\"a\\": 1, '
    '\\"b\\": 2}"}',
    '[{"name": "add", "arguments": {"a": 1, "b": 2}}, '
    '{"name": "upper", "arguments": {"text": "q"}}]',
    '{"name": "add", "parameters": {"a": 1, "b": 2}}',
    '<|python_tag|>{"name": "add", "parameters": {"a": 1, "b": 2}}',
    '[{"name": "add", "label": "$var_1", "arguments": {"a": 1, "b": 2}}, {"name": "double", '
    '"label": "$var_2", "arguments": {"x": "$var_1.result$"}}]',
    "// a comment\n{'add': {a: 1, b: 2,}, /* c */}",
    "{add: [1, 2], }",
    '{"echo": {"value": True}}',
    '{"echo": {"value": None}}',
    'Here:\n```json\n{"upper": "x"}\n```\nDone.',
    "Plan:\n```js\nreturn upper('x');\n```",
    "Here it is:\n~~~yaml\nresult:\n  upper:\n    text: y\n~~~\n",
    '{"@steps": [{"@func": "add", "args": [1, 2]}]}',
    '{"version": 1, "steps": [{"@func": "add", "args": [1, 2]}]}',
    "1. add(1, 2)\n2. double($1)\nThought: done\n3. join()",
    "```\n" + '{"name": "add", "arguments": {"a": 1, "b": 2}}' + "\n```",
]
YAML_FEATURES = [
    "a: &x [1, 2]\nb: *x\nresult: ${b}\n",
    "base: &b {value: 1}\nresult:\n  echo:\n    <<: *b\n",
    "result: !!python/object:os.system {}\n",
    "result: !!python/name:os.system\n",
    "result: !custom 1\n",
    "result: 1\n---\nresult: 2\n",
    "%YAML 1.1\n---\nresult: yes\n",
    "? [a, b]\n: 1\nresult: 2\n",
    "result: !!binary aGVsbG8=\n",
    "result: !!set {a, b}\n",
    "result: !!timestamp 2001-12-14\n",
    "result: 0o17\n",
    "result: |\n  ${answer}\n",
    "a: &a ['x','x','x','x','x','x','x','x','x']\n"
    "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
    "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
    "f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\nresult: ${g}\n",
]
MEMBER_PROBES = [
    "return x.__proto__;",
    "return x['__proto__'];",
    "return x['con' + 'structor'];",
    "return ''.constructor.constructor('return 1')();",
    "return [].map.constructor;",
    "return ({}).toString;",
    "return x[1]['__class__'];",
    "return `${x.__class__}`;",
    "return {...x.__proto__};",
    "const {constructor} = x[1];\nreturn constructor;",
    "const {__proto__: p} = {a: 1};\nreturn p;",
    "const [a, {prototype}] = x;\nreturn prototype;",
    "return Object.keys(x.__proto__ ?? {});",
    "return Object.entries(Object.getPrototypeOf(x));",
    'return Object.assign({}, JSON.parse(\'{"__proto__": {"a": 1}}\'));',
    "return JSON.parse('{\"__proto__\": 1}').__proto__;",
    "return JSON.parse('{\"constructor\": 1}')['constructor'];",
    "return Object.fromEntries([['__proto__', 1]]);",
    "return user.name.toString.call;",
    "return user['__init__'];",
    "return user.name.__class__.__mro__;",
    "return origin.__dict__;",
    "return origin['_' + '_class__'];",
    "return [1, 2].map(v => v.constructor);",
    "return x.map(v => v['__proto__']);",
    "return Object.keys(user).map(k => user[k].toString);",
    "return 'abc'.__len__;",
    "return globalThis;",
    "return this.constructor;",
    "return process.env;",
    "return require('fs');",
    "return import('fs');",
    "return Function('return 1')();",
    "return eval('1');",
    "return new Function('a', 'return a');",
]
MEMBER_JSON = [
    {"$get": [{"$ref": "x"}, "__class__"]},
    {"echo": {"value": {"$ref": "x.__proto__"}}},
    {"$ref": "user.__class__.__mro__"},
    {"$ref": "origin.__dict__"},
]
EXT_CONTEXT = {
    "travel_latency": 0,
    "now": "2023-10-10T08:00:00-07:00",
    "timezone": "America/Los_Angeles",
    "workspace": str(ROOT / "examples/ide/workspace"),
}
CONTEXT = {"user": {"name": "Ada", "age": 36}, "x": [1, {"a": 2}], "n": 3}


def seeds(corpus_limit: int = 40) -> list[Case]:
    out = list(_conformance()) + list(_examples()) + list(_corpora(corpus_limit))
    out += [Case(t, None, CONTEXT, label="envelope") for t in ENVELOPES]
    out += [Case(t, "plan2", CONTEXT, label="yaml") for t in YAML_FEATURES]
    out += [Case(t, "plan", CONTEXT, label="member") for t in MEMBER_PROBES]
    out += [Case(json.dumps(p), "json", CONTEXT, label="member") for p in MEMBER_JSON]
    return out


# -- mutations ------------------------------------------------------------------------------

TOKENS = (  # noqa: SIM905 (a list literal of 110 tokens is harder to read)
    "( ) [ ] { } , ; : . ?. ?? => ... + - * / % ** ! ~ & | ^ && || == === != < > <= >= = += "
    "return use const let var await async new typeof delete void in of instanceof if else for "
    "while function class this null undefined true false NaN Infinity __proto__ constructor "
    "prototype toString valueOf __class__ $ref $get $quote $object $let echo add upper x user "
    "answer origin point Math JSON Object Array Promise map filter reduce sort length "
    "result - <<: &a *a !!python/object !!str --- ... ? | > # // /* */ ${ } ` ' \""
).split()
UNICODE = [
    "\x00", "\ufeff", "\u202e", "\u200f", "\u2028", "\u2029", "\ud800", "\udfff", "\U0001f600",
    "\u0663", "\uff11", "\u00a0", "\u3000", "\x1b[31m", "\r", "\r\n", "\t", "\x0b", "\x85",
    "e\u0301", "\ufffd", "\U000e0001", "\\ud800", "\\u0000", "\\u{10FFFF}", "\\x", "\\",
]  # fmt: skip
HUGE = [
    "9" * 400, "1e308", "1e309", "-1e999", "0x" + "f" * 300, "1" + "0" * 30 + "n",
    "0." + "0" * 400 + "1",
    "1_000", "0b102", "0o9", "08", ".e1", "1e", "NaN", "-0", "4.9e-325", "2**1024", "1/0",
]  # fmt: skip


def _pos(rng: random.Random, text: str) -> int:
    return rng.randint(0, len(text))


def _char_edit(rng: random.Random, text: str) -> str:
    i = _pos(rng, text)
    op = rng.randrange(5)
    if op == 0:
        return text[:i] + text[i + rng.randint(1, 6) :]
    if op == 1:
        j = min(len(text), i + rng.randint(1, 40))
        return text[:j] + text[i:j] * rng.randint(1, 4) + text[j:]
    if op == 2:
        return text[:i] + rng.choice(TOKENS) + text[i:]
    if op == 3:
        return text[:i] + rng.choice(UNICODE) + text[i:]
    chars = list(text)
    if len(chars) > 1:
        a, b = rng.randrange(len(chars)), rng.randrange(len(chars))
        chars[a], chars[b] = chars[b], chars[a]
    return "".join(chars)


def _nest(rng: random.Random, text: str, n: int) -> str:
    i = _pos(rng, text)
    j = rng.randint(i, len(text))
    opener, closer = rng.choice(
        [("(", ")"), ("[", "]"), ("{", "}"), ("{a: ", "}"), ('{"a": ', "}"), ("`${", "}`"),
         ("-", ""), ("!", ""), ("await ", ""), ("...", ""), ("f(", ")"), ("x => ", ""),
         ("- ", ""), ("[", ""), ("${", "}"), ("(1, ", ")"), ("a ? b : ", "")]
    )  # fmt: skip
    return text[:i] + opener * n + text[i:j] + closer * n + text[j:]


def _chain(rng: random.Random, text: str, n: int) -> str:
    i = _pos(rng, text)
    piece = rng.choice(
        [" + 1", ".a", "?.b", "[0]", ".upper()", " ?? null", " && x", "(1)", " || 'z'", " ** 2",
         ".map(v => v)", "\n  - a", ", 1", " === ", ".toString()", "['k']", "/**/", "// c\n"]
    )  # fmt: skip
    return text[:i] + piece * n + text[i:]


def _aliases(rng: random.Random, lang: str | None, n: int) -> str:
    if lang == "plan2":
        body = "".join(f"a{k}: ${{a{k - 1}}}\n" for k in range(1, n))
        return f"a0: 1\n{body}result: ${{a{n - 1}}}\n"
    if lang == "json":
        return '{"echo": {"value": ' * n + "1" + "}}" * n
    step = rng.choice(["a{p} + 1", "[a{p}]", "{{k: a{p}}}", "echo(a{p})", "`${{a{p}}}`", "a{p}"])
    lines = ["a0 = 1;"] + [f"a{k} = " + step.format(p=k - 1) + ";" for k in range(1, n)]
    return "\n".join(lines) + f"\nreturn a{n - 1};"


def _literal(rng: random.Random, text: str) -> str:
    i = _pos(rng, text)
    kind = rng.randrange(3)
    if kind == 0:
        return text[:i] + rng.choice(HUGE) + text[i:]
    if kind == 1:
        s = rng.choice(["a", "\\n", "\\u0041", "${", "😀", "\\"]) * rng.choice([100, 10_000])
        return text[:i] + "'" + s + "'" + text[i:]
    return text[:i] + rng.choice(UNICODE) * rng.randint(1, 50) + text[i:]


def _wrap(rng: random.Random, text: str) -> str:
    wraps: list[Callable[[str], str]] = [
        lambda t: "```js\n" + t + "\n```",
        lambda t: "Sure, here:\n```yaml\n" + t + "\n```\nok",
        lambda t: "\ufeff" + t,
        lambda t: json.dumps({"name": "run_program", "arguments": json.dumps({"p": t})}),
        lambda t: json.dumps({"type": "tool_use", "name": "echo", "input": {"value": t}}),
        lambda t: t + "\n" + t,
        lambda t: t.replace("\n", "\r\n"),
        lambda t: t.replace("\n", "\r"),
        lambda t: "// " + t,
        lambda t: t.replace('"', "'"),
        lambda t: t.replace("  ", "\t"),
        lambda t: t.encode("utf-8", "surrogatepass").decode("latin-1"),
    ]
    return rng.choice(wraps)(text)


def mutate(rng: random.Random, case: Case, size: int = 1) -> Case:
    """One to four mutations of ``case``; ``size`` scales the repetitions (1, 10, 100 ...)."""
    text = case.program if isinstance(case.program, str) else json.dumps(case.program)
    ops: list[str] = []
    for _ in range(rng.randint(1, 4)):
        op = rng.choice(
            ["char", "char", "char", "nest", "chain", "literal", "wrap", "aliases", "lang"]
        )
        ops.append(op)
        if op == "char":
            text = _char_edit(rng, text)
        elif op == "nest":
            text = _nest(rng, text, rng.choice([3, 30, 120, 1000]) * size)
        elif op == "chain":
            text = _chain(rng, text, rng.choice([5, 100, 2000]) * size)
        elif op == "literal":
            text = _literal(rng, text)
        elif op == "wrap":
            text = _wrap(rng, text)
        elif op == "aliases":
            text = _aliases(rng, case.lang, rng.choice([10, 300]) * size)
        elif op == "lang":
            case = replace(case, lang=rng.choice([None, "json", "plan", "plan2"]))
    return replace(case, program=text, ops=case.ops + tuple(ops), strict=rng.random() < 0.2)


# -- checking -------------------------------------------------------------------------------


class Runtimes:
    """The testing plugin's runtime and one stub runtime per set of function documents."""

    def __init__(self, **limits: Any) -> None:
        import dialectic.testing
        from dialectic import Limits
        from dialectic.batch.items import Runner, RuntimeSpec

        lim = Limits(**limits) if limits else None
        self.main = Runtime(plugins=[dialectic.testing], load_entry_points=False, limits=lim)
        self.runner = Runner(RuntimeSpec(entry_points=False), self.main)
        self._ext: Runtime | None = None
        self._lim = lim

    @property
    def ext(self) -> Runtime:
        if self._ext is None:
            import dialectic_travel.fixtures

            self._ext = Runtime(plugins=[dialectic_travel.fixtures], limits=self._lim)
        return self._ext

    def for_case(self, case: Case) -> Runtime:
        if case.extensions:
            return self.ext
        if case.functions is None:
            return self.main
        from dialectic.batch.items import BatchItem

        rt: Runtime = self.runner.runtime_for(BatchItem("x", None, functions=case.functions))
        return rt


def problem_of(out: Any) -> str | None:
    """Why ``out`` is not a clean outcome, or ``None``."""
    if not isinstance(out, Outcome):
        return f"not an Outcome: {type(out).__name__}"
    if out.status not in STATUSES:
        return f"status {out.status!r}"
    if out.status == "failure" and (out.error is None or out.error.code == "internal_error"):
        return f"internal error: {(out.message or '')[:500]}"
    if out.status == "failure" and not out.message:
        return "a failure without a message"
    try:
        text = json.dumps(out.to_json(calls=True), ensure_ascii=False, allow_nan=False)
        text.encode("utf-8")
    except (ValueError, TypeError, UnicodeError) as exc:
        return f"outcome is not JSON: {type(exc).__name__}: {exc}"
    if out.status != "success":
        for leak in LEAKS:
            if leak in text:
                return f"{leak} in outcome: {text[:500]}"
    error = out.error
    if error is not None and error.code == "syntax_error" and None in (error.line, error.column):
        return f"syntax error without line/column: {(out.message or '')[:300]}"
    return None


def check(runtimes: Runtimes, case: Case, budget: float = 5.0) -> tuple[str | None, float]:
    """Run ``case``; the problem (or ``None``) and the CPU seconds it took."""
    t0 = time.process_time()
    try:
        rt = runtimes.for_case(case)
    except Exception as exc:  # a stub document that cannot be registered: fine, reported
        return (None if "StubError" in type(exc).__name__ else f"stub: {exc!r}"), 0.0
    try:
        out = rt.run(case.program, lang=case.lang, context=case.context, strict=case.strict)
        problem = problem_of(out)
    except BaseException as exc:  # any escape is the finding
        if isinstance(exc, KeyboardInterrupt):
            raise
        problem = f"raised {type(exc).__name__}: {str(exc)[:300]}"
    took = time.process_time() - t0
    if problem is None and took > budget:
        problem = f"slow: {took:.2f} s CPU"
    return problem, took


def fuzz(
    seed: int, count: int, *, budget: float = 5.0, size: int = 1, corpus_limit: int = 40,
    report: Callable[[Case, str], None] | None = None,
    before: Callable[[Case], None] | None = None,
) -> list[tuple[Case, str]]:  # fmt: skip
    """``count`` mutated cases from ``seed``; the ones with a problem."""
    rng = random.Random(seed)
    pool = seeds(corpus_limit)
    runtimes = Runtimes()
    found: list[tuple[Case, str]] = []
    for _ in range(count):
        case = mutate(rng, rng.choice(pool), size)
        if before is not None:
            before(case)
        problem, _ = check(runtimes, case, budget)
        if problem is not None:
            found.append((case, problem))
            if report is not None:
                report(case, problem)
    return found


GROWTH_PIECES = [
    " ", "\n", "\t", "\r\n", "/**/", "// c\n", "#\n", "a", "a.", "1", "+1", "-", "!", ",", ";",
    "'x'", "\\", "\\u0041", "${", "}", "`", "$", "\"", "'", "(", ")", "[", "]", "{", "}", "x => ",
    "a: 1\n", "- ", "  ", "k: ", "\u00a0", "\u2028", "\x00", "\ud800", "é", "😀", "__proto__",
    "{a: 1}, ", "[1], ", "'a' + ", "x?.", ".upper()", "?? ", "<<: ", "&a ", "*a ", "!!str ",
    '"a": 1, ', '{"echo": ', "[[", "]]", "f(", "1e9", "0", ".", "e", "_",
]  # fmt: skip
NESTS = [("(", ")"), ("[", "]"), ("{a: ", "}"), ('{"a": ', "}"), ("`${", "}`"), ("- ", "")]


def grower(rng: random.Random, case: Case) -> Callable[[int], Case]:
    """A family of inputs: ``case`` with a random piece repeated ``k`` times at one place (or
    a random pair nested ``k`` deep)."""
    text = case.program if isinstance(case.program, str) else json.dumps(case.program)
    i = _pos(rng, text)
    j = rng.randint(i, min(len(text), i + 40))
    if rng.random() < 0.2:
        opener, closer = rng.choice(NESTS)
        return lambda k: replace(
            case, program=text[:i] + opener * k + text[i:j] + closer * k + text[j:],
            ops=(f"nest {opener!r} {closer!r} at {i}",),
        )  # fmt: skip
    piece = rng.choice(GROWTH_PIECES + TOKENS) * rng.choice([1, 1, 2, 3])
    return lambda k: replace(
        case, program=text[:i] + piece * k + text[i:], ops=(f"repeat {piece!r} at {i}",)
    )


def cpu(runtimes: Runtimes, case: Case, repeats: int = 1) -> float:
    best = float("inf")
    for _ in range(repeats):
        problem, took = check(runtimes, case, budget=1e9)
        if problem is not None:
            raise RuntimeError(problem)
        best = min(best, took)
    return best


def superlinear(
    runtimes: Runtimes, family: Callable[[int], Case], n: int = 300, factor: int = 10
) -> str | None:
    """Whether ``factor`` times the repetitions cost far more than ``factor`` times the time
    (CPU time; small times ignored; a suspect is measured again, best of three)."""
    try:
        small = cpu(runtimes, family(n))
        large = cpu(runtimes, family(n * factor))
        if large < 0.1 or large < small * factor * 4:
            return None
        small = cpu(runtimes, family(n), 3)
        large = cpu(runtimes, family(n * factor), 3)
    except RuntimeError as exc:
        return str(exc)
    if large >= 0.1 and large > max(small, 0.001) * factor * 4:
        return f"superlinear: {n} -> {small:.4f} s, {n * factor} -> {large:.4f} s CPU"
    return None


def fuzz_growth(
    seed: int, count: int, *, n: int = 300, report: Callable[[Case, str], None] | None = None,
    before: Callable[[Case], None] | None = None,
) -> list[tuple[Case, str]]:  # fmt: skip
    rng = random.Random(seed)
    pool = seeds(40)
    runtimes = Runtimes()
    found: list[tuple[Case, str]] = []
    for _ in range(count):
        family = grower(rng, rng.choice(pool))
        if before is not None:
            before(family(n * 10))
        problem = superlinear(runtimes, family, n)
        if problem is not None:
            found.append((family(n), problem))
            if report is not None:
                report(family(n), problem)
    return found


def main(argv: list[str]) -> int:
    seed, count = int(argv[0]), int(argv[1])
    size = int(argv[2]) if len(argv) > 2 else 1

    import faulthandler

    faulthandler.enable()

    def show(case: Case, problem: str) -> None:
        print(f"PROBLEM {problem}\n{case.describe()}\n", flush=True)

    current = Path(f"/tmp/fuzz_current_{seed}.txt")

    def arm(case: Case) -> None:  # a hang dumps the stacks and exits; the input stays on disk
        current.write_text(case.describe(), encoding="utf-8", errors="surrogatepass")
        faulthandler.dump_traceback_later(120, exit=True)

    if size == 0:  # growth mode: families of inputs, checked for superlinear cost
        found = fuzz_growth(seed, count, n=2000, report=show, before=arm)
    else:
        found = fuzz(seed, count, size=size, corpus_limit=400, report=show, before=arm)
    print(f"seed {seed}: {len(found)} problems in {count} cases", flush=True)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
