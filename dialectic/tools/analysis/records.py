"""Static analysis of one call tree: what it calls, with which slots, and how parallel it is.

No registry is needed. Conventions (documented in SPEC.md, section 13, "Plan analysis"):

- every ``{"name": ARGS}`` object is a call of the *domain* ``name``;
- slot names are the named arguments: the keys of an ARGS object (a one-key ARGS object is read
  as named arguments, as Plan2 writes it), or of the single object literal of a positional call
  (``f({a: 1})``); other positional arguments are counted as slots ``#0``, ``#1``... and a single
  non-object argument as ``#0``;
- the DAG: a call depends on the calls inside its arguments and on the aliases they refer to.
  ``depth`` is the longest chain of dependent calls; ``width`` the largest number of calls at one
  level of the as-soon-as-possible schedule (calls that can run at the same time). Only calls
  reachable from the block's result count for depth/width (orphan aliases never run);
  ``calls`` counts every call written.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

from dialectic.limits import HARD_MAX_DEPTH, Limits
from dialectic.outcome.errors import DialecticError
from dialectic.resolve.resolver import ResolveErrors, resolve
from dialectic.tree.nodes import AliasRef, Binding, Block, ContextRef, DomainCall, Node
from dialectic.tree.parse import parse_tree
from dialectic.tree.walking import children

#: limits for trees already checked by the caller (``validate=False``): as large as allowed
_UNCHECKED = Limits(
    max_depth=HARD_MAX_DEPTH,
    max_nodes=10**9,
    max_calls=10**9,
    max_string_length=10**12,
    max_program_bytes=10**12,
)

_FORM_TYPES = {
    "$ref": "reference",
    "$get": "member",
    "$template": "template",
    "$object": "object",
    "$quote": "quoted",
    "$undefined": "undefined",
    "$as": "conversion",
    "$unwrap": "unwrap",
    "$let": "block",
    "$return": "block",
    "$use": "block",
}


@dataclass
class PlanRecord:
    """One analysed plan; ``to_row()`` flattens it for CSV/pandas."""

    id: str
    lang: str
    status: str = "ok"  # "ok" | "parse_error" | "compile_error"
    error_code: str | None = None
    error: str | None = None
    nodes: int = 0
    calls: int = 0
    reachable_calls: int = 0
    aliases: int = 0
    unused_aliases: int = 0
    depth: int = 0
    width: int = 0
    tree_depth: int = 0
    mode: str = "return"
    domains: dict[str, int] = field(default_factory=dict)
    slots: dict[str, dict[str, int]] = field(default_factory=dict)
    arg_types: dict[str, int] = field(default_factory=dict)
    slot_types: dict[str, dict[str, int]] = field(default_factory=dict)
    identifiers: dict[str, int] = field(default_factory=dict)  # external names ($ref not alias)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def to_row(self) -> dict[str, Any]:
        """A flat row: nested counts become ``domain:count`` lists separated by ``;``."""
        row = {
            k: v
            for k, v in asdict(self).items()
            if k not in ("domains", "slots", "arg_types", "slot_types", "identifiers")
        }
        row["domains"] = ";".join(f"{k}:{v}" for k, v in self.domains.items())
        row["slots"] = ";".join(
            f"{d}.{s}:{n}" for d, per in self.slots.items() for s, n in per.items()
        )
        row["arg_types"] = ";".join(f"{k}:{v}" for k, v in self.arg_types.items())
        row["identifiers"] = ";".join(f"{k}:{v}" for k, v in self.identifiers.items())
        return row


def value_type(expr: Any) -> str:
    """The kind of an argument expression: string, number, boolean, null, array, object, call,
    reference, member, template, ..."""
    if isinstance(expr, str):
        return "string"
    if isinstance(expr, bool):
        return "boolean"
    if isinstance(expr, int | float):
        return "number"
    if expr is None:
        return "null"
    if isinstance(expr, list):
        return "array"
    if isinstance(expr, dict):
        if len(expr) == 1:
            ((key, _),) = expr.items()
            if key.startswith("$"):
                return _FORM_TYPES.get(key, "invalid")
            return "call"
        if any(k.startswith("$") for k in expr):
            return "block" if "$let" in expr else "invalid"
        return "object"
    return "invalid"


def call_arguments(args: Any) -> list[tuple[str, Any]]:
    """(slot name, expression) pairs of a call's ARGS, by the conventions above."""
    if isinstance(args, list):
        if len(args) == 1:
            only = args[0]
            if isinstance(only, dict):
                if len(only) == 1 and "$object" in only and isinstance(only["$object"], dict):
                    return list(only["$object"].items())
                if len(only) != 1 and not any(k.startswith("$") for k in only):
                    return list(only.items())
        return [(f"#{i}", a) for i, a in enumerate(args)]
    if isinstance(args, dict) and not any(k.startswith("$") for k in args):
        return list(args.items())
    return [("#0", args)]


