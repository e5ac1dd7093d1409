"""The typed nodes and the limits, made in one walk (``parse_tree``), against the two walks they
replaced: ``measure`` (size, depth, strings, numbers; errors located by ``locate``) and then
``parse_node`` (the nodes, on JSON already checked).

- every program, good or bad, under tight and default limits: the same error (code, message,
  path, hint) or the same nodes (every field, paths included);
- a good program is never walked twice: at its exact limits (node count, depth, longest string)
  it parses without the located walk, and one below each it fails on that limit;
- the nodes a parse makes (through their mutable twins) are the real, immutable classes.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import yaml

import dialectic.tree.forms as forms
import dialectic.tree.parse as parse_module
import dialectic.tree.reader as reader
from dialectic import Limits
from dialectic.frontends import to_tree
from dialectic.outcome.errors import DialecticError
from dialectic.tree.dispatch import _all_node_classes
from dialectic.tree.measure import measure
from dialectic.tree.nodes import Call, Lit, Node, Ref, _slots
from dialectic.tree.parse import call_as_nested, call_named, parse_node, parse_tree
from dialectic.tree.walking import walk

CONFORMANCE = Path(__file__).resolve().parents[1] / "spec" / "conformance.yaml"

SCALARS: list[Any] = [
    1,
    2.5,
    -0.0,
    10**30,
    True,
    False,
    None,
    "abc",
    "x" * 9,  # longer than the tight limit
    "é",
    "\ud800",  # a lone surrogate
    float("nan"),
    float("inf"),
    (1,),  # not JSON
    "",
    "$x",
    "+",
    "!",
    "typeof",
    "user",
]
#: every form the reader knows, and one it does not
FORMS = [*reader.FORMS, "$bogus"]
KEYS: list[Any] = ["a", "f", "$b", "é", "\udc00", 3, "", "$let", "$return", "$do", "$use"]


def _args(rng: random.Random, form: str, depth: int) -> Any:
    """A form's argument, most often of the right shape."""
    if form == "$fn":
        names = ["x", "y", "$z", 3, "x", "é" * 9]
        params = [rng.choice(names) for _ in range(rng.randint(0, 2))]
        return [params, _program(rng, depth + 2)]
    if form == "$let":
        return {rng.choice(["x", "y", "$z", ""]): _program(rng, depth + 2) for _ in range(3)}
    if form == "$op":
        op = rng.choice(["+", "-", "!", "typeof", "===", "bad", 5, "x" * 9])
        n = rng.randint(0, 3) if rng.random() < 0.3 else 1 if op in ("!", "typeof") else 2
        return [op, *(_program(rng, depth + 2) for _ in range(n))]
    if form in ("$method", "$method?", "$global"):
        name = rng.choice(["map", "Math.max", "x" * 9, 3, "\ud800"])
        rest = [_program(rng, depth + 2) for _ in range(rng.randint(0, 2))]
        return [name, *rest] if form == "$global" else [_program(rng, depth + 2), name, *rest]
    if form == "$do":
        return [
            {"$let": {rng.choice(["x", "y", "$q"]): _program(rng, depth + 3)}}
            if rng.random() < 0.5
            else _program(rng, depth + 2)
            for _ in range(rng.randint(0, 3))
        ]
    if rng.random() < 0.8:
        return [_program(rng, depth + 2) for _ in range(rng.randint(0, 4))]
    return _program(rng, depth + 1)


def _program(rng: random.Random, depth: int = 1) -> Any:
    """A random program: core forms (good and bad), calls, data, non-JSON values."""
    r = rng.random()
    if depth > 7 or r < 0.25:
        return rng.choice(SCALARS)
    if r < 0.55:
        form = rng.choice(FORMS)
        out = {form: _args(rng, form, depth) if rng.random() < 0.7 else _program(rng, depth + 1)}
        if form in ("$let", "$do") and rng.random() < 0.8:
            out[rng.choice(["$return", "$use"])] = _program(rng, depth + 1)
        if rng.random() < 0.15:
            out[rng.choice(KEYS)] = _program(rng, depth + 1)
        return out
    if r < 0.8:  # a call: positional, single, or an argument object kept as JSON
        name = rng.choice(["f", "g", "upper"]) if rng.random() < 0.9 else rng.choice(KEYS)
        if rng.random() < 0.3:
            keys = KEYS if rng.random() < 0.2 else ["a", "b", "c"]
            return {name: {rng.choice(keys): _program(rng, depth + 2) for _ in range(3)}}
        return {name: _program(rng, depth + 1)}
    if r < 0.9:
        return {
            (rng.choice(KEYS) if rng.random() < 0.1 else f"k{i}"): _program(rng, depth + 1)
            for i in range(rng.randint(0, 4))
        }
    return [_program(rng, depth + 1) for _ in range(rng.randint(0, 4))]


