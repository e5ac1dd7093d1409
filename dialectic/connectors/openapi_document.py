"""An OpenAPI 3.0/3.1 document's operations (SPEC section 16).

``operations`` turns each operation of a document (read by
:mod:`~dialectic.connectors.openapi_source`) into an :class:`Operation`: its function name, its
parameters (path, query, header, cookie and body, each with a self-contained JSON Schema), and
the schema of its result.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from dialectic.connectors.openapi_source import OpenAPIError, Refs, load_document

__all__ = ["OpenAPIError", "Operation", "Param", "load_document", "operation_name", "operations"]

#: the HTTP methods of a path item, in the order operations are listed
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
#: the order in which clashing parameter names are settled: the first keeps the plain name
LOCATIONS = ("path", "query", "header", "cookie", "body")


@dataclass(frozen=True)
class Param:
    """One parameter of an operation's function."""

    #: the function's parameter name (the wire name, unless it clashes)
    name: str
    #: the name on the wire (a query key, a header name, a body property)
    wire: str
    #: path, query, header, cookie, body (one property of an object body) or "body*" (the whole
    #: request body as one parameter)
    location: str
    required: bool
    schema: Any
    description: str = ""
    style: str = ""
    explode: bool = False


@dataclass
class Operation:
    """One operation: ``method path`` as the function ``name``."""

    name: str
    method: str
    path: str
    description: str
    params: list[Param]
    #: the request body's media type, or None when the operation takes no body
    body_media: str | None = None
    body_required: bool = False
    #: JSON Schema of the arguments (an object, ``$defs`` included)
    input_schema: dict[str, Any] = field(default_factory=dict)
    #: JSON Schema of the successful response's JSON body, or None (unknown, or not JSON)
    output_schema: Any = None
    deprecated: bool = False


# -- operations ----------------------------------------------------------------------------
def operations(doc: dict[str, Any]) -> list[Operation]:
    """Every operation of the document, in document order, with unique function names."""
    refs = Refs(doc)
    found: list[Operation] = []
    names: set[str] = set()
    for path, item, method, op in _each_operation(doc, refs):
        where = f"paths.{path}.{method}"
        name = operation_name(op.get("operationId"), method, path)
        base, n = name, 2
        while name in names:  # two operations with one name: the later ones are numbered
            name, n = f"{base}_{n}", n + 1
        names.add(name)
        found.append(_operation(refs, name, method, path, item, op, where))
    return found


def _each_operation(
    doc: dict[str, Any], refs: Refs
) -> Iterator[tuple[str, dict[str, Any], str, dict[str, Any]]]:
    for path, raw_item in doc.get("paths", {}).items():
        if not isinstance(path, str) or not path.startswith("/"):
            raise OpenAPIError(f"paths: a path must start with '/', got {path!r}")
        item = refs.deref(raw_item, f"paths.{path}")
        if not isinstance(item, dict):
            raise OpenAPIError(f"paths.{path}: expected an object")
        for method in METHODS:
            op = item.get(method)
            if op is None:
                continue
            if not isinstance(op, dict):
                raise OpenAPIError(f"paths.{path}.{method}: expected an object")
            yield path, item, method, op


def operation_name(operation_id: Any, method: str, path: str) -> str:
    """The function name of an operation (without the service's namespace): its
    ``operationId`` with every character other than letters, digits and ``_`` replaced by
    ``_``; without one, the method and the path's segments joined by ``_``
    (``GET /pets/{petId}`` is ``get_pets_petId``)."""
    if isinstance(operation_id, str) and operation_id.strip():
        return identifier(operation_id.strip())
    parts = [method] + [p.strip("{}") for p in path.split("/") if p]
    return identifier("_".join(parts))


def identifier(text: str) -> str:
    """``text`` as an identifier: other characters become ``_``; a leading digit gets ``_``."""
    out = re.sub(r"[^A-Za-z0-9_]", "_", text) or "_"
    return "_" + out if out[0].isdigit() else out


