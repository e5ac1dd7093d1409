"""Random worklist programs (SPEC 10, "Stacks and queues"): a stack drained with ``pop()`` or a
queue with ``shift()`` in ``while``/``do...while``/``for...of`` loops and in straight-line code,
pushing as they go, reading the array's length and ends; checked against Node by
``test_worklists.py``."""

from __future__ import annotations

import random

__all__ = ["worklist_programs"]

_INITS = ["[]", "[1, 2, 3]", "[...nums]", "[...words]", "[0]", "[n]", "[...nums, 4]"]


def _statement(r: random.Random, w: str, take: str, k: int) -> str:
    """One statement of the loop's body (``k``: a number for the names it declares)."""
    x = f"x{k}"
    pick = r.randrange(13)
    if pick == 0:
        return f"const {x} = {w}.{take}(); out.push({x} ?? null);"
    if pick == 1:
        return f"{w}.{take}();"
    if pick == 2:
        return f"y = {w}.{take}(); t += typeof y === 'number' ? y : 1;"
    if pick == 3:
        return (
            f"const {x} = {w}.{take}(); "
            f"if (typeof {x} === 'number' && {x} > 2) {w}.push({x} - 2, {x} - 3);"
        )
    if pick == 4:
        return f"if ({w}.length < 6) {w}.push(i, 'v' + i);"
    if pick == 5:
        return f"t += {w}.length;"
    if pick == 6:
        return f"out.push({w}.at(0) ?? null, {w}.at(-1) ?? null);"
    if pick == 7:
        return f"out.push({w}.includes(3), {w}.join('-'));"
    if pick == 8:
        return f"for (const j of [1, 2]) {{ if ({w}.length < 8) {w}.push(j * i); }}"
    if pick == 9:
        return f"if (i % 2 === 0) {{ const {x} = {w}.{take}(); out.push({x} ?? 'none'); }}"
    if pick == 10:
        return f"const {x} = {w}.{take}(); const z{k} = {w}.length; out.push([{x} ?? null, z{k}]);"
    if pick == 11:
        return f"out.push({w}.length > 0 ? {w}[0] : null);"
    # JavaScript would share or change the array another way: refused, never another answer
    return r.choice(
        [
            f"const keep{k} = {w}; {w}.{take}(); out.push(keep{k}.length);",
            f"out.push({w}.{take}());",
            f"out.push(size({w})); {w}.{take}();",
            f"const c{k} = [...{w}]; {w}.{take}(); out.push(c{k});",
            f"{w}.pop(); {w}.shift();",
            f"{w}.unshift(i);",
            f"{w}.length = 0;",
            f"out.push({w}); {w}.{take}();",
        ]
    )


def _program(r: random.Random) -> str:
    w = r.choice(["queue", "stack", "todo"])
    take = r.choice(["pop", "shift"])
    head = f"const {w} = {r.choice(_INITS)}; const out = []; let t = 0; let i = 0; let y;"
    body = " ".join(_statement(r, w, take, k) for k in range(r.randint(1, 4)))
    guard = "i++; if (i > 12) break;"
    shape = r.randrange(5)
    if shape == 0:
        loop = f"while ({w}.length > 0) {{ {guard} {body} }}"
    elif shape == 1:
        loop = f"while ({w}.length) {{ {body} {guard} }}"
    elif shape == 2:
        loop = f"do {{ {body} {guard} }} while ({w}.length > 1);"
    elif shape == 3:
        loop = f"for (const v of nums) {{ i++; if (v > 2) {w}.push(v); {body} }}"
    else:
        loop = f"i = 1; {body} {body.replace('x', 'u').replace('const z', 'const q')}"
    last = r.choice(
        [
            f"return [out, t, {w}.length, i];",
            f"return [out, {w}.at(-1) ?? null, {w}.length];",
            f"return {w};",
            f"return [t, y ?? null, {w}.slice(0)];",
        ]
    )
    return f"{head} {loop} {last}"


def worklist_programs(seed: int, count: int) -> list[str]:
    r = random.Random(seed)
    return [_program(r) for _ in range(count)]
