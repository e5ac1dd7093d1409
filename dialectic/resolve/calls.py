"""The resolver's calls: a call bound to its registered function (SPEC 1.5), Plan's
``ns.f(...)`` read as the namespaced function (SPEC 2.2), and with no registry (corpus
analysis) the arguments by the analysis conventions (SPEC 13). A mixin of
:class:`dialectic.resolve.resolver.Resolver`."""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from dialectic.outcome.errors import DialecticError, clip, format_path
from dialectic.registry.descriptions import FunctionDescription
from dialectic.registry.registry import Param, Registry
from dialectic.registry.waiting import is_sleep
from dialectic.resolve.binding import Signature, bind_args
from dialectic.resolve.build import ArgTwin, InvokeTwin, invoke
from dialectic.resolve.expressions import _Params
from dialectic.resolve.forbidden import forbidden_error, is_forbidden
from dialectic.tree.nodes import Arg, Call, DomainCall, Get, Invoke, Lit, Node, Obj, Ref
from dialectic.tree.parse import call_as_nested, call_named, parse_node
from dialectic.values.jsglobals import GLOBALS

if TYPE_CHECKING:
    from dialectic.resolve.blocks import _Scope

__all__ = ["CallsMixin", "domain_slots", "unknown_function"]


#: what the resolver keeps of a function: a weak reference to it (a function replaced without
#: a registration is told by its identity; and nothing kept per registry holds a function, whose
#: implementation may hold the registry), the binding facts of its parameters, and whether it
#: is a write or destructive function
_Kept = tuple[weakref.ref[FunctionDescription], Signature, bool]


class _Facts:
    """What is kept of one registry: its version when made, function name -> what is kept of
    the function, JavaScript method name -> whether a registered function has that name too;
    with weak references to the registry and to itself (see ``_LAST``)."""

    __slots__ = ("version", "sigs", "methods", "free", "registry", "me", "__weakref__")

    def __init__(self, registry: Registry) -> None:
        self.version = registry.version
        self.sigs: dict[str, _Kept] = {}
        self.methods: dict[str, bool] = {}
        #: free name (no alias, no parameter) -> the registered constant it names, or the
        #: resolver's marker of a context value (names that are errors are not kept)
        self.free: dict[str, Any] = {}
        self.registry = weakref.ref(registry)
        self.me = weakref.ref(self)


#: per registry, what is kept of it
_SIGNATURES: weakref.WeakKeyDictionary[Registry, _Facts] = weakref.WeakKeyDictionary()
#: a weak reference to what is kept of the registry looked up last: it keeps no registry and
#: none of its functions alive, and replacing it frees nothing (each is its ``_Facts``'s own)
_LAST: list[weakref.ref[_Facts] | None] = [None]


