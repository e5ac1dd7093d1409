"""What a model needs in its prompt: the catalog (Markdown) and a JSON Schema of valid programs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dialectic.registry.descriptions import BUILTIN_TYPES

if TYPE_CHECKING:
    from dialectic.runtime import Runtime

PRIMER = """\
# dialectic: how to write a program

A program composes function calls. Write it in Dialect JSON or in Plan (a JavaScript subset).

**Dialect JSON.** An object with exactly one key is a call: `{"findSymbol": {"name": "x"}}`.
Arguments are an object of named arguments, an array of positional arguments, or a single value
for the one required parameter. Calls nest:
`{"findReferences": {"target": {"getCurrentSelection": {}}}}`.
Other objects are data; write a one-key data object as `{"$object": {"key": value}}`.
Core forms: `{"$ref": "name"}` (an alias, constant or context value), `{"$get": [value, "key", 0]}`
(member and index access), `{"$template": ["Hi ", {"$ref": "name"}]}` (text),
`{"$let": {"a": call}, "$return": expr}` (aliases), `{"$quote": data}` (data, unevaluated).

**Plan.** `a = f({x: 1}); return g(a.y, `Hi ${a.name}`);` Aliases are computed at most once,
only if needed, and independent calls run concurrently. `x.m(a)` calls `m(x, a)`.
End with `return expr;` (final answer) or `use expr;` (hand the result back to you).

Arguments are converted to the declared types automatically (text <-> number, a single value to
a one-element list, registered conversions). When a call is ambiguous you get a question and
ready-to-run programs to choose from.
"""


def catalog_markdown(rt: Runtime) -> str:
    reg = rt.registry
    lines = [PRIMER, "## Functions", ""]
    for name in sorted(reg.functions):
        if name in reg.types:
            continue
        fn = reg.functions[name]
        lines.append(f"- `{reg.signature(fn)}`: {fn.description}")
        for pname, text in fn.parameter_descriptions.items():
            lines.append(f"  - `{pname}`: {text}")
    if reg.types:
        lines += ["", "## Types", ""]
        for name in sorted(reg.types):
            td = reg.types[name]
            ctor = reg.signature(reg.functions[name])
            lines.append(f"- `{name}`: {td.description} Constructor: `{ctor}`.")
            if td.properties:
                props = ", ".join(f"`.{p}`" for p in td.properties)
                lines.append(f"  - properties: {props}")
    if reg.conversions:
        lines += ["", "## Conversions (applied automatically)", ""]
        for (a, b), conv in sorted(reg.conversions.items()):
            lines.append(f"- `{a}` -> `{b}`: {conv.description}")
    if reg.constants:
        lines += ["", "## Constants", ""]
        for name in sorted(reg.constants):
            c = reg.constants[name]
            lines.append(f"- `{name}` ({c.returns}): {c.description}")
    lines += [
        "",
        "Built-in types: " + ", ".join(f"`{t}`" for t in BUILTIN_TYPES) + ".",
        "",
    ]
    return "\n".join(lines)


def program_schema(rt: Runtime) -> dict[str, Any]:
    """A JSON Schema (2020-12) of valid Dialect JSON programs over this registry."""
    reg = rt.registry
    expr = {"$ref": "#/$defs/expr"}
    defs: dict[str, Any] = {}
    call_refs = []
    for name in sorted(reg.functions):
        fn = reg.functions[name]
        params = reg.params(fn)
        named = {
            "type": "object",
            "properties": {p.name: expr for p in params},
            "required": [p.name for p in params if not p.optional],
            "additionalProperties": False,
        }
        key = f"call:{name}"
        defs[key] = {
            "type": "object",
            "description": fn.description,
            "properties": {name: named},
            "required": [name],
            "additionalProperties": False,
        }
        call_refs.append({"$ref": f"#/$defs/{key}"})

    def form(key: str, value: Any) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {key: value},
            "required": [key],
            "additionalProperties": False,
        }

    defs["ref"] = form("$ref", {"type": "string"})
    defs["get"] = form("$get", {"type": "array", "items": expr, "minItems": 2})
    defs["object"] = form("$object", {"type": "object", "additionalProperties": expr})
    defs["quote"] = form("$quote", {})
    defs["template"] = form("$template", {"type": "array", "items": expr})
    defs["undefined"] = form("$undefined", {"type": "null"})
    defs["unwrap"] = form("$unwrap", expr)
    defs["data"] = {
        "description": "an object with zero or two or more keys: data, values evaluated",
        "anyOf": [
            {"type": "object", "maxProperties": 0},
            {
                "type": "object",
                "minProperties": 2,
                "propertyNames": {"pattern": "^[^$]"},
                "additionalProperties": expr,
            },
        ],
    }
    forms = ("ref", "get", "object", "quote", "template", "undefined", "unwrap", "data", "let")
    defs["expr"] = {
        "anyOf": [
            {"type": ["string", "number", "boolean", "null"]},
            {"type": "array", "items": expr},
            *call_refs,
            *({"$ref": f"#/$defs/{k}"} for k in forms),
        ]
    }
    defs["let"] = {
        "type": "object",
        "properties": {
            "$let": {"type": "object", "additionalProperties": expr},
            "$return": expr,
            "$use": expr,
        },
        "oneOf": [{"required": ["$return"]}, {"required": ["$use"]}],
        "additionalProperties": False,
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "dialectic program",
        "$ref": "#/$defs/expr",
        "$defs": defs,
    }
