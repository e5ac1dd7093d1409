"""Reading an OpenAPI 3.0/3.1 document into operations (SPEC section 16).

``load_document`` reads JSON or YAML from a file, a URL or a mapping; ``operations`` turns each
operation into an :class:`Operation`: its function name, its parameters (path, query, header,
cookie and body, each with a self-contained JSON Schema), and the schema of its result. Every
``$ref`` of the document (``#/components/...``, any JSON pointer into the same document) is
resolved with ``referencing``; schemas that refer to others carry them in ``$defs`` (so recursive
schemas stay finite). References to other documents are refused with a clear error.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
import referencing
import referencing.exceptions
import yaml
from referencing.jsonschema import DRAFT202012

#: a document larger than this is refused (bytes)
MAX_DOCUMENT_BYTES = 20_000_000
#: at most this many JSON nodes are visited while converting the schemas of one document
MAX_SCHEMA_NODES = 500_000
#: the HTTP methods of a path item, in the order operations are listed
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
#: the order in which clashing parameter names are settled: the first keeps the plain name
LOCATIONS = ("path", "query", "header", "cookie", "body")
_URI = "urn:dialectic:openapi"


class OpenAPIError(ValueError):
    """A document that cannot be read or used: the message says what and where."""


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


# -- loading --------------------------------------------------------------------------------
def load_document(source: Any, *, timeout: float = 30.0) -> tuple[dict[str, Any], str | None]:
    """The document (a dict) and the URL it came from (None for a file or a mapping).

    ``source`` is an ``http(s)://`` URL, a file path (JSON or YAML), or an already-parsed
    mapping."""
    if isinstance(source, Mapping):
        return _check_root(dict(source), "the document"), None
    if not isinstance(source, (str, Path)):
        raise OpenAPIError(
            f"an OpenAPI source must be a URL, a file path or a mapping, got "
            f"{type(source).__name__}"
        )
    text = str(source)
    if text.startswith(("http://", "https://")):
        return _check_root(_parse(_fetch(text, timeout), text), text), text
    path = Path(text)
    try:
        size = path.stat().st_size
        if size > MAX_DOCUMENT_BYTES:
            raise OpenAPIError(
                f"{text}: the document is {size} bytes; at most {MAX_DOCUMENT_BYTES} are read"
            )
        data = path.read_bytes()
    except OSError as exc:
        raise OpenAPIError(f"cannot read the OpenAPI document {text}: {exc.strerror or exc}")
    return _check_root(_parse(data, text), text), None


def _fetch(url: str, timeout: float) -> bytes:
    try:
        with (
            httpx.Client(timeout=timeout, follow_redirects=True) as client,
            client.stream(
                "GET", url, headers={"Accept": "application/json, application/yaml, */*"}
            ) as response,
        ):
            if response.status_code >= 400:
                raise OpenAPIError(
                    f"cannot fetch the OpenAPI document {url}: HTTP {response.status_code}"
                )
            chunks: list[bytes] = []
            total = 0
            for chunk in response.iter_bytes():
                total += len(chunk)
                if total > MAX_DOCUMENT_BYTES:
                    raise OpenAPIError(
                        f"{url}: the document is larger than {MAX_DOCUMENT_BYTES} bytes"
                    )
                chunks.append(chunk)
            return b"".join(chunks)
    except httpx.HTTPError as exc:
        raise OpenAPIError(f"cannot fetch the OpenAPI document {url}: {exc}") from None


def _parse(data: bytes, where: str) -> Any:
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        pass
    try:
        return yaml.safe_load(data)
    except yaml.YAMLError as exc:
        raise OpenAPIError(f"{where}: neither JSON nor YAML: {exc}") from None


def _check_root(doc: Any, where: str) -> dict[str, Any]:
    if not isinstance(doc, dict):
        raise OpenAPIError(f"{where}: an OpenAPI document is an object, got {type(doc).__name__}")
    version = doc.get("openapi")
    if not isinstance(version, str) or not re.match(r"3\.[01](\.|\Z)", version):
        if "swagger" in doc:
            raise OpenAPIError(
                f"{where}: Swagger {doc.get('swagger')} documents are not supported; convert "
                "it to OpenAPI 3 (e.g. with swagger2openapi)"
            )
        raise OpenAPIError(
            f"{where}: expected `openapi: 3.0.x` or `3.1.x` at the top, got {version!r}"
        )
    if not isinstance(doc.get("paths", {}), dict):
        raise OpenAPIError(f"{where}: `paths` must be an object")
    return doc


# -- references -----------------------------------------------------------------------------
class Refs:
    """Resolves the document's local ``$ref`` pointers and bundles schemas with their
    ``$defs``."""

    def __init__(self, doc: dict[str, Any]) -> None:
        self.doc = doc
        self.openapi30 = str(doc.get("openapi", "")).startswith("3.0")
        resource: referencing.Resource[Any] = DRAFT202012.create_resource(doc)
        self._resolver = referencing.Registry().with_resource(_URI, resource).resolver(_URI)
        self._nodes = 0
        self._components: dict[str, tuple[Any, set[str]]] = {}

    def lookup(self, ref: Any, where: str) -> Any:
        if not isinstance(ref, str) or not ref.startswith("#"):
            raise OpenAPIError(
                f"{where}: only references into the same document (#/...) are supported, got "
                f"$ref {ref!r}"
            )
        try:
            return self._resolver.lookup(ref).contents
        except (referencing.exceptions.Unresolvable, LookupError) as exc:
            raise OpenAPIError(f"{where}: cannot resolve $ref {ref!r} ({exc})") from None

    def deref(self, node: Any, where: str) -> Any:
        """``node`` with its chain of ``$ref`` followed (a loop of references is an error)."""
        seen: set[str] = set()
        while isinstance(node, dict) and "$ref" in node:
            ref = node["$ref"]
            if ref in seen:
                raise OpenAPIError(f"{where}: $ref {ref!r} refers to itself")
            seen.add(ref)
            node = self.lookup(ref, where)
        return node

    def bundle(self, schema: Any, defs: dict[str, Any], where: str) -> Any:
        """A copy of ``schema`` whose references point into ``defs`` (filled with every schema
        it refers to, directly or not), with OpenAPI 3.0's ``nullable`` and boolean
        ``exclusiveMinimum`` turned into JSON Schema. Each referenced schema is converted once
        per document (a large document's operations share them)."""
        found: set[str] = set()
        out = self._convert(schema, found, where, 0)
        todo = sorted(found)
        while todo:
            ref = todo.pop()
            key = _def_key(ref)
            if key in defs:
                continue
            converted, refers_to = self._component(ref, where)
            defs[key] = converted
            todo.extend(sorted(refers_to))
        return out

    def _component(self, ref: str, where: str) -> tuple[Any, set[str]]:
        hit = self._components.get(ref)
        if hit is None:
            found: set[str] = set()
            converted = self._convert(self.lookup(ref, where), found, where, 0)
            hit = self._components[ref] = (converted, found)
        return hit

    def _convert(self, node: Any, found: set[str], where: str, depth: int) -> Any:
        self._nodes += 1
        if self._nodes > MAX_SCHEMA_NODES or depth > 200:
            raise OpenAPIError(f"{where}: the schemas are too large or too deeply nested")
        if isinstance(node, list):
            return [self._convert(v, found, where, depth + 1) for v in node]
        if not isinstance(node, dict):
            return node
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                self.lookup(value, where)  # an unresolvable reference fails here, named
                found.add(value)
                out[key] = "#/$defs/" + _def_key(value).replace("~", "~0").replace("/", "~1")
            elif key in ("example", "examples", "xml", "externalDocs", "discriminator"):
                continue  # documentation only; a 3.0 `example` is not a JSON Schema keyword
            else:
                out[key] = self._convert(value, found, where, depth + 1)
        if self.openapi30:
            _openapi30_schema(out)
        return out


def _def_key(ref: str) -> str:
    """The ``$defs`` key of a reference: a schema's name for ``#/components/schemas/NAME``,
    else the reference itself (it starts with ``#``, which a component name cannot hold)."""
    prefix = "#/components/schemas/"
    if ref.startswith(prefix) and "/" not in ref[len(prefix) :]:
        return ref[len(prefix) :].replace("~1", "/").replace("~0", "~")
    return ref


def _openapi30_schema(schema: dict[str, Any]) -> None:
    if schema.pop("nullable", False) is True:
        kind = schema.get("type")
        if isinstance(kind, str):
            schema["type"] = [kind, "null"]
        elif "enum" in schema and None not in schema["enum"]:
            schema["enum"] = [*schema["enum"], None]
    for bound, exclusive in (("minimum", "exclusiveMinimum"), ("maximum", "exclusiveMaximum")):
        flag = schema.get(exclusive)
        if isinstance(flag, bool):
            del schema[exclusive]
            if flag and bound in schema:
                schema[exclusive] = schema.pop(bound)


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
