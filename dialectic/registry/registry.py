"""The registry: functions, types, conversions and constants, and the plugins they came from."""

from __future__ import annotations

import difflib
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from itertools import islice
from typing import Any

from dialectic.outcome.errors import PluginError, clip
from dialectic.registry.descriptions import (
    BUILTIN_TYPES,
    Constant,
    FunctionDescription,
    Optional,
    TypeConversion,
    TypeDescription,
)
from dialectic.registry.plugins import HOOKS, make_plugin_manager

PYTHON_TYPE_NAMES: dict[Any, str] = {
    str: "string",
    int: "integer",
    float: "number",
    bool: "boolean",
    list: "array",
    dict: "object",
    type(None): "null",
    Any: "any",
    object: "any",
}


#: the source of the built-in functions (``str``, ``upper``, ``max``, ...): any other
#: registration of one of their names replaces the built-in instead of clashing with it
BUILTIN_PLUGIN = "dialectic.registry.stdlib"
BUILTIN_SOURCE = f"plugin {BUILTIN_PLUGIN!r}"


@dataclass(frozen=True, slots=True)
class Param:
    """One declared parameter: its name, type name and whether it may be omitted."""

    name: str
    type: str
    optional: bool


def normalize_name(name: str) -> str:
    """The case- and underscore-insensitive form used to forgive a slightly wrong name."""
    return name.replace("_", "").replace("-", "").lower()


#: "did you mean" compares names of at most this many characters, with at most this many
#: candidates (difflib's ratio costs the product of the lengths: a hostile 50,000-character key
#: against 50,000-character members took seconds)
CLOSEST_MAX_NAME = 64
CLOSEST_MAX_CANDIDATES = 2_000


def closest(
    name: str, candidates: Iterable[str], n: int = 3, *, substrings: bool = True
) -> list[str]:
    """Up to ``n`` candidates that look like ``name`` (for "did you mean"): difflib's close
    matches, then (``substrings``) candidates containing it or contained in it. The cost is
    bounded: a name longer than :data:`CLOSEST_MAX_NAME` has no suggestions, longer candidates
    are skipped, and only the first :data:`CLOSEST_MAX_CANDIDATES` are compared."""
    if not isinstance(name, str) or not name or len(name) > CLOSEST_MAX_NAME:
        return []
    pool = [
        c
        for c in islice(candidates, CLOSEST_MAX_CANDIDATES)
        if isinstance(c, str) and len(c) <= CLOSEST_MAX_NAME
    ]
    found = difflib.get_close_matches(name, pool, n=n, cutoff=0.6)
    if substrings and len(found) < n:
        low = name.lower()
        for c in pool:
            if c not in found and (low in c.lower() or c.lower() in low) and len(c) > 1:
                found.append(c)
                if len(found) >= n:
                    break
    return found


def _qualify(fn: FunctionDescription, source: str) -> None:
    """Give a function its namespace (SPEC 2.2): ``namespace="memory"`` makes the registered
    name ``memory.<name>``; a dotted name without one is in the namespace before its first dot."""
    ns, name = fn.namespace, fn.name
    if not isinstance(name, str):
        return  # reported by _add_name
    if ns is None:
        if "." in name:
            ns = name.split(".", 1)[0]
        else:
            return
    if not isinstance(ns, str) or not ns or "." in ns or ns.startswith("$"):
        raise PluginError(
            f"{source}: function {name!r} has an invalid namespace {ns!r} (a namespace is a "
            "non-empty name without dots, such as 'memory')"
        )
    if not name.startswith(ns + "."):
        name = f"{ns}.{name}"
    if len(name) == len(ns) + 1:
        raise PluginError(f"{source}: function {name!r} has no name after its namespace")
    fn.namespace, fn.name = ns, name


