"""Runs generated Plan programs through dialectic and through Node.js (one process for all of
them) and classifies each: ``same``, ``refused`` (dialectic fails clearly), ``wrong`` (dialectic
answers and Node gives another value, or throws) or ``crash`` (an internal error).

``python -m tests.expressions.program_oracle SEED COUNT`` runs a big batch and prints every
wrong answer and crash (``--base`` the base generator's programs, ``--subtle`` those of
`subtle_programs.py`)."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from dialectic import Failure, FunctionDescription, Outcome, Runtime

from .program_generator import CONTEXT, for_dialectic, for_node, programs
from .program_shapes import more_programs
from .subtle_programs import subtle_programs

#: how a Node harness writes a value back to Python (an object with its keys in order,
#: -0, the infinities): shared by the oracles' scripts
NODE_ENCODE = r"""
function enc(v) {
  if (v === undefined) return null;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return {"$nonfinite": String(v)};
    if (Object.is(v, -0)) return {"$negzero": true};
    return v;
  }
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (Array.isArray(v)) return v.map(enc);
  if (typeof v === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(v))) {
    const out = {};
    for (const k of Object.keys(v)) if (v[k] !== undefined) out[k] = enc(v[k]);
    return {"$object": out, "$keys": Object.keys(out)};
  }
  return {"$weird": typeof v};
}
"""

NODE_SCRIPT = (
    r"""
"use strict";
const AsyncFunction = (async () => {}).constructor;
const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));
// a program's console shows nothing (stdout carries the answers; SPEC 10, console statements)
for (const m of ['log', 'info', 'warn', 'error', 'debug', 'table', 'dir']) console[m] = () => {};
// a function's result is new data, as a tool's reply is (JSON, SPEC 1.8 and 5)
const fresh = v => v === undefined ? undefined : JSON.parse(JSON.stringify(v));
const funcs = {
  echo: v => fresh(v),
  later: v => fresh(v),
  // a promise, as a tool's call is (`slow(x).then(...)`)
  slow: async v => fresh(v),
  add: (a, b) => a + b,
  size: xs => xs.length,
  negate: b => !b,
  // a function that fails on both sides (a tool's failure: `try`/`catch`, SPEC 10)
  fail: msg => { throw new Error(msg); },
  failLater: async msg => { throw new Error(msg); },
};
function __t(strings, ...vals) {
  // an object is its JSON (a deliberate difference, SPEC 10); an array is Node's own text
  // (an array holding a plain object anywhere is its JSON too, as the object is)
  const plain = v => Array.isArray(v) ? v.some(plain)
    : v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype;
  const fmt = v => (v !== null && typeof v === 'object' && (!Array.isArray(v) || plain(v)))
    ? JSON.stringify(v) : String(v);
  return strings.reduce((acc, s, i) => acc + s + (i < vals.length ? fmt(vals[i]) : ''), '');
}
"""
    + NODE_ENCODE
    + r"""
(async () => {
  const out = [];
  for (const src of input.programs) {
    const ctx = JSON.parse(input.context);
    const names = [...Object.keys(ctx), ...Object.keys(funcs), '__t'];
    try {
      const f = new AsyncFunction(...names, '"use strict";\n' + src);
      const v = await f(...Object.values(ctx), ...Object.values(funcs), __t);
      out.push({ok: enc(v)});
    } catch (e) { out.push({error: String(e).slice(0, 200)}); }
  }
  process.stdout.write(JSON.stringify(out));
})();
"""
)


async def _later(value: Any) -> Any:
    await asyncio.sleep(0)
    return value


def _number(v: Any) -> float:
    if isinstance(v, bool) or not isinstance(v, int | float):
        raise Failure(f"not a number: {v!r}")
    return float(v)


def _size(xs: Any) -> int:
    if not isinstance(xs, list):
        raise Failure(f"not an array: {xs!r}")
    return len(xs)


def _negate(b: Any) -> bool:
    if not isinstance(b, bool):
        raise Failure(f"not a boolean: {b!r}")
    return not b


def _fail(msg: Any) -> Any:
    raise Failure(str(msg))


async def _fail_later(msg: Any) -> Any:
    await asyncio.sleep(0)
    raise Failure(str(msg))


def runtime() -> Runtime:
    """A runtime with the functions the Node side defines; their parameters take any value,
    so no declared type converts an argument (SPEC 3) where JavaScript would not."""
    rt = Runtime(load_entry_points=False)
    functions: list[tuple[str, Callable[..., Any], list[str]]] = [
        ("echo", lambda value: value, ["value"]),
        ("later", _later, ["value"]),
        ("slow", _later, ["value"]),
        ("add", lambda a, b: _number(a) + _number(b), ["a", "b"]),
        ("size", _size, ["xs"]),
        ("negate", _negate, ["b"]),
        ("fail", _fail, ["msg"]),
        ("failLater", _fail_later, ["msg"]),
    ]
    for name, fn, params in functions:
        rt.register(FunctionDescription(name, name, fn, dict.fromkeys(params, "any"), "any"))
    return rt


def node_answers(sources: list[str]) -> list[dict[str, Any]]:
    node = shutil.which("node")
    assert node is not None, "set-up installs Node.js"
    done = subprocess.run(
        [node, "-e", NODE_SCRIPT],
        input=json.dumps(
            {"programs": [for_node(s) for s in sources], "context": json.dumps(CONTEXT)}
        ),
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    out: list[dict[str, Any]] = json.loads(done.stdout)
    return out


def _integer_like(key: str) -> bool:
    return key.isdigit() and (key == "0" or not key.startswith("0"))


def same(ours: Any, node: Any) -> str | None:
    """None when ``ours`` is Node's value (as `enc` in NODE_SCRIPT wrote it), else what differs."""
    if isinstance(node, dict) and "$negzero" in node:
        if isinstance(ours, int | float) and not isinstance(ours, bool) and ours == 0:
            return None
        return f"{ours!r} is not -0"
    if isinstance(node, dict) and ("$nonfinite" in node or "$weird" in node):
        return f"{ours!r} where Node has {node}"
    if isinstance(ours, bool) or isinstance(node, bool):
        return None if type(ours) is type(node) and ours == node else f"{ours!r} != {node!r}"
    if isinstance(ours, int | float) and isinstance(node, int | float):
        if float(ours) == float(node):
            return None
        return f"{ours!r} != {node!r}"
    if isinstance(ours, list) and isinstance(node, list):
        if len(ours) != len(node):
            return f"length {len(ours)} != {len(node)}"
        for k, (a, b) in enumerate(zip(ours, node, strict=True)):
            why = same(a, b)
            if why:
                return f"[{k}]: {why}"
        return None
    if isinstance(ours, dict) and isinstance(node, dict) and "$object" in node:
        theirs = node["$object"]
        if set(ours) != set(theirs):
            return f"keys {list(ours)} != {list(theirs)}"
        for k in ours:
            why = same(ours[k], theirs[k])
            if why:
                return f".{k}: {why}"
        mine = [k for k in ours if not _integer_like(k)]
        if mine != [k for k in node["$keys"] if not _integer_like(k)]:
            return f"key order {list(ours)} != {node['$keys']}"
        return None
    if type(ours) is type(node) and ours == node:
        return None
    return f"{ours!r} != {node!r}"