def _reference(program: Any, limits: Limits) -> Node:
    """The two walks: measure the whole program, then make its nodes."""
    measure(program, limits)
    return parse_node(program)


def _outcome(parse: Any, program: Any, limits: Limits) -> tuple[Any, ...]:
    try:
        return ("ok", _fields(parse(program, limits)))
    except DialecticError as exc:
        return (type(exc).__name__, exc.code, exc.message, exc.path, exc.hint, exc.details)


def _fields(value: Any) -> Any:
    """A node as plain data: its class and every field (paths too), recursively."""
    if isinstance(value, Node):
        return (type(value).__name__, *(_fields(getattr(value, s)) for s in _slots(type(value))))
    if isinstance(value, tuple | list):
        return (type(value).__name__, *(_fields(v) for v in value))
    if isinstance(value, dict):
        return ("dict", *((k, _fields(v)) for k, v in value.items()))
    if isinstance(value, float) and value != value:
        return "NaN"
    return (type(value).__name__, value)


def _tight_limits(rng: random.Random) -> Limits:
    if rng.random() < 0.3:
        return Limits()
    return Limits(
        max_depth=rng.randint(2, 9),
        max_nodes=rng.randint(5, 80),
        max_string_length=rng.randint(1, 10),
    )


def test_one_walk_agrees_with_measure_then_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    second: list[Any] = []

    def measure_again(program: Any, limits: Limits) -> int:
        second.append(program)
        return measure(program, limits)

    monkeypatch.setattr(parse_module, "measure", measure_again)
    rng = random.Random(20261123)
    kinds: set[str] = set()
    for _ in range(6000):
        program = _program(rng)
        limits = _tight_limits(rng)
        second.clear()
        fused = _outcome(parse_tree, program, limits)
        assert fused == _outcome(_reference, program, limits), (program, limits)
        assert not (fused[0] == "ok" and second), f"walked twice: {program!r} {limits}"
        kinds.add(fused[0] if fused[0] == "ok" else f"{fused[1]}: {fused[2][:12]}")
    # good programs, limits of each kind, and errors in the forms all came up
    assert "ok" in kinds and len(kinds) > 25, kinds


def _real_programs() -> list[Any]:
    """The conformance cases' programs in each notation, as their call trees."""
    trees: list[Any] = []
    for case in yaml.safe_load(CONFORMANCE.read_text(encoding="utf-8")):
        for lang in ("json", "plan", "plan2"):
            text = case.get(lang)
            if not isinstance(text, str):
                continue
            try:
                trees.append(to_tree(text, lang).tree)
            except DialecticError:
                continue
    return trees


REAL = _real_programs()


def _stats(tree: Any) -> tuple[int, int, int]:
    """JSON values, depth, longest string (keys not counted, as measure counts)."""
    count, depth, longest = 0, 0, 0
    stack: list[tuple[Any, int]] = [(tree, 1)]
    while stack:
        value, level = stack.pop()
        count += 1
        if isinstance(value, dict | list):
            depth = max(depth, level)
            items = value.values() if isinstance(value, dict) else value
            stack.extend((v, level + 1) for v in items)
        elif isinstance(value, str):
            longest = max(longest, len(value))
    return count, depth, longest


def _no_second_walk(program: Any, limits: Limits) -> tuple[Any, ...]:
    raise AssertionError(f"a good program was walked again: {program!r} under {limits}")


def test_real_programs_parse_in_one_walk_at_their_exact_limits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert len(REAL) > 250
    checked = 0
    for tree in REAL:
        try:
            expected = _fields(_reference(tree, Limits()))
        except DialecticError:
            continue  # (a case whose program is an error of its own)
        count, depth, longest = _stats(tree)
        exact = Limits(max_nodes=count, max_depth=max(depth, 1), max_string_length=max(longest, 1))
        with monkeypatch.context() as m:
            m.setattr(parse_module, "measure", _no_second_walk)
            assert _fields(parse_tree(tree, exact)) == expected
        below = {"max_nodes": count - 1, "max_depth": depth - 1, "max_string_length": longest - 1}
        for limit, value in below.items():
            if value < 1:
                continue
            tighter = exact.with_(**{limit: value})
            with pytest.raises(DialecticError) as info:
                parse_tree(tree, tighter)
            assert info.value.details.get("limit") == limit
            assert _outcome(parse_tree, tree, tighter) == _outcome(_reference, tree, tighter)
        checked += 1
    assert checked > 200


class _Text(str):
    """Not JSON: a subclass of str (a host's object)."""


