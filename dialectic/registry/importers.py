"""Function descriptions from the tool specs models and servers publish (SPEC 3.1): MCP tools,
OpenAI and Anthropic tool specs, BFCL function documents. Each is a
:func:`~dialectic.registry.jsonschema.function_from_schema`; ``implementation`` is called with
keyword arguments named after the spec's properties (so it takes ``**kwargs`` when a property
name is not a Python identifier).

``namespace`` puts the function in a namespace (SPEC 2.2): the tool ``read_graph`` of the MCP
server ``memory`` is the function ``memory.read_graph``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any, Final

from dialectic.outcome.errors import PluginError
from dialectic.registry.descriptions import FunctionDescription
from dialectic.registry.jsonschema import MAX_SCHEMA_DEPTH, function_from_schema

__all__ = [
    "bfcl_schema",
    "effects_from_mcp_annotations",
    "from_anthropic_tool",
    "from_bfcl",
    "from_mcp_tool",
    "from_openai_tool",
]

Implementation = Callable[..., Any]


def _spec(spec: Any, kind: str) -> Mapping[str, Any]:
    if hasattr(spec, "model_dump"):  # a pydantic model (the SDKs' Tool types)
        spec = spec.model_dump(by_alias=True, exclude_none=True)
    if not isinstance(spec, Mapping):
        raise PluginError(f"{kind} must be an object, not {type(spec).__name__}")
    return spec


def _name(spec: Mapping[str, Any], kind: str) -> str:
    name = spec.get("name")
    if not isinstance(name, str) or not name:
        raise PluginError(f"{kind} has no name (a non-empty `name` string)")
    return name


def _description(spec: Mapping[str, Any]) -> str:
    text = spec.get("description")
    return " ".join(text.split()) if isinstance(text, str) else ""


_EMPTY_OBJECT: Final = {"type": "object", "properties": {}}


def from_openai_tool(
    spec: Mapping[str, Any] | Any,
    implementation: Implementation,
    *,
    namespace: str | None = None,
    **options: Any,
) -> FunctionDescription:
    """An OpenAI function tool: ``{"type": "function", "function": {"name", "description",
    "parameters"}}`` (Chat Completions) or the flat ``{"type": "function", "name", ...}``
    (Responses API); a bare ``{"name", "parameters"}`` function is read too."""
    spec = _spec(spec, "an OpenAI tool")
    inner = spec.get("function")
    fn = _spec(inner, "an OpenAI tool's `function`") if inner is not None else spec
    if spec.get("type", "function") != "function":
        raise PluginError(
            f"an OpenAI tool of type {spec.get('type')!r} is not a function tool; only "
            '{"type": "function", ...} tools import'
        )
    name = _name(fn, "an OpenAI tool")
    params = fn.get("parameters", _EMPTY_OBJECT)
    return function_from_schema(
        name, _description(fn), implementation, params, namespace=namespace, **options
    )


def from_anthropic_tool(
    spec: Mapping[str, Any] | Any,
    implementation: Implementation,
    *,
    namespace: str | None = None,
    **options: Any,
) -> FunctionDescription:
    """An Anthropic client tool: ``{"name", "description", "input_schema"}``."""
    spec = _spec(spec, "an Anthropic tool")
    name = _name(spec, "an Anthropic tool")
    if "input_schema" not in spec:
        raise PluginError(f"the Anthropic tool {name!r} has no `input_schema`")
    return function_from_schema(
        name,
        _description(spec),
        implementation,
        spec["input_schema"],
        namespace=namespace,
        **options,
    )


def effects_from_mcp_annotations(annotations: Mapping[str, Any] | Any | None) -> dict[str, Any]:
    """``effects`` and ``idempotent`` from MCP tool annotations, with the MCP specification's
    defaults (``readOnlyHint`` false, ``destructiveHint`` true, ``idempotentHint`` false):
    read-only -> ``"read"`` (idempotent), else destructive -> ``"destructive"``, else
    ``"write"``. No annotations at all mean the defaults: ``"destructive"``."""
    if annotations is None:
        ann: Mapping[str, Any] = {}
    else:
        ann = _spec(annotations, "MCP tool annotations")
    read_only = ann.get("readOnlyHint", ann.get("read_only_hint")) is True
    destructive = ann.get("destructiveHint", ann.get("destructive_hint")) is not False
    idempotent = ann.get("idempotentHint", ann.get("idempotent_hint")) is True
    if read_only:
        return {"effects": "read", "idempotent": True}
    return {"effects": "destructive" if destructive else "write", "idempotent": idempotent}


def _accepted_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options ``FunctionDescription`` accepts (``effects``/``idempotent`` only once the
    description has those fields)."""
    names = {f.name for f in dataclasses.fields(FunctionDescription) if f.init}
    return {k: v for k, v in options.items() if k in names}