class CallsMixin:
    """Call forms of :class:`~dialectic.resolve.resolver.Resolver` (which sets these
    attributes up)."""

    registry: Registry | None
    warnings: list[str]
    calls: int
    ordered: int
    _env: list[_Scope | _Params]
    _cur: _Scope | None
    #: function name -> what is kept of the function: the registry's (``_signatures``)
    _sigs: dict[str, _Kept] | None
    #: JavaScript method name -> whether it is a registered function too (the registry's)
    _methods: dict[str, bool] | None
    #: free name -> what it means (the registry's: ``_Facts.free``)
    _known_free: dict[str, Any] | None
    #: whether the registry has namespaced functions (None: not asked yet)
    _bare: bool | None
    _reading: int
    _table: dict[type[Node], Callable[[Any, Any], Node]]

    if TYPE_CHECKING:

        def resolve(self, node: Node) -> Node: ...

        def leaf(self) -> None: ...

        def _failed(self, exc: DialecticError, node: Node) -> Node: ...

    def _Call(self, node: Call) -> Node:
        registry = self.registry
        if registry is None:
            return self._domain_call(node)
        kind = node.kind
        if kind == "array" and node.positional:
            bare = self._bare
            if bare is None:
                bare = self._bare = bool(registry.bare_names())
            if bare:
                # Plan's `memory.create_entities({...})` arrives as
                # create_entities(memory, {...})
                dotted = self.namespaced_name(node.positional[0], node.name)
                if dotted is not None:
                    node = Call(node.path, dotted, "array", positional=node.positional[1:])
        fn = registry.functions.get(node.name)  # the exact name: most calls
        if fn is None:
            fn = self._inexact(registry, node)
        self.calls += 1
        sigs = self._sigs
        if sigs is None:
            sigs = self._signatures(registry)
        kept = sigs.get(fn.name)
        if kept is None or kept[0]() is not fn:
            kept = self._signature(registry, fn)
        if kept[2]:  # a write or destructive function, or the built-in `sleep`
            self.ordered += 1
        sig = kept[1]
        target = sig.single  # what one argument fills, when that binds the call
        one: Node | None = None
        if kind == "single":  # `{"f": X}`
            one = node.single
        elif kind == "array":
            positional = node.positional
            if len(positional) == 1:
                if type(positional[0]) is not Obj:  # `f(x)` (`f({...})`: named arguments)
                    one = positional[0]
            elif len(positional) <= len(sig.params):
                n = len(positional)
                known = sig.by_count
                plan = known[n] if n in known else sig.positional(n)
                if plan is not None:  # `f(a, b)`: each argument fills its parameter
                    return self._bound(node, fn, [(p, positional[i]) for p, i in plan])
        elif len(node.raw) == 1 and target is not None:
            for key in node.raw:
                if (
                    key in registry.functions
                    and key not in sig.name_set
                    and key not in fn.parameter_aliases
                ):  # `{"f": {"g": X}}`: the nested call g(X) is f's one argument
                    one = call_as_nested(node)
        if one is not None and target is not None:
            if type(one) is Lit:
                if self._cur is not None:  # a literal resolves to itself (its height counted)
                    self.leaf()
            elif self._reading:
                one = self.resolve(one)
            else:
                try:  # resolve(one), inline (nothing is measured outside an alias's expression)
                    one = self._table[type(one)](self, one)
                except DialecticError as exc:
                    one = self._failed(exc, one)
            bound = ArgTwin()
            bound.param = target
            bound.node = one
            bound.__class__ = Arg
            made = InvokeTwin()
            made.path = node.path
            made.fn = fn
            made.args = (bound,)
            made.written = node.name
            made.__class__ = Invoke
            out: Node = made
            return out
        return self._bound(node, fn, bind_args(registry, node, fn, sig))

    def _bound(self, node: Call, fn: FunctionDescription, pairs: list[tuple[Param, Node]]) -> Node:
        """The call of ``fn`` with its arguments bound: (parameter, expression) pairs in
        declared order, each expression resolved in that order."""
        resolve = self.resolve
        inline = not self._reading  # nothing is measured outside an alias's expression
        table = self._table
        args: list[Arg] = []
        for p, a in pairs:
            if type(a) is Lit:
                if self._cur is not None:  # a literal resolves to itself (its height counted)
                    self.leaf()
            elif not inline:
                a = resolve(a)
            else:
                try:  # resolve(a), inline
                    a = table[type(a)](self, a)
                except DialecticError as exc:
                    a = self._failed(exc, a)
            made = ArgTwin()
            made.param = p
            made.node = a
            made.__class__ = Arg
            args.append(made)
        return invoke(node.path, fn, tuple(args), node.name)

    def _domain_call(self, node: Call) -> Node:
        """A call read without a registry (corpus analysis, SPEC 13)."""
        if is_forbidden(node.name):
            raise forbidden_error(node.name, node.path)
        self.calls += 1
        resolve = self.resolve
        slots = tuple([(slot, resolve(expr)) for slot, expr in domain_slots(node)])
        return DomainCall(node.path, node.name, slots)

    def _inexact(self, registry: Registry, node: Call) -> FunctionDescription:
        """The function a call names when no function has exactly its name: up to case and
        underscores (with a warning), a declared other name, the bare name of a namespaced
        function; else an error with the close names."""
        if is_forbidden(node.name):
            raise forbidden_error(node.name, node.path)
        fn, corrected = registry.resolve_function(node.name)
        if fn is None:
            raise unknown_function(registry, node)
        if corrected is not None:
            self.warnings.append(
                f"unknown function `{clip(node.name)}` at {format_path(node.path)}: ran "
                f"`{corrected}`, the only function with that name up to case and underscores"
            )
        return fn

    def _signatures(self, registry: Registry) -> dict[str, _Kept]:
        """The registry's binding facts by function (made again after a registration)."""
        last = _LAST[0]  # the registry of the program before (most often)
        facts = last() if last is not None else None
        if facts is None or facts.registry() is not registry or facts.version != registry.version:
            facts = _SIGNATURES.get(registry)
            if facts is None or facts.version != registry.version:
                facts = _SIGNATURES[registry] = _Facts(registry)
            _LAST[0] = facts.me
        self._sigs = facts.sigs
        self._methods = facts.methods
        self._known_free = facts.free
        return facts.sigs

    def _registered(self, registry: Registry, name: str) -> bool:
        """Whether the JavaScript method ``name`` is also a function a plugin or the host
        registered (up to case and underscores; the built-in ``join``, ``split`` and ``trim``
        are for Dialect JSON: in Plan, ``x.join()`` is JavaScript's, whatever ``x``), kept per
        registry (there are only so many method names)."""
        methods = self._methods
        if methods is None:
            self._signatures(registry)
            methods = self._methods
            assert methods is not None
        known = methods.get(name)
        if known is None:
            fn = registry.resolve_function(name)[0]
            known = methods[name] = fn is not None and not registry.is_builtin(fn.name)
        return known

    def _signature(self, registry: Registry, fn: FunctionDescription) -> _Kept:
        """What the registry keeps of ``fn`` for binding calls: the binding facts of its
        parameters, and whether it changes things (a write or destructive function)."""
        sigs = self._sigs
        if sigs is None:
            sigs = self._signatures(registry)
        kept = sigs.get(fn.name)
        if kept is None or kept[0]() is not fn:
            ordered = fn.changes_things or is_sleep(fn)  # (a wait is a barrier: SPEC 17)
            kept = (weakref.ref(fn), Signature(registry.params(fn)), ordered)
            sigs[fn.name] = kept
        return kept

    def signature(self, registry: Registry, fn: FunctionDescription) -> Signature:
        """The binding facts of ``fn``'s parameters, worked out once per function and registry
        (until a registration, or until the function is replaced)."""
        return self._signature(registry, fn)[1]

    def namespaced_name(self, receiver: Node, name: str) -> str | None:
        """``ns.name`` when ``receiver`` is a namespace (SPEC 2.2): a name (or a chain of
        literal members of one, ``ns.group``) that is a namespace and no alias or arrow
        parameter in scope; a context value of that name is shadowed. An alias or parameter
        named like the namespace, called as ``alias.f()`` where ``ns.f`` is a function, is a
        clash (an error): the program could mean either."""
        registry = self.registry
        if registry is None:
            return None
        keys: list[str] = []
        root = receiver
        while isinstance(root, Get) and not root.optional:
            for k in reversed(root.keys):
                if not (isinstance(k, Lit) and isinstance(k.value, str)):
                    return None
                keys.append(k.value)
            root = root.target
        if not isinstance(root, Ref) or not registry.is_namespace(root.name):
            return None
        dotted = ".".join([root.name, *reversed(keys), name])
        bound = any(
            root.name in (scope.params if isinstance(scope, _Params) else scope.slots)
            for scope in self._env
        )
        if not bound:
            return dotted
        if dotted in registry.functions:
            raise DialecticError(
                "name_clash",
                f"`{clip(root.name)}` is both an alias (or arrow parameter) and a namespace, so "
                f"`{clip(root.name)}.{clip(name)}(...)` could call the function `{clip(dotted)}` "
                "or read the alias",
                root.path,
                hint=f"Rename the alias `{clip(root.name)}`; to call the function write "
                f'`{clip(dotted)}(...)` or {{"{clip(dotted)}": {{...}}}}.',
            )
        return None