class _Data(dict[str, Any]):
    """Not JSON: a subclass of dict."""


class _Items(list[Any]):
    """Not JSON: a subclass of list."""


EXOTIC: list[Any] = [
    {"$get": [{_Text("$ref"): "user"}, "k"]},  # where the walk reads a name inline
    {"$get": [{"$ref": _Text("user")}, "k"]},
    {"$ref": _Text("user")},
    {"f": [{_Text("$ref"): "a"}]},
    {_Text("f"): 1},
    {_Text("$get"): [{"$ref": "a"}, "k"]},
    {"a": 1, _Text("b"): 2},
    {"a": 1, "$return": 2, _Text("b"): 3},
    {"$template": ["a", _Text("b")]},
    {"$op": [_Text("+"), 1, 2]},
    {"$method": [{"$ref": "a"}, _Text("map")]},
    {"$fn": [[_Text("x")], 1]},
    {"$get": _Items([{"$ref": "a"}, "k"])},
    {"$object": _Data(a=1)},
    {"f": _Data(a=1)},
    {"f": _Items([1])},
    {"f": {"a": (1, 2)}},
    {"$quote": {"a": [1, {2: 3}]}},
    {"$undefined": {"a": float("nan")}},
    {"f": {"a": 1, 2: 3}},
    {"$let": {"a": 1, 5: 2}, "$return": 1},
    {"$do": [{"$let": {"a": 1, 5: 2}}], "$return": 1},
    {1: 2, "$let": {}},
    _Data({"f": 1}),
    _Items([1]),
]


@pytest.mark.parametrize("program", EXOTIC, ids=range(len(EXOTIC)))
def test_values_that_are_not_json_fail_as_measure_says(program: Any) -> None:
    for limits in (Limits(), Limits(max_string_length=2, max_depth=2)):
        fused = _outcome(parse_tree, program, limits)
        assert fused == _outcome(_reference, program, limits)
        assert fused[0] != "ok"


def test_deep_programs_fail_at_the_depth_limit_without_recursion() -> None:
    def nest(inner: Any, levels: int, wrap: Any) -> Any:
        for _ in range(levels):
            inner = wrap(inner)
        return inner

    shapes = {
        "arrays": lambda x: [x],
        "calls": lambda x: {"f": [x]},
        "operators": lambda x: {"$op": ["!", x]},
        "conditions": lambda x: {"$if": [x, 1, 2]},
        "blocks": lambda x: {"$let": {"a": x}, "$return": 1},
        "kept arguments": lambda x: {"f": {"a": x}},
        "quoted": lambda x: {"$quote": [x]},
    }
    for name, wrap in shapes.items():
        program = nest(1, 5_000, wrap)  # (far beyond any recursion limit)
        with pytest.raises(DialecticError) as info:
            parse_tree(program, Limits())
        assert info.value.details.get("limit") == "max_depth", name
        assert len(info.value.path) == 100  # the first container below the limit


def test_parsed_nodes_are_the_real_immutable_classes() -> None:
    program = {
        "$let": {"a": {"f": {"x": 1}}},
        "$return": {"$template": ["v", {"$get": [{"$ref": "a"}, "k"]}, {"$op": ["-", 1]}]},
    }
    nodes = list(walk(parse_tree(program, Limits())))
    assert {type(n).__name__ for n in nodes} >= {"Let", "Call", "Template", "Get", "Ref", "Op"}
    for node in nodes:
        assert type(node) in _all_node_classes()
        assert not any("twin_of" in vars(cls) for cls in type(node).__mro__)
        with pytest.raises(AttributeError):
            node.path = ()
    assert all(not hasattr(cls, "twin_of") for cls in _all_node_classes())


def test_the_resolver_reads_argument_objects_as_before() -> None:
    call = parse_tree({"f": {"g": [1, {"$ref": "x"}]}}, Limits())
    assert isinstance(call, Call) and call.kind == "object"
    nested = call_as_nested(call)
    assert (nested.name, nested.kind, nested.path) == ("g", "array", ("f",))
    assert [type(n) for n in nested.positional] == [Lit, Ref]
    assert nested.positional[1].path == ("f", "g", 1)
    named = call_named(call)
    assert list(named) == ["g"] and named["g"].path == ("f", "g")


# -- the fast ways of the walk, against its general way ------------------------------------------
def _plain(value: Any) -> Any:
    """:func:`_fields` without what a call's parse read ahead (``Call.read``)."""
    if isinstance(value, Node):
        return (
            type(value).__name__,
            *(_plain(getattr(value, s)) for s in _slots(type(value)) if s != "read"),
        )
    if isinstance(value, tuple | list):
        return (type(value).__name__, *(_plain(v) for v in value))
    if isinstance(value, dict):
        return ("dict", *((k, _plain(v)) for k, v in value.items()))
    if isinstance(value, float) and value != value:
        return "NaN"
    return (type(value).__name__, value)


