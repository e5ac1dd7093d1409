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

Here: building the :class:`FunctionDescription`; the schema's checks when it is declared are in
:mod:`dialectic.registry.schemaprepare`, and the validator object in
:mod:`dialectic.registry.schemaarguments` (both re-exported here).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from dialectic.outcome.errors import PluginError
from dialectic.registry.descriptions import BUILTIN_TYPES, FunctionDescription, Optional
from dialectic.registry.schemaarguments import (
    MAX_VALUE_DEPTH,
    SchemaArguments,
    _too_deep,
    schema_arguments,
)
from dialectic.registry.schemacache import prepare_shared
from dialectic.registry.schemaprepare import (
    MAX_REF_CHAIN,
    MAX_SCHEMA_BYTES,
    MAX_SCHEMA_DEPTH,
    _deref_top,
    prepare_schema,
)
from dialectic.registry.schemavalues import json_kind, resolve_pointer

__all__ = [
    "MAX_REF_CHAIN",
    "MAX_SCHEMA_BYTES",
    "MAX_SCHEMA_DEPTH",
    "MAX_VALUE_DEPTH",
    "SchemaArguments",
    "_too_deep",
    "function_from_schema",
    "prepare_schema",
    "qualified_name",
    "schema_arguments",
    "schema_type_name",
]

_TYPE_NAMES: Final = frozenset(BUILTIN_TYPES) - {"any"}


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