def domain_slots(call: Call) -> list[tuple[str, Node]]:
    """A call's arguments as (slot, expression) by the analysis conventions (SPEC 13): the keys
    of an argument object, or of the only object literal of a positional call; else ``#0``,
    ``#1``... by position."""
    args = call.raw
    p = (*call.path, call.name)
    if call.kind == "array":
        if len(args) == 1 and isinstance(args[0], dict):
            only = args[0]
            if len(only) == 1 and "$object" in only and isinstance(only["$object"], dict):
                q = (*p, 0, "$object")
                return [(k, parse_node(v, (*q, k))) for k, v in only["$object"].items()]
            if len(only) != 1 and not any(k.startswith("$") for k in only):
                return [(k, parse_node(v, (*p, 0, k))) for k, v in only.items()]
        return [(f"#{i}", n) for i, n in enumerate(call.positional)]
    if call.kind == "object":
        return list(call_named(call).items())
    assert call.single is not None
    return [("#0", call.single)]


def unknown_function(registry: Registry, node: Call) -> DialecticError:
    several = registry.bare_matches(node.name)
    if len(several) > 1:  # a bare name that several namespaces have (SPEC 2.2)
        listed = " or ".join(f"`{n}`" for n in several)
        return DialecticError(
            "ambiguous_function",
            f"`{clip(node.name)}` is a function of several namespaces: {listed}",
            node.path,
            hint=f'Write the full name, e.g. {{"{several[0]}": {{...}}}} '
            f"(Plan: {several[0]}(...)).",
            details={"candidates": several},
        )
    space = _namespace_of(node)
    if space is not None:  # `Math.random()`: a global's function that JavaScript has
        return _no_such_global(space, node)
    near = registry.suggest(node.name)
    if near:
        text = "did you mean " + " or ".join(f"`{n}`" for n in near) + "?"
    else:
        text = "no registered function has a similar name"
    hint = _JAVASCRIPT.get(node.name)
    if hint is None:
        hint = "`dialectic describe` lists the functions."
        if node.kind != "array":  # `{"name": {...}}` in Dialect JSON: maybe data
            hint = (
                "An object with one key is a call; to pass a one-key object as data write "
                '{"$object": {...}} (or {"$quote": ...}). ' + hint
            )
    return DialecticError(
        "unknown_function",
        f"unknown function `{clip(node.name)}`; {text}",
        node.path,
        hint=hint,
        details={"closest": near},
    )


