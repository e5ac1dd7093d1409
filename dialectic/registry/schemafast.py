"""A fast acceptance check of values against a JSON Schema, compiled once per schema.

:class:`dialectic.registry.schemaarguments.SchemaArguments` runs the conversion walk and then the
``jsonschema`` library on every call; for the common case (the program wrote arguments that
already fit the schema) both are work for nothing. :func:`compile_check` turns a schema into
closures that answer "these arguments fit the schema as they are" for a subset of JSON Schema
(``type``, ``enum``/``const``, ``properties``/``required``/``additionalProperties``, ``items``,
the length and range bounds, ``format``, local ``$ref``, ``allOf``/``anyOf``). The check is
*sound, not complete*: True only when the ``jsonschema`` library would accept the value and the
conversions of SPEC 3.1 would leave it as it is (an ``integer`` must be a Python ``int``, an
array a ``list``); False means "not known", and the caller takes the full path (conversions,
validation, the error messages). A schema using any other keyword (``pattern``, ``oneOf``,
``not``, ``$id``, ...) gets no fast check (None): its calls always take the full path.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import jsonschema

from dialectic.registry.schemavalues import enum_index, resolve_pointer

__all__ = ["compile_check", "FastCheck"]

#: ``check(value, budget)``: True when ``value`` surely fits; ``budget[0]`` counts the schema
#: nodes visited through ``anyOf``/``allOf``/``$ref`` (a check that runs out answers False)
FastCheck = Callable[[Any, list[int]], bool]

#: schema nodes one fast check may visit through alternatives before it gives up
CHECK_BUDGET: Final = 20_000
#: schema nodes compiled for one schema at most (larger ones take the full path)
MAX_COMPILED: Final = 5_000

#: keywords that only annotate (no effect on validity)
_ANNOTATIONS: Final = frozenset(
    {
        "title",
        "description",
        "default",
        "examples",
        "$comment",
        "deprecated",
        "readOnly",
        "writeOnly",
        "$defs",
        "definitions",
        "$schema",
    }
)
#: drafts whose keywords of the subset mean the same (Draft 4's bounds differ)
_DRAFTS: Final = {
    jsonschema.Draft6Validator: False,  # False: ``$ref`` ignores its siblings
    jsonschema.Draft7Validator: False,
    jsonschema.Draft201909Validator: True,
    jsonschema.Draft202012Validator: True,
}


def _is_int(v: Any) -> bool:
    return type(v) is int


def _is_number(v: Any) -> bool:
    t = type(v)
    return t is int or t is float


def _is_string(v: Any) -> bool:
    return type(v) is str


def _is_bool(v: Any) -> bool:
    return type(v) is bool


def _is_null(v: Any) -> bool:
    return v is None


def _is_object(v: Any) -> bool:
    return type(v) is dict


def _is_array(v: Any) -> bool:
    return type(v) is list


_TYPES: Final[dict[str, Callable[[Any], bool]]] = {
    "integer": _is_int,
    "number": _is_number,
    "string": _is_string,
    "boolean": _is_bool,
    "null": _is_null,
    "object": _is_object,
    "array": _is_array,
}


class _Unsupported(Exception):
    pass


def _always(v: Any, budget: list[int]) -> bool:
    return True


def _never(v: Any, budget: list[int]) -> bool:
    return False


class _Compiler:
    def __init__(self, root: Any, format_checker: Any, ref_siblings: bool) -> None:
        self.root = root
        self.format_checker = format_checker
        self.ref_siblings = ref_siblings
        self.refs: dict[str, list[FastCheck]] = {}
        self.nodes = 0

    def ref(self, ref: Any) -> FastCheck:
        if not isinstance(ref, str):
            raise _Unsupported
        cell = self.refs.get(ref)
        if cell is None:
            cell = self.refs[ref] = [_never]  # (a reference to itself: compiled below)
            target = resolve_pointer(self.root, ref)
            if target is None:
                raise _Unsupported
            cell[0] = self.node(target)

        def check(v: Any, budget: list[int]) -> bool:
            budget[0] -= 1
            return budget[0] > 0 and cell[0](v, budget)

        return check

    def node(self, schema: Any) -> FastCheck:
        self.nodes += 1
        if self.nodes > MAX_COMPILED:
            raise _Unsupported
        if schema is True or schema == {}:
            return _always
        if schema is False:
            return _never
        if not isinstance(schema, dict):
            raise _Unsupported
        checks: list[FastCheck] = []
        if "$ref" in schema:
            checks.append(self.ref(schema["$ref"]))
            if not self.ref_siblings:
                if any(k not in _ANNOTATIONS for k in schema if k != "$ref"):
                    raise _Unsupported
                return checks[0]
        for key, value in schema.items():
            if key == "$ref" or key in _ANNOTATIONS:
                continue
            build = _KEYWORDS.get(key)
            if build is None:
                raise _Unsupported
            made = build(self, value, schema)
            if made is not None:
                checks.append(made)
        return _all(checks)


def _all(checks: list[FastCheck]) -> FastCheck:
    if not checks:
        return _always
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2:
        a, b = checks

        def both(v: Any, budget: list[int]) -> bool:
            return a(v, budget) and b(v, budget)

        return both
    found = tuple(checks)

    def every(v: Any, budget: list[int]) -> bool:
        for c in found:  # noqa: SIM110 (a loop: faster than all() of a generator)
            if not c(v, budget):
                return False
        return True

    return every


def _type(c: _Compiler, value: Any, schema: dict[str, Any]) -> FastCheck:
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list) or not names:
        raise _Unsupported
    tests = []
    for n in names:
        test = _TYPES.get(n) if isinstance(n, str) else None
        if test is None:
            raise _Unsupported
        tests.append(test)
    if len(tests) == 1:
        one = tests[0]
        return lambda v, budget: one(v)
    many = tuple(tests)
    return lambda v, budget: any(t(v) for t in many)


def _enum(c: _Compiler, value: Any, schema: dict[str, Any]) -> FastCheck:
    if not isinstance(value, list):
        raise _Unsupported
    index = enum_index(value)
    return lambda v, budget: index.find(v)[0]


def _const(c: _Compiler, value: Any, schema: dict[str, Any]) -> FastCheck:
    index = enum_index([value])
    return lambda v, budget: index.find(v)[0]


def _properties(c: _Compiler, value: Any, schema: dict[str, Any]) -> FastCheck | None:
    if not isinstance(value, dict):
        raise _Unsupported
    extra = schema.get("additionalProperties", True)
    props = {k: c.node(s) for k, s in value.items()}
    if extra is True:
        rest: FastCheck | None = None
    elif extra is False:
        rest = _never
    else:
        rest = c.node(extra)

    def check(v: Any, budget: list[int]) -> bool:
        if type(v) is not dict:
            return True
        for k, x in v.items():
            sub = props.get(k, rest)
            if sub is not None and not sub(x, budget):
                return False
        return True

    return check


def _additional(c: _Compiler, value: Any, schema: dict[str, Any]) -> FastCheck | None:
    if "properties" in schema:
        return None  # (checked with the properties)
    if value is True:
        return None
    rest = _never if value is False else c.node(value)

    def check(v: Any, budget: list[int]) -> bool:
        if type(v) is not dict:
            return True
        return all(rest(x, budget) for x in v.values())

    return check


def _required(c: _Compiler, value: Any, schema: dict[str, Any]) -> FastCheck | None:
    if not isinstance(value, list) or not all(isinstance(r, str) for r in value):
        raise _Unsupported
    if not value:
        return None
    names = tuple(value)

    def check(v: Any, budget: list[int]) -> bool:
        if type(v) is not dict:
            return True
        for n in names:  # noqa: SIM110 (a loop: faster than all() of a generator)
            if n not in v:
                return False
        return True

    return check


def _items(c: _Compiler, value: Any, schema: dict[str, Any]) -> FastCheck | None:
    if not isinstance(value, (dict, bool)) or "prefixItems" in schema:
        raise _Unsupported
    sub = c.node(value)
    if sub is _always:
        return None

    def check(v: Any, budget: list[int]) -> bool:
        if type(v) is not list:
            return True
        for x in v:  # noqa: SIM110 (a loop: faster than all() of a generator)
            if not sub(x, budget):
                return False
        return True

    return check


def _size(kind: type[Any], low: bool) -> Callable[[_Compiler, Any, dict[str, Any]], FastCheck]:
    """``minLength``/``maxLength`` (``str``), ``minItems``/``maxItems`` (``list``),
    ``minProperties``/``maxProperties`` (``dict``)."""

    def build(c: _Compiler, value: Any, schema: dict[str, Any]) -> FastCheck:
        if type(value) is not int:
            raise _Unsupported
        bound = value
        if low:
            return lambda v, budget: type(v) is not kind or len(v) >= bound
        return lambda v, budget: type(v) is not kind or len(v) <= bound

    return build


def _bound(op: str) -> Callable[[_Compiler, Any, dict[str, Any]], FastCheck]:
    """``minimum``, ``maximum``, ``exclusiveMinimum``, ``exclusiveMaximum`` (numbers only)."""

    def build(c: _Compiler, value: Any, schema: dict[str, Any]) -> FastCheck:
        if type(value) not in (int, float):
            raise _Unsupported
        b = value

        def check(v: Any, budget: list[int]) -> bool:
            t = type(v)
            if t is not int and t is not float:
                return True
            if op == ">=":
                return bool(v >= b)
            if op == "<=":
                return bool(v <= b)
            if op == ">":
                return bool(v > b)
            return bool(v < b)

        return check

    return build


def _format(c: _Compiler, value: Any, schema: dict[str, Any]) -> FastCheck | None:
    checker = c.format_checker
    if checker is None:
        return None
    if not isinstance(value, str):
        raise _Unsupported
    fmt = value
    return lambda v, budget: bool(checker.conforms(v, fmt))


def _all_of(c: _Compiler, value: Any, schema: dict[str, Any]) -> FastCheck:
    if not isinstance(value, list) or not value:
        raise _Unsupported
    subs = tuple(c.node(s) for s in value)

    def check(v: Any, budget: list[int]) -> bool:
        budget[0] -= len(subs)
        return budget[0] > 0 and all(s(v, budget) for s in subs)

    return check


def _any_of(c: _Compiler, value: Any, schema: dict[str, Any]) -> FastCheck:
    if not isinstance(value, list) or not value:
        raise _Unsupported
    subs = tuple(c.node(s) for s in value)

    def check(v: Any, budget: list[int]) -> bool:
        budget[0] -= len(subs)
        return budget[0] > 0 and any(s(v, budget) for s in subs)

    return check


_KEYWORDS: Final[dict[str, Callable[[_Compiler, Any, dict[str, Any]], FastCheck | None]]] = {
    "type": _type,
    "enum": _enum,
    "const": _const,
    "properties": _properties,
    "additionalProperties": _additional,
    "required": _required,
    "items": _items,
    "minLength": _size(str, True),
    "maxLength": _size(str, False),
    "minItems": _size(list, True),
    "maxItems": _size(list, False),
    "minProperties": _size(dict, True),
    "maxProperties": _size(dict, False),
    "minimum": _bound(">="),
    "maximum": _bound("<="),
    "exclusiveMinimum": _bound(">"),
    "exclusiveMaximum": _bound("<"),
    "format": _format,
    "allOf": _all_of,
    "anyOf": _any_of,
}


def compile_check(schema: Any, validator: Any) -> Callable[[Any], bool] | None:
    """The fast check of values against ``schema`` (see the module's documentation), or None
    when the schema uses a keyword (or a draft) it does not cover. ``validator`` is the
    schema's ``jsonschema`` validator (its format checker is used); the draft is the schema's
    ``$schema`` (2020-12 when it has none), as for that validator."""
    if not isinstance(schema, dict):
        return None
    draft = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    ref_siblings = _DRAFTS.get(draft)  # type: ignore[arg-type]
    if ref_siblings is None:
        return None
    try:
        check = _Compiler(schema, getattr(validator, "format_checker", None), ref_siblings).node(
            schema
        )
    except (_Unsupported, RecursionError):
        return None

    def fits(value: Any) -> bool:
        try:
            return check(value, [CHECK_BUDGET])
        except RecursionError:
            return False

    return fits


_CONTAINERS: Final = (dict, list, tuple)


def within_depth(value: Any, limit: int) -> bool:
    """Whether no array or object in ``value`` is nested more than ``limit`` levels deep (the
    bound of ``schemaarguments._too_deep``, answered without building paths)."""
    level = [value] if type(value) in _CONTAINERS else []
    depth = 0
    while level:
        below: list[Any] = []
        for v in level:
            if type(v) is dict:
                below.extend(x for x in v.values() if type(x) in _CONTAINERS)
            else:
                below.extend(x for x in v if type(x) in _CONTAINERS)
        depth += 1
        if below and depth > limit:
            return False
        level = below
    return True
