"""The canonical call tree (SPEC 1.6): the resolved tree written back as JSON, with every
function under its registered name and every argument bound by parameter name."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from dialectic.tree.dispatch import dispatch_table
from dialectic.tree.nodes import (
    AliasRef,
    Arr,
    Binding,
    Block,
    Cond,
    ConstRef,
    ContextRef,
    Get,
    Given,
    Global,
    Invoke,
    Lambda,
    Lit,
    Merge,
    Method,
    Node,
    Obj,
    Op,
    ParamRef,
    Spread,
    Template,
    Throw,
    Try,
    Undefined,
    Unwrap,
    While,
)
from dialectic.tree.recursion import Apply, LetRec

#: JavaScript's ``Infinity`` in the call tree: a name the resolver reads as the number
INFINITY: dict[str, Any] = {"$ref": "Infinity"}


class _Writer:
    def __init__(self) -> None:
        self._table: dict[type[Node], Callable[[Any], Any]] = dispatch_table(self, "_")

    def write(self, node: Node) -> Any:
        return self._table[type(node)](node)

    def _Lit(self, node: Lit) -> Any:
        v = node.value
        if type(v) is float and v in (math.inf, -math.inf):  # (JSON has no literal for it)
            return INFINITY if v > 0 else {"$op": ["-", INFINITY]}
        return {"$quote": v} if isinstance(v, dict | list) else v

    def _Invoke(self, node: Invoke) -> Any:
        return {node.fn.name: {a.param.name: self.write(a.node) for a in node.args}}

    def _AliasRef(self, node: AliasRef) -> Any:
        return {"$ref": node.name}

    def _ContextRef(self, node: ContextRef) -> Any:
        return {"$ref": node.name}

    def _ConstRef(self, node: ConstRef) -> Any:
        return {"$ref": node.written}

    def _Get(self, node: Get) -> Any:
        form = "$get?" if node.optional else "$get"
        return {form: [self.write(node.target), *(self.write(k) for k in node.keys)]}

    def _Lambda(self, node: Lambda) -> Any:
        return {"$fn": [list(node.params), self.write(node.body)]}

    def _ParamRef(self, node: ParamRef) -> Any:
        return {"$ref": node.name}

    def _Method(self, node: Method) -> Any:
        form = "$method?" if node.optional else "$method"
        return {form: [self.write(node.target), node.name, *(self.write(a) for a in node.args)]}

    def _Global(self, node: Global) -> Any:
        return {"$global": [node.name, *(self.write(a) for a in node.args)]}

    def _While(self, node: While) -> Any:
        return {"$while": [self.write(node.init), self.write(node.test), self.write(node.step)]}

    def _LetRec(self, node: LetRec) -> Any:
        fns = [[name, self.write(fn)] for name, fn in zip(node.names, node.fns, strict=True)]
        return {"$letrec": [*fns, self.write(node.body)]}

    def _Apply(self, node: Apply) -> Any:
        return {"$apply": [node.name, *(self.write(a) for a in node.args)]}

    def _Try(self, node: Try) -> Any:
        return {"$try": [self.write(node.body), self.write(node.handler)]}

    def _Throw(self, node: Throw) -> Any:
        return {"$throw": self.write(node.value)}

    def _Given(self, node: Given) -> Any:
        raise AssertionError("a Given node is never written")

    def _Spread(self, node: Spread) -> Any:
        return {"$spread": self.write(node.value)}

    def _Merge(self, node: Merge) -> Any:
        return {"$merge": [self.write(p) for p in node.parts]}

    def _Template(self, node: Template) -> Any:
        return {"$template": [p if isinstance(p, str) else self.write(p) for p in node.parts]}

    def _Obj(self, node: Obj) -> Any:
        fields = {k: self.write(v) for k, v in node.fields.items()}
        if len(fields) == 1 or any(k.startswith("$") for k in fields):
            return {"$object": fields}
        return fields

    def _Arr(self, node: Arr) -> Any:
        return [self.write(c) for c in node.items]

    def _Op(self, node: Op) -> Any:
        return {"$op": [node.op, *(self.write(o) for o in node.operands)]}

    def _Cond(self, node: Cond) -> Any:
        return {"$if": [self.write(node.test), self.write(node.then), self.write(node.otherwise)]}

    def _Undefined(self, node: Undefined) -> Any:
        return {"$undefined": None}

    def _Unwrap(self, node: Unwrap) -> Any:
        return {"$unwrap": self.write(node.value)}

    def _Block(self, node: Block) -> Any:
        out: dict[str, Any] = {}
        if node.bindings:
            # in program order (the block keeps dependency order)
            ordered = sorted(node.bindings, key=lambda b: b.slot)
            if any(b.name.startswith("$") for b in ordered):
                out["$do"] = self._statements(ordered)
            else:
                out["$let"] = {b.name: self.write(b.node) for b in ordered}
        out["$" + node.mode] = self.write(node.body)
        return out

    def _statements(self, ordered: list[Binding]) -> list[Any]:
        """A block with expression statements as ``$do`` (SPEC 1.2): each statement in program
        order, consecutive aliases as one ``{"$let": {...}}``."""
        items: list[Any] = []
        group: dict[str, Any] | None = None
        for b in ordered:
            if b.name.startswith("$"):
                items.append(self.write(b.node))
                group = None
                continue
            if group is None:
                group = {}
                items.append({"$let": group})
            group[b.name] = self.write(b.node)
        return items


def canonical(root: Node) -> Any:
    """The canonical JSON of a resolved tree."""
    return _Writer().write(root)
