"""Compiling a call of a registered function (an :class:`~dialectic.tree.resolved.Invoke`): its
arguments compiled, each with how it is coerced to its parameter's type, and the call strategy
of :mod:`dialectic.compiler.invoke` (a mixin of :class:`dialectic.compiler.closures.Compiler`).

The common call, a synchronous function with no validator, run context, call log or effects,
of one or two synchronous arguments (``upper(x)``, ``max(x, 18)``), compiles straight to its
closure: its :class:`~dialectic.compiler.callsite.CallSite` (arguments, coercers, error
mapping) is built the first time a run needs it (an undefined or ill-typed argument, an
ambiguity, a failure), never for a call that just runs. What is known of the function itself
(:mod:`dialectic.compiler.sitefacts`) is worked out once per function, not per call site.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING, Any

from dialectic.compiler.asyncfn import AsyncFn
from dialectic.compiler.callsite import (
    CLEAN,
    ArgSpec,
    CallSite,
    Coercer,
    leaving_fn,
    may_hold_undefined,
    unchecked,
)
from dialectic.compiler.invoke import SiteOf, SyncFn, SyncOne, SyncTwo, invocation
from dialectic.compiler.literals import Literal
from dialectic.compiler.sitefacts import FnFacts, facts_of
from dialectic.limits import Limits
from dialectic.outcome.errors import (
    Ambiguous,
    Candidate,
    DialecticError,
    JSONPath,
)
from dialectic.registry.descriptions import FunctionDescription
from dialectic.run.evaluator import MISSING, AmbiguityError, AmbiguityItem, Compiled, State
from dialectic.tree.nodes import Invoke, Lit, Node
from dialectic.values.coercion import CoercionAmbiguity, TypeSystem
from dialectic.values.data import UNDEFINED, is_scalar
from dialectic.values.infinity import INFINITIES, InfinityLeaving

__all__ = ["CallsMixin", "PLAIN_CALLS", "coercer", "subtree"]

#: scalar types whose literals can share one compiled closure per value (not float: 0.0 and
#: -0.0 are equal keys of a dict, but different values)
SHARED_SCALARS: dict[type, bool] = {int: True, str: True, bool: True, type(None): True}

#: plain calls compile straight to their closure (a test turns this off to compare the
#: closures with the general call's)
PLAIN_CALLS = True


class CallsMixin:
    """Calls of :class:`~dialectic.compiler.closures.Compiler` (which sets these attributes
    up)."""

    types: TypeSystem
    limits: Limits
    tree: Any
    async_calls: dict[str, int]
    _async_fns: dict[int, AsyncFn]
    _marked: AbstractSet[int]
    _facts: dict[str, FnFacts]
    _checked: dict[int, FnFacts]
    _scalars: dict[tuple[type, Any], Compiled]
    _async_sites: dict[int, Compiled]

    if TYPE_CHECKING:

        def compile(self, node: Node) -> Compiled: ...

    def _Invoke(self, node: Invoke) -> Compiled:
        fn = node.fn
        # checked once per function in a program (nothing changes a function while it compiles)
        facts = self._checked.get(id(fn))
        if facts is None:
            facts = self._facts.get(fn.name)
            if facts is None or not facts.current(fn):
                facts = facts_of(self._facts, fn)
            self._checked[id(fn)] = facts
        if facts.plain and 0 < len(node.args) < 3 and not self._marked and PLAIN_CALLS:
            return self._plain_call(node, facts)
        return self._general_call(node, facts, None)

    def _general_call(
        self, node: Invoke, facts: FnFacts, done: list[Compiled | None] | None
    ) -> Compiled:
        """Any call: its :class:`CallSite` built now, the strategy chosen by
        :func:`~dialectic.compiler.invoke.invocation`. ``done``: the arguments already
        compiled (None for one that is not)."""
        fn = node.fn
        specs: list[tuple[str, Compiled | None, Coercer | None, bool]] = []
        nodes: list[Node] = []
        exact_types = self.types.exact_types
        for i, arg in enumerate(node.args):
            p = arg.param
            a = arg.node
            nodes.append(a)
            ptype = p.type
            compiled: Compiled | None
            if type(a) is Lit and SHARED_SCALARS.get(type(a.value)):
                # a literal scalar: passed as it is (its ArgSpec compiles it if a strategy asks);
                # already of the parameter's type, it has nothing to coerce (ever: a literal's
                # type does not change)
                compiled = None
                exact = exact_types(ptype) if ptype != "any" else None
                if ptype == "any" or (exact is not None and type(a.value) in exact):
                    specs.append((p.name, compiled, None, p.optional))
                    continue
            else:
                c = done[i] if done is not None else None
                compiled = c if c is not None else self.compile(a)
            co = (
                None
                if ptype == "any"
                else coercer(self.types, self.tree, fn, p.name, ptype, a.path)
            )
            specs.append((p.name, compiled, co, p.optional))
        out = invocation(
            node, fn, specs, nodes, self.limits, self.async_calls, facts, self._async_fns
        )
        if out.aio is not None:  # (a static call graph may take it: dialectic.compiler.dagplan)
            self._async_sites[id(node)] = out
        return out

    def _plain_call(self, node: Invoke, facts: FnFacts) -> Compiled:
        """A plain call of one or two arguments (see the module's docstring): compiled straight
        to its closure when its arguments are synchronous, else the general way."""
        exact_types = self.types.exact_types
        args = node.args
        fn_name = node.fn.name
        fns: list[SyncFn | None] = []
        consts: list[Any] = []
        #: per argument: the types that need no coercion, None if it needs none at all
        exacts: list[tuple[type, ...] | None] = []
        #: the arguments compiled (None: a literal)
        done: list[Compiled | None] = []
        all_sync = True
        for arg in args:
            ptype = arg.param.type
            a = arg.node
            if type(a) is Lit and is_scalar(a.value) and a.value not in INFINITIES:  # (as it is)
                v = a.value
                fns.append(None)
                consts.append(v)
                done.append(None)
                if ptype == "any":
                    exacts.append(None)
                else:
                    exact = exact_types(ptype)
                    # of the parameter's type, it has nothing to coerce (ever)
                    exacts.append(None if exact is not None and type(v) in exact else exact or ())
                continue
            c = self.compile(a)
            done.append(c)
            consts.append(MISSING)
            exact = None if ptype == "any" else exact_types(ptype) or ()
            exacts.append(exact)
            sync = c.sync
            if sync is None:
                all_sync = False
            elif (
                (type(a) not in CLEAN or type(a) is Lit)
                and unchecked(exact)
                and may_hold_undefined(a)
            ):
                # an array or object the program built may hold `undefined`, a number may be
                # an infinity
                sync = leaving_fn(sync, f"argument `{arg.param.name}` of `{fn_name}`", a.path)
            fns.append(sync)
        if not all_sync:
            return self._general_call(node, facts, done)
        site_of = _lazy_site(node, facts, done, exacts, self.types, self.tree, self.limits)
        impl, max_len = node.fn.implementation, self.limits.max_string_length
        if len(args) == 1:
            pname = args[0].param.name
            argfn = fns[0]
            if argfn is None:  # `double(4)`
                if exacts[0] is not None:  # to coerce: the general way
                    return self._general_call(node, facts, done)
                return Compiled(SyncOne.literal(impl, pname, consts[0], max_len, site_of))
            positional = facts.takes_positionally(node.fn, (pname,))
            return Compiled(
                SyncOne.closure(impl, pname, argfn, exacts[0], positional, max_len, site_of)
            )
        pa, pb = args[0].param.name, args[1].param.name
        positional = facts.takes_positionally(node.fn, (pa, pb))
        first = (pa, fns[0], exacts[0], consts[0])
        second = (pb, fns[1], exacts[1], consts[1])
        return Compiled(SyncTwo.closure(impl, first, second, positional, max_len, site_of))

    def _shared_literal(self, value: Any) -> Compiled:
        """The compiled literal of an immutable scalar, one per value and type in a program."""
        key = (type(value), value)
        out = self._scalars.get(key)
        if out is None:
            out = self._scalars[key] = Literal(value)  # (immutable: nothing to copy)
        return out

    def _coercer(
        self, fn: FunctionDescription, pname: str, ptype: str, arg: Node
    ) -> Coercer | None:
        """None for `any`; else (exact Python types or None, fit check, slow converter)."""
        if ptype == "any":
            return None
        return coercer(self.types, self.tree, fn, pname, ptype, arg.path)


class _LazySite:
    """The call site of a plain call (``done``: its arguments compiled, None for a literal),
    built the first time it is asked for (``site_of()``): what the general way builds at once.
    One object, not a closure: a closure of these parts would make a cell for each, and a
    call that just runs never asks for its site."""

    __slots__ = ("node", "facts", "done", "exacts", "types", "tree", "limits", "built")
    node: Invoke
    facts: FnFacts
    done: list[Compiled | None]
    exacts: list[tuple[type, ...] | None]
    types: TypeSystem
    tree: Any
    limits: Limits
    built: CallSite | None

    def __call__(self) -> CallSite:
        built: CallSite | None = self.built
        if built is not None:
            return built
        node, types, tree = self.node, self.types, self.tree
        fn = node.fn
        args = []
        for arg, c, exact in zip(node.args, self.done, self.exacts, strict=True):
            p, a = arg.param, arg.node
            co = None if exact is None else coercer(types, tree, fn, p.name, p.type, a.path)
            args.append(ArgSpec(p.name, c, co, p.optional, a))  # (None: a literal scalar)
        built = self.built = CallSite(node, fn, tuple(args), self.limits, self.facts)
        return built


def _lazy_site(
    node: Invoke,
    facts: FnFacts,
    done: list[Compiled | None],
    exacts: list[tuple[type, ...] | None],
    types: TypeSystem,
    tree: Any,
    limits: Limits,
) -> SiteOf:
    """The call site of ``node``, built the first time it is asked for (:class:`_LazySite`)."""
    site = _LazySite()
    site.node = node
    site.facts = facts
    site.done = done
    site.exacts = exacts
    site.types = types
    site.tree = tree
    site.limits = limits
    site.built = None
    return site


def coercer(
    types: TypeSystem, tree: Any, fn: FunctionDescription, pname: str, ptype: str, path: JSONPath
) -> Coercer:
    """How an argument at ``path`` becomes its parameter's type ``ptype`` (not `any`): the
    Python types that need nothing, and the conversion of any other value."""
    check = types.checker(ptype)
    coerce = types.coerce
    fname = fn.name

    def slow(v: Any, s: State) -> Any:
        if v is UNDEFINED or check(v):
            return v
        if type(v) is list or type(v) is dict or type(v) is float:
            try:  # converted as it would leave the run: no `undefined` inside, no infinity
                v = s.defined(v)
            except InfinityLeaving as exc:
                raise exc.error(f"argument `{pname}` of `{fname}`", path) from None
        try:
            return coerce(v, ptype, s.ctx)
        except CoercionAmbiguity as amb:
            raise AmbiguityError([_coercion_ambiguity(amb, fname, pname, path, tree)])
        except Ambiguous as exc:  # a conversion found several results: refine the argument
            raise AmbiguityError([AmbiguityItem(exc.message, exc.candidates, path, fname)])
        except DialecticError as exc:
            raise DialecticError(
                exc.code,
                f"argument `{pname}` of `{fname}`: {exc.message}",
                path,
                hint=(_null_hint(fn, pname) if v is None else None) or exc.hint,
                details=exc.details,
            ) from None

    return (types.exact_types(ptype) or (), slow)


def _null_hint(fn: FunctionDescription, pname: str) -> str | None:
    """What to write for a `null` given to an optional parameter: no value at all (a cursor
    that starts as `null` in a pagination loop)."""
    from dialectic.registry.descriptions import Optional

    if not isinstance(fn.parameters.get(pname), Optional):
        return None
    return (
        f"`{pname}` is optional: leave it out rather than pass `null` (a name that starts "
        f"with no value: `let {pname};`, not `let {pname} = null;`; or pass "
        f"`{pname} ?? undefined`: an `undefined` argument is left out)."
    )


def _coercion_ambiguity(
    amb: CoercionAmbiguity, fname: str, pname: str, path: JSONPath, tree: Any
) -> AmbiguityItem:
    original = subtree(tree, path)
    candidates = []
    for p in amb.paths:
        via = p[1:-1]
        chain = " -> ".join(p)
        candidates.append(
            Candidate(
                f"the conversion {chain}",
                {"convert": {"value": original, "type": amb.target, "via": via}},
            )
        )
    message = (
        f"The argument `{pname}` of `{fname}` is {_art(amb.source)} and can become "
        f"{_art(amb.target)} in more than one way. Which conversion did you mean?"
    )
    return AmbiguityItem(message, candidates, path, fname)


def _art(t: str) -> str:
    return ("an " if t[:1] in "aeiou" else "a ") + t


def subtree(tree: Any, path: JSONPath) -> Any:
    node = tree
    for key in path:
        node = node[key]
    return node
