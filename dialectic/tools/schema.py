"""Machine-readable specs: the JSON Schema of Dialect JSON programs, and tool specs."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from dialectic.registry.descriptions import FunctionDescription
from dialectic.tools.catalog import catalog_compact, is_builtin, parameters
from dialectic.tree.parse import BINARY_OPS, UNARY_OPS
from dialectic.values.jsmethods import GLOBALS

if TYPE_CHECKING:
    from dialectic.runtime import Runtime

TOOL_FORMATS = ("openai", "anthropic", "mcp")
RUN_PROGRAM = "run_program"
NOTATIONS = ("json", "plan", "plan2")

# -- JSON Schema of programs -------------------------------------------------------------------

_SCALAR = {"type": ["string", "number", "boolean", "null"]}
_NOT_FORM = {"pattern": "^[^$]"}
_ONE_KEY = {"minProperties": 1, "maxProperties": 1}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/$defs/{name}"}


def _only(key: str, value: Any) -> dict[str, Any]:
    return {"type": "object", "properties": {key: value}, "required": [key], "minProperties": 1}


def _args_schema(rt: Runtime, fn: FunctionDescription) -> dict[str, Any]:
    """Every shape of a call's arguments that binds (SPEC 1.5), as JSON Schema."""
    reg = rt.registry
    params = reg.params(fn)
    names = [p.name for p in params]
    required = [p.name for p in params if not p.optional]
    expr = _ref("expr")
    descriptions = fn.parameter_descriptions
    # the type as the catalog shows it ('a' | 'b', {x: number}, string[]): values are any
    # expression, so a declared JSON Schema is told, not enforced (it converts at run time)
    shown = {info.name: info.shown for info in parameters(rt, fn)[0]}
    named: dict[str, Any] = {
        "type": "object",
        "properties": {
            p.name: {**expr, "description": f"{shown[p.name]}: {descriptions[p.name]}"}
            if descriptions.get(p.name)
            else {**expr, "description": shown[p.name]}
            for p in params
        },
        "required": required,
        "additionalProperties": False,
    }
    for synonym, own in fn.parameter_aliases.items():  # another name of a parameter
        named["properties"][synonym] = {**expr, "description": f"another name of `{own}`"}
    if fn.parameter_aliases and required:
        # a required parameter may be given under one of its other names
        named["required"] = []
        named["allOf"] = [
            {
                "anyOf": [
                    {"required": [name]}
                    for name in (req, *(k for k, v in fn.parameter_aliases.items() if v == req))
                ]
            }
            for req in required
        ]
    names = [*names, *fn.parameter_aliases]
    arg_objects: list[dict[str, Any]] = [named]
    holder = params[0] if len(params) == 1 else None
    if holder is None and len(required) == 1:
        holder = next(p for p in params if not p.optional)
    if holder is not None and (holder.type in ("object", "any") or holder.type in reg.types):
        # an object none of whose keys is a parameter is that parameter's value
        arg_objects.append(
            {
                "type": "object",
                "minProperties": 2,
                "propertyNames": {**_NOT_FORM, "not": {"enum": names}},
                "additionalProperties": expr,
            }
        )
    shapes: list[dict[str, Any]] = [
        *arg_objects,
        {
            "description": "positional arguments: required parameters first, then optional ones",
            "type": "array",
            "items": expr,
            "minItems": len(required),
            "maxItems": len(params),
        },
        {
            "description": "one object literal: the argument object",
            "type": "array",
            "prefixItems": [
                {
                    "anyOf": [
                        # a plain one-key object is a call, not an object literal
                        {"allOf": [{"anyOf": arg_objects}, {"not": _ONE_KEY}]},
                        _only("$object", {"anyOf": arg_objects}),
                    ]
                }
            ],
            "minItems": 1,
            "maxItems": 1,
        },
    ]
    if params and len(required) <= 1:
        # a nested call, a scalar or a core form: the one required (or first) parameter's value
        shapes.append(
            {"anyOf": [_SCALAR, _ref("call"), _ref("form"), _ref("block")]},
        )
    return {"anyOf": shapes}


