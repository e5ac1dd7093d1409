"""Values against a JSON Schema: the coercions along a schema, and the messages of the
``jsonschema`` library's errors written for the model (where, what was expected, what to write).
Used by :class:`dialectic.registry.schemaarguments.SchemaArguments`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

import orjson
from jsonschema.exceptions import ValidationError, best_match

from dialectic.outcome.errors import Failure, clip
from dialectic.values.coercionsteps import BUILTIN_EDGES, NoConversion

#: how many schema nodes one call's coercion may visit (anyOf inside anyOf multiplies)
COERCION_BUDGET: Final = 20_000
#: ``$ref`` hops followed without reaching a value's part (a -> b -> a)
MAX_REF_HOPS: Final = 32
MAX_DEPTH: Final = 200

_NO: Final = object()
_SAME_NUMBERS: Final = frozenset({("integer", "number"), ("number", "integer")})


def json_kind(value: Any) -> str | None:
    """The JSON Schema type of a JSON value (``integer`` for an int, ``number`` for a float),
    None for anything else."""
    t = type(value)
    if t is bool:
        return "boolean"
    if t is int:
        return "integer"
    if t is float:
        return "number"
    if t is str:
        return "string"
    if t is dict:
        return "object"
    if t is list or t is tuple:
        return "array"
    if value is None:
        return "null"
    return None


def convert(value: Any, source: str, target: str) -> Any:
    """``value`` (of JSON kind ``source``) as ``target`` by the built-in coercions of SPEC 3
    (one step), or ``_NO``."""
    if target == "array":
        if source != "string":
            return list(value) if source == "array" else [value]
    elif target == "object":
        if source == "string" and value.lstrip()[:1] == "{":
            try:
                parsed = orjson.loads(value)
            except orjson.JSONDecodeError:
                return _NO
            return parsed if isinstance(parsed, dict) else _NO
        return _NO
    if (source, target) == ("array", "string"):
        return _NO  # joining needs the run's stringification: the validation says what to write
    edge = BUILTIN_EDGES.get((source, target))
    if edge is None and source == "integer":
        edge = BUILTIN_EDGES.get(("number", target))
    if edge is None:
        return _NO
    try:
        return edge[0](value, None)  # type: ignore[arg-type]
    except (NoConversion, ValueError, TypeError, AttributeError):
        return _NO


def resolve_pointer(root: Any, ref: str) -> Any:
    """The part of ``root`` a local ``$ref`` names (``#/$defs/Item``), or None."""
    if ref == "#":
        return root
    if not ref.startswith("#/"):
        return None
    node = root
    for raw in ref[2:].split("/"):
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return None
    return node


def _key(value: Any) -> Any:
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except (TypeError, orjson.JSONEncodeError):
        return ("id", id(value))


def same(a: Any, b: Any) -> bool:
    """JSON equality (``1 == 1.0``; ``true`` is not ``1``)."""
    ka, kb = json_kind(a), json_kind(b)
    numbers = ("integer", "number")
    if ka != kb and not (ka in numbers and kb in numbers):
        return False
    if ka in ("object", "array"):
        return bool(_key(a) == _key(b))
    return bool(a == b)


def scalar_key(value: Any) -> tuple[str, Any] | None:
    """A hashable key of a scalar JSON value under JSON equality (``1`` and ``1.0`` share one,
    ``true`` and ``1`` do not); None for an array, an object or a non-JSON value."""
    t = type(value)
    if t is str:
        return ("s", value)
    if t is bool:
        return ("b", value)
    if t is int or t is float:
        return ("n", value)
    if value is None:
        return ("z", None)
    return None


class EnumIndex:
    """An ``enum``'s values for lookups in constant time: the scalars by :func:`scalar_key`
    (the first of equal values kept), the arrays and objects in a list (compared one by one)."""

    __slots__ = ("choices", "scalars", "others", "kinds")

    def __init__(self, choices: list[Any]) -> None:
        self.choices = choices
        self.scalars: dict[tuple[str, Any], Any] = {}
        self.others: list[Any] = []
        self.kinds: set[str] = set()
        for c in choices:
            key = scalar_key(c)
            if key is None:
                self.others.append(c)
            else:
                self.scalars.setdefault(key, c)
            kind = json_kind(c)
            if kind is not None:
                self.kinds.add(kind)

    def find(self, value: Any) -> tuple[bool, Any]:
        """(whether ``value`` is one of the choices, the choice it equals)."""
        key = scalar_key(value)
        if key is not None:
            found = self.scalars.get(key, _NO)
            return found is not _NO, found
        for c in self.others:
            if same(value, c):
                return True, c
        return False, None


_INDEXES: dict[int, EnumIndex] = {}


def enum_index(choices: list[Any]) -> EnumIndex:
    """The (cached) index of one schema's ``enum`` list."""
    found = _INDEXES.get(id(choices))
    if found is None or found.choices is not choices:  # (the identity check: ids are reused)
        if len(_INDEXES) >= 1024:
            _INDEXES.clear()
        found = _INDEXES[id(choices)] = EnumIndex(choices)
    return found


def _readings(value: Any, kinds: Sequence[str]) -> list[Any]:
    source = json_kind(value)
    out = []
    for t in kinds:
        if t == "null" or source is None:
            continue
        c = convert(value, source, t)
        if c is not _NO:
            out.append(c)
    return out


class SchemaCoercer:
    """Coerces values along one schema (``root``); ``validator`` checks alternatives."""

    __slots__ = ("root", "validator", "_evolved")

    def __init__(self, root: dict[str, Any], validator: Any) -> None:
        self.root = root
        self.validator = validator
        self._evolved: dict[int, tuple[Any, Any]] = {}

    def coerce_arguments(self, kwargs: dict[str, Any]) -> dict[str, Any]:
        out = self.coerce(kwargs, self.root, (), 0, [COERCION_BUDGET])
        return out if isinstance(out, dict) else kwargs

    def valid(self, value: Any, schema: Any) -> bool:
        """Whether ``value`` fits ``schema`` (a part of the root: its references resolve)."""
        entry = self._evolved.get(id(schema))
        if entry is None or entry[0] is not schema:  # the identity check: ids are reused
            entry = self._evolved[id(schema)] = (schema, self.validator.evolve(schema=schema))
        return bool(entry[1].is_valid(value))

    def _deref(self, schema: dict[str, Any]) -> dict[str, Any] | None:
        hops = 0
        while "$ref" in schema:
            hops += 1
            target = resolve_pointer(self.root, schema["$ref"])
            if not isinstance(target, dict) or hops > MAX_REF_HOPS:
                return None
            rest = {k: v for k, v in schema.items() if k != "$ref"}
            schema = {**target, **rest} if rest else target
        return schema

    def coerce(
        self, value: Any, schema: Any, path: tuple[Any, ...], depth: int, budget: list[int]
    ) -> Any:
        if budget[0] <= 0 or depth > MAX_DEPTH or not isinstance(schema, dict):
            return value
        budget[0] -= 1
        found = self._deref(schema)
        if found is None:
            return value
        schema = found
        for sub in schema.get("allOf", ()):
            value = self.coerce(value, sub, path, depth + 1, budget)
        for key in ("anyOf", "oneOf"):
            branches = schema.get(key)
            if isinstance(branches, list) and branches:
                value = self._alternatives(value, branches, path, depth, budget)
        type_ = schema.get("type")
        kinds = [type_] if isinstance(type_, str) else type_ if isinstance(type_, list) else None
        if kinds:
            value = self._to_kinds(value, kinds)
        choices = [schema["const"]] if "const" in schema else schema.get("enum")
        if isinstance(choices, list) and choices:
            value = self._choice(value, choices)
        t = type(value)
        if t is dict:
            return self._object(value, schema, path, depth, budget)
        if t is list:
            return self._array(value, schema, path, depth, budget)
        return value

    def _object(
        self,
        value: dict[str, Any],
        schema: dict[str, Any],
        path: tuple[Any, ...],
        depth: int,
        budget: list[int],
    ) -> Any:
        props = schema.get("properties")
        props = props if isinstance(props, dict) else {}
        extra = schema.get("additionalProperties")
        extra = extra if isinstance(extra, dict) else None
        if not props and extra is None:
            return value
        out = {}
        for k, v in value.items():
            sub = props.get(k, extra)
            out[k] = v if sub is None else self.coerce(v, sub, (*path, k), depth + 1, budget)
        return out

    def _array(
        self,
        value: list[Any],
        schema: dict[str, Any],
        path: tuple[Any, ...],
        depth: int,
        budget: list[int],
    ) -> Any:
        items = schema.get("items")
        prefix = schema.get("prefixItems")
        if isinstance(items, list):  # draft 7's tuple form
            prefix, items = items, schema.get("additionalItems")
        prefix = prefix if isinstance(prefix, list) else []
        if not prefix and not isinstance(items, dict):
            return value
        out = []
        for i, v in enumerate(value):
            sub = prefix[i] if i < len(prefix) else items
            out.append(
                v
                if not isinstance(sub, dict)
                else self.coerce(v, sub, (*path, i), depth + 1, budget)
            )
        return out

    def _to_kinds(self, value: Any, kinds: list[Any]) -> Any:
        kind = json_kind(value)
        if kind is None or kind in kinds or (kind == "integer" and "number" in kinds):
            return value
        if kind == "array" and type(value) is tuple:
            value = list(value)
            if "array" in kinds:
                return value
        found = _readings(value, [k for k in kinds if isinstance(k, str)])
        # two readings (integer or boolean for "1"): left as it is, and the validation fails
        return found[0] if len(found) == 1 else value

    def _choice(self, value: Any, choices: list[Any]) -> Any:
        index = enum_index(choices)
        if index.find(value)[0]:
            return value
        source = json_kind(value)
        if source is None:
            return value
        matches = []
        for target in sorted(index.kinds):  # one conversion per kind, not per choice
            if target == source or (target, source) in _SAME_NUMBERS:
                continue
            converted = convert(value, source, target)
            if converted is _NO:
                continue
            hit, c = index.find(converted)
            if hit and json_kind(c) == target:
                matches.append(c)
        return matches[0] if len(matches) == 1 else value

    def _alternatives(
        self,
        value: Any,
        branches: list[Any],
        path: tuple[Any, ...],
        depth: int,
        budget: list[int],
    ) -> Any:
        if any(self.valid(value, b) for b in branches):
            return value
        readings: dict[Any, Any] = {}
        for b in branches:
            c = self.coerce(value, b, path, depth + 1, budget)
            if c is not value and self.valid(c, b):
                readings.setdefault(_key(c), c)
        if len(readings) == 1:
            return next(iter(readings.values()))
        if len(readings) > 1:
            shown = " or ".join(shown_value(c) for c in readings.values())
            raise Failure(
                f"invalid arguments: `{where(path)}` is {shown_value(value)}, which could be "
                f"read as {shown}",
                hint=f"Write the value you mean at `{where(path)}` with its own JSON type.",
                code="invalid_argument",
            )
        return value


# -- messages --------------------------------------------------------------------------------


def where(path: Sequence[Any], what: str = "argument") -> str:
    """``filters[0].kind`` (a key that is not a name: ``headers["Content-Type"]``)."""
    if not path:
        return f"the {what}s" if what == "argument" else f"the {what}"
    out = ""
    for p in path:
        if isinstance(p, int):
            out += f"[{p}]"
        elif isinstance(p, str) and p.replace("_", "a").replace("$", "a").isalnum():
            out += f".{p}" if out else p
        else:
            out += "[" + orjson.dumps(str(p)).decode() + "]"
    return clip(out, 120)


def shown_value(value: Any) -> str:
    try:
        text = orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except (TypeError, orjson.JSONEncodeError):
        text = f"a {type(value).__name__}"
    return text if len(text) <= 60 else text[:57] + "..."


def _choices(values: Any) -> str:
    if not isinstance(values, list):
        return shown_value(values)
    shown = [shown_value(v) for v in values[:20]]
    more = f" (and {len(values) - 20} more)" if len(values) > 20 else ""
    return ", ".join(shown) + more


def _nearest(value: Any, values: Any) -> list[Any]:
    """The allowed texts a text ``value`` was likely meant as: those equal but for case, else
    up to two close ones (bounded: :func:`dialectic.registry.registry.closest`); none when that
    would be every allowed value."""
    if not isinstance(value, str) or not isinstance(values, list):
        return []
    texts = [v for v in values if isinstance(v, str)]
    low = value.casefold()
    found = [v for v in texts if v.casefold() == low][:2]
    if not found:
        from dialectic.registry.registry import closest

        found = closest(value, texts, 2, substrings=False)
    return found if len(found) < len(values) else []


def _article(kind: str) -> str:
    return ("an " if kind[:1] in "aeiou" else "a ") + kind


def _types(value: Any) -> str:
    kinds = [value] if isinstance(value, str) else list(value) if isinstance(value, list) else []
    return " or ".join(_article(str(k)) for k in kinds) or "another type"


def _one(err: ValidationError, what: str) -> tuple[str, str]:
    """(problem, what to write) for one error."""
    at = where(list(err.absolute_path), what)
    kind = err.validator
    inst = err.instance
    if kind == "required":
        required: Any = err.validator_value
        missing = [r for r in required if isinstance(inst, dict) and r not in inst] or list(
            required
        )
        names = ", ".join(f"`{m}`" for m in missing)
        holder = f"`{at}`" if err.absolute_path else at
        plural = not err.absolute_path and what == "argument"
        return (
            f"{holder} lack{'' if plural else 's'} the required field {names}",
            f"Add {names} to {holder}.",
        )
    if kind in ("enum", "const"):
        values = err.validator_value if kind == "enum" else [err.validator_value]
        near = _nearest(inst, values)
        meant = f"Did you mean {' or '.join(map(shown_value, near))}? " if near else ""
        return (
            f"`{at}` is {shown_value(inst)}, not one of {_choices(values)}",
            f"{meant}Write one of {_choices(values)} at `{at}`.",
        )
    if kind == "type":
        got = json_kind(inst) or type(inst).__name__
        return (
            f"`{at}` should be {_types(err.validator_value)}, not {_article(got)} "
            f"({shown_value(inst)})",
            f"Write {_types(err.validator_value)} at `{at}`.",
        )
    if kind == "additionalProperties" and isinstance(inst, dict):
        props = err.schema.get("properties", {}) if isinstance(err.schema, dict) else {}
        extra = sorted(k for k in inst if k not in props)
        allowed = ", ".join(f"`{p}`" for p in props) or "none"
        return (
            f"`{at}` has the unexpected field {', '.join(f'`{e}`' for e in extra)}",
            f"Remove it; the fields of `{at}` are {allowed}.",
        )
    if kind == "oneOf" and not err.context:  # valid under several alternatives
        return (
            f"`{at}` fits more than one of its alternatives (oneOf)",
            f"Make `{at}` fit exactly one alternative.",
        )
    if kind in ("anyOf", "oneOf") and err.context:
        inner, hint = _one(best_match(err.context), what)
        return f"`{at}` fits none of its alternatives (closest: {inner})", hint
    if kind == "format":
        return (
            f"`{at}` is {shown_value(inst)}, not a valid {err.validator_value}",
            f"Write a valid {err.validator_value} at `{at}`.",
        )
    return f"`{at}`: {clip(err.message, 200)}", f"Correct `{at}`."


def describe_errors(
    errors: Sequence[ValidationError], root: Mapping[str, Any], what: str = "argument"
) -> tuple[str, str]:
    """(message, hint) for the errors of one validation."""
    problems: list[str] = []
    hints: list[str] = []
    for err in errors:
        problem, hint = _one(err, what)
        if problem not in problems:
            problems.append(problem)
            hints.append(hint)
    return "; ".join(problems), " ".join(dict.fromkeys(hints))
