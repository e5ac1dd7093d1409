"""Type checks and automatic coercion (SPEC.md section 3).

A value is first checked against the declared type (fast path: an ``isinstance`` test). If it does
not fit, the runtime looks for the shortest chain of conversions from the value's type to the
declared one through a graph whose edges are the built-in coercions and the registered
``TypeConversion``s. Two equally short chains make the argument ambiguous; no chain is a failure
that says what was tried.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from dialectic.outcome.errors import Ambiguous, DialecticError, Failure, LimitExceeded, clip
from dialectic.registry.descriptions import RunContext, TypeConversion
from dialectic.registry.registry import Registry
from dialectic.values.coercionsteps import BUILTIN_EDGES, NoConversion, Step, _json_object, _wrap
from dialectic.values.data import UNDEFINED, BadValue, json_kind, plain
from dialectic.values.jsnumber import js_number_to_string as js_number

MAX_CONVERSION_STEPS = 4


class CoercionAmbiguity(Exception):
    def __init__(self, source: str, target: str, paths: list[list[str]]) -> None:
        super().__init__(f"{source} -> {target}")
        self.source = source
        self.target = target
        self.paths = paths


_SUBTYPES = {"integer": ("number",)}

#: the exact Python type of each JSON type's values inside a run (a function's result is
#: normalised to these at the boundary: see :meth:`TypeSystem.plain`)
_KIND_OF_TYPE: dict[type, str] = {
    str: "string",
    float: "number",
    int: "integer",
    bool: "boolean",
    list: "array",
    dict: "object",
    type(None): "null",
}
#: the types whose values also fit a declared type (an integer is a number)
_FITS: dict[str, tuple[str, ...]] = {"number": ("integer",)}
#: declared type -> the Python types that fit it with no conversion: the same table, read the
#: other way (``type(v) in _EXACT[target]`` is the fast check)
_EXACT: dict[str, tuple[type, ...]] = {
    name: tuple(t for t, kind in _KIND_OF_TYPE.items() if kind in (name, *_FITS.get(name, ())))
    for name in dict.fromkeys(_KIND_OF_TYPE.values())
}


class TypeSystem:
    """Answers "does this value fit type T?" and "how does it become T?" for one registry."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self._paths: dict[tuple[str, str], list[str] | CoercionAmbiguity | None] = {}
        self._edges: dict[str, list[str]] | None = None
        #: what the compiler keeps for this type system (:mod:`dialectic.compiler.closures`)
        self.compiler_parts: tuple[Any, ...] | None = None

    # -- classification ---------------------------------------------------------------
    def type_of(self, value: Any) -> str:
        """The type name of a value: the one classification behind type names, type checks
        and coercion. Exact built-in types first (the fast path), then ``undefined``, then
        registered types, then subclasses of built-in types by :func:`json_kind` (a tuple is an
        array, an ``OrderedDict`` an object, a ``str`` enum a string; ``bool`` is never an
        integer)."""
        t = type(value)
        kind = _KIND_OF_TYPE.get(t)
        if kind is not None:
            return kind
        if value is UNDEFINED:
            return "undefined"
        td = self.registry.type_of_class(t)
        if td is not None:
            return td.name
        return json_kind(value) or f"python:{t.__name__}"

    def registered(self, cls: type) -> bool:
        return self.registry.type_of_class(cls) is not None

    def plain(self, value: Any) -> Any:
        """``value`` with its arrays as lists and objects as dicts, all the way down; values of
        registered types as they are (see :func:`dialectic.values.data.plain`)."""
        return plain(value, self.registered)

    def exact_types(self, target: str) -> tuple[type, ...] | None:
        """The Python types that already fit ``target`` (checked with ``type(v) in ...``)."""
        return _EXACT.get(target)

    def checker(self, target: str) -> Callable[[Any], bool]:
        """A fast predicate for "value already has type ``target``" as the run holds it: the
        exact types of :meth:`type_of`'s fast path. A value of another class that
        :meth:`type_of` still classifies as ``target`` (a tuple for ``array``) fails it and is
        normalised by :meth:`coerce`."""
        if target == "any":
            return _always
        exact = _EXACT.get(target)
        if exact is not None:
            if len(exact) == 1:
                only = exact[0]
                return lambda v: type(v) is only
            return lambda v: type(v) in exact
        td = self.registry.types[target]
        cls = td.python_class
        return lambda v: isinstance(v, cls)

    # -- conversion -------------------------------------------------------------------
    def _graph(self) -> dict[str, list[str]]:
        if self._edges is None:
            edges: dict[str, list[str]] = {}
            for a, b in BUILTIN_EDGES:
                edges.setdefault(a, []).append(b)
            for a, b in self.registry.conversions:
                if b not in edges.setdefault(a, []):
                    edges[a].append(b)
            self._edges = edges
        return self._edges

    def find_path(self, source: str, target: str) -> list[str] | None:
        """The unique shortest type path, None if there is none; raises CoercionAmbiguity."""
        key = (source, target)
        if key in self._paths:
            found = self._paths[key]
        else:
            found = self._search(source, target)
            self._paths[key] = found
        if isinstance(found, CoercionAmbiguity):
            raise found
        return found

    def _search(self, source: str, target: str) -> list[str] | CoercionAmbiguity | None:
        graph = self._graph()
        starts = [source, *_SUBTYPES.get(source, ())]
        # every shortest path, breadth first, bounded length
        frontier: deque[list[str]] = deque([s] for s in starts)
        best: list[list[str]] = []
        seen_len: dict[str, int] = dict.fromkeys(starts, 0)
        while frontier:
            path = frontier.popleft()
            if best and len(path) >= len(best[0]):
                continue
            if len(path) > MAX_CONVERSION_STEPS:
                continue
            for nxt in self._next(graph, path[-1], target):
                if nxt in path:
                    continue
                new = [*path, nxt]
                if nxt == target:
                    if not best or len(new) == len(best[0]):
                        best.append(new)
                    continue
                if seen_len.get(nxt, 99) < len(new) - 1:
                    continue
                seen_len[nxt] = len(new) - 1
                frontier.append(new)
        if not best:
            return None
        # paths differing only by starting at the value's supertype are the same conversion
        unique: dict[tuple[str, ...], list[str]] = {}
        for p in best:
            unique.setdefault(tuple(p[1:]), p)
        if len(unique) > 1:
            return CoercionAmbiguity(source, target, list(unique.values()))
        return best[0]

    def _next(self, graph: dict[str, list[str]], node: str, target: str) -> list[str]:
        out = list(graph.get(node, ()))
        if target == "array" and node not in ("array", "string") and "array" not in out:
            out.append("array")  # a single value becomes a one-element list (last step only)
        if target in self.registry.types and node == "object" and target not in out:
            out.append(target)  # construct the type from its fields (only as the last step)
        if target == "object" and node in self.registry.types and "object" not in out:
            out.append("object")  # read a registered value's fields (only as the last step)
        return out

    def step(self, a: str, b: str) -> tuple[Step, str]:
        conv = self.registry.conversions.get((a, b))
        if conv is not None:
            return _registered_step(conv), conv.description
        builtin = BUILTIN_EDGES.get((a, b))
        if builtin is not None:
            return builtin
        if b == "array":
            return _wrap, "a one-element list"
        if a == "object" and b in self.registry.types:
            return self._construct_step(b), f"construct a {b} from its fields"
        if b == "object" and a in self.registry.types:
            return self._fields_step(a), f"the fields of the {a}"
        raise KeyError((a, b))

    def _construct_step(self, type_name: str) -> Step:
        td = self.registry.types[type_name]

        def construct(v: Any, ctx: RunContext) -> Any:
            params = self.registry.params(self.registry.functions[type_name])
            names = {p.name for p in params}
            unknown = set(v) - names
            if unknown:
                raise NoConversion(
                    f"a {type_name} has the fields {sorted(names)}, not {sorted(unknown)}"
                )
            missing = [p.name for p in params if not p.optional and p.name not in v]
            if missing:
                raise NoConversion(f"a {type_name} needs the fields {missing}")
            kwargs = {}
            for p in params:
                if p.name in v:
                    kwargs[p.name] = self.coerce(v[p.name], p.type, ctx)
            if td.pass_context:
                kwargs["ctx"] = ctx
            return td.implementation(**kwargs)

        return construct

    def _fields_step(self, type_name: str) -> Step:
        td = self.registry.types[type_name]

        def fields(v: Any, ctx: RunContext) -> Any:
            args = self.serialize_args(td, v)
            return args if isinstance(args, dict) else {"value": args}

        return fields

    def serialize_args(self, td: Any, value: Any) -> Any:
        if td.serialize is not None:
            return td.serialize(value)
        get = td.fields or getattr
        out = {}
        for name in td.parameters:
            field_value = get(value, name)
            if field_value is not None:
                out[name] = field_value
        return out

    def coerce(self, value: Any, target: str, ctx: RunContext, via: list[str] | None = None) -> Any:
        """Convert ``value`` to ``target`` or raise DialecticError/CoercionAmbiguity."""
        for name in (target, *(via or ())):
            if not isinstance(name, str) or (
                name not in _EXACT and name != "any" and name not in self.registry.types
            ):
                known = ", ".join([*_EXACT, "any", *sorted(self.registry.types)])
                raise DialecticError(
                    "unknown_type",
                    f"there is no type named {clip(name)!s}",
                    hint=f"Known types: {known}.",
                )
        if target == "any" or self.checker(target)(value):
            return value
        source = self.type_of(value)
        if source in _EXACT and type(value) not in _KIND_OF_TYPE:
            # JSON data of another class (a tuple, an OrderedDict, a str enum): as the run holds
            # it, so that it fits its own type and no conversion step sees a foreign class
            value = self.plain(value)
            if (source == target or source in _FITS.get(target, ())) and not via:
                return value
        if (
            source == "string"
            and not via
            and (target == "object" or target in self.registry.types)
            and value.lstrip()[:1] == "{"
        ):
            # JSON text for a structured type: parse it, then coerce the parsed object
            try:
                parsed = _json_object(value, ctx)
            except NoConversion:
                parsed = None
            if parsed is not None:
                return self.coerce(parsed, target, ctx)
        if via:
            path = [source, *via, target]
        else:
            found = self.find_path(source, target)
            if found is None:
                raise self._no_path(value, source, target)
            path = found
        current = value
        for a, b in zip(path, path[1:], strict=False):
            try:
                fn, _ = self.step(a, b)
            except KeyError:
                raise DialecticError(
                    "type_mismatch",
                    f"there is no conversion from {a} to {b}",
                    hint="Known conversions: " + self.describe_conversions(),
                ) from None
            try:
                current = fn(current, ctx)
            except BadValue as exc:
                from dialectic.values.serialize import value_error

                err = value_error(exc, "max_string_length")
                err.message = f"converting {a} to {b}: {err.message}"
                raise err from None
            except NoConversion as exc:
                raise DialecticError(
                    "type_mismatch",
                    f"expected {_article(target)}, got {_describe(value, source)}: "
                    f"the conversion {a} -> {b} does not apply ({exc})",
                ) from None
            except Failure as exc:
                raise DialecticError(
                    exc.code if exc.code != "failure" else "conversion_failed",
                    f"could not convert {_describe(value, source)} to {target} "
                    f"({a} -> {b}): {exc.message}",
                    hint=exc.hint,
                ) from None
            except (DialecticError, CoercionAmbiguity, Ambiguous):
                raise
            except Exception as exc:  # a plugin's converter broke: a clean, located failure
                raise DialecticError(
                    "conversion_failed",
                    f"could not convert {_describe(value, source)} to {target} ({a} -> {b}): "
                    f"the conversion failed with {type(exc).__name__}",
                    hint="Pass a value of the expected type directly, or another value.",
                ) from None
        if type(current) not in _KIND_OF_TYPE:
            current = self.plain(current)  # a registered conversion's tuple, OrderedDict, ...
        limits = ctx.limits
        if type(current) is str and limits is not None and len(current) > limits.max_string_length:
            raise LimitExceeded(
                "max_string_length",
                f"the conversion to {target} produced {len(current)} characters; the limit is "
                f"{limits.max_string_length}",
            )
        return current

    def _no_path(self, value: Any, source: str, target: str) -> DialecticError:
        tried = [f"{a} -> {b}" for (a, b) in BUILTIN_EDGES if a == source]
        tried += [f"{a} -> {b}" for (a, b) in self.registry.conversions if a == source]
        tried_text = ", ".join(tried) if tried else "none exists"
        return DialecticError(
            "type_mismatch",
            f"expected {_article(target)}, got {_describe(value, source)}; no chain of at most "
            f"{MAX_CONVERSION_STEPS} conversions leads from {source} to {target} "
            f"(conversions from {source}: {tried_text})",
            hint=f"Pass {_article(target)}, or a value that converts to one.",
        )

    def describe_conversions(self) -> str:
        names = [f"{a} -> {b}" for (a, b) in self.registry.conversions]
        return ", ".join(names) if names else "none registered"


def _registered_step(conv: TypeConversion) -> Step:
    fn = conv.converter
    if conv.pass_context:
        return lambda v, ctx: fn(v, ctx=ctx)
    return lambda v, ctx: fn(v)


def _always(v: Any) -> bool:
    return True


def _article(type_name: str) -> str:
    return ("an " if type_name[:1] in "aeiou" else "a ") + type_name


def _describe(value: Any, type_name: str) -> str:
    if type_name in ("string", "number", "integer", "boolean", "null"):
        if isinstance(value, bool):
            text = "true" if value else "false"
        elif isinstance(value, int | float):
            text = clip(value) if isinstance(value, int) else js_number(value)
        elif isinstance(value, str):
            text = '"' + clip(value, 60) + '"'
        else:
            text = "null"
        return f"{_article(type_name)} ({text})"
    return _article(type_name)