def program_schema(rt: Runtime) -> dict[str, Any]:
    """A JSON Schema (2020-12) of valid Dialect JSON programs over this registry.

    It accepts programs as written (named, positional and single arguments, nested calls,
    argument objects bound whole: SPEC 1.5), so also their canonical form (SPEC 1.6). It checks
    the structure, the function names (exactly as registered) and the parameter names; values
    are any expression, since arguments are converted to their types when the program runs.
    """
    reg = rt.registry
    expr = _ref("expr")
    defs: dict[str, Any] = {}
    calls: dict[str, Any] = {}
    for name in sorted(reg.functions):
        fn = reg.functions[name]
        key = f"args:{name}"
        defs[key] = {"description": f"{reg.signature(fn)}: {fn.description}"}
        defs[key].update(_args_schema(rt, fn))
        calls[name] = _ref(key)
    for alias, own in reg.function_aliases.items():  # another name of a function
        calls[alias] = _ref(f"args:{own}")
    for bare, full_names in reg.bare_names().items():  # a namespace's function by its bare name
        if len(full_names) == 1 and bare not in calls:
            calls[bare] = _ref(f"args:{full_names[0]}")
    defs["call"] = {
        "description": "a call: an object whose one key is a function's name",
        "type": "object",
        "minProperties": 1,
        "maxProperties": 1,
        "propertyNames": {"enum": sorted(calls)} if calls else False,
        "properties": calls,
    }
    forms = {
        "$ref": {"type": "string", "minLength": 1},
        "$get": {"type": "array", "items": expr, "minItems": 2},
        "$object": {"type": "object", "additionalProperties": expr},
        "$quote": {},
        "$template": {"type": "array", "items": expr},
        "$undefined": {},
        "$unwrap": expr,
    }
    forms["$op"] = {
        "description": "a JavaScript operator and its operands",
        "anyOf": [
            {
                "type": "array",
                "prefixItems": [{"enum": sorted(UNARY_OPS)}, expr],
                "minItems": 2,
                "maxItems": 2,
            },
            {
                "type": "array",
                "prefixItems": [{"enum": sorted(BINARY_OPS)}, expr, expr],
                "minItems": 3,
                "maxItems": 3,
            },
        ],
    }
    forms["$if"] = {
        "description": "[test, then, otherwise]: only the branch taken runs",
        "type": "array",
        "items": expr,
        "minItems": 3,
        "maxItems": 3,
    }
    forms["$get?"] = {"type": "array", "items": expr, "minItems": 2}
    forms["$fn"] = {
        "description": "[[parameter, ...], body]: an arrow function, as a method's argument",
        "type": "array",
        "prefixItems": [{"type": "array", "items": {"type": "string", "minLength": 1}}, expr],
        "minItems": 2,
        "maxItems": 2,
    }
    forms["$method"] = {
        "description": "[target, method, argument, ...]: JavaScript's array and text methods",
        "type": "array",
        "prefixItems": [expr, {"type": "string", "minLength": 1}],
        "items": expr,
        "minItems": 2,
    }
    forms["$method?"] = {
        "description": "[target, method, argument, ...]: target?.method(...), undefined when "
        "the target is null or undefined",
        "type": "array",
        "prefixItems": [expr, {"type": "string", "minLength": 1}],
        "items": expr,
        "minItems": 2,
    }
    forms["$global"] = {
        "description": "[name, argument, ...]: Math.max, Object.keys, Number, ...",
        "type": "array",
        "prefixItems": [{"enum": sorted(GLOBALS)}],
        "items": expr,
        "minItems": 1,
    }
    forms["$spread"] = expr
    forms["$merge"] = {"type": "array", "items": expr}
    one_param = {
        "type": "object",
        "properties": {"$fn": {"type": "array", "prefixItems": [{"maxItems": 1, "minItems": 1}]}},
        "required": ["$fn"],
    }
    forms["$while"] = {
        "description": "[state, test, step]: while test(state) is truthy, state = step(state); "
        "the value is the last state (test and step: arrow functions of one parameter)",
        "type": "array",
        "prefixItems": [expr, {"allOf": [expr, one_param]}, {"allOf": [expr, one_param]}],
        "minItems": 3,
        "maxItems": 3,
    }
    forms["$try"] = {
        "description": "[body, handler]: the body's value, or, when it fails as JavaScript "
        "throws (a call failing, $throw, JSON.parse), the handler (an arrow function of the "
        "error, or of nothing) applied to the error",
        "type": "array",
        "prefixItems": [expr, {"allOf": [expr, {"required": ["$fn"]}]}],
        "minItems": 2,
        "maxItems": 2,
    }
    forms["$throw"] = expr
    fn_form = {"allOf": [expr, {"required": ["$fn"]}]}
    forms["$letrec"] = {
        "description": '[["name", {"$fn": [params, body]}], ..., expression]: recursive '
        "functions (applied with $apply in their bodies and the expression) and the "
        "expression's value",
        "type": "array",
        "items": {
            "anyOf": [
                {
                    "type": "array",
                    "prefixItems": [{"type": "string", "minLength": 1}, fn_form],
                    "minItems": 2,
                    "maxItems": 2,
                },
                expr,
            ]
        },
        "minItems": 2,
    }
    forms["$apply"] = {
        "description": '["name", argument, ...]: a function of an enclosing $letrec applied',
        "type": "array",
        "prefixItems": [{"type": "string", "minLength": 1}],
        "items": expr,
        "minItems": 1,
    }
    defs["form"] = {
        "description": "a core form: an object whose one key is one of these",
        "type": "object",
        "minProperties": 1,
        "maxProperties": 1,
        "propertyNames": {"enum": sorted(forms)},
        "properties": forms,
    }
    defs["data"] = {
        "description": "an object with zero or two or more keys: data, values evaluated",
        "type": "object",
        "not": _ONE_KEY,
        "propertyNames": _NOT_FORM,
        "additionalProperties": expr,
    }
    bindings = {"type": "object", "propertyNames": _NOT_FORM, "additionalProperties": expr}
    # SPEC 17: statements in program order, each an expression or {"$let": {...}}
    group = {
        "type": "object",
        "properties": {"$let": bindings},
        "required": ["$let"],
        "additionalProperties": False,
    }
    statements = {"type": "array", "items": {"anyOf": [group, expr]}}
    defs["block"] = {
        "description": "aliases and the block's value",
        "type": "object",
        "properties": {"$let": bindings, "$do": statements, "$return": expr},
        "required": ["$return"],
        "additionalProperties": False,
    }
    defs["top"] = {
        "description": "the program's block; `$use` hands the value back to the model",
        "type": "object",
        "properties": {"$let": bindings, "$do": statements, "$use": expr},
        "required": ["$use"],
        "additionalProperties": False,
    }
    defs["expr"] = {
        "anyOf": [
            _SCALAR,
            {"type": "array", "items": expr},
            _ref("call"),
            _ref("form"),
            _ref("block"),
            _ref("data"),
        ]
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "dialectic program",
        "anyOf": [expr, _ref("top")],
        "$defs": defs,
    }


