"""What extensions register: functions, types, conversions and constants.

The classes follow the RFC (``FunctionDescription(name, description, implementation, parameters,
returns)`` and friends); options beyond the RFC are keyword-only.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import KW_ONLY, dataclass, field
from typing import Any

#: The built-in type names of a ParameterSchema. Any registered type name is valid too.
BUILTIN_TYPES = ("string", "number", "integer", "boolean", "array", "object", "null", "any")


class Optional:
    """Marks a parameter as optional: ``{"file": Optional("string")}`` (the RFC's Optional)."""

    __slots__ = ("type",)

    def __init__(self, type: str) -> None:
        if isinstance(type, Optional):
            type = type.type
        self.type = type

    def __repr__(self) -> str:
        return f"Optional({self.type!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Optional) and other.type == self.type

    def __hash__(self) -> int:
        return hash(("Optional", self.type))


ParameterType = str | Optional
ParameterSchema = Mapping[str, ParameterType]


class RunContext:
    """The run as seen by an implementation that asks for it (``pass_context=True``).

    ``values`` is the context dict given to ``Runtime.run``; ``warn`` adds a warning to the outcome.
    """

    __slots__ = ("values", "_warnings", "limits", "cache", "_convert", "_stringify")

    def __init__(
        self,
        values: Mapping[str, Any],
        warnings: list[str],
        limits: Any,
        convert: Callable[..., Any] | None = None,
        stringify: Callable[[Any], str] | None = None,
    ) -> None:
        self.values = values
        self._warnings = warnings
        self.limits = limits
        #: scratch space shared by all implementations during one run (e.g. a parsed workspace)
        self.cache: dict[str, Any] = {}
        self._convert = convert
        self._stringify = stringify

    def get(self, key: str, default: Any = None) -> Any:
        return self.values.get(key, default)

    def warn(self, message: str) -> None:
        if message not in self._warnings:
            self._warnings.append(message)

    def convert(self, value: Any, type_name: str, via: Sequence[str] = ()) -> Any:
        """Convert ``value`` to the registered or built-in type ``type_name`` (as arguments are)."""
        if self._convert is None:
            raise RuntimeError("this RunContext is not attached to a runtime")
        return self._convert(value, type_name, self, list(via))

    def stringify(self, value: Any) -> str:
        """``value`` as text, as a template writes it (registered types by their ``format``;
        bounded by the run's ``max_string_length``)."""
        if self._stringify is None:
            raise RuntimeError("this RunContext is not attached to a runtime")
        return self._stringify(value)


#: what a function may do to the world, least to most (SPEC 17)
EFFECTS = ("pure", "read", "write", "destructive")


@dataclass(eq=False)
class FunctionDescription:
    """A function: ``FunctionDescription(name, description, implementation, parameters, returns)``.

    The runtime validates and coerces the arguments against ``parameters`` and calls
    ``implementation`` with keyword arguments named after them (an omitted optional parameter is
    not passed). ``implementation`` may be sync or async.

    Keyword-only options:
      blocking: run a synchronous implementation in a worker thread.
      pass_context: call the implementation with an extra ``ctx=RunContext`` keyword.
      max_concurrency: at most this many concurrent calls of this function per run.
      timeout: per-call timeout in seconds (overrides ``Limits.call_timeout``).
      parameter_descriptions: a sentence per parameter, for ``dialectic describe``.
      validator: a callable that receives the coerced keyword arguments and returns the ones to
        pass (the ``@function`` decorator puts a pydantic validator here).
      aliases: other names of the function (``buses`` for ``busses``); shown once in the
        catalog, they call this same description.
      parameter_aliases: other names of parameters, ``{"from": "origin"}``: a named argument
        ``from`` is the parameter ``origin`` (giving both is an error); a synonym never takes a
        positional slot and the implementation receives the parameter's own name.
      namespace: the namespace the function belongs to (SPEC 2.2): the registered name is
        ``namespace.name`` (a name given without that prefix gets it at registration); a name
        with a dot and no ``namespace`` is in the namespace before its first dot.
      effects: what a call does to the world (SPEC 17): ``"pure"``, ``"read"`` (the default:
        pure data flow), ``"write"`` or ``"destructive"``; a write or destructive call always
        runs, in program order within its scope, after the approver allows it.
      idempotent: calling it twice with the same arguments has the effect of calling it once.
      scope: the effect scope (default: the namespace, else the plugin that registers it, else
        one shared scope).
    """

    name: str
    description: str
    implementation: Callable[..., Any]
    parameters: Mapping[str, Any] = field(default_factory=dict)
    returns: str = "any"
    _: KW_ONLY
    blocking: bool = False
    pass_context: bool = False
    max_concurrency: int | None = None
    timeout: float | None = None
    parameter_descriptions: Mapping[str, str] = field(default_factory=dict)
    validator: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    examples: Sequence[str] = ()
    aliases: Sequence[str] = ()
    parameter_aliases: Mapping[str, str] = field(default_factory=dict)
    namespace: str | None = None
    effects: str = "read"
    idempotent: bool = False
    scope: str | None = None
    #: the plugin that registered it (set by the registry): the effect scope after the namespace
    plugin: str | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.effects not in EFFECTS:
            raise ValueError(
                f"{self.name}: effects={self.effects!r}; use one of {', '.join(EFFECTS)}"
            )

    @property
    def effect_scope(self) -> str:
        """The scope whose effectful calls run in program order (SPEC 17): its own, else its
        namespace, else its plugin's, else the one shared scope ``""``."""
        return self.scope or self.namespace or self.plugin or ""

    @property
    def changes_things(self) -> bool:
        """A write or destructive function: it always runs, in order, after approval."""
        return self.effects == "write" or self.effects == "destructive"

    #: facts about ``implementation`` read by the compiler at every call site, computed once
    _facts: _CallFacts | None = field(default=None, init=False, repr=False, compare=False)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Call the implementation directly (so a decorated function stays callable)."""
        return self.implementation(*args, **kwargs)

    def call_facts(self) -> _CallFacts:
        """What the compiler needs to know about ``implementation`` (async? its positional
        parameters?), computed on first use and kept until ``implementation`` is replaced;
        ``inspect.signature`` costs more than compiling the call site itself."""
        facts = self._facts
        impl = self.implementation
        if facts is None or facts.implementation is not impl:
            facts = self._facts = _CallFacts(impl)
        return facts

    @property
    def is_async(self) -> bool:
        """Whether the implementation is a coroutine function (or an object whose
        ``__call__`` is one)."""
        return self.call_facts().is_async

    def takes_positionally(self, names: Sequence[str]) -> bool:
        """Whether ``implementation(*values)`` means ``implementation(**dict(zip(names,
        values)))`` (a faster call)."""
        return self.call_facts().takes_positionally(names)


_VARIADIC_OR_KEYWORD = (
    inspect.Parameter.KEYWORD_ONLY,
    inspect.Parameter.VAR_KEYWORD,
    inspect.Parameter.VAR_POSITIONAL,
)


class _CallFacts:
    """``inspect`` facts about one implementation, computed once (see ``call_facts``)."""

    __slots__ = ("implementation", "is_async", "_params", "_positional")

    def __init__(self, implementation: Callable[..., Any]) -> None:
        self.implementation = implementation
        self.is_async = inspect.iscoroutinefunction(implementation) or (
            inspect.iscoroutinefunction(getattr(implementation, "__call__", None))  # noqa: B004
        )
        params: tuple[inspect.Parameter, ...] | None
        try:
            params = tuple(inspect.signature(implementation).parameters.values())
        except (TypeError, ValueError):
            params = None
        self._params = params
        self._positional: dict[tuple[str, ...], bool] = {}

    def takes_positionally(self, names: Sequence[str]) -> bool:
        key = tuple(names)
        known = self._positional.get(key)
        if known is None:
            known = self._positional[key] = self._compute_positional(key)
        return known

    def _compute_positional(self, names: tuple[str, ...]) -> bool:
        params = self._params
        if params is None or len(params) < len(names):
            return False
        for p, name in zip(params, names, strict=False):
            if p.name != name or p.kind is not inspect.Parameter.POSITIONAL_OR_KEYWORD:
                return False
        # parameters after ours must not be required positionals (they would be filled wrongly)
        return all(
            p.default is not inspect.Parameter.empty or p.kind in _VARIADIC_OR_KEYWORD
            for p in params[len(names) :]
        )


@dataclass(eq=False)
class TypeDescription:
    """A value type: ``TypeDescription(name, description, implementation, parameters, cls)``.

    ``implementation`` constructs an instance from keyword arguments named after ``parameters``;
    the type is also callable as a function named ``name`` (its constructor). Instances are
    recognised by ``isinstance(value, python_class)``.

    The declared ``parameters`` are the instance's fields: a program can read them (``x.name``),
    and they make up its serialized form ``{"<name>": {field: value, ...}}``, an executable program
    that evaluates back to an equal value. Keyword-only options:

      properties: extra read-only members, name -> getter(instance) (e.g. ``date.morning``).
      serialize: instance -> the constructor's arguments (default: the declared fields).
      format: instance -> text, used when the value is put in a template (default: compact JSON).
      fields: instance, name -> value, to read a declared field (default: ``getattr``).
    """

    name: str
    description: str
    implementation: Callable[..., Any]
    parameters: Mapping[str, Any]
    python_class: type
    _: KW_ONLY
    properties: Mapping[str, Callable[[Any], Any]] = field(default_factory=dict)
    serialize: Callable[[Any], Any] | None = None
    format: Callable[[Any], str] | None = None
    fields: Callable[[Any, str], Any] | None = None
    pass_context: bool = False
    parameter_descriptions: Mapping[str, str] = field(default_factory=dict)

    @property
    def returns(self) -> str:
        return self.name


@dataclass(eq=False)
class TypeConversion:
    """A conversion edge: ``TypeConversion(from_type, to_type, description, converter)``.

    ``converter(value)`` returns a value of ``to_type`` (or raises ``Failure``/``Ambiguous``).
    With ``pass_context=True`` it is called as ``converter(value, ctx=RunContext)``.
    """

    from_type: str
    to_type: str
    description: str
    converter: Callable[..., Any]
    _: KW_ONLY
    pass_context: bool = False


@dataclass(eq=False)
class Constant:
    """A named value visible to programs (``today``, ``Thursday``, ``hour``).

    Either a fixed ``value`` or a ``factory(ctx: RunContext)`` evaluated lazily, at most once per
    run (for values that depend on the run's context, such as a pinned clock).
    """

    name: str
    description: str
    value: Any = None
    _: KW_ONLY
    factory: Callable[[RunContext], Any] | None = None
    returns: str = "any"


Description = FunctionDescription | TypeDescription | TypeConversion | Constant
