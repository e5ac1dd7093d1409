"""Reading an OpenAPI document and resolving its references (SPEC section 16).

``load_document`` reads JSON or YAML from a file, a URL or a mapping; :class:`Refs` resolves the
document's ``$ref`` pointers (``#/components/...``, any JSON pointer into the same document) with
``referencing`` and copies the schemas an operation needs into its ``$defs`` (so recursive
schemas stay finite). References to other documents are refused with a clear error.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
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
_URI = "urn:dialectic:openapi"


class OpenAPIError(ValueError):
    """A document that cannot be read or used: the message says what and where."""


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
        self._closures: dict[str, dict[str, Any]] = {}

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
        for ref in sorted(found):
            for key, converted in self._closure(ref, where).items():
                if key not in defs:
                    defs[key] = converted
        return out

    def _closure(self, ref: str, where: str) -> dict[str, Any]:
        """The ``$defs`` entries ``ref`` needs (its schema's and those it refers to, directly
        or not), found once per reference an operation names."""
        hit = self._closures.get(ref)
        if hit is None:
            hit = {}
            todo = [ref]
            while todo:
                r = todo.pop()
                key = _def_key(r)
                if key in hit:
                    continue
                converted, refers_to = self._component(r, where)
                hit[key] = converted
                todo.extend(sorted(refers_to))
            self._closures[ref] = hit
        return hit

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