def _operation(
    refs: Refs,
    name: str,
    method: str,
    path: str,
    item: dict[str, Any],
    op: dict[str, Any],
    where: str,
) -> Operation:
    defs: dict[str, Any] = {}
    raw: list[tuple[str, str, bool, Any, str, str, bool]] = []
    for wire, location, p in _parameters(refs, item, op, where):
        schema = p.get("schema")
        if schema is None and isinstance(p.get("content"), dict) and p["content"]:
            schema = next(iter(p["content"].values())).get("schema")
        style = str(p.get("style") or ("simple" if location in ("path", "header") else "form"))
        explode = bool(p.get("explode", style == "form"))
        raw.append(
            (
                wire,
                location,
                bool(p.get("required")) or location == "path",
                refs.bundle(schema if schema is not None else {}, defs, where),
                str(p.get("description") or ""),
                style,
                explode,
            )
        )
    declared = {r[0] for r in raw if r[1] == "path"}
    for var in re.findall(r"\{([^{}]+)\}", path):  # a template variable nobody declared
        if var not in declared:
            declared.add(var)
            raw.append((var, "path", True, {"type": "string"}, "", "simple", False))
    media, body_required = None, False
    if op.get("requestBody") is not None:
        media, body_required, body = _request_body(refs, op["requestBody"], defs, where)
        raw.extend(body)
    params = _named(raw)
    properties = {p.name: _described(p.schema, p.description) for p in params}
    input_schema: dict[str, Any] = {
        "type": "object",
        "properties": properties,
        "required": [p.name for p in params if p.required],
        "additionalProperties": False,
    }
    if defs:
        input_schema["$defs"] = defs
    out_defs: dict[str, Any] = {}  # the result's own: a schema carries only what it uses
    output = _response_schema(refs, op, out_defs, where)
    if out_defs and isinstance(output, dict):
        output = {**output, "$defs": out_defs}
    text = (
        "\n\n".join(str(t).strip() for t in (op.get("summary"), op.get("description")) if t)
        or f"{method.upper()} {path}"
    )
    return Operation(
        name,
        method,
        path,
        text,
        params,
        media,
        body_required,
        input_schema,
        output,
        bool(op.get("deprecated")),
    )


def _described(schema: Any, description: str) -> Any:
    if description and isinstance(schema, dict) and "description" not in schema:
        return {**schema, "description": description}
    return schema


def _parameters(
    refs: Refs, item: dict[str, Any], op: dict[str, Any], where: str
) -> list[tuple[str, str, dict[str, Any]]]:
    """The operation's parameters: the path item's, overridden by the operation's own (same
    name and location)."""
    merged: dict[tuple[str, str], dict[str, Any]] = {}
    for source in (item.get("parameters") or [], op.get("parameters") or []):
        if not isinstance(source, list):
            raise OpenAPIError(f"{where}.parameters: expected a list")
        for i, raw in enumerate(source):
            p = refs.deref(raw, f"{where}.parameters[{i}]")
            if not isinstance(p, dict) or not isinstance(p.get("name"), str):
                raise OpenAPIError(f"{where}.parameters[{i}]: a parameter needs a `name`")
            location = p.get("in")
            if location not in ("path", "query", "header", "cookie"):
                raise OpenAPIError(
                    f"{where}.parameters[{i}]: `in` must be path, query, header or cookie, got "
                    f"{location!r}"
                )
            merged[(p["name"], location)] = p
    return [(wire, location, p) for (wire, location), p in merged.items()]


