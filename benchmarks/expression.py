"""The same expression in each engine, precompiled, µs per evaluation, side by side in one run.

    "Hi " + user.profile.first + " " + upper(user.profile.last) + "! " + str(max(user.age, 18))

dialectic runs it as a Plan template literal and as Dialect JSON, with its built-in synchronous
`upper`, `str` and `max` (no event loop is involved). Peers: simpleeval, the jinja2 sandbox,
json-e and JSON Logic (panzi-json-logic). Target for dialectic: 2.5 µs or less.
Run: python benchmarks/expression.py [--quick]
"""

from __future__ import annotations

import statistics
import sys
import timeit
from collections.abc import Callable
from typing import Any

from dialectic import Runtime

USER = {"profile": {"first": "Ada", "last": "Lovelace"}, "age": 36}
CONTEXT = {"user": USER}
EXPECTED = "Hi Ada LOVELACE! 36"
PLAN = "return `Hi ${user.profile.first} ${upper(user.profile.last)}! ${str(max(user.age, 18))}`;"
TREE = {
    "$template": [
        "Hi ",
        {"$get": [{"$ref": "user"}, "profile", "first"]},
        " ",
        {"upper": {"$get": [{"$ref": "user"}, "profile", "last"]}},
        "! ",
        {"str": {"max": [{"$get": [{"$ref": "user"}, "age"]}, 18]}},
    ]
}


def engines() -> dict[str, Callable[[], Any]]:
    rt = Runtime(load_entry_points=False)
    plan = rt.prepare(PLAN, lang="plan")
    tree = rt.prepare(TREE)
    out: dict[str, Callable[[], Any]] = {
        "dialectic (Plan)": lambda: plan.run(CONTEXT).value,
        "dialectic (JSON)": lambda: tree.run(CONTEXT).value,
    }
    try:
        import simpleeval

        s = simpleeval.SimpleEval(
            functions={"upper": str.upper, "str": str, "max": max}, names=CONTEXT
        )
        expr = (
            '"Hi " + user.profile.first + " " + upper(user.profile.last) + "! " + '
            "str(max(user.age, 18))"
        )
        parsed = s.parse(expr)
        out["simpleeval"] = lambda: s.eval(expr, previously_parsed=parsed)
    except ImportError:
        pass
    try:
        from jinja2.sandbox import SandboxedEnvironment

        env = SandboxedEnvironment()
        env.globals.update(upper=str.upper, str=str, max=max)
        template = env.from_string(
            "Hi {{ user.profile.first }} {{ upper(user.profile.last) }}! "
            "{{ str(max(user.age, 18)) }}"
        )
        out["jinja2 sandbox"] = lambda: template.render(CONTEXT)
    except ImportError:
        pass
    try:
        from json_logic import jsonLogic
        from json_logic.builtins import BUILTINS

        ops = {**BUILTINS, "upper": lambda data, s: str(s).upper(), "str": lambda data, v: str(v)}
        logic = {
            "cat": [
                "Hi ",
                {"var": "user.profile.first"},
                " ",
                {"upper": {"var": "user.profile.last"}},
                "! ",
                {"str": {"max": [{"var": "user.age"}, 18]}},
            ]
        }
        out["JSON Logic"] = lambda: jsonLogic(logic, CONTEXT, ops)
    except ImportError:
        pass
    try:
        import jsone

        template_e = {
            "$eval": "'Hi ' + user.profile.first + ' ' + uppercase(user.profile.last)"
            " + '! ' + str(max(user.age, 18))"
        }
        out["json-e"] = lambda: jsone.render(template_e, CONTEXT)
    except ImportError:
        pass
    return out


def measure(fn: Callable[[], Any], quick: bool) -> float:
    number = 2_000 if quick else 20_000
    repeats = 3 if quick else 7
    timer = timeit.Timer(fn)
    return min(timer.repeat(repeat=repeats, number=number)) / number * 1e6


def main() -> int:
    quick = "--quick" in sys.argv
    results = {}
    for name, fn in engines().items():
        value = fn()
        if value != EXPECTED:
            print(f"{name}: wrong result {value!r}", file=sys.stderr)
            return 1
        results[name] = measure(fn, quick)
    base = results["dialectic (Plan)"]
    print(f"{'engine':<20} {'µs/eval':>9} {'vs dialectic':>13}")
    for name, us in sorted(results.items(), key=lambda kv: kv[1]):
        print(f"{name:<20} {us:>9.2f} {us / base:>12.1f}x")
    target = 2.5
    worst = max(results["dialectic (Plan)"], results["dialectic (JSON)"])
    peers = [v for k, v in results.items() if "dialectic" not in k]
    print(f"target for dialectic: <= {target} µs: {'met' if worst <= target else 'NOT met'}")
    if peers:
        print(f"median of the peers: {statistics.median(peers):.2f} µs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
