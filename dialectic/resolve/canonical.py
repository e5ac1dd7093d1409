"""The canonical call tree: names resolved, every call's arguments bound by name (SPEC 1.6)."""

from __future__ import annotations

from typing import Any

from dialectic.outcome.errors import DialecticError
from dialectic.registry.registry import Registry, closest
from dialectic.resolve.binding import bind
from dialectic.tree.nodes import (
    Arr,
    Call,
    Get,
    Let,
    Lit,
    Node,
    Obj,
    Ref,
    Template,
    Undefined,
    Unwrap,
)


def canonical(registry: Registry, node: Node) -> Any:
    if isinstance(node, Lit):
        v = node.value
        return {"$quote": v} if isinstance(v, dict | list) else v
    if isinstance(node, Call):
        fn, _ = registry.resolve_function(node.name)
        if fn is None:
            near = closest(node.name, registry.names())
            raise DialecticError(
                "unknown_function",
                f"unknown function `{node.name}`"
                + (f"; did you mean `{near[0]}`?" if near else ""),
                node.path,
            )
        bound = bind(registry, node, fn)
        args = {
            p.name: canonical(registry, bound[p.name])
            for p in registry.params(fn)
            if p.name in bound
        }
        return {fn.name: args}
    if isinstance(node, Ref):
        return {"$ref": node.name}
    if isinstance(node, Get):
        return {
            "$get": [canonical(registry, node.target), *(canonical(registry, k) for k in node.keys)]
        }
    if isinstance(node, Template):
        return {
            "$template": [p if isinstance(p, str) else canonical(registry, p) for p in node.parts]
        }
    if isinstance(node, Obj):
        fields = {k: canonical(registry, v) for k, v in node.fields.items()}
        if len(fields) == 1 or any(k.startswith("$") for k in fields):
            return {"$object": fields}
        return fields
    if isinstance(node, Arr):
        return [canonical(registry, c) for c in node.items]
    if isinstance(node, Undefined):
        return {"$undefined": None}
    if isinstance(node, Unwrap):
        return {"$unwrap": canonical(registry, node.value)}
    if isinstance(node, Let):
        out: dict[str, Any] = {}
        if node.bindings:
            out["$let"] = {k: canonical(registry, v) for k, v in node.bindings.items()}
        out["$" + node.mode] = canonical(registry, node.body)
        return out
    raise DialecticError("invalid_program", f"unknown node {type(node).__name__}", node.path)