def _request_body(
    refs: Refs, raw: Any, defs: dict[str, Any], where: str
) -> tuple[str, bool, list[tuple[str, str, bool, Any, str, str, bool]]]:
    """The body's media type, whether it is required, and its parameters: the properties of
    an object schema (``body`` locations), else one parameter ``body`` (``body*``)."""
    body = refs.deref(raw, f"{where}.requestBody")
    content = body.get("content") if isinstance(body, dict) else None
    if not isinstance(content, dict) or not content:
        raise OpenAPIError(f"{where}.requestBody: expected `content` with a media type")
    media = _pick_media(content)
    required = bool(body.get("required"))
    entry = content[media] if isinstance(content[media], dict) else {}
    schema = entry.get("schema", {})
    top = _merged_object(refs, schema, f"{where}.requestBody")
    description = str(body.get("description") or "")
    if top is None or media.startswith("multipart/"):
        return (
            media,
            required,
            [("body", "body*", required, refs.bundle(schema, defs, where), description, "", False)],
        )
    props, needed = top
    params = []
    for prop, prop_schema in props.items():
        resolved = refs.deref(prop_schema, f"{where}.requestBody.{prop}")
        if isinstance(resolved, dict) and resolved.get("readOnly") is True:
            continue  # set by the service, never sent
        params.append(
            (
                prop,
                "body",
                required and prop in needed,
                refs.bundle(prop_schema, defs, where),
                str(resolved.get("description") or "") if isinstance(resolved, dict) else "",
                "",
                False,
            )
        )
    return media, required, params


def _pick_media(content: dict[str, Any]) -> str:
    for media in content:
        base = media.split(";")[0].strip().lower()
        if base == "application/json" or base.endswith("+json"):
            return media
    for media in content:
        if media.split(";")[0].strip().lower() == "application/x-www-form-urlencoded":
            return media
    return next(iter(content))


def _merged_object(refs: Refs, schema: Any, where: str) -> tuple[dict[str, Any], set[str]] | None:
    """The properties and required names of an object schema (``allOf`` parts merged), or None
    when the schema is not an object with declared properties (the body is then one
    parameter)."""
    schema = refs.deref(schema, where)
    if not isinstance(schema, dict):
        return None
    props: dict[str, Any] = {}
    needed: set[str] = set()
    for part in schema.get("allOf") or []:
        sub = _merged_object(refs, part, where)
        if sub is None:
            return None
        props.update(sub[0])
        needed |= sub[1]
    if schema.get("type", "object") != "object" or any(
        k in schema for k in ("oneOf", "anyOf", "not", "if")
    ):
        return None
    own = schema.get("properties")
    if isinstance(own, dict):
        props.update(own)
    needed |= {n for n in schema.get("required") or [] if isinstance(n, str)}
    if not props or schema.get("additionalProperties") not in (None, False):
        return None  # a map, or an object without declared fields: one `body` parameter
    return props, needed


def _named(raw: list[tuple[str, str, bool, Any, str, str, bool]]) -> list[Param]:
    """Parameters with unique names (the API's own: ``X-Trace`` stays ``X-Trace``): in the
    order path, query, header, cookie, body, the first keeps its name and a clashing later one
    is ``<location>_<name>`` (a body property ``id`` beside a path parameter ``id`` is
    ``body_id``)."""
    ordered = sorted(raw, key=lambda r: LOCATIONS.index(r[1].rstrip("*")))
    taken: set[str] = set()
    out: list[Param] = []
    for wire, location, required, schema, description, style, explode in ordered:
        name = wire
        if name in taken:
            name = f"{location.rstrip('*')}_{name}"
        base, n = name, 2
        while name in taken:
            name, n = f"{base}_{n}", n + 1
        taken.add(name)
        out.append(Param(name, wire, location, required, schema, description, style, explode))
    return out


def _response_schema(refs: Refs, op: dict[str, Any], defs: dict[str, Any], where: str) -> Any:
    """The JSON schema of the first success response (200, 201, ..., 2XX, then default)."""
    responses = op.get("responses")
    if not isinstance(responses, dict):
        return None
    codes = sorted(str(c) for c in responses if str(c).startswith("2"))
    for code in [*codes, "default"]:
        if code not in responses and code != "default":
            continue
        response = refs.deref(responses.get(code), f"{where}.responses.{code}")
        content = response.get("content") if isinstance(response, dict) else None
        if not isinstance(content, dict):
            if code != "default":
                return None  # a success without a body (204)
            continue
        for media, entry in content.items():
            base = media.split(";")[0].strip().lower()
            json_media = base == "application/json" or base.endswith("+json")
            if json_media and isinstance(entry, dict) and "schema" in entry:
                return refs.bundle(entry["schema"], defs, f"{where}.responses.{code}")
        return None
    return None
