"""Names of :class:`~dialectic.resolve.resolver.Resolver`: a name read as an arrow's parameter,
an alias of an enclosing block (with the reads each alias makes), ``Infinity``, else a free
name, whose meaning (a registered constant, also up to case and underscores, or a context
value; an error for a function's or a forbidden name) is decided once per program and kept
per registry."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from dialectic.outcome.errors import DialecticError, JSONPath, clip
from dialectic.registry.registry import Registry
from dialectic.resolve.blocks import _Scope
from dialectic.resolve.build import (
    AliasRefTwin,
    ContextRefTwin,
    ParamRefTwin,
    const_ref,
)
from dialectic.resolve.expressions import _Params
from dialectic.resolve.forbidden import forbidden_error, is_forbidden
from dialectic.resolve.maybe import Reads, may_see
from dialectic.resolve.maynan import NanState
from dialectic.tree.nodes import (
    AliasRef,
    ContextRef,
    Lit,
    Node,
    ParamRef,
    Ref,
)

__all__ = ["NamesMixin"]


#: what a free name (no alias, no parameter) means, decided once per name and program: the
#: registered constant it names, or this marker (a context value)
_CONTEXT = object()
#: free names whose meaning is kept per registry (the later ones are worked out per program)
_KNOWN_FREE_MAX = 4_096


class NamesMixin:
    """Names of :class:`~dialectic.resolve.resolver.Resolver` (which sets these attributes up)."""

    registry: Registry | None
    memo_size: int
    ref_counts: dict[str, int]
    context_refs: dict[str, JSONPath]
    constant_slots: dict[str, int]
    _level: int
    _conditional: int
    _env: list[_Scope | _Params]
    _may_see: Reads
    _present: dict[tuple[int, int], int]
    _candidates: set[tuple[int, int]]
    _nan: NanState
    _nan_shown: dict[tuple[int, int], int]
    _free: dict[str, Any]
    _known_free: dict[str, Any] | None

    if TYPE_CHECKING:

        def _signatures(self, registry: Registry) -> dict[str, Any]: ...

    # -- names ----------------------------------------------------------------------------
    def _Ref(self, node: Ref) -> Node:
        name = node.name
        env = self._env
        i = len(env)
        while i:  # the innermost first
            i -= 1
            scope = env[i]
            if isinstance(scope, _Params):
                index = scope.positions.get(name)
                if index is not None:
                    param = ParamRefTwin()
                    param.path = node.path
                    param.name = name
                    param.frame = scope.index
                    param.index = index
                    param.__class__ = ParamRef
                    found: Node = param
                    return found
                continue
            slot = scope.slots.get(name)
            if slot is not None:
                reading = scope.reading
                if reading is not None:  # an alias reads another of its block
                    deps = scope.deps
                    seen = deps.get(reading)
                    if seen is None:
                        seen = deps[reading] = {}
                    level = self._level - scope.start
                    if level > seen.get(name, 0):
                        seen[name] = level
                    if self._conditional == scope.cond_base:
                        always = scope.always.get(reading)
                        if always is None:
                            always = scope.always[reading] = set()
                        always.add(name)
                counts = self.ref_counts
                counts[name] = counts.get(name, 0) + 1
                made = AliasRefTwin()
                made.path = node.path
                made.name = name
                made.slot = slot
                made.frame = scope.frame
                made.__class__ = AliasRef
                alias: Node = made
                if self._present and (scope.frame, slot) in self._present:
                    # a branch where a test showed it is there
                    may_see(self._may_see, self._candidates, alias)
                if self._nan_shown and (scope.frame, slot) in self._nan_shown:
                    self._nan.tested(alias)  # (a branch where a test showed it is no NaN)
                return alias
        if name == "Infinity":  # JavaScript's global (no alias hides it: SPEC 1.4)
            return Lit(node.path, math.inf)
        counts = self.ref_counts
        counts[name] = counts.get(name, 0) + 1
        meaning = self._free.get(name)
        if meaning is None:
            meaning = self._free_name(name, node.path)
        if meaning is _CONTEXT:
            made = ContextRefTwin()
            made.path = node.path
            made.name = name
            made.__class__ = ContextRef
            out: Node = made
            return out
        return const_ref(node.path, meaning, name)

    def _free_name(self, name: str, path: JSONPath) -> Any:
        """What a name that is no alias or parameter means (the first time it is read): a
        registered constant (also up to case and underscores), else a context value; a
        function or a forbidden name is an error."""
        registry = self.registry
        if registry is None:
            if is_forbidden(name):
                raise forbidden_error(name, path)
            self.context_refs.setdefault(name, path)
            self._free[name] = _CONTEXT
            return _CONTEXT
        known = self._known_free
        if known is None:  # (the registry's, with its binding facts)
            self._signatures(registry)
            known = self._known_free
            assert known is not None
        meaning = known.get(name)
        if meaning is None:
            meaning = self._meaning(registry, name, path)
            if len(known) < _KNOWN_FREE_MAX:  # (bounded: programs keep bringing new names)
                known[name] = meaning
        if meaning is _CONTEXT:
            self.context_refs.setdefault(name, path)
        else:
            self._constant_slot(meaning.name, meaning.factory is not None)
        self._free[name] = meaning
        return meaning

    def _meaning(self, registry: Registry, name: str, path: JSONPath) -> Any:
        """What a free name means in ``registry`` (the same for every program until a
        registration): its registered constant, else ``_CONTEXT``; an error for a function's
        name or a forbidden one."""
        const = registry.constants.get(name)
        if const is None:
            if name in registry.functions:
                raise DialecticError(
                    "not_a_value",
                    f"`{clip(name)}` is a function, not a value; functions cannot be stored or "
                    "passed",
                    path,
                    hint=f'Call it: {{"{clip(name)}": {{...}}}} (Plan: {clip(name)}(...)).',
                )
            if is_forbidden(name):
                raise forbidden_error(name, path)
            # `Thursday` for the constant `thursday`: a context value of the exact name still
            # wins at run time; otherwise the constant is read, with a warning
            const = registry.resolve_constant(name) if registry.constants else None
        return _CONTEXT if const is None else const

    def _constant_slot(self, name: str, needs_slot: bool) -> None:
        if needs_slot and name not in self.constant_slots:
            self.constant_slots[name] = self.memo_size
            self.memo_size += 1