@dataclass
class Verdict:
    program: str
    kind: str  # same, refused, wrong, crash
    detail: str


def judge(rt: Runtime, source: str, answer: dict[str, Any]) -> Verdict:
    return judge_value(rt, source, answer, CONTEXT)


def judge_value(
    rt: Runtime, source: str, answer: dict[str, Any], context: dict[str, Any]
) -> Verdict:
    """The verdict on ``source`` run with ``context`` (Node's ``answer`` from ``NODE_SCRIPT``
    given the same context as JSON text)."""
    out = rt.run(for_dialectic(source), lang="plan", context=context, strict=True)
    if out.status != "success":
        code = out.error.code if out.error is not None else "?"
        message = out.message or ""
        if code == "internal_error" or "unexpectedly" in message or "Traceback" in message:
            return Verdict(source, "crash", message)
        if out.status == "ambiguous":
            return Verdict(source, "crash", f"ambiguous: {message}")
        return Verdict(source, "refused", f"{code}: {message.splitlines()[0] if message else ''}")
    if "error" in answer:
        if forced(rt, source):
            return Verdict(source, "lazy", "Node ran an alias dialectic never needed")
        return Verdict(source, "wrong", f"ours {out.value!r}, Node threw {answer['error']}")
    why = same(out.value, answer["ok"])
    if why:
        detail = f"ours {json.dumps(out.value)}, Node {json.dumps(answer['ok'])}: {why}"
        return Verdict(source, "wrong", detail)
    return Verdict(source, "same", "")


def forced(rt: Runtime, source: str) -> bool:
    """Whether dialectic fails when the program reads every alias (Node runs each `const`,
    dialectic only those the result needs, SPEC 1.3)."""
    names = re.findall(r"^(?:const |let )?(v\d+) = ", source, flags=re.M)
    if not names:
        return False
    head, _, last = source.rpartition("\nreturn ")
    variant = f"{head}\nreturn [{last.rstrip(';')}, {', '.join(names)}];"
    out = rt.run(for_dialectic(variant), lang="plan", context=CONTEXT, strict=True)
    return out.status != "success"


def runs_as_in_node(
    texts: list[str], rt: Runtime, context: dict[str, Any] | None = None
) -> list[Outcome]:
    """Assert that Node answers each Plan text and that ``rt`` runs it to the same value (with
    ``context``, CONTEXT by default); the outcomes, for more checks."""
    outcomes = []
    for text, answer in zip(texts, node_answers(texts), strict=True):
        assert "ok" in answer, (text, answer)
        out = rt.run(text, lang="plan", context=CONTEXT if context is None else context)
        assert out.status == "success", (text, out.message)
        assert same(out.value, answer["ok"]) is None, (text, out.value, answer)
        outcomes.append(out)
    return outcomes


def check(sources: list[str], rt: Runtime | None = None) -> list[Verdict]:
    rt = rt or runtime()
    answers = node_answers(sources)
    return [judge(rt, s, a) for s, a in zip(sources, answers, strict=True)]


def main(argv: list[str]) -> int:
    seed = int(argv[0]) if argv else 0
    count = int(argv[1]) if len(argv) > 1 else 1000
    make = programs if "--base" in argv else subtle_programs if "--subtle" in argv else None
    verdicts = check((make or more_programs)(seed, count))
    tally = Counter(v.kind for v in verdicts)
    for v in verdicts:
        if v.kind in ("wrong", "crash"):
            print(f"=== {v.kind.upper()}\n{v.program}\n--- {v.detail}\n")
    print(dict(tally))
    if "-v" in argv:
        print(Counter(v.detail.split(":")[0] for v in verdicts if v.kind == "refused"))
    return 0 if not (tally["wrong"] or tally["crash"]) else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