#: JavaScript's namespaces of functions that Plan reads (`Math.max(...)`: SPEC 1.8)
_NAMESPACES = frozenset(["Math", "Number", "JSON", "Object", "Array", "String", "Intl", "console"])
#: the methods of `console` lenient mode reads as statements (frontends/plan/console.py)
_CONSOLE = frozenset(["log", "info", "warn", "error", "debug", "table", "dir"])


def _namespace_of(node: Call) -> str | None:
    """``Math`` for the call ``{"random": [{"$ref": "Math"}]}`` (Plan's ``Math.random()``, no
    function of Plan's ``Math``), unless a function of that name is registered."""
    if node.kind != "array" or not node.positional:
        return None
    first = node.positional[0]
    if isinstance(first, Ref) and first.name in _NAMESPACES:
        return first.name
    return None


def _no_such_global(space: str, node: Call) -> DialecticError:
    name = f"{space}.{clip(node.name)}"
    if space == "console":
        hint = "A program has no console: return what you want to see, e.g. `return {a, b};`."
        if node.name in _CONSOLE:
            hint = (
                f"`{name}(...);` is read only as a statement of its own and only in lenient "
                "mode, where it shows nothing (a program has no console): return what you "
                "want to see, e.g. `return {a, b};`."
            )
    elif name in ("Math.random", "crypto.randomUUID"):
        hint = (
            "A run gives the same answer each time: pass the random values in the context, "
            "or register a function that makes them."
        )
    else:
        known = sorted(g for g in GLOBALS if g.startswith(space + "."))
        if space == "Number":
            known += ["Number.parseFloat", "Number.parseInt"]
        hint = (
            f"Plan's functions of `{space}` are: {', '.join(known)}."
            if known
            else f"Plan has no function of `{space}` called this way."
        )
    return DialecticError(
        "unknown_function", f"`{name}` is not one of Plan's functions", node.path, hint=hint
    )