class Registry:
    """Everything a runtime can call or name. Registration conflicts name both sources; a
    built-in gives way to any other registration of its name."""

    def __init__(self) -> None:
        self.functions: dict[str, FunctionDescription] = {}
        self.types: dict[str, TypeDescription] = {}
        self.conversions: dict[tuple[str, str], TypeConversion] = {}
        self.constants: dict[str, Constant] = {}
        #: the constants by normalized name (for a name written in another case), made on
        #: first need and again after a registration (by the registry's version)
        self._constant_index: tuple[int, dict[str, list[Constant]]] | None = None
        self.sources: dict[str, str] = {}
        self._by_class: dict[type, TypeDescription] = {}
        self._normalized: dict[str, list[str]] | None = None
        self._params: dict[str, tuple[Param, ...]] = {}
        #: other names of functions (declared ``aliases``) -> the function's own name
        self.function_aliases: dict[str, str] = {}
        self._signatures: dict[str, tuple[FunctionDescription, str]] = {}
        #: a namespaced function's bare name -> its full names (``create_entities`` ->
        #: ``["memory.create_entities", ...]``), built on first use (SPEC 2.2)
        self._bare: dict[str, list[str]] | None = None
        self._namespaces: list[str] | None = None
        self._namespace_set: frozenset[str] = frozenset()
        self.version = 0
        #: (source, declaration) of the services plugins declared (``MCPServers``,
        #: ``OpenAPIService``); the runtime connects them when it is built
        self.services: list[tuple[str, Any]] = []

    # -- registration -------------------------------------------------------------------
    def add(self, description: Any, source: str = "Runtime.register") -> None:
        if isinstance(description, FunctionDescription):
            _qualify(description, source)
            if source.startswith("plugin ") and description.plugin is None:  # SPEC 17's scope
                description.plugin = source[len("plugin ") :].strip("'")
            self._add_name("function", description.name, source)
            self.functions[description.name] = description
            for alias in description.aliases:
                self._add_name("function", alias, source)
                self.function_aliases[alias] = description.name
            for synonym, target in description.parameter_aliases.items():
                if target not in description.parameters or synonym in description.parameters:
                    raise PluginError(
                        f"{source}: function {description.name!r} declares the parameter alias "
                        f"{synonym!r} -> {target!r}, but {target!r} must be a parameter and "
                        f"{synonym!r} must not be one"
                    )
        elif isinstance(description, TypeDescription):
            self._add_name("type", description.name, source)
            self.types[description.name] = description
            self._by_class[description.python_class] = description
            ctor = FunctionDescription(
                description.name,
                f"Construct a `{description.name}`: {description.description}",
                description.implementation,
                description.parameters,
                description.name,
                pass_context=description.pass_context,
                parameter_descriptions=description.parameter_descriptions,
            )
            self.functions[description.name] = ctor
        elif isinstance(description, TypeConversion):
            key = (description.from_type, description.to_type)
            label = f"conversion {key[0]} -> {key[1]}"
            if key in self.conversions:
                raise PluginError(
                    f"{label} is registered twice: by {self.sources.get(label)} and by {source}"
                )
            self.conversions[key] = description
            self.sources[label] = source
        elif isinstance(description, Constant):
            self._add_name("constant", description.name, source)
            self.constants[description.name] = description
        else:
            raise PluginError(
                f"{source} registered {description!r}, which is not a FunctionDescription, "
                "TypeDescription, TypeConversion or Constant"
            )
        self._normalized = None
        self._bare = self._namespaces = None
        self._params.clear()
        self._signatures.clear()
        self.version += 1

    def _add_name(self, kind: str, name: str, source: str) -> None:
        if not isinstance(name, str) or not name or name.startswith("$"):
            raise PluginError(f"{source} registered a {kind} with an invalid name {name!r}")
        previous = self.sources.get(name)
        # a built-in gives way to the user's own registration (Runtime.register, a plugin)
        replace = previous == BUILTIN_SOURCE and source != BUILTIN_SOURCE
        if previous is not None and not replace:
            raise PluginError(
                f"the name {name!r} is registered twice: by {previous} and by {source} ({kind})"
            )
        if kind != "type" and name in self.types and not replace:
            raise PluginError(f"{source}: {name!r} is already a registered type")
        if replace:
            self._remove(name)
        self.sources[name] = source

    def _remove(self, name: str) -> None:
        """Forget a name (a built-in being replaced): its function, type or constant."""
        self.sources.pop(name, None)
        self.functions.pop(name, None)
        self.constants.pop(name, None)
        self._params.pop(name, None)
        td = self.types.pop(name, None)
        if td is not None:
            self._by_class = {c: t for c, t in self._by_class.items() if t is not td}

    def is_builtin(self, name: str) -> bool:
        """Whether ``name`` is the built-in library's (not replaced by a registration)."""
        return self.sources.get(name) == BUILTIN_SOURCE

    def load_plugins(self, plugins: Iterable[tuple[str, Any]]) -> None:
        """Register every description the given plugins' hooks hand to ``register``."""
        pm = make_plugin_manager()
        named: list[tuple[str, Any]] = []
        for name, plugin in plugins:
            try:
                pm.register(plugin, name=f"{name}#{len(named)}")
            except Exception as exc:
                raise PluginError(f"plugin {name!r} could not be registered: {exc}") from exc
            named.append((name, plugin))
        for name, plugin in named:
            for hook in HOOKS:
                impl = getattr(plugin, hook, None)
                if impl is None:
                    continue
                source = f"plugin {name!r}"

                def register(*descriptions: Any, _source: str = source, _hook: str = hook) -> None:
                    for d in descriptions:
                        if _hook == "dialectic_register_services":
                            from dialectic.connectors.services import check_service

                            self.services.append((_source, check_service(d, _source)))
                        else:
                            self.add(d, _source)

                try:
                    impl(register=register)
                except PluginError:
                    raise
                except Exception as exc:
                    raise PluginError(
                        f"plugin {name!r} failed in {hook}: {type(exc).__name__}: {exc}"
                    ) from exc

    def validate(self) -> None:
        """Check every declared parameter type names a built-in or registered type."""
        for fn in list(self.functions.values()):
            self.params(fn)

    # -- lookup ---------------------------------------------------------------------------
    def type_of_class(self, cls: type) -> TypeDescription | None:
        td = self._by_class.get(cls)
        if td is None:
            for base in cls.__mro__[1:]:
                td = self._by_class.get(base)
                if td is not None:
                    self._by_class[cls] = td
                    break
        return td

    def resolve_function(self, name: str) -> tuple[FunctionDescription | None, str | None]:
        """Exact name, else the bare name of exactly one namespaced function, else a unique
        case/underscore-insensitive match (second item: its name). A bare name that several
        namespaces have resolves to nothing: :meth:`bare_matches` lists them."""
        fn = self.functions.get(name)
        if fn is not None:
            return fn, None
        own = self.function_aliases.get(name)
        if own is not None:  # a declared other name: no warning
            return self.functions[own], None
        if "__" in name and "." not in name:  # `memory__read_graph`: a vendor tool's name
            fn = self.functions.get(name.replace("__", ".", 1))
            if fn is not None and fn.namespace is not None:
                return fn, None
        bare = self.bare_names().get(name)
        if bare is not None:  # `create_entities` for `memory.create_entities` (SPEC 2.2)
            return (self.functions[bare[0]], None) if len(bare) == 1 else (None, None)
        if self._normalized is None:
            self._normalized = {}
            for n in self.functions:
                self._normalized.setdefault(normalize_name(n), []).append(n)
            for alias, own_name in self.function_aliases.items():
                names = self._normalized.setdefault(normalize_name(alias), [])
                if own_name not in names:
                    names.append(own_name)
            for b, full_names in self.bare_names().items():
                names = self._normalized.setdefault(normalize_name(b), [])
                names.extend(n for n in full_names if n not in names)
        matches = self._normalized.get(normalize_name(name), [])
        if len(matches) == 1:
            return self.functions[matches[0]], matches[0]
        return None, None

    # -- namespaces (SPEC 2.2) ------------------------------------------------------------
    def bare_names(self) -> dict[str, list[str]]:
        """Bare name -> the full names of the namespaced functions that have it (sorted)."""
        if self._bare is None:
            bare: dict[str, list[str]] = {}
            for full, fn in self.functions.items():
                ns = fn.namespace
                if ns is not None and full.startswith(ns + "."):
                    bare.setdefault(full[len(ns) + 1 :], []).append(full)
            for names in bare.values():
                names.sort()
            self._bare = bare
        return self._bare

    def namespaces(self) -> list[str]:
        """The namespaces of the registered functions, sorted."""
        if self._namespaces is None:
            found = {fn.namespace for fn in self.functions.values() if fn.namespace}
            self._namespaces = sorted(found)
            self._namespace_set = frozenset(found)
        return self._namespaces

    def is_namespace(self, name: str) -> bool:
        """Whether ``name`` is the namespace of a registered function (a set lookup)."""
        if self._namespaces is None:
            self.namespaces()
        return name in self._namespace_set

    def in_namespace(self, namespace: str) -> list[FunctionDescription]:
        """The functions of one namespace, by name."""
        return [
            self.functions[n]
            for n in sorted(self.functions)
            if self.functions[n].namespace == namespace
        ]

    def bare_matches(self, name: str) -> list[str]:
        """The full names a bare ``name`` could mean (exactly, or up to case and underscores):
        more than one makes the bare name ambiguous."""
        found = self.bare_names().get(name)
        if found is not None:
            return list(found)
        key = normalize_name(name)
        return sorted(
            n for b, names in self.bare_names().items() if normalize_name(b) == key for n in names
        )

    def suggest(self, name: str, n: int = 3) -> list[str]:
        """Registered names that look like ``name`` ("did you mean"), across namespaces: a
        misspelt bare name suggests the namespaced functions whose bare name is close, and a
        wrong namespace the functions of that bare name elsewhere."""
        near = closest(name, self.names(), n)
        bare = self.bare_names()
        if bare:
            tail = name.rsplit(".", 1)[-1] if "." in name else name
            for b in closest(tail, sorted(bare), n, substrings=False):
                near.extend(full for full in bare[b] if full not in near)
        return near[: max(n, 1) * 2]

    def resolve_constant(self, name: str) -> Constant | None:
        """The only constant whose name matches ``name`` up to case and underscores, if any
        (an exact name is looked up directly by the caller)."""
        index = self._constant_index
        if index is None or index[0] != self.version:
            by: dict[str, list[Constant]] = {}
            for n, c in self.constants.items():
                by.setdefault(normalize_name(n), []).append(c)
            index = self._constant_index = (self.version, by)
        matches = index[1].get(normalize_name(name), ())
        return matches[0] if len(matches) == 1 else None

    def names(self) -> list[str]:
        return sorted(self.functions)

    def params(self, fn: FunctionDescription) -> tuple[Param, ...]:
        cached = self._params.get(fn.name)
        if cached is not None and self.functions.get(fn.name) is fn:
            return cached
        result = tuple(self._param(fn, k, v) for k, v in fn.parameters.items())
        self._params[fn.name] = result
        fn.call_facts()  # inspect the implementation once, at registration (validate())
        return result

    def _param(self, fn: FunctionDescription, name: str, spec: Any) -> Param:
        optional = isinstance(spec, Optional)
        type_ = spec.type if isinstance(spec, Optional) else spec
        if not isinstance(type_, str):
            type_ = self.type_name(type_)
        if type_ not in BUILTIN_TYPES and type_ not in self.types:
            raise PluginError(
                f"function {fn.name!r} ({self.sources.get(fn.name, '?')}) declares parameter "
                f"{name!r} of unknown type {type_!r}; known types: "
                + ", ".join([*BUILTIN_TYPES, *sorted(self.types)])
            )
        return Param(name, type_, optional)

    def type_name(self, annotation: Any) -> str:
        if isinstance(annotation, str):
            return annotation
        if isinstance(annotation, Mapping):
            raise PluginError(
                f"a parameter's type is a type name or a Python type, not a JSON Schema "
                f"({clip(repr(annotation), 80)}); declare a function by JSON Schema with "
                "dialectic.registry.jsonschema.function_from_schema(name, description, "
                "implementation, input_schema)"
            )
        if isinstance(annotation, Hashable) and annotation in PYTHON_TYPE_NAMES:
            return PYTHON_TYPE_NAMES[annotation]
        if isinstance(annotation, type):
            td = self.type_of_class(annotation)
            if td is not None:
                return td.name
        raise PluginError(
            f"cannot map Python type {clip(repr(annotation), 80)} to a dialectic type"
        )

    def signature(self, fn: FunctionDescription) -> str:
        """``name(a: string, b?: number) -> type``, for hints (kept with the parameters)."""
        cached = self._signatures.get(fn.name)
        if cached is not None and cached[0] is fn:
            return cached[1]
        parts = [f"{p.name}{'?' if p.optional else ''}: {p.type}" for p in self.params(fn)]
        text = f"{fn.name}({', '.join(parts)}) -> {fn.returns}"
        self._signatures[fn.name] = (fn, text)
        return text