# -- tool specs --------------------------------------------------------------------------------


def run_program_parameters() -> dict[str, Any]:
    """The parameters of the ``run_program`` tool."""
    return {
        "type": "object",
        "properties": {
            "program": {
                "type": "string",
                "description": "The program's text, in the notation given by `notation`.",
            },
            "notation": {
                "type": "string",
                "enum": list(NOTATIONS),
                "description": "json (Dialect JSON), plan (the JavaScript subset) or plan2 "
                "(YAML); detected from the text when omitted.",
            },
        },
        "required": ["program"],
        "additionalProperties": False,
    }


def function_parameters(rt: Runtime, fn: FunctionDescription) -> dict[str, Any]:
    """A function's parameters as a JSON Schema of tool-call arguments (JSON data); a function
    declared by JSON Schema gives its input schema as it is."""
    declared = getattr(fn.validator, "input_schema", None)
    if isinstance(declared, Mapping) and hasattr(fn.validator, "parameter_schemas"):
        return copy.deepcopy(dict(declared))
    params, defs = parameters(rt, fn)
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {p.name: p.schema for p in params},
        "required": [p.name for p in params if not p.optional],
        "additionalProperties": False,
    }
    if defs:
        schema["$defs"] = defs
    return schema


def tool_call_program(name: str, arguments: Mapping[str, Any]) -> dict[str, Any]:
    """The Dialect JSON program a per-function tool call runs: ``name`` called with the
    arguments as data (``$quote``: a one-key object in them is not read as a call)."""
    return {name: {k: {"$quote": v} for k, v in arguments.items()}}


def _tool(fmt: str, name: str, description: str, schema: dict[str, Any]) -> dict[str, Any]:
    if fmt != "mcp":  # OpenAI's and Anthropic's tool names have no dots (SPEC 2.2)
        name = name.replace(".", "__")
    if fmt == "openai":
        return {
            "type": "function",
            "function": {"name": name, "description": description, "parameters": schema},
        }
    if fmt == "anthropic":
        return {"name": name, "description": description, "input_schema": schema}
    if fmt == "mcp":
        return {"name": name, "description": description, "inputSchema": schema}
    raise ValueError(f"unknown tool format {fmt!r}; use one of {', '.join(TOOL_FORMATS)}")


def tool_specs(rt: Runtime, fmt: str, *, per_function: bool = False) -> list[dict[str, Any]]:
    """Tool specs in the vendor format ``fmt``: one ``run_program`` tool, or one per function."""
    if not per_function:
        description = (
            "Run a dialectic program and get its outcome (success with the value, failure with "
            "what to fix, or ambiguous with programs to choose from).\n\n" + catalog_compact(rt)
        )
        return [_tool(fmt, RUN_PROGRAM, description, run_program_parameters())]
    reg = rt.registry
    out = []
    for name in sorted(reg.functions):
        if is_builtin(rt, name):
            continue
        fn = reg.functions[name]
        description = f"{fn.description} Returns {fn.returns}."
        spec = _tool(fmt, name, description, function_parameters(rt, fn))
        result = getattr(fn.validator, "output_schema", None)
        if fmt == "mcp" and isinstance(result, Mapping) and result.get("type") == "object":
            spec["outputSchema"] = copy.deepcopy(dict(result))  # as declared (SPEC 3.1)
        out.append(spec)
    return out
