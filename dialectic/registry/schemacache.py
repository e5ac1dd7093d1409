"""Schemas that share their definitions are prepared once (SPEC 3.1).

An OpenAPI document's operations (or an MCP server's tools) each carry the ``$defs`` they
reach, and those are mostly the same schemas: preparing every function's schema whole
(:func:`dialectic.registry.schemaprepare.prepare_schema`: the checks of references, depth,
cycles, the meta-schema, the rewriting of ``nullable``) would cost the number of functions times the
size of the shared definitions. :func:`prepare_shared` splits a schema into its own part and its
definitions (``$defs``/``definitions``), prepares the definitions once per distinct content
(keyed by a hash of their JSON text) and the own part with each definition stood in by ``{}``,
and joins them: the same checks, the same result, and a load time linear in the document.

The split is taken only when it cannot change the outcome: every ``$ref`` of the schema names
a whole definition (``#/$defs/NAME``), no ``$id``/``$anchor`` moves the base, and the schema
does not use ``unevaluatedProperties`` or ``patternProperties`` (checked together by
``prepare_schema``); any other schema is prepared whole.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections import OrderedDict
from typing import Any, Final

import orjson

from dialectic.outcome.errors import PluginError

__all__ = ["prepare_shared"]

#: distinct sets of definitions kept prepared
CACHE_SIZE: Final = 128
#: definitions smaller than this (bytes of JSON) are prepared with their schema, uncached
MIN_SHARED_BYTES: Final = 2_000

_DEF_KEYS: Final = ("$defs", "definitions")
_REF: Final = re.compile(rb'"\$ref":"([^"\\]*)(.)')
_NAME: Final = re.compile(r"#/(\$defs|definitions)/([^/~]+)\Z")
_BLOCKERS: Final = (
    b'"$id"',
    b'"$anchor"',
    b'"$dynamic',
    b'"$recursive',
    b'"unevaluatedProperties"',
    b'"patternProperties"',
)

#: hash of the definitions' JSON text (and how they were asked for) -> the prepared
#: definitions, or the error preparing them gave
_DRAFTS: Final = ("draft-06", "draft-07", "2019-09", "2020-12")
_MISSING: Final[Any] = object()
_LOCK: Final = threading.Lock()
_CACHE: OrderedDict[bytes, dict[str, Any] | PluginError | None] = OrderedDict()


def prepare_shared(
    fn: str, schema: Any, what: str = "input schema", *, object_only: bool = True
) -> dict[str, Any]:
    """``prepare_schema(fn, schema, what, object_only=object_only)``, with the definitions
    prepared once for every schema that shares them (see the module's documentation). The
    prepared definitions are shared by those schemas: they are read, never changed."""
    from dialectic.registry.schemaprepare import MAX_SCHEMA_BYTES, prepare_schema

    split = _split(schema, object_only)
    if split is None:
        return prepare_schema(fn, schema, what, object_only=object_only)
    own, defs, key, size = split
    if size + 64 > MAX_SCHEMA_BYTES:  # (near the bound: the whole schema's size decides)
        return prepare_schema(fn, schema, what, object_only=object_only)
    digest = hashlib.blake2b(key, digest_size=20).digest()
    with _LOCK:
        found = _CACHE.get(digest, _MISSING)
        if found is not _MISSING:
            _CACHE.move_to_end(digest)
    if found is _MISSING:
        found = _prepare_definitions(fn, defs, key, what)
        with _LOCK:
            _CACHE[digest] = found
            while len(_CACHE) > CACHE_SIZE:
                _CACHE.popitem(last=False)
    if not isinstance(found, dict):
        # not to be split, or an error (whose message names the function that first asked)
        return prepare_schema(fn, schema, what, object_only=object_only)
    prepared = prepare_schema(fn, own, what, object_only=object_only)
    for k in _DEF_KEYS:
        if k in found:
            prepared[k] = found[k]
    return prepared


def _prepare_definitions(
    fn: str, defs: dict[str, Any], text: bytes, what: str
) -> dict[str, Any] | PluginError | None:
    """The definitions prepared (as a schema of nothing but them), the error that gave, or
    None when they are to be prepared with each schema (a reference into a definition, ...)."""
    from dialectic.registry.schemaprepare import prepare_schema

    if _refs(text, defs) is None:
        return None
    # every definition a start of the chains of references the preparation measures (as in
    # the whole schema, where the own part may be the only one referring to some)
    starts = [
        {"$ref": f"#/{k}/" + n.replace("~", "~0").replace("/", "~1")}
        for k in _DEF_KEYS
        for n in defs.get(k, {})
    ]
    try:
        return prepare_schema(fn, {**defs, "allOf": starts}, what, object_only=False)
    except PluginError as exc:
        return exc


def _refs(text: bytes, defs: dict[str, Any]) -> set[tuple[str, str]] | None:
    """The definitions the ``$ref`` of a JSON text name, or None when one names anything else
    (the root, a part of a definition, an undefined name) or the text has a keyword that
    moves the base of references or is checked across the whole schema."""
    if any(b in text for b in _BLOCKERS):
        return None
    out: set[tuple[str, str]] = set()
    for match in _REF.finditer(text):
        name = _NAME.match(match.group(1).decode("utf-8", "replace"))
        if match.group(2) != b'"' or name is None:
            return None
        where, key = name.group(1), name.group(2)
        if key not in defs.get(where, {}):
            return None
        out.add((where, key))
    return out


def _split(
    schema: Any, object_only: bool
) -> tuple[dict[str, Any], dict[str, Any], bytes, int] | None:
    """(the schema with the definitions it refers to as ``{}``, its definitions (and
    ``$schema``) alone, the JSON text of the latter, about the size of the whole), or None
    when the schema is to be prepared whole."""
    if not isinstance(schema, dict) or not any(isinstance(schema.get(k), dict) for k in _DEF_KEYS):
        return None
    if object_only and "$ref" in schema:  # (the top is checked to be an object through it)
        return None
    draft = schema.get("$schema")
    if draft is not None and not (isinstance(draft, str) and any(d in draft for d in _DRAFTS)):
        return None  # (Draft 4's `id` moves the base)
    if not all(isinstance(schema.get(k, {}), dict) for k in _DEF_KEYS):
        return None
    defs: dict[str, Any] = {k: schema[k] for k in _DEF_KEYS if k in schema}
    if "$schema" in schema:
        defs["$schema"] = schema["$schema"]
    try:  # (a key that is not a text: prepared whole, and refused there)
        own_text = orjson.dumps({k: v for k, v in schema.items() if k not in _DEF_KEYS})
        key = orjson.dumps(defs, option=orjson.OPT_SORT_KEYS)
    except (TypeError, orjson.JSONEncodeError):
        return None
    if len(key) < MIN_SHARED_BYTES:
        return None
    named = _refs(own_text, defs)
    if named is None:
        return None
    own = {
        k: {n: {} for n in v if (k, n) in named} if k in _DEF_KEYS else v for k, v in schema.items()
    }
    return own, defs, key, len(own_text) + len(key)
