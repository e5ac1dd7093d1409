"""Functions declared by JSON Schema (SPEC 3.1): :func:`function_from_schema`.

A function's parameters are the top-level ``properties`` of an object schema (those in
``required`` required, the others ``Optional``). Each parameter's declared type stays a built-in
type name (``object``, ``array``, ``string``, ``integer``, ..., ``any`` when the schema allows
several kinds), so binding and the built-in coercions of SPEC 3 work as for any function; the
whole schema is kept on the description's ``validator`` (a :class:`SchemaArguments`), which runs
after those coercions and

1. coerces nested values the way arguments are coerced (``"5"`` -> ``5`` where the schema says
   integer, ``"true"`` -> ``true``, a single value -> a one-element array, JSON text -> an
   object), following ``properties``, ``items``, ``prefixItems``, ``additionalProperties``,
   ``$ref``/``$defs``, ``allOf``, ``anyOf``/``oneOf`` (a value that fits no alternative as it is
   is converted only if exactly one alternative accepts the converted value; two different
   readings fail with both), type lists and ``enum`` (``"2"`` -> ``2`` when ``2`` is a choice);
2. validates the result with the ``jsonschema`` library (the schema's own draft, Draft 2020-12
   by default; ``format`` is checked for the formats the library knows); a failure says where
   (``filters[0].kind``), what was expected (the enum's values, the missing field) and what to
   write.

``default`` values are shown in the catalog, not filled in: the function applies its own
defaults. ``nullable: true`` (OpenAPI 3.0) means the value may also be ``null``. Property names
that are not Python identifiers (``from``, ``max-results``) are parameter names as they are: a
program writes them as keys (``{"max-results": 5}``), and the implementation receives them as
keyword arguments of those names, so it takes ``**kwargs`` (the importers' implementations do).
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Final

import jsonschema
import orjson
import referencing
from jsonschema.exceptions import ValidationError

from dialectic.outcome.errors import Failure, PluginError
from dialectic.registry import schemafast, schemapatterns
from dialectic.registry.descriptions import BUILTIN_TYPES, FunctionDescription, Optional
from dialectic.registry.schemacache import prepare_shared
from dialectic.registry.schemafast import within_depth
from dialectic.registry.schemavalues import (
    SchemaCoercer,
    describe_errors,
    json_kind,
    resolve_pointer,
    where,
)

__all__ = [
    "SchemaArguments",
    "function_from_schema",
    "prepare_schema",
    "schema_type_name",
]

#: a schema nested deeper than this (objects in arrays in objects ...) is refused at import
MAX_SCHEMA_DEPTH: Final = 64
#: a schema larger than this many bytes of JSON is refused at import
MAX_SCHEMA_BYTES: Final = 2_000_000
#: references applied to the same value one after another (``a -> b -> c``) at most
MAX_REF_CHAIN: Final = 32

_TYPE_NAMES: Final = frozenset(BUILTIN_TYPES) - {"any"}
_UNCOMPILED: Final = object()


def qualified_name(name: str, namespace: str | None) -> str:
    """``namespace.name`` (``name`` as it is when it already starts with the namespace)."""
    if namespace is None or name.startswith(namespace + "."):
        return name
    return f"{namespace}.{name}"


def function_from_schema(
    name: str,
    description: str,
    implementation: Callable[..., Any],
    input_schema: Mapping[str, Any],
    output_schema: Mapping[str, Any] | None = None,
    *,
    namespace: str | None = None,
    **options: Any,
) -> FunctionDescription:
    """A :class:`FunctionDescription` whose parameters and result are declared by JSON Schema.

    ``options`` are passed to ``FunctionDescription`` (``timeout``, ``blocking``, ...); the
    schema's property descriptions become ``parameter_descriptions`` (those given in
    ``options`` win). A schema that is not an object schema, or not valid JSON Schema, is a
    :class:`PluginError` naming the function."""
    if not isinstance(name, str) or not name:
        raise PluginError(f"a function declared by JSON Schema needs a name, not {name!r}")
    full = qualified_name(name, namespace)
    if namespace is None and "." in full:  # a dotted name is namespaced (SPEC 2.2)
        namespace = full.split(".", 1)[0]
    if "validator" in options:
        raise PluginError(
            f"function {full!r}: a function declared by JSON Schema has its schema as its "
            "validator; do not pass validator="
        )
    schema = prepare_shared(full, input_schema, "input schema", object_only=True)
    result = (
        None
        if output_schema is None
        else prepare_shared(full, output_schema, "output schema", object_only=False)
    )
    top = _deref_top(schema)
    props = top.get("properties", {})
    required = [r for r in top.get("required", ()) if isinstance(r, str)]
    parameters: dict[str, Any] = {}
    described: dict[str, str] = {}
    for pname, pschema in props.items():
        type_ = schema_type_name(pschema, schema)
        parameters[pname] = type_ if pname in required else Optional(type_)
        text = pschema.get("description") if isinstance(pschema, Mapping) else None
        if isinstance(text, str) and text.strip():
            described[pname] = " ".join(text.split())
    for pname in required:  # required but not described: a parameter of any type
        parameters.setdefault(pname, "any")
    described.update(options.pop("parameter_descriptions", None) or {})
    returns = options.pop("returns", None) or (
        schema_type_name(result, result) if result is not None else "any"
    )
    validator = SchemaArguments(full, schema, result)
    try:
        return FunctionDescription(
            full,
            description if isinstance(description, str) else "",
            implementation,
            parameters,
            returns,
            namespace=namespace,
            validator=validator,
            parameter_descriptions=described,
            **options,
        )
    except TypeError as exc:  # an option FunctionDescription does not have
        raise PluginError(f"function {full!r}: {exc}") from None


def _bad(fn: str, what: str, problem: str) -> PluginError:
    return PluginError(f"function {fn!r}: its {what} {problem}")


def prepare_schema(
    fn: str, schema: Any, what: str = "input schema", *, object_only: bool = True
) -> dict[str, Any]:
    """A checked, plain-JSON copy of ``schema`` (``nullable`` written as a type list); a
    :class:`PluginError` naming ``fn`` when it is not JSON, too large or deep, not valid JSON
    Schema, refers outside itself, or (``object_only``) does not describe an object."""
    if isinstance(schema, bool) and not object_only:
        return {} if schema else {"not": {}}
    if not isinstance(schema, Mapping):
        raise _bad(fn, what, f"must be a JSON Schema object, not {type(schema).__name__}")
    try:
        text = orjson.dumps(schema, option=orjson.OPT_NON_STR_KEYS)
    except (TypeError, orjson.JSONEncodeError) as exc:
        raise _bad(fn, what, f"is not JSON data ({exc})") from None
    if len(text) > MAX_SCHEMA_BYTES:
        raise _bad(fn, what, f"is larger than {MAX_SCHEMA_BYTES} bytes")
    try:
        plain: dict[str, Any] = orjson.loads(text)
    except orjson.JSONDecodeError as exc:  # nested deeper than orjson reads
        raise _bad(fn, what, f"is nested too deeply ({exc})") from None
    refs: set[str] = set()
    _check_refs(fn, what, plain, plain, 0, (), refs)
    cycle = _ref_cycle(plain, refs)
    if cycle is not None and cycle[-1].startswith("(more than"):
        raise _bad(
            fn,
            what,
            f"chains more than {MAX_REF_CHAIN} references in a row (from {cycle[0]}); a "
            "validation would recurse along them",
        )
    if cycle is not None:
        raise _bad(fn, what, f"refers to itself without describing anything: {' -> '.join(cycle)}")
    plain = _nullable(plain, 0)
    if _uses(plain, "unevaluatedProperties") and _uses(plain, "patternProperties"):
        raise _bad(
            fn,
            what,
            "uses unevaluatedProperties with patternProperties, whose patterns would be matched "
            "without a time bound (SPEC 3.1); use additionalProperties",
        )
    problem = _schema_problem(text if plain.get("$schema") is None else orjson.dumps(plain))
    if problem is not None:
        raise _bad(fn, what, problem)
    if plain.get("$schema") is None:
        plain = _tuple_items(plain, 0)
    if object_only:
        top = _deref_top(plain)
        type_ = top.get("type", "object")
        if type_ != "object" and not (isinstance(type_, list) and "object" in type_):
            raise _bad(
                fn,
                what,
                f'must describe an object (`"type": "object"` with `properties`), not '
                f"{orjson.dumps(type_).decode()}",
            )
        props = top.get("properties", {})
        if not isinstance(props, Mapping):
            raise _bad(fn, what, "has `properties` that is not an object")
    return plain


@functools.lru_cache(maxsize=512)
def _schema_problem(text: bytes) -> str | None:
    """What makes a schema invalid, or None. A schema that names its draft (``$schema``) is
    checked against that draft's meta-schema; one that does not against Draft 7's (the
    keywords the drafts share; 2020-12's meta-schema costs five times as much to apply), and it
    is then validated as Draft 2020-12 (Draft 7's tuple ``items`` read as ``prefixItems``)."""
    schema = orjson.loads(text)
    errors: Iterator[Any]
    if schema.get("$schema") is None:
        errors = _DRAFT7_META.iter_errors(schema)
    else:
        cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft7Validator)
        errors = cls(cls.META_SCHEMA).iter_errors(schema)
    err = jsonschema.exceptions.best_match(errors)
    if err is None:
        return None
    where = "/".join(str(p) for p in err.absolute_path) or "(top)"
    return f"is not valid JSON Schema at {where}: {err.message}"


_DRAFT7_META: Final = jsonschema.Draft7Validator(jsonschema.Draft7Validator.META_SCHEMA)


def _tuple_items(node: Any, depth: int) -> Any:
    """Draft 7's ``items: [a, b]`` (and ``additionalItems``) as 2020-12's ``prefixItems``."""
    if depth > MAX_SCHEMA_DEPTH:
        return node
    if isinstance(node, list):
        return [_tuple_items(v, depth + 1) for v in node]
    if not isinstance(node, dict):
        return node
    out = {
        k: (v if k in ("enum", "const", "default", "examples") else _tuple_items(v, depth + 1))
        for k, v in node.items()
    }
    if isinstance(out.get("items"), list):
        out["prefixItems"] = out.pop("items")
        if "additionalItems" in out:
            out["items"] = out.pop("additionalItems")
    return out


#: keywords that apply a subschema to the same value (a cycle through them never ends)
_IN_PLACE: Final = ("allOf", "anyOf", "oneOf", "not", "if", "then", "else")


def _in_place_refs(node: Any) -> list[str]:
    """The ``$ref`` targets applied to the same value as ``node`` (not to its members)."""
    out: list[str] = []
    todo = [node]
    while todo:
        n = todo.pop()
        if not isinstance(n, dict):
            continue
        ref = n.get("$ref")
        if isinstance(ref, str):
            out.append(ref)
        for key in _IN_PLACE:
            sub = n.get(key)
            if isinstance(sub, list):
                todo.extend(sub)
            elif isinstance(sub, dict):
                todo.append(sub)
    return out


def _ref_cycle(root: Any, refs: set[str]) -> list[str] | None:
    """A cycle of references that never reaches a member of the value (``a -> b -> a``), which
    no validation could finish, or a chain of more than :data:`MAX_REF_CHAIN` of them (its
    last item says so); None if there is neither. Iterative: a long chain of references
    cannot exhaust the stack."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    longest: dict[str, int] = {}  # a done reference: the longest chain it starts
    for start in sorted(refs):
        if state.get(start):
            continue
        children = _in_place_refs(resolve_pointer(root, start))
        stack = [(start, children, list(children))]
        path = [start]
        state[start] = 1
        while stack:
            ref, todo, kids = stack[-1]
            if not todo:
                stack.pop()
                path.pop()
                state[ref] = 2
                longest[ref] = 1 + max((longest.get(k, 0) for k in kids), default=0)
                if longest[ref] > MAX_REF_CHAIN:
                    return [ref, f"(more than {MAX_REF_CHAIN})"]
                continue
            nxt = todo.pop()
            st = state.get(nxt)
            if st == 1:
                return [*path[path.index(nxt) :], nxt]
            if st is None:
                state[nxt] = 1
                path.append(nxt)
                grandchildren = _in_place_refs(resolve_pointer(root, nxt))
                stack.append((nxt, grandchildren, list(grandchildren)))
    return None


def _uses(node: Any, keyword: str) -> bool:
    """Whether ``keyword`` is used as a keyword anywhere in a schema (iterative)."""
    todo = [node]
    while todo:
        n = todo.pop()
        if isinstance(n, dict):
            if keyword in n:
                return True
            todo.extend(v for k, v in n.items() if k not in _DATA_KEYWORDS)
        elif isinstance(n, list):
            todo.extend(n)
    return False


_DATA_KEYWORDS: Final = ("enum", "const", "default", "examples")


def _check_refs(
    fn: str, what: str, node: Any, root: Any, depth: int, at: tuple[Any, ...], refs: set[str]
) -> None:
    """Only local references (``#/$defs/x``, ``#/definitions/x``, ``#``) that resolve, and a
    bounded depth: a schema never makes the runtime fetch anything."""
    if depth > MAX_SCHEMA_DEPTH:
        raise _bad(fn, what, f"is nested more than {MAX_SCHEMA_DEPTH} levels deep")
    if isinstance(node, dict):
        ref = node.get("$ref")
        if ref is not None:
            if not isinstance(ref, str) or not ref.startswith("#"):
                where = "/".join(str(p) for p in at) or "(top)"
                raise _bad(
                    fn,
                    what,
                    f"refers outside itself at {where} ($ref {ref!r}); only local references "
                    "such as #/$defs/name are supported",
                )
            if resolve_pointer(root, ref) is None:
                raise _bad(fn, what, f"has a $ref {ref!r} that names nothing in the schema")
            refs.add(ref)
        for k, v in node.items():
            if k not in ("enum", "const", "default", "examples"):
                _check_refs(fn, what, v, root, depth + 1, (*at, k), refs)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            _check_refs(fn, what, v, root, depth + 1, (*at, i), refs)


def _nullable(node: Any, depth: int) -> Any:
    """OpenAPI 3.0's ``nullable: true`` as JSON Schema: ``null`` added to the type (and enum)."""
    if depth > MAX_SCHEMA_DEPTH:
        return node
    if isinstance(node, list):
        return [_nullable(v, depth + 1) for v in node]
    if not isinstance(node, dict):
        return node
    out = {
        k: (v if k in ("enum", "const", "default", "examples") else _nullable(v, depth + 1))
        for k, v in node.items()
    }
    if out.get("nullable") is True:
        del out["nullable"]
        type_ = out.get("type")
        if isinstance(type_, str) and type_ != "null":
            out["type"] = [type_, "null"]
        elif isinstance(type_, list) and "null" not in type_:
            out["type"] = [*type_, "null"]
        if isinstance(out.get("enum"), list) and None not in out["enum"]:
            out["enum"] = [*out["enum"], None]
    elif out.get("nullable") is False:
        del out["nullable"]
    return out


def _deref_top(schema: dict[str, Any]) -> dict[str, Any]:
    """The object schema itself when the top is ``{"$ref": "#/$defs/Args", ...}``."""
    seen = 0
    node: Any = schema
    while isinstance(node, dict) and isinstance(node.get("$ref"), str) and seen < 8:
        target = resolve_pointer(schema, node["$ref"])
        if not isinstance(target, dict):
            break
        node, seen = target, seen + 1
    return node if isinstance(node, dict) else {}


def schema_type_name(schema: Any, root: Any, depth: int = 0) -> str:
    """The built-in type name a parameter of this schema is declared with: its one JSON type
    (``integer``, ``object``, ...), else ``any`` (several types, nullable, alternatives)."""
    if not isinstance(schema, Mapping) or depth > 8:
        return "any"
    ref = schema.get("$ref")
    if isinstance(ref, str):
        return schema_type_name(resolve_pointer(root, ref), root, depth + 1)
    type_ = schema.get("type")
    if isinstance(type_, str):
        return type_ if type_ in _TYPE_NAMES else "any"
    if isinstance(type_, list):
        return type_[0] if len(type_) == 1 and type_[0] in _TYPE_NAMES else "any"
    values = schema.get("enum")
    if "const" in schema:
        values = [schema["const"]]
    if isinstance(values, list) and values:
        kinds = {json_kind(v) for v in values}
        if kinds == {"integer", "number"}:
            return "number"
        if len(kinds) == 1:
            kind = kinds.pop()
            return kind if kind in _TYPE_NAMES and kind != "null" else "any"
    if isinstance(schema.get("properties"), Mapping):
        return "object"
    if "items" in schema or "prefixItems" in schema:
        return "array"
    return "any"


class SchemaArguments:
    """The validator of a function declared by JSON Schema: coerces the keyword arguments
    along the schema, then validates them (see the module's documentation). The catalog reads
    ``parameter_schemas`` and ``defs``; ``input_schema``/``output_schema`` are the schemas as
    checked (``dialectic describe --format json-schema`` passes them through)."""

    __slots__ = (
        "name",
        "input_schema",
        "output_schema",
        "parameter_schemas",
        "defs",
        "_validator",
        "_coercer",
        "_result_validator",
        "_fast",
    )

    def __init__(
        self, name: str, input_schema: dict[str, Any], output_schema: dict[str, Any] | None
    ) -> None:
        self.name = name
        self.input_schema = input_schema
        self.output_schema = output_schema
        top = _deref_top(input_schema)
        self.parameter_schemas: dict[str, Any] = dict(top.get("properties", {}))
        defs: dict[str, Any] = {}
        for key in ("definitions", "$defs"):
            if isinstance(input_schema.get(key), Mapping):
                defs.update(input_schema[key])
        self.defs = defs
        self._validator = _validator(input_schema)
        self._coercer = SchemaCoercer(input_schema, self._validator)
        self._result_validator = None if output_schema is None else _validator(output_schema)
        #: the fast acceptance check (:mod:`schemafast`), compiled on the first call
        self._fast: Any = _UNCOMPILED

    def __call__(self, kwargs: dict[str, Any]) -> dict[str, Any]:
        fast = self._fast
        if fast is _UNCOMPILED:
            fast = self._fast = schemafast.compile_check(self.input_schema, self._validator)
        # arguments that already fit (no conversion to make) pass without the full walk
        if fast is not None and within_depth(kwargs, MAX_VALUE_DEPTH) and fast(kwargs):
            return kwargs
        deep = _too_deep(kwargs)
        if deep is not None:
            raise _deep_failure(deep, "argument")
        try:
            coerced = self._coercer.coerce_arguments(kwargs)
            deep = _too_deep(coerced)  # (a JSON text read as an object may be deep)
            if deep is not None:
                raise _deep_failure(deep, "argument")
            errors = _first_errors(self._validator, coerced)
        except RecursionError:  # the value and the schema's references together: too deep
            raise Failure(
                f"invalid arguments: they are nested too deeply to be checked against the "
                f"schema of `{self.name}`",
                hint="Pass flatter data.",
                code="invalid_argument",
            ) from None
        if errors:
            message, hint = describe_errors(errors, self.input_schema, "argument")
            raise Failure(f"invalid arguments: {message}", hint=hint, code="invalid_argument")
        return coerced

    def check_result(self, value: Any) -> None:
        """Raise :class:`Failure` when ``value`` does not fit the output schema (an MCP
        client checks a tool's ``structuredContent`` with it)."""
        if self._result_validator is None:
            return
        deep = _too_deep(value)
        if deep is not None:
            raise _deep_failure(deep, "result")
        try:
            errors = _first_errors(self._result_validator, value)
        except RecursionError:
            raise Failure(
                "the result is nested too deeply to be checked against its declared schema"
            ) from None
        if errors:
            message, hint = describe_errors(errors, self.output_schema or {}, "result")
            raise Failure(f"the result does not fit its declared schema: {message}", hint=hint)

    def __deepcopy__(self, memo: dict[int, Any]) -> SchemaArguments:
        return SchemaArguments(
            self.name, copy.deepcopy(self.input_schema), copy.deepcopy(self.output_schema)
        )

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its schemas (a Dask worker rebuilds the validators)."""
        return (SchemaArguments, (self.name, self.input_schema, self.output_schema))


def _validator(schema: dict[str, Any]) -> Any:
    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    safe, checker = _safe_class(cls)
    # an empty registry: a reference is never fetched (prepare_schema allows only local ones)
    return safe(schema, registry=referencing.Registry(), format_checker=checker)


@functools.lru_cache(maxsize=16)
def _safe_class(cls: Any) -> tuple[Any, Any]:
    """The draft's validator class with the keywords that match regular expressions against
    the program's texts replaced by bounded-time ones (:mod:`schemapatterns`)."""
    safe = jsonschema.validators.extend(cls, schemapatterns.keywords())  # type: ignore[no-untyped-call]
    return safe, schemapatterns.format_checker(cls.FORMAT_CHECKER)


#: an argument (or result) checked against a schema may be nested at most this deep (the
#: validation recurses along the value)
MAX_VALUE_DEPTH: Final = 100


def _too_deep(value: Any, limit: int = MAX_VALUE_DEPTH) -> list[Any] | None:
    """The path to a part of ``value`` nested deeper than ``limit``, or None (iterative)."""
    stack: list[tuple[Any, list[Any]]] = [(value, [])]
    while stack:
        v, at = stack.pop()
        if len(at) > limit:
            return at
        t = type(v)
        if t is dict:
            stack.extend((x, [*at, k]) for k, x in v.items() if type(x) in (dict, list, tuple))
        elif t is list or t is tuple:
            stack.extend((x, [*at, i]) for i, x in enumerate(v) if type(x) in (dict, list, tuple))
    return None


def _deep_failure(at: list[Any], what: str) -> Failure:
    shown = where(at[:6], what) + ("..." if len(at) > 6 else "")
    return Failure(
        f"invalid {what}s: `{shown}` is nested more than {MAX_VALUE_DEPTH} levels deep",
        hint=f"Pass flatter data: at most {MAX_VALUE_DEPTH} levels of arrays and objects.",
        code="invalid_argument" if what == "argument" else "failure",
    )


#: at most this many problems are reported for one call
MAX_REPORTED: Final = 5


def _first_errors(validator: Any, value: Any) -> list[ValidationError]:
    errors: list[ValidationError] = []
    for err in validator.iter_errors(value):
        errors.append(err)
        if len(errors) >= MAX_REPORTED:
            break
    errors.sort(key=lambda e: [str(p) for p in e.absolute_path])
    return errors


def schema_arguments(fn: FunctionDescription) -> SchemaArguments | None:
    """The JSON Schema validator of a function declared by JSON Schema, else None."""
    v = fn.validator
    return v if isinstance(v, SchemaArguments) else None
