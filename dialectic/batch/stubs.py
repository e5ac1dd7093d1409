"""Stub functions from function documents, for replaying a corpus's programs.

A corpus (NESTFUL, BFCL, a log of a model's tool calls) documents the functions its programs
call but ships no implementation. For a replay each documented function becomes a **stub**: the
runtime checks every call against the document (the function's name, its parameters, which are
required, their types) exactly as it checks a real function's, and the stub answers with an echo
of the call it received, ``{"function": name, "arguments": {...}}`` (the arguments as bound and
converted). A program naming an undocumented function, leaving out a required argument or
passing a wrong type fails as it would against the real service. BFCL and JSON Schema documents
go through ``dialectic.registry.importers.from_bfcl`` (so the arguments are validated against
the whole schema: enums, nested objects, items).

Documents in these shapes are read:

- BFCL / JSON Schema: ``{"name", "description", "parameters": {"type": "dict"|"object",
  "properties": {...}, "required": [...]}}`` (BFCL's Python type names ``dict``, ``float``,
  ``tuple``, ``any`` are read as ``object``, ``number``, ``array``, ``any``);
- OpenAI tools ``{"type": "function", "function": {...}}`` (the inner document);
- NESTFUL: ``{"name", "description", "parameters": {"arg_0": {"type": "int or float", ...}}}``
  (a flat mapping, every parameter required, in order: NESTFUL passes arguments by position).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from dialectic.outcome.errors import PluginError
from dialectic.registry.descriptions import FunctionDescription
from dialectic.registry.importers import from_bfcl

_TYPES = {
    "dict": "object",
    "object": "object",
    "float": "number",
    "number": "number",
    "double": "number",
    "int or float": "number",
    "integer": "integer",
    "int": "integer",
    "boolean": "boolean",
    "bool": "boolean",
    "string": "string",
    "str": "string",
    "array": "array",
    "list": "array",
    "tuple": "array",
}


def _type(spec: Any) -> str:
    if not isinstance(spec, dict):
        return "any"
    t = spec.get("type")
    if isinstance(t, list):  # ["string", "null"]: any of them
        named = [_TYPES.get(str(x).lower()) for x in t if x != "null"]
        return named[0] if len(named) == 1 and named[0] else "any"
    return _TYPES.get(str(t).strip().lower(), "any") if t is not None else "any"


def _echo(name: str) -> Callable[..., Any]:
    def stub(**arguments: Any) -> dict[str, Any]:
        return {"function": name, "arguments": arguments}

    stub.__name__ = f"stub_{name}"
    return stub


def stub_description(doc: Any) -> FunctionDescription:
    """The stub of one function document; a ``PluginError`` says what is wrong with it."""
    if isinstance(doc, dict) and doc.get("type") == "function" and "function" in doc:
        doc = doc["function"]
    if not isinstance(doc, dict) or not isinstance(doc.get("name"), str) or not doc["name"]:
        raise PluginError(f"a function document needs a `name`: {str(doc)[:80]!r}")
    name: str = doc["name"]
    params = doc.get("parameters") or {}
    if not isinstance(params, dict):
        raise PluginError(f"function {name!r}: `parameters` must be an object")
    if "properties" in params or params.get("type") in ("dict", "object"):
        # JSON Schema validates the arguments (enums, nested objects, items)
        return from_bfcl(doc, _echo(name))
    schema: dict[str, Any] = {}
    descriptions: dict[str, str] = {}
    for key, spec in params.items():  # NESTFUL: a flat mapping, all required, in order
        schema[key] = _type(spec)
        if isinstance(spec, dict) and isinstance(spec.get("description"), str):
            descriptions[key] = spec["description"]
    text = doc.get("description")
    return FunctionDescription(
        name,
        text if isinstance(text, str) else f"the corpus's function {name}",
        _echo(name),
        schema,
        "any",
        parameter_descriptions=descriptions,
    )


def stub_descriptions(docs: Sequence[Any]) -> list[FunctionDescription]:
    """Stubs of ``docs`` (a later document of a name already seen is ignored)."""
    out: list[FunctionDescription] = []
    seen: set[str] = set()
    for doc in docs:
        fn = stub_description(doc)
        if fn.name not in seen:
            seen.add(fn.name)
            out.append(fn)
    return out
