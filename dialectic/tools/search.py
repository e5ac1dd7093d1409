"""Finding functions in the catalog: :func:`search_functions` (the MCP server's
``search_functions`` tool calls it)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final, cast

from dialectic.registry.descriptions import FunctionDescription
from dialectic.registry.registry import Registry
from dialectic.tools.catalog import is_builtin, signature
from dialectic.tools.schema import function_parameters

if TYPE_CHECKING:
    from dialectic.runtime import Runtime

__all__ = ["catalog_entry", "search_functions"]

#: at most this many words of a query count, and at most this many results are returned
MAX_QUERY_WORDS: Final = 32
MAX_LIMIT: Final = 200

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_WORD = re.compile(r"[a-z0-9]+")


def words(text: str) -> list[str]:
    """Lower-case words of a name or text: ``createEntities``, ``create_entities`` and
    ``create-entities`` all give ``create``, ``entities``."""
    return _WORD.findall(_CAMEL.sub(" ", text[:10_000]).lower())


class _View:
    """A registry seen as the catalog functions see a runtime (they read ``.registry``)."""

    __slots__ = ("registry",)

    def __init__(self, registry: Registry) -> None:
        self.registry = registry


def _runtime(source: Runtime | Registry) -> Runtime:
    if isinstance(source, Registry):
        return cast("Runtime", _View(source))
    return source


def catalog_entry(rt: Runtime | Registry, fn: FunctionDescription) -> dict[str, Any]:
    """One function as the catalog describes it: name, namespace, description, signature,
    parameters (a JSON Schema of its arguments) and result type."""
    view = _runtime(rt)
    return {
        "name": fn.name,
        "namespace": fn.namespace,
        "description": fn.description,
        "signature": signature(view, fn),
        "parameters": function_parameters(view, fn),
        "returns": fn.returns,
    }


def _score(fn: FunctionDescription, query: list[str]) -> int:
    name = fn.name.lower()
    name_words = set(words(fn.name))
    param_words = {w for p in fn.parameters for w in words(p)}
    text_words = set(words(fn.description))
    score = 0
    for w in query:
        if w in name_words:
            score += 6
        elif w in name:
            score += 3
        if w in param_words:
            score += 2
        if w in text_words or (
            len(w) >= 4
            and any(t.startswith(w) or w.startswith(t) for t in text_words if len(t) >= 4)
        ):
            score += 1
    return score


def search_functions(
    registry_or_runtime: Runtime | Registry,
    query: str = "",
    namespace: str | None = None,
    limit: int = 20,
) -> list[dict[str, Any]]:
    """The catalog entries (:func:`catalog_entry`) of the functions that match ``query``, best
    first: each word of the query is looked for in the function's name (most weight), its
    parameters' names and its description. An empty query lists every function (of
    ``namespace``, when given) by name. The built-in library and type constructors are left
    out."""
    rt = _runtime(registry_or_runtime)
    reg = rt.registry
    try:
        limit = max(1, min(int(limit), MAX_LIMIT))
    except (TypeError, ValueError, OverflowError):  # (from a model: `"ten"`, `1e999`, null)
        limit = 20
    query_words = list(dict.fromkeys(words(query if isinstance(query, str) else "")))[
        :MAX_QUERY_WORDS
    ]
    candidates = [
        fn
        for name, fn in sorted(reg.functions.items())
        if name not in reg.types
        and not is_builtin(rt, name)
        and (namespace is None or fn.namespace == namespace)
    ]
    if query_words:
        scored = [(_score(fn, query_words), fn) for fn in candidates]
        candidates = [fn for s, fn in sorted(scored, key=lambda x: (-x[0], x[1].name)) if s > 0]
    return [catalog_entry(rt, fn) for fn in candidates[:limit]]


def namespaces_of(registry_or_runtime: Runtime | Registry) -> Mapping[str, int]:
    """Namespace -> how many functions it has."""
    reg = _runtime(registry_or_runtime).registry
    return {ns: len(reg.in_namespace(ns)) for ns in reg.namespaces()}
