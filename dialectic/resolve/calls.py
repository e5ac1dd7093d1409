"""The resolver's calls: a call bound to its registered function (SPEC 1.5), Plan's
``ns.f(...)`` read as the namespaced function (SPEC 2.2), and with no registry (corpus
analysis) the arguments by the analysis conventions (SPEC 13). A mixin of
:class:`dialectic.resolve.resolver.Resolver`."""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

from dialectic.outcome.errors import DialecticError, clip, format_path
from dialectic.registry.descriptions import FunctionDescription
from dialectic.registry.registry import Registry
from dialectic.resolve.binding import Signature, bind
from dialectic.resolve.expressions import _Params
from dialectic.resolve.forbidden import forbidden_error, is_forbidden
from dialectic.tree.nodes import Arg, Call, DomainCall, Get, Invoke, Lit, Node, Ref
from dialectic.tree.parse import call_named, parse_node

if TYPE_CHECKING:
    from dialectic.resolve.resolver import _Scope

__all__ = ["CallsMixin", "domain_slots", "unknown_function"]


#: per registry: function name -> the binding facts of its latest parameters (``signature``)
_SIGNATURES: weakref.WeakKeyDictionary[Registry, dict[str, Signature]] = weakref.WeakKeyDictionary()


class CallsMixin:
    """Call forms of :class:`~dialectic.resolve.resolver.Resolver` (which sets these
    attributes up)."""

    registry: Registry | None
    warnings: list[str]
    calls: int
    ordered: int
    _env: list[_Scope | _Params]
    #: function name -> (function, its binding facts), for this program
    _signatures: dict[str, tuple[FunctionDescription, Signature]]

    if TYPE_CHECKING:

        def resolve(self, node: Node, top: bool = False) -> Node: ...

        def leaf(self) -> None: ...

    def _Call(self, node: Call) -> Node:
        registry = self.registry
        if registry is None:
            if is_forbidden(node.name):
                raise forbidden_error(node.name, node.path)
            self.calls += 1
            slots = tuple((slot, self.resolve(expr)) for slot, expr in domain_slots(node))
            return DomainCall(node.path, node.name, slots)
        if node.kind == "array" and node.positional and registry.bare_names():
            # Plan's `memory.create_entities({...})` arrives as create_entities(memory, {...})
            dotted = self.namespaced_name(node.positional[0], node.name)
            if dotted is not None:
                node = Call(node.path, dotted, "array", positional=node.positional[1:])
        fn = registry.functions.get(node.name)  # the exact name: most calls
        corrected: str | None = None
        if fn is None:
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
        self.calls += 1
        if fn.changes_things:
            self.ordered += 1
        sig = self.signature(registry, fn)
        bound = bind(registry, node, fn, sig)
        resolve = self.resolve
        args: list[Arg] = []
        for p in sig.params:
            arg = bound.get(p.name)
            if arg is None:
                continue
            if type(arg) is Lit:  # a literal resolves to itself (its depth counted as resolve's)
                self.leaf()
                args.append(Arg(p, arg))
            else:
                args.append(Arg(p, resolve(arg)))
        return Invoke(node.path, fn, tuple(args), node.name)

    def signature(self, registry: Registry, fn: FunctionDescription) -> Signature:
        """The binding facts of ``fn``'s parameters, worked out once per list of parameters
        (the registry keeps one per function until the function changes): kept per registry,
        and per program by function."""
        mine = self._signatures.get(fn.name)
        if mine is not None and mine[0] is fn:
            return mine[1]
        params = registry.params(fn)
        kept = _SIGNATURES.get(registry)
        if kept is None:
            kept = _SIGNATURES[registry] = {}
        sig = kept.get(fn.name)
        if sig is None or sig.params is not params:
            sig = kept[fn.name] = Signature(params)
        self._signatures[fn.name] = (fn, sig)
        return sig

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
    near = registry.suggest(node.name)
    if near:
        text = "did you mean " + " or ".join(f"`{n}`" for n in near) + "?"
    else:
        text = "no registered function has a similar name"
    return DialecticError(
        "unknown_function",
        f"unknown function `{clip(node.name)}`; {text}",
        node.path,
        hint="An object with one key is a call; to pass a one-key object as data write "
        '{"$object": {...}} (or {"$quote": ...}). `dialectic describe` lists the functions.',
        details={"closest": near},
    )