class _Analyzer:
    def __init__(self, record: PlanRecord) -> None:
        self.r = record
        self.domains: Counter[str] = Counter()
        self.slots: dict[str, Counter[str]] = {}
        self.types: Counter[str] = Counter()
        self.slot_types: dict[str, Counter[str]] = {}
        self.idents: Counter[str] = Counter()
        self.levels: Counter[int] = Counter()
        self.nodes = 0
        self.max_tree_depth = 0

    # Content pass: every node once (aliases included, reachable or not).
    def content(self, tree: Any) -> None:
        stack: list[tuple[Any, int]] = [(tree, 1)]
        while stack:
            node, depth = stack.pop()
            self.nodes += 1
            if depth > self.max_tree_depth:
                self.max_tree_depth = depth
            if isinstance(node, list):
                stack.extend((v, depth + 1) for v in node)
            elif isinstance(node, dict):
                if len(node) == 1:
                    ((key, arg),) = node.items()
                    if key == "$quote":
                        continue
                    if key == "$ref" and isinstance(arg, str):
                        continue  # counted in the DAG pass (needs scopes)
                    if not key.startswith("$"):
                        self.r.calls += 1
                        self.domains[key] += 1
                        per = self.slots.setdefault(key, Counter())
                        for slot, expr in call_arguments(arg):
                            per[slot] += 1
                            kind = value_type(expr)
                            self.types[kind] += 1
                            self.slot_types.setdefault(f"{key}.{slot}", Counter())[kind] += 1
                            stack.append((expr, depth + 2))
                        continue
                    if key == "$template" and isinstance(arg, list):
                        stack.extend((v, depth + 1) for v in arg if not isinstance(v, str))
                        continue
                    stack.append((arg, depth + 1))
                    continue
                if "$let" in node:
                    bindings = node.get("$let")
                    if isinstance(bindings, dict):
                        self.r.aliases += len(bindings)
                        stack.extend((v, depth + 2) for v in bindings.values())
                    for end in ("$return", "$use"):
                        if end in node:
                            stack.append((node[end], depth + 1))
                    continue
                stack.extend((v, depth + 1) for v in node.values())

    # DAG pass, over the resolver's output: the level of an expression is the highest level of
    # the calls it waits for; only what the result reaches counts (iterative: any depth).
    def dag(self, root: Node) -> None:
        bindings: dict[tuple[int, int], Binding] = {}
        level_of: dict[tuple[int, int], int] = {}  # (frame, slot) of an alias -> its level
        reached_blocks: list[Block] = []
        result: dict[int, int] = {}
        stack: list[tuple[Node, bool]] = [(root, False)]
        while stack:
            node, done = stack.pop()
            if not done:
                stack.append((node, True))
                if isinstance(node, AliasRef):
                    if (node.frame, node.slot) not in level_of:
                        stack.append((bindings[node.frame, node.slot].node, False))
                    continue
                if isinstance(node, ContextRef):
                    self.idents[node.name] += 1
                elif isinstance(node, Block):
                    reached_blocks.append(node)
                    for b in node.bindings:
                        bindings[b.frame, b.slot] = b
                    stack.append((node.body, False))
                    continue
                stack.extend((c, False) for c in children(node))
                continue
            if isinstance(node, AliasRef):
                key = (node.frame, node.slot)
                if key not in level_of:
                    level_of[key] = result[id(bindings[key].node)]
                value = level_of[key]
            elif isinstance(node, Block):
                value = result[id(node.body)]
            else:
                value = max((result[id(c)] for c in children(node)), default=0)
                if isinstance(node, DomainCall):
                    value += 1
                    self.levels[value] += 1
            result[id(node)] = value
        self.r.unused_aliases += sum(
            1
            for block in reached_blocks
            for b in block.bindings
            if (b.frame, b.slot) not in level_of
        )


def analyze_tree(tree: Any, record: PlanRecord, *, validate: bool = True) -> PlanRecord:
    """Fill ``record`` with the static analysis of ``tree``; a structural error (invalid core
    form, limit, cycle) sets ``status="compile_error"``."""
    analyzer = _Analyzer(record)
    try:
        limits = Limits() if validate else _UNCHECKED
        node = parse_tree(tree, limits)
        resolved = resolve(None, limits, node)
        record.mode = resolved.mode
        analyzer.content(tree)
        analyzer.dag(resolved.root)
    except ResolveErrors as exc:
        record.status = "compile_error"
        record.error_code = exc.errors[0].code
        record.error = exc.errors[0].message
    except DialecticError as exc:
        record.status = "compile_error"
        record.error_code = exc.code
        record.error = exc.message
    except RecursionError:
        record.status = "compile_error"
        record.error_code = "limit_exceeded"
        record.error = "the program is nested too deeply to analyse"
    record.nodes = analyzer.nodes
    record.tree_depth = analyzer.max_tree_depth
    record.domains = dict(analyzer.domains.most_common())
    record.slots = {d: dict(c.most_common()) for d, c in analyzer.slots.items()}
    record.arg_types = dict(analyzer.types.most_common())
    record.slot_types = {k: dict(c) for k, c in analyzer.slot_types.items()}
    record.identifiers = dict(analyzer.idents.most_common())
    record.reachable_calls = sum(analyzer.levels.values())
    record.depth = max(analyzer.levels, default=0)
    record.width = max(analyzer.levels.values(), default=0)
    return record
