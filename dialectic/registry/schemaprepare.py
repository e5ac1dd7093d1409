"""Checking a function's JSON Schema once, when it is declared (SPEC 3.1):
:func:`prepare_schema` turns it into a plain-JSON copy that is bounded in size and depth, valid
for its draft (Draft 7's meta-schema when it names none; Draft 7's tuple ``items`` then read as
2020-12's ``prefixItems``), refers only inside itself with no reference cycle or over-long
chain, and has OpenAPI 3.0's ``nullable`` written as a type list; else a :class:`PluginError`
naming the function. Used through :mod:`dialectic.registry.schemacache` (shared ``$defs``
prepared once) by :func:`dialectic.registry.jsonschema.function_from_schema`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from typing import Any, Final

import jsonschema
import orjson

from dialectic.outcome.errors import PluginError
from dialectic.registry.schemavalues import resolve_pointer

#: a schema nested deeper than this (objects in arrays in objects ...) is refused at import
MAX_SCHEMA_DEPTH: Final = 64
#: a schema larger than this many bytes of JSON is refused at import
MAX_SCHEMA_BYTES: Final = 2_000_000
#: references applied to the same value one after another (``a -> b -> c``) at most
MAX_REF_CHAIN: Final = 32


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
