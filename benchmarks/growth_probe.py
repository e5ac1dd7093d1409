"""How each phase's cost grows with a program's size: a systematic probe of many shapes.

Each shape is a program generator of one size ``n`` (statements, cases, items, terms); the probe
makes it at each size (1k, 3k, 9k by default) and measures, in CPU time of this thread with the
cyclic collector paused (as ``Runtime.prepare`` runs), the passes separately:

- ``parse``: the front end (text -> call tree: ``to_tree``);
- ``prep``: the rest of ``Runtime.prepare`` (syntax nodes, resolve, compile);
- ``run``: one run of the prepared program.

Each cell is µs per item. A phase whose per-item cost grows more than ``--factor`` (2) times from
the first size to the last is flagged ``<<``: it grows faster than linearly. A program refused
shows its error's code (``max_depth``...), a wrong answer or a crash is flagged ``!!``; a shape
whose phase took more than ``--budget`` seconds at one size is not made at the larger ones.

Run: ``.venv/bin/python benchmarks/growth_probe.py [--sizes 1000,3000,9000] [--only NAME,...]``.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from dialectic import FunctionDescription, Runtime
from dialectic.compiler.closures import Compiler
from dialectic.frontends import to_tree
from dialectic.limits import Limits
from dialectic.resolve.resolver import resolve
from dialectic.tree.parse import parse_tree

LIMITS = Limits(
    max_program_bytes=100_000_000,
    max_nodes=100_000_000,
    max_calls=10_000_000,
    max_steps=100_000_000,
    max_output_bytes=100_000_000,
    deadline=600.0,
)

Make = Callable[[int], tuple[str, str, Any]]  # n -> (text, notation, expected answer or None)


def _pairs(n: int, indent: str = "") -> str:
    return "".join(
        f"{indent}let x{i} = y + {i};\n{indent}if (x{i} > {n // 2}) x{i} = 0;\n" for i in range(n)
    )


def let_if_top(n: int) -> tuple[str, str, Any]:
    return "const y = echo(1);\n" + _pairs(n) + f"return x{n - 1};", "plan", 0


def let_if_for(n: int) -> tuple[str, str, Any]:
    text = "let out = 0;\nfor (const y of [1, 2]) {\n" + _pairs(n, "  ") + f"  out += x{n - 1};\n}}"
    return text + "\nreturn out;", "plan", 0


def let_if_function(n: int) -> tuple[str, str, Any]:
    text = "function g(y) {\n" + _pairs(n, "  ") + f"  return x{n - 1};\n}}\n"
    return text + "return g(echo(1));", "plan", 0


def else_if_chain(n: int) -> tuple[str, str, Any]:
    arms = " else ".join(f"if (v === {i}) {{ r = {i}; }}" for i in range(n))
    return f"const v = echo({n - 1});\nlet r = -1;\n{arms}\nreturn r;", "plan", n - 1


def switch_literal(n: int) -> tuple[str, str, Any]:
    cases = "".join(f"  case {i}: r = {i}; break;\n" for i in range(n))
    text = f"const v = echo({n - 1});\nlet r = -1;\nswitch (v) {{\n{cases}}}\nreturn r;"
    return text, "plan", n - 1


def switch_calls(n: int) -> tuple[str, str, Any]:
    cases = "".join(f"  case echo({i}): r = {i}; break;\n" for i in range(n))
    text = f"const v = echo({n - 1});\nlet r = -1;\nswitch (v) {{\n{cases}}}\nreturn r;"
    return text, "plan", n - 1


def switch_expressions(n: int) -> tuple[str, str, Any]:
    cases = "".join(f"  case k + {i}: r = {i}; break;\n" for i in range(n))
    text = f"const k = echo(0);\nconst v = {n - 1};\nlet r = -1;\nswitch (v) {{\n{cases}}}"
    return text + "\nreturn r;", "plan", n - 1


def function_chain(n: int) -> tuple[str, str, Any]:
    # each function calls the one before it on its own value, the calls made at top level
    text = "function f0(x) { return x + 1; }\n" + "".join(
        f"function f{i}(x) {{ return f{i - 1}(x) + 1 - 1; }}\n" for i in range(1, 4)
    )
    text += "".join(f"function g{i}(x) {{ return f3(x) + {i}; }}\n" for i in range(n))
    text += "".join(f"const a{i} = g{i}({i});\n" for i in range(n))
    return text + f"return a{n - 1};", "plan", 2 * n - 1


def try_catch(n: int) -> tuple[str, str, Any]:
    text = "".join(
        f"let r{i};\ntry {{ r{i} = echo({i}); }} catch (e) {{ r{i} = -1; }}\n" for i in range(n)
    )
    return text + f"return r{n - 1};", "plan", n - 1


def push_statements(n: int) -> tuple[str, str, Any]:
    text = "const xs = [];\n" + "".join(f"xs.push({i});\n" for i in range(n))
    return text + "return xs.length;", "plan", n


def index_sets(n: int) -> tuple[str, str, Any]:
    # a name changes 64 times at most (each change copies it): arrays of 50 sets each
    text = "".join(
        f"const xs{j} = [];\n" + "".join(f"xs{j}[{i}] = {i};\n" for i in range(50))
        for j in range(n // 50)
    )
    return text + "return xs0.length;", "plan", 50


def key_sets(n: int) -> tuple[str, str, Any]:
    text = "".join(
        f"const o{j} = {{}};\n" + "".join(f"o{j}.k{i} = {i};\n" for i in range(50))
        for j in range(n // 50)
    )
    return text + "return Object.keys(o0).length;", "plan", 50


def _chains(n: int, op: str, value: str) -> str:
    # a chain is a nested tree: 40 terms each (max_depth is 100), n // 40 chains
    return f"const v = echo({value});\n" + "".join(
        f"const c{j} = " + f" {op} ".join(["v"] * 40) + ";\n" for j in range(n // 40)
    )


def and_chain(n: int) -> tuple[str, str, Any]:
    return _chains(n, "&&", "1") + "return c0;", "plan", 1


def or_chain(n: int) -> tuple[str, str, Any]:
    return _chains(n, "||", "0") + "return c0;", "plan", 0


def nullish_chain(n: int) -> tuple[str, str, Any]:
    return _chains(n, "??", "null") + "return c0 ?? 1;", "plan", 1


def plus_chain(n: int) -> tuple[str, str, Any]:
    return _chains(n, "+", "1") + "return c0;", "plan", 40


def method_chain(n: int) -> tuple[str, str, Any]:
    # 20 calls a chain (each call is two levels of nesting), n // 20 chains
    calls = ".map(x => x + 1).filter(x => x > 0)" * 10
    text = "const xs = echo([1]);\n" + "".join(f"const m{j} = xs{calls};\n" for j in range(n // 20))
    return text + "return m0;", "plan", [11]


def template(n: int) -> tuple[str, str, Any]:
    text = "const v = echo(1);\nreturn `" + "${v}-" * n + "`;"
    return text, "plan", "1-" * n


def object_literal(n: int) -> tuple[str, str, Any]:
    body = ", ".join(f"k{i}: {i}" for i in range(n))
    return f"const o = {{{body}}};\nreturn Object.keys(o).length;", "plan", n


def array_literal(n: int) -> tuple[str, str, Any]:
    body = ", ".join(str(i) for i in range(n))
    return f"const xs = [{body}];\nreturn xs.length;", "plan", n


def destructurings(n: int) -> tuple[str, str, Any]:
    text = "const o = echo({a: 1, b: [2, 3]});\n" + "".join(
        f"const {{a: a{i}, b: [b{i}, c{i}]}} = o;\n" for i in range(n)
    )
    return text + f"return a{n - 1} + b{n - 1} + c{n - 1};", "plan", 6


def const_aliases(n: int) -> tuple[str, str, Any]:
    text = "const a0 = echo(0);\n" + "".join(f"const a{i} = a{i - 1} + 1;\n" for i in range(1, n))
    return text + f"return a{n - 1};", "plan", n - 1


def bare_aliases(n: int) -> tuple[str, str, Any]:
    text = "a0 = echo(0);\n" + "".join(f"a{i} = add(a{i - 1}, 1);\n" for i in range(1, n))
    return text + f"return a{n - 1};", "plan", n - 1


def plan2_aliases(n: int) -> tuple[str, str, Any]:
    text = "a0: 0\n" + "".join(f"a{i}: ${{a{i - 1} + 1}}\n" for i in range(1, n))
    return text + f"result: ${{a{n - 1}}}\n", "plan2", n - 1


def json_calls(n: int) -> tuple[str, str, Any]:
    lets: dict[str, Any] = {"a0": {"echo": [0]}}
    lets.update({f"a{i}": {"add": [{"$ref": f"a{i - 1}"}, 1]} for i in range(1, n)})
    text = json.dumps({"$let": lets, "$return": {"$ref": f"a{n - 1}"}})
    return text, "json", n - 1


def json_list(n: int) -> tuple[str, str, Any]:
    text = json.dumps([{"add": [i, 1]} for i in range(n)])
    return text, "json", list(range(1, n + 1))


SHAPES: dict[str, Make] = {
    "let-if top": let_if_top,
    "let-if for": let_if_for,
    "let-if function": let_if_function,
    "else-if chain": else_if_chain,
    "switch literal": switch_literal,
    "switch calls": switch_calls,
    "switch k + i": switch_expressions,
    "functions": function_chain,
    "try/catch": try_catch,
    "push": push_statements,
    "xs[i] = ": index_sets,
    "o.k = ": key_sets,
    "&& chain": and_chain,
    "|| chain": or_chain,
    "?? chain": nullish_chain,
    "+ chain": plus_chain,
    "method chain": method_chain,
    "template": template,
    "object literal": object_literal,
    "array literal": array_literal,
    "destructuring": destructurings,
    "const aliases": const_aliases,
    "bare aliases": bare_aliases,
    "Plan2 aliases": plan2_aliases,
    "JSON $let": json_calls,
    "JSON list": json_list,
}


def runtime() -> Runtime:
    rt = Runtime(load_entry_points=False, limits=LIMITS)
    rt.register(
        FunctionDescription("echo", "echo", lambda value: value, {"value": "any"}, "any"),
        FunctionDescription("add", "add", lambda a, b: a + b, {"a": "any", "b": "any"}, "any"),
    )
    return rt


@dataclass
class Cell:
    """One shape at one size: seconds per phase, or what stopped it."""

    times: dict[str, float]
    note: str = ""


def _timed(work: Callable[[], Any]) -> tuple[float, Any]:
    started = time.thread_time()
    result = work()
    return time.thread_time() - started, result


def measure(rt: Runtime, make: Make, n: int) -> Cell:
    text, lang, expected = make(n)
    registry = rt.registry
    cell = Cell({})
    gc.collect()
    gc.disable()
    try:
        try:
            cell.times["parse"], front = _timed(
                lambda: to_tree(text, lang, limits=LIMITS, functions=registry.functions)
            )

            def rest() -> Any:
                node = parse_tree(front.tree, LIMITS)
                resolved = resolve(registry, LIMITS, node)
                compiler = Compiler(registry, rt.types, rt.serializer, LIMITS, front.tree, resolved)
                return compiler.compile_root()

            cell.times["prep"], _ = _timed(rest)
        except RecursionError:
            cell.note = "!! RecursionError"
            return cell
        except Exception as exc:  # a refusal: its code
            cell.note = getattr(exc, "code", None) or f"!! {type(exc).__name__}"
            errors = getattr(exc, "errors", None)
            if errors:
                cell.note = getattr(errors[0], "code", cell.note)
            return cell
        prepared = rt.prepare(text, lang=lang)
        cell.times["run"], outcome = _timed(lambda: prepared.run())
    finally:
        gc.enable()
    if not outcome.ok:
        cell.note = outcome.error.code if outcome.error else "!! failed"
    elif outcome.value != expected:
        cell.note = f"!! WRONG {str(outcome.value)[:30]}"
    return cell


PHASES = ("parse", "prep", "run")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,3000,9000")
    parser.add_argument("--only", default="", help="comma-separated shape names")
    parser.add_argument("--factor", type=float, default=2.0)
    parser.add_argument("--budget", type=float, default=20.0, help="seconds per phase")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    chosen = [s for s in args.only.split(",") if s] or list(SHAPES)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    rt = runtime()
    width = 9 * len(sizes)
    header = f"{'shape':<16}" + "".join(f"| {p + ' µs/item':<{width}}" for p in PHASES)
    print(header + "| note")
    print(f"{'':<16}" + ("| " + "".join(f"{n:>9,}" for n in sizes)) * len(PHASES))
    findings = []
    for name in chosen:
        make = SHAPES[name]
        cells: list[Cell] = []
        measure(rt, make, 60)  # (the modules a shape needs imported, its caches warm)
        for n in sizes:
            cell = measure(rt, make, n)
            cells.append(cell)
            if cell.note or max(cell.times.values(), default=0) > args.budget:
                break
        row = f"{name:<16}"
        flags = []
        for phase in PHASES:
            row += "| "
            per = [
                c.times[phase] / n * 1e6 if phase in c.times else None
                for c, n in zip(cells, sizes, strict=False)
            ]
            per += [None] * (len(sizes) - len(per))
            row += "".join(f"{p:>9.1f}" if p is not None else f"{'-':>9}" for p in per)
            known = [p for p in per if p is not None]
            if len(known) == len(sizes) and known[-1] > args.factor * max(known[0], 1.0):
                flags.append(f"<< {phase} x{known[-1] / max(known[0], 1.0):.1f}")
        notes = [f"{n}: {c.note}" for c, n in zip(cells, sizes, strict=False) if c.note]
        print(row + "| " + " ".join(flags + notes), flush=True)
        if flags or any(c.note.startswith("!!") for c in cells):
            findings.append(name)
    print(f"\nfindings: {', '.join(findings) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
