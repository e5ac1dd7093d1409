"""What the compiler reads about a registered function at every call site of it, worked out
once per function (per registry), not once per call site: whether it is asynchronous or
blocking, goes into the call log, has effects, takes a validator or the run context.

The facts are kept per registry by function name, as the resolver keeps its binding facts,
and stand as long as the function's description does: a replaced function (another object),
or a changed implementation, validator, context flag, effect or blocking flag, gets new ones.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

from dialectic.registry.descriptions import FunctionDescription
from dialectic.registry.registry import Registry
from dialectic.run.calllog import is_logged

__all__ = ["FnFacts", "facts_of", "facts_table"]


class FnFacts:
    """The call-site facts of one function (see the module's docstring). It holds the
    function and its implementation weakly (a cache must not keep alive what a registry
    dropped, nor its registry through them)."""

    __slots__ = (
        "fn_ref",
        "impl_ref",
        "no_validator",
        "pass_ctx",
        "effects",
        "blocking_flag",
        "is_async",
        "blocking",
        "logged",
        "simple",
        "plain",
        "positional",
        "changes_things",
    )

    def __init__(self, fn: FunctionDescription) -> None:
        impl = fn.implementation
        self.fn_ref = weakref.ref(fn)
        self.impl_ref = _ref(impl)
        self.no_validator = fn.validator is None
        self.pass_ctx = fn.pass_context
        self.effects = fn.effects
        #: a write or destructive function (``FunctionDescription.changes_things``)
        self.changes_things = fn.changes_things
        self.blocking_flag = fn.blocking
        self.is_async = is_async = fn.call_facts().is_async
        self.blocking = blocking = fn.blocking and not is_async
        #: calls of it go into the call log (every function but the built-in library)
        self.logged = logged = is_logged(fn)
        #: the keyword arguments are passed as they are (no validator, no run context)
        self.simple = simple = fn.validator is None and not fn.pass_context
        #: a synchronous function with none of: validator, run context, call log, effects
        #: (its calls of one or two synchronous arguments need no CallSite until one fails)
        self.plain = (
            simple and not is_async and not blocking and not logged and not self.changes_things
        )
        #: argument names -> whether the implementation takes them positionally
        self.positional: dict[tuple[str, ...], bool] = {}

    def takes_positionally(self, fn: FunctionDescription, names: tuple[str, ...]) -> bool:
        """:meth:`FunctionDescription.takes_positionally`, kept (``fn``: the current function
        of these facts)."""
        known = self.positional.get(names)
        if known is None:
            known = self.positional[names] = fn.takes_positionally(names)
        return known

    def current(self, fn: FunctionDescription) -> bool:
        """Whether these facts are still those of ``fn``."""
        return (
            self.fn_ref() is fn
            and self.impl_ref() is fn.implementation
            and self.no_validator is (fn.validator is None)
            and self.pass_ctx is fn.pass_context
            and self.effects == fn.effects
            and self.blocking_flag is fn.blocking
        )


def _ref(obj: Any) -> Callable[[], Any]:
    """A weak reference to ``obj``, or (an object that cannot have one, such as a built-in
    function, which holds nothing of a registry) a strong one."""
    try:
        return weakref.ref(obj)
    except TypeError:
        return lambda: obj


#: per registry (by id, with a weak reference to it): function name -> the facts of the
#: function registered under it; a registry's entry goes with it
_TABLES: dict[int, tuple[weakref.ref[Any], dict[str, FnFacts]]] = {}


def facts_table(registry: Registry | Any) -> dict[str, FnFacts]:
    """The facts kept for ``registry`` (a new table for an object that cannot be weakly
    referenced)."""
    key = id(registry)
    entry = _TABLES.get(key)
    if entry is not None and entry[0]() is registry:
        return entry[1]
    table: dict[str, FnFacts] = {}
    try:
        ref = weakref.ref(registry, lambda r: _forget(key, r))
    except TypeError:
        return table
    _TABLES[key] = (ref, table)
    return table


def _forget(key: int, ref: weakref.ref[Any]) -> None:
    entry = _TABLES.get(key)
    if entry is not None and entry[0] is ref:
        del _TABLES[key]


def facts_of(table: dict[str, FnFacts], fn: FunctionDescription) -> FnFacts:
    """The facts of ``fn``, from ``table`` while they are current."""
    facts = table.get(fn.name)
    if facts is None or not facts.current(fn):
        facts = table[fn.name] = FnFacts(fn)
    return facts
