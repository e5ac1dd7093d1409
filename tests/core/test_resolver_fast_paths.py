"""The resolver's fast paths give what its general paths give: values and errors.

- ``bind_args`` (positional arguments by a plan kept per signature, named arguments checked in
  one pass, a single value, the one-key nested call) against ``bind``, the general binding;
- the call handler's inline paths against a resolver whose calls all go through ``bind``;
- the block's shortcut for aliases that read only earlier ones against the dependency sort;
- what is kept per registry (binding facts, method names) follows registrations and replaced
  functions; a free name's meaning is decided once per program, its errors at every read;
- the nesting measured inside aliases (their ``depth``) is the same whatever path a node takes.
"""

from __future__ import annotations

import gc
import weakref
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dialectic.tree.reader as reader
from dialectic import Constant, DialecticError, FunctionDescription, Optional, Runtime
from dialectic.limits import Limits
from dialectic.resolve.binding import Signature, bind, bind_args
from dialectic.resolve.blocks import _dependency_order, _reads_back
from dialectic.resolve.resolver import ResolveErrors, Resolver, resolve
from dialectic.tree.nodes import Arg, Binding, Block, Call, Invoke, Let, Lit, Node
from dialectic.tree.parse import parse_tree
from dialectic.tree.walking import walk

LIMITS = Limits()

#: parameter lists of every kind binding tells apart
PARAMS: dict[str, dict[str, Any]] = {
    "none": {},
    "one": {"a": "any"},
    "one_text": {"a": "string"},
    "one_optional": {"a": Optional("any")},
    "two": {"a": "number", "b": "number"},
    "optional_first": {"b": Optional("string"), "a": "string"},
    "mixed": {"a": "any", "b": Optional("integer"), "c": Optional("any")},
    "data": {"data": "object"},
    "three": {"a": "any", "b": "any", "c": "any"},
    "all_optional": {"a": Optional("any"), "b": Optional("any"), "c": Optional("any")},
}


def _runtime() -> Runtime:
    rt = Runtime(load_entry_points=False)
    for name, params in PARAMS.items():
        rt.register(FunctionDescription(name, name, lambda **kw: kw, params, "any"))
    rt.register(
        FunctionDescription(
            "synonyms",
            "a parameter with another name",
            lambda **kw: kw,
            {"a": "any", "b": Optional("any")},
            "any",
            parameter_aliases={"from": "a"},
        ),
        FunctionDescription("g", "a nested call", lambda x: x, {"x": "any"}, "any"),
        Constant("today", "a constant made per run", factory=lambda ctx: 1),
    )
    return rt


RT = _runtime()
REG = RT.registry
NAMES = sorted([*PARAMS, "synonyms"])
KEYS = ["a", "b", "c", "data", "from", "x", "zz", "g", "aa"]

scalars = st.one_of(st.integers(-3, 3), st.sampled_from(["s", "", "a"]), st.none(), st.booleans())
leaves = st.one_of(
    scalars,
    st.sampled_from(
        [
            {"$ref": "v"},
            {"$get": [{"$ref": "v"}, "k"]},
            {"g": 1},
            {"g": [{"$ref": "v"}]},
            {"$object": {"k": 1}},
            {"$quote": [1, 2]},
            {"$ref": "__proto__"},
            {"$ref": "g"},
        ]
    ),
)
values = st.recursive(
    leaves,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from(KEYS), inner, min_size=2, max_size=3),
    ),
    max_leaves=6,
)
arguments = st.one_of(
    st.lists(values, max_size=4),  # positional (an object literal alone: named arguments)
    st.dictionaries(st.sampled_from(KEYS), values, max_size=4),  # named, or a nested call
    values,  # one value
)


def _error(exc: DialecticError) -> tuple[Any, ...]:
    return (type(exc), exc.code, exc.message, exc.path, exc.hint, exc.details)