_CHANGE = (
    "A Map or a Set changes only by a statement of its own, `m.set(k, v);`, `s.add(x);`, "
    "`m.delete(k);`, `m.clear();`, on a name defined as `const m = new Map(...)` at the top of "
    "the program or before a loop, or in a reduce from new Map() (`acc.set(k, v); return "
    "acc;`); or build it in one step: new Map(xs.map(x => [x.id, x])), new Set(xs)."
)
#: what to write instead of a JavaScript function or method that programs do not have
_JAVASCRIPT = {
    "set": _CHANGE,
    "add": _CHANGE,
    "delete": _CHANGE,
    "clear": _CHANGE,
    "forEach": "`xs.forEach(f)` has no value (undefined in JavaScript): write it as a statement "
    "of its own, `xs.forEach(x => { ... });` (a loop), or compute a value per element with "
    ".map(x => ...), keep some with .filter(x => ...), or combine them with .reduce(...).",
    "log": "Programs have no console: return what you want to see, e.g. `return {a, b};`.",
    "hasOwn": "Write Object.hasOwn(x, 'k') or 'k' in x (or test the member itself: `x.k ?? "
    "fallback`).",
    "assign": "Merge objects with a spread: `{...a, ...b}`.",
    "freeze": "Plan has no frozen values: use the value itself (a change in place is read "
    "only on a value the program made and nothing else holds).",
    "structuredClone": "Copy a value with structuredClone(v) or JSON.parse(JSON.stringify(v)), "
    "or use the value itself.",
    "from": "Make arrays with a literal, .map or .slice; `[...xs]` copies one.",
    "then": "Calls are awaited for you: write `r = f(x);` (or `const r = await f(x);`) and use "
    "`r`.",
    "catch": "`.catch(h)` is read on a promise: a call (`f(x).catch(e => ...)`) or a name holding "
    "one (`const p = f(x); await p.catch(e => ...)`); or wrap the `await` in "
    "`try { ... } catch (e) { ... }`.",
    "now": "The run's instant is Date.now() (ms since 1970) or new Date(); a registered date "
    "function may do more (`dialectic describe`).",
    "fetch": "Programs reach the outside only through registered functions (`dialectic "
    "describe` lists them).",
    "parseInt": "Call the global: `parseInt(text, 10)`.",
    "parseFloat": "Call the global: `parseFloat(text)`.",
    "setTimeout": "Programs have no timers: calls run as soon as their arguments are ready; to "
    "wait, write `await new Promise(r => setTimeout(r, ms));` or `await sleep(ms);`.",
    "require": "Programs import nothing: registered functions are available by name.",
    "resolve": "Use the value itself: calls are awaited for you.",
    "race": "Programs wait for every call they make: use Promise.all([...]) (or the calls "
    "themselves).",
    "any": "Programs wait for every call they make: use Promise.all([...]) (or the calls "
    "themselves).",
    # a vendor's message without its marker (SPEC 9, "Envelopes": only exact shapes are read)
    "tool_calls": 'An OpenAI assistant message is read with its marker: {"role": "assistant", '
    '"tool_calls": [...]}; a program calls a function by its name: {"f": {...}}.',
    "function_call": 'An OpenAI assistant message is read with its marker: {"role": '
    '"assistant", "function_call": {"name": ..., "arguments": ...}}; a program calls a '
    'function by its name: {"f": {...}}.',
    "content": 'An Anthropic message is read with its marker: {"role": "assistant", '
    '"content": [...]}; a program calls a function by its name: {"f": {...}}.',
}