def _late(walk: Any, arg: Any, p: Any) -> None:
    """The walk without reading ahead: an argument object only checked (the resolver reads it)."""
    reader._keep(walk, arg, p)


def _parsed(program: Any, limits: Limits, general: bool) -> tuple[Any, ...]:
    """``parse_tree``'s outcome; ``general``: with the fast ways turned off."""
    saved = reader._read_ahead, forms._get_of_name
    if general:
        reader._read_ahead = _late
        forms._get_of_name = lambda *args: None
    try:
        return ("ok", _plain(parse_tree(program, limits)))
    except DialecticError as exc:
        return (type(exc).__name__, exc.code, exc.message, exc.path, exc.hint, exc.details)
    finally:
        reader._read_ahead, forms._get_of_name = saved


def _calls(node: Any) -> list[Call]:
    """Every call in the nodes, those a call's parse read ahead too."""
    out: list[Call] = []
    todo = [node]
    while todo:
        n = todo.pop()
        if isinstance(n, dict):
            todo.extend(n.values())
            continue
        for m in walk(n):
            if isinstance(m, Call):
                out.append(m)
                if m.read is not None:
                    todo.append(m.read)
    return out


def _read(read: Any, call: Call) -> tuple[Any, ...]:
    try:
        return ("ok", _plain(read(call)))
    except DialecticError as exc:
        return (type(exc).__name__, exc.code, exc.message, exc.path, exc.hint)


def _get_program(rng: random.Random, depth: int = 1) -> Any:
    """A member access, most often of a name with literal keys (good and bad), in a call, a
    template or another access."""
    names: list[Any] = ["user", "", "x" * 9, "é", 3, None, "$ref", "\ud800"]
    keys: list[Any] = ["k", "profile", 0, 7, "x" * 9, "é", 1.5, True, None, "\udc00", -1]
    target: Any = {"$ref": rng.choice(names) if rng.random() < 0.3 else "user"}
    r = rng.random()
    if r < 0.1:
        target = {"$ref": "user", "k": 1}
    elif r < 0.2:
        target = {_Text("$ref"): "user"}
    elif r < 0.3 and depth < 4:
        target = _get_program(rng, depth + 1)
    items = [target, *(rng.choice(keys) for _ in range(rng.randint(0, 4)))]
    if rng.random() < 0.1 and depth < 4:
        items.append(_get_program(rng, depth + 1))
    get = {rng.choice(["$get", "$get"]) if rng.random() < 0.95 else "$get?": items}
    wrap = rng.random()
    if wrap < 0.3:
        return {"f": [get, 1]}
    if wrap < 0.5:
        return {"$template": ["a", get]}
    if wrap < 0.6:
        return {"f": {"g": get}}
    return get


def test_gets_of_a_name_are_made_as_the_general_walk_makes_them() -> None:
    rng = random.Random(9)
    kinds: set[str] = set()
    for _ in range(4000):
        program = _get_program(rng)
        limits = _tight_limits(rng)
        fast = _parsed(program, limits, general=False)
        assert fast == _parsed(program, limits, general=True), (program, limits)
        kinds.add(fast[0] if fast[0] == "ok" else f"{fast[1]}: {fast[2][:12]}")
    assert "ok" in kinds and len(kinds) > 5, kinds


def test_argument_objects_read_ahead_are_what_the_resolver_reads_late() -> None:
    """A call's argument object read by its parse (``Call.read``) as the nested call or the
    named arguments is what reading its JSON then makes of it, with the same errors; the
    program's nodes and errors are those of a parse that does not read ahead."""
    rng = random.Random(2026)
    seen: dict[str, int] = {"Call": 0, "dict": 0, "NoneType": 0}
    for _ in range(6000):
        program = _program(rng)
        limits = _tight_limits(rng)
        fast = _parsed(program, limits, general=False)
        assert fast == _parsed(program, limits, general=True), (program, limits)
        if fast[0] != "ok":
            continue
        for call in _calls(parse_tree(program, limits)):
            if call.kind != "object":
                continue
            late = Call(call.path, call.name, call.kind, call.positional, call.single, call.raw)
            if len(call.raw) == 1:
                assert _read(call_as_nested, call) == _read(call_as_nested, late), program
            assert _read(call_named, call) == _read(call_named, late), program
            seen[type(call.read).__name__] += 1
    # one key read as a nested call, more as named arguments, a form's error left to the resolver
    assert min(seen.values()) > 20, seen