def _shape(node: Node) -> list[Any]:
    """Every node of the subtree: class, path and fields (functions by identity)."""
    out: list[Any] = []
    for n in walk(node):
        fields: list[Any] = [type(n).__name__, n.path]
        for name in type(n).__slots__:
            value = getattr(n, name)
            if isinstance(value, tuple) and value and isinstance(value[0], Arg | Binding):
                value = [
                    (a.param, a.node.path) if isinstance(a, Arg) else (a.name, a.slot, a.depth)
                    for a in value
                ]
            elif isinstance(value, Node | dict | tuple):
                continue  # children: walked
            fields.append(id(value) if isinstance(value, FunctionDescription) else value)
        out.append(fields)
    return out


def _bound(call: Call) -> tuple[Any, Any]:
    fn = REG.functions[call.name]
    sig = Signature(REG.params(fn))
    try:
        general = bind(REG, call, fn, sig)
    except DialecticError as exc:
        general_out: Any = ("error", _error(exc))
    else:
        general_out = [(p, _shape(general[p.name])) for p in sig.params if p.name in general]
    try:
        fast = bind_args(REG, call, fn, sig)
    except DialecticError as exc:
        return ("error", _error(exc)), general_out
    return [(p, _shape(node)) for p, node in fast], general_out


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(NAMES), arguments)
def test_bind_args_is_bind(name: str, args: Any) -> None:
    try:
        call = parse_tree({name: args}, LIMITS)
    except DialecticError:
        return  # not a program
    if not isinstance(call, Call):
        return
    fast, general = _bound(call)
    assert fast == general


class _GeneralCalls(Resolver):
    """A resolver whose every call is bound by :func:`bind`, arguments in declared order."""

    def _Call(self, node: Call) -> Node:
        registry = self.registry
        assert registry is not None
        fn = registry.functions.get(node.name)
        if fn is None:
            fn = self._inexact(registry, node)
        self.calls += 1
        if fn.changes_things:
            self.ordered += 1
        sig = Signature(registry.params(fn))
        bound = bind(registry, node, fn, sig)
        args = []
        for p in sig.params:
            arg = bound.get(p.name)
            if arg is None:
                continue
            if type(arg) is Lit:
                self.leaf()
                args.append(Arg(p, arg))
            else:
                args.append(Arg(p, self.resolve(arg)))
        return Invoke(node.path, fn, tuple(args), node.name)


def _outcome(resolver: Resolver, root: Node) -> Any:
    try:
        out = resolver.resolve_root(root)
    except ResolveErrors as exc:
        return [_error(e) for e in exc.errors]
    return (_shape(out.root), out.calls, out.memo_size, sorted(out.context_refs.items()))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(NAMES), arguments, st.booleans())
def test_calls_resolve_as_the_general_binding_does(name: str, args: Any, alias: bool) -> None:
    program: Any = {name: args}
    if alias:  # inside an alias: the nesting of each argument is measured
        program = {"$let": {"v": 1, "r": {"$ref": "v"}, "out": program}, "$return": {"$ref": "out"}}
    try:
        root = parse_tree(program, LIMITS)
    except DialecticError:
        return
    assert _outcome(Resolver(REG, LIMITS), root) == _outcome(_GeneralCalls(REG, LIMITS), root)


def _parse_late(program: Any) -> Any:
    """``parse_tree`` as it was before a call's parse read its argument object ahead
    (``Call.read``): the object only checked, the resolver reads its JSON."""

    def late(walk: Any, arg: Any, p: Any) -> None:
        reader._keep(walk, arg, p)

    saved = reader._read_ahead
    reader._read_ahead = late
    try:
        return parse_tree(program, LIMITS)
    finally:
        reader._read_ahead = saved


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([*NAMES, "g"]), arguments, st.booleans())
def test_argument_objects_read_ahead_resolve_as_read_late(
    name: str, args: Any, alias: bool
) -> None:
    """Nested calls and named arguments read by the parse resolve to what the resolver makes
    of their JSON (the same nodes, the same errors)."""
    program: Any = {name: args if not isinstance(args, dict) else {"g": args}}
    if alias:
        program = {"$let": {"v": 1, "out": program, "o2": {name: args}}, "$return": {"$ref": "out"}}
    try:
        root = parse_tree(program, LIMITS)
    except DialecticError:
        return
    late = _parse_late(program)
    assert _outcome(Resolver(REG, LIMITS), root) == _outcome(Resolver(REG, LIMITS), late)


