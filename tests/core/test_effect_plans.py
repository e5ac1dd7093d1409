"""The effect plans (SPEC 17) of programs with no write or destructive call: the short way
(``statements_only``: each block runs its expression statements, free, in program order) makes
the plans the general way (``summarized``) makes, and marks no node."""

from __future__ import annotations

from dialectic import Runtime
from dialectic.resolve.effects import BlockPlan, EffectInfo, analyze, statements_only, summarized
from dialectic.resolve.effects import walked as walked_nodes

RT = Runtime(load_entry_points=False)

PROGRAMS = [
    "let s = ''; for (const x of items) { s += x; if (x > 1) { s += '!'; } } return s;",
    "const out = []; for (const x of items) { out.push(x * 2); } return out;",
    "console.log('a'); console.log(upper('b')); return 1;",
    "let t = 0; try { const u = max(1, 2); console.log(u); } catch (e) { console.log('no'); } "
    "return t;",
    "const m = {}; for (const [k, v] of Object.entries(data)) { m[k] = v; } "
    "console.log(JSON.stringify(m)); return m;",
    "const out = []; for (const x of items) { const y = x + 1; console.log(y); out.push(y); } "
    "return {out, n: out.length};",
    "return (async () => { const out = []; for (const x of items) { "
    "try { out.push(upper(String(x))); } catch (e) { out.push(null); } } return out; })();",
    "async function main() { const r = items.map(x => x * 2); console.log(r); return r; } "
    "return main();",
    "return 1;",
]
VALUES = [
    "12!3!",
    [2, 4, 6],
    1,
    0,
    {"a": 1, "b": "x"},
    {"out": [2, 3, 4], "n": 3},
    ["1", "2", "3"],
    [2, 4, 6],
    1,
]
CONTEXT = {"items": [1, 2, 3], "data": {"a": 1, "b": "x"}}


def _fields(plan: BlockPlan) -> tuple[object, ...]:
    return tuple(getattr(plan, k) for k in BlockPlan.__slots__)


def _plans(info: EffectInfo) -> dict[int, tuple[object, ...]]:
    return {k: _fields(v) for k, v in info.blocks.items()}


def test_the_short_way_makes_the_general_plans() -> None:
    ordered = planned = 0
    for text, value in zip(PROGRAMS, VALUES, strict=True):
        prepared = RT.prepare(text, lang="plan")
        assert not prepared.errors, (text, prepared.errors)
        resolved = prepared.resolved
        assert resolved is not None
        root = resolved.root
        short_info, order = walked_nodes(root)
        assert not short_info.written
        general = summarized(walked_nodes(root)[0], order)
        short = statements_only(short_info, order)
        assert _plans(short) == _plans(general), text
        planned += bool(general.blocks)
        assert short.marked == general.marked == set()
        assert short.written == general.written == set()
        made = analyze(root)  # (the short way, as the resolver runs it)
        assert _plans(made) == _plans(general)
        if resolved.effects is not None:
            ordered += 1
            assert _plans(resolved.effects) == _plans(general)
        # the program still gives what it gave (its statements run, in order)
        out = prepared.run(CONTEXT)
        assert out.status == "success", (text, out.message)
        assert out.value == value, text
    assert ordered >= 7 and planned >= 7  # (most of these programs have expression statements)


def test_a_write_call_takes_the_general_way() -> None:
    from dialectic.registry.descriptions import FunctionDescription

    rt = Runtime(load_entry_points=False)
    saved: list[object] = []
    rt.register(
        FunctionDescription(
            "save",
            "Saves.",
            lambda value: saved.append(value),
            {"value": "any"},
            effects="write",
        )
    )
    prepared = rt.prepare("save(1); const x = upper('a'); save(x); return x;", lang="plan")
    resolved = prepared.resolved
    assert resolved is not None and resolved.effects is not None
    info, _ = walked_nodes(resolved.root)
    assert info.written  # (so analyze summarized it: nodes are marked)
    assert resolved.effects.marked
    assert prepared.run().value == "A" and saved == [1, "A"]