def from_mcp_tool(
    tool: Mapping[str, Any] | Any,
    implementation: Implementation,
    *,
    namespace: str | None,
    **options: Any,
) -> FunctionDescription:
    """An MCP tool (the SDK's ``Tool`` model or its JSON): ``name``, ``description``,
    ``inputSchema``, ``outputSchema``, ``annotations`` (mapped by
    :func:`effects_from_mcp_annotations`; ``options`` given here win)."""
    spec = _spec(tool, "an MCP tool")
    name = _name(spec, "an MCP tool")
    input_schema = spec.get("inputSchema", spec.get("input_schema"))
    if input_schema is None:
        raise PluginError(f"the MCP tool {name!r} has no `inputSchema`")
    output_schema = spec.get("outputSchema", spec.get("output_schema"))
    description = _description(spec)
    if not description:
        title = spec.get("title") or (spec.get("annotations") or {}).get("title")
        description = title if isinstance(title, str) else ""
    effects = _accepted_options(effects_from_mcp_annotations(spec.get("annotations")))
    return function_from_schema(
        name,
        description,
        implementation,
        input_schema,
        output_schema,
        namespace=namespace,
        **{**effects, **options},
    )


# -- BFCL ------------------------------------------------------------------------------------

#: BFCL's Python type names -> JSON Schema's (``any``: no type)
BFCL_TYPES: Final = {
    "dict": "object",
    "float": "number",
    "tuple": "array",
    "list": "array",
    "int": "integer",
    "str": "string",
    "bool": "boolean",
}

_SCHEMA_LISTS: Final = ("anyOf", "oneOf", "allOf", "prefixItems")
_SCHEMA_MAPS: Final = ("properties", "$defs", "definitions", "patternProperties")


def bfcl_schema(schema: Any, depth: int = 0) -> Any:
    """A BFCL parameter document as JSON Schema: its Python type names as JSON types
    (``dict`` -> object, ``float`` -> number, ``tuple`` -> array, ``any`` -> no type), its
    ``"optional"`` markers (not JSON Schema) taken out of ``required``, and a property whose
    ``default`` is ``null`` nullable (a Python ``None`` default); the ``enum`` of an array
    (BFCL's way to give its items' choices) moves to its ``items``."""
    if depth > MAX_SCHEMA_DEPTH or not isinstance(schema, Mapping):
        return schema
    out: dict[str, Any] = {}
    for k, v in schema.items():
        if k == "type":
            types = v if isinstance(v, list) else [v]
            # (a type that is not a name stays as it is: the schema check names it)
            mapped = [
                BFCL_TYPES.get(t, t) if isinstance(t, str) else t for t in types if t != "any"
            ]
            if "any" not in types and mapped:
                out["type"] = mapped if isinstance(v, list) else mapped[0]
        elif k in ("items", "additionalProperties", "not", "additionalItems"):
            tuple_form = isinstance(v, list)  # items: [a, b] (Draft 7's tuple)
            out[k] = (
                [bfcl_schema(s, depth + 1) for s in v] if tuple_form else bfcl_schema(v, depth + 1)
            )
        elif k in _SCHEMA_LISTS and isinstance(v, list):
            out[k] = [bfcl_schema(s, depth + 1) for s in v]
        elif k in _SCHEMA_MAPS and isinstance(v, Mapping):
            out[k] = {name: bfcl_schema(s, depth + 1) for name, s in v.items()}
        elif k != "optional":
            out[k] = v
    if "default" in out and out["default"] is None and isinstance(out.get("type"), str):
        # BFCL's functions are Python's: `default: None` means the value may be None
        out["type"] = [out["type"], "null"]
        if isinstance(out.get("enum"), list) and None not in out["enum"]:
            out["enum"] = [*out["enum"], None]
    choices = out.get("enum")
    if (
        out.get("type") == "array"
        and isinstance(choices, list)
        and not any(isinstance(c, list) for c in choices)
    ):
        # BFCL writes the choices of an array's items on the array
        items = out.get("items")
        out["items"] = {**(items if isinstance(items, Mapping) else {}), "enum": out.pop("enum")}
    props = out.get("properties")
    if isinstance(out.get("required"), list) and isinstance(props, Mapping):
        optional = schema.get("optional")
        left_out = (
            {o for o in optional if isinstance(o, str)} if isinstance(optional, list) else set()
        )
        left_out |= {
            n
            for n, s in schema.get("properties", {}).items()
            if isinstance(s, Mapping) and s.get("optional") in (True, "True", "true")
        }
        out["required"] = [r for r in out["required"] if r not in left_out]
    return out


def from_bfcl(
    doc: Mapping[str, Any],
    implementation: Implementation,
    *,
    namespace: str | None = None,
    **options: Any,
) -> FunctionDescription:
    """A BFCL function document: ``{"name", "description", "parameters", "response"?}`` with
    BFCL's type names (see :func:`bfcl_schema`). A dotted name (``spotify.play``) is in the
    namespace before its first dot unless ``namespace`` is given."""
    spec = _spec(doc, "a BFCL function document")
    name = _name(spec, "a BFCL function document")
    params = bfcl_schema(spec.get("parameters", _EMPTY_OBJECT))
    if isinstance(params, Mapping) and "type" not in params and "properties" in params:
        params = {**params, "type": "object"}
    response = spec.get("response")
    return function_from_schema(
        name,
        _description(spec),
        implementation,
        params,
        bfcl_schema(response) if isinstance(response, Mapping) else None,
        namespace=namespace,
        **options,
    )