def test_fast_paths_cover_the_common_shapes() -> None:
    """Each inline path of the call handler is taken and bound by declared order."""
    cases = {
        '{"one_text": "x"}': ["a"],  # a single value
        '{"two": [1, 2]}': ["a", "b"],  # positional
        '{"optional_first": ["x"]}': ["a"],  # the required parameter first
        '{"optional_first": ["x", "y"]}': ["b", "a"],  # declared order
        '{"mixed": {"c": 1, "a": 2}}': ["a", "c"],  # named
        '{"one": {"g": 1}}': ["a"],  # a nested call
        '{"mixed": [{"c": 1, "a": 2}]}': ["a", "c"],  # Plan's f({...})
        '{"data": {"k": 1, "j": 2}}': ["data"],  # an object value (the general path)
        '{"synonyms": {"from": 1}}': ["a"],  # a synonym (the general path)
    }
    for text, params in cases.items():
        root = RT.prepare(text).resolved
        assert root is not None
        call = root.root
        assert isinstance(call, Invoke)
        assert [a.param.name for a in call.args] == params, text
    nested = RT.prepare('{"one": {"g": 1}}').resolved
    assert nested is not None and isinstance(nested.root, Invoke)
    inner = nested.root.args[0].node
    assert isinstance(inner, Invoke) and inner.fn.name == "g"


# -- aliases in program order --------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(
    st.integers(1, 6).flatmap(
        lambda n: st.lists(
            st.dictionaries(st.integers(0, n - 1), st.integers(1, 4), max_size=3),
            min_size=n,
            max_size=n,
        )
    )
)
def test_reads_back_means_program_order(reads: list[dict[int, int]]) -> None:
    names = [f"n{i}" for i in range(len(reads))]
    slots = {name: i for i, name in enumerate(names)}
    deps = {names[i]: {names[j]: lv for j, lv in r.items()} for i, r in enumerate(reads) if r}
    let = Let((), {name: Lit((name,), 1) for name in names}, Lit((), 1), "return")
    try:
        order = _dependency_order(let, deps)
    except DialecticError:
        assert not _reads_back(slots, deps)  # a cycle never reads only backwards
        return
    if _reads_back(slots, deps):
        assert order == names
    else:
        assert any(slots[d] >= slots[n] for n, r in deps.items() for d in r)


def test_alias_depths_and_reads() -> None:
    program = {
        "$let": {
            "a": {"$get": [{"$ref": "x"}, "k", "j"]},
            "b": {"one": {"$ref": "a"}},
            "c": {"$if": [{"$ref": "b"}, {"two": [{"$ref": "a"}, 1]}, 2]},
            "e": {"$return": {"$get": [{"$ref": "c"}, "z"]}},
        },
        "$return": [{"$ref": "c"}, {"$ref": "e"}],
    }
    resolved = resolve(REG, LIMITS, parse_tree(program, LIMITS))
    block = resolved.root
    assert isinstance(block, Block)
    got = {b.name: (b.slot, b.deps, b.depth) for b in block.bindings}
    # a: $get (1) > its target and keys (2); b: the call (1) > a read of a (2), plus a's 2;
    # c: reads b at 2 (whatever the data: a dep) and a at 3 (under the condition: no dep);
    # e: a block without aliases (1) > $get (2) > a read of c (3), plus c's 6
    assert got == {
        "a": (0, (), 2),
        "b": (1, (0,), 4),
        "c": (2, (1,), 6),
        "e": (3, (2,), 9),
    }
    assert [b.name for b in block.bindings] == ["a", "b", "c", "e"]


def test_aliases_out_of_order_are_sorted() -> None:
    program = {
        "$let": {"total": {"two": [{"$ref": "x"}, {"$ref": "y"}]}, "x": 1, "y": {"$ref": "x"}},
        "$return": {"$ref": "total"},
    }
    block = resolve(REG, LIMITS, parse_tree(program, LIMITS)).root
    assert isinstance(block, Block)
    assert [b.name for b in block.bindings] == ["x", "y", "total"]
    cycle = {"$let": {"p": {"$ref": "q"}, "q": {"$ref": "p"}}, "$return": {"$ref": "p"}}
    out = RT.run(cycle)
    assert out.error is not None and out.error.code == "cycle"


# -- what is kept per registry and per program ------------------------------------------------


def test_binding_facts_follow_a_replaced_function_and_a_registration() -> None:
    rt = Runtime(load_entry_points=False)
    rt.register(FunctionDescription("f", "f", lambda a: a, {"a": "any"}, "any"))
    reg = rt.registry

    def invoke(program: Any) -> Invoke:
        call = resolve(reg, LIMITS, parse_tree(program, LIMITS)).root
        assert isinstance(call, Invoke)
        return call

    assert [a.param.name for a in invoke({"f": {"a": 1}}).args] == ["a"]
    # the function replaced in place (as Runtime does for `str`): the call is of the new one
    new = FunctionDescription("f", "f", lambda a: -a, {"a": "any"}, "any")
    reg.functions["f"] = new
    assert invoke({"f": {"a": 1}}).fn is new
    # a registration (the registry's version changes): a method name becomes a function too
    method = resolve(reg, LIMITS, parse_tree({"$method": ["ab", "at", 0]}, LIMITS)).root
    assert getattr(method, "fallback", 0) is None
    rt.register(FunctionDescription("at", "at", lambda x, i: x, {"x": "any", "i": "any"}, "any"))
    method = resolve(reg, LIMITS, parse_tree({"$method": ["ab", "at", 0]}, LIMITS)).root
    assert isinstance(getattr(method, "fallback", None), Invoke)


def test_free_names_are_decided_once_and_fail_at_every_read() -> None:
    reads = ["user", "Today", "user", "today", "Today"]
    resolved = resolve(REG, LIMITS, parse_tree([{"$ref": n} for n in reads], LIMITS))
    assert resolved.context_refs == {"user": (0,)}  # the first read
    assert resolved.constant_slots == {"today": 0}  # one slot, also for `Today`
    assert resolved.memo_size == 1
    items = getattr(resolved.root, "items", ())
    kinds = [type(n).__name__ for n in items]
    assert kinds == ["ContextRef", "ConstRef", "ContextRef", "ConstRef", "ConstRef"]
    assert [getattr(n, "written", None) for n in items] == [None, "Today", None, "today", "Today"]
    try:
        resolve(REG, LIMITS, parse_tree([{"$ref": "g"}, {"$ref": "g"}], LIMITS))
    except ResolveErrors as exc:
        assert [(e.code, e.path) for e in exc.errors] == [
            ("not_a_value", (0,)),
            ("not_a_value", (1,)),
        ]
    else:
        raise AssertionError("a function read as a value must fail")


def test_unknown_nodes_and_empty_blocks() -> None:
    class Strange(Node):
        __slots__ = ()

    try:
        resolve(REG, LIMITS, Strange((1,)))
    except ResolveErrors as exc:
        assert exc.errors[0].code == "invalid_program" and exc.errors[0].path == (1,)
    else:
        raise AssertionError("an unknown node must fail")
    block = resolve(REG, LIMITS, parse_tree({"$return": {"one": 1}}, LIMITS)).root
    assert isinstance(block, Block) and block.bindings == () and isinstance(block.body, Invoke)


# -- nodes built through their twins -------------------------------------------------------


def _slot_values(value: Any) -> tuple[Any, ...]:
    cls = type(value)
    names = [n for klass in reversed(cls.__mro__) for n in getattr(klass, "__slots__", ())]
    return (cls, *[(n, getattr(value, n)) for n in names])


def test_builders_make_what_the_constructors_make() -> None:
    from dialectic.resolve import build
    from dialectic.tree.nodes import (
        AliasRef,
        Arr,
        Cond,
        ConstRef,
        ContextRef,
        Get,
        Lambda,
        Method,
        Obj,
        Op,
        Template,
    )

    fn = REG.functions["one"]
    param = REG.params(fn)[0]
    lit = Lit((1,), 2)
    args = (Arg(param, lit),)
    const = REG.constants["today"]
    pairs = [
        (build.arg(param, lit), Arg(param, lit)),
        (build.invoke((0,), fn, args, "One"), Invoke((0,), fn, args, "One")),
        (build.get((0,), lit, (lit,), True), Get((0,), lit, (lit,), True)),
        (build.context_ref((0,), "x"), ContextRef((0,), "x")),
        (build.alias_ref((0,), "x", 3, 1), AliasRef((0,), "x", 3, 1)),
        (build.arr((0,), (lit,)), Arr((0,), (lit,))),
        (build.obj((0,), {"k": lit}, True), Obj((0,), {"k": lit}, True)),
        (build.op((0,), "+", (lit, lit)), Op((0,), "+", (lit, lit))),
        (build.template((0,), ("a", lit)), Template((0,), ("a", lit))),
        (build.binding("a", 1, lit, (0,), 2, -1), Binding("a", 1, lit, (0,), 2, -1)),
        (build.block((0,), (), lit, "return"), Block((0,), (), lit, "return")),
        (build.cond((0,), lit, lit, lit), Cond((0,), lit, lit, lit)),
        (build.const_ref((0,), const, "Today"), ConstRef((0,), const, "Today")),
        (build.lambda_((0,), ("x",), lit, 2), Lambda((0,), ("x",), lit, 2)),
        (
            build.method((0,), lit, "map", (lit,), None, True),
            Method((0,), lit, "map", (lit,), None, True),
        ),
    ]
    for made, constructed in pairs:
        assert _slot_values(made) == _slot_values(constructed)
        try:
            setattr(made, "frame", 0)  # noqa: B010
        except AttributeError:
            pass
        else:
            raise AssertionError(f"a built {type(made).__name__} must be immutable")


def test_every_resolved_node_has_every_field() -> None:
    program = (
        "a = user.name; b = [a, 1, {k: a}]; c = `x${a}`; d = a + 'x';"
        "return {a: upper(a), b: b, c: c, d: d, e: max(1, 2), f: str({value: 1}),"
        " g: items.map(x => x.price)};"
    )
    resolved = RT.prepare(program, lang="plan").resolved
    assert resolved is not None
    seen = set()
    for node in walk(resolved.root):
        seen.add(type(node).__name__)
        _slot_values(node)  # an unset slot raises AttributeError
        for item in getattr(node, "args", ()) + getattr(node, "bindings", ()):
            _slot_values(item)
    assert {"Block", "Get", "ContextRef", "AliasRef", "Arr", "Obj", "Template", "Op"} <= seen
    assert {"ParamRef", "Lambda", "Method"} <= seen
    assert "Invoke" in seen


def test_what_is_kept_per_registry_keeps_nothing_alive() -> None:
    rt = Runtime(load_entry_points=False)

    class Service:
        def __init__(self, owner: Runtime) -> None:
            self.owner = owner  # the implementation holds the runtime (and so its registry)

        def call(self, value: Any) -> Any:
            return value

    service = Service(rt)
    rt.register(FunctionDescription("call", "a method", service.call, {"value": "any"}))
    assert isinstance(resolve(rt.registry, LIMITS, parse_tree({"call": 1}, LIMITS)).root, Invoke)
    held, registry = weakref.ref(service), weakref.ref(rt.registry)
    del rt, service
    gc.collect()
    assert held() is None and registry() is None
