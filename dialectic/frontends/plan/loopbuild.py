"""The trees a ``for...of`` loop becomes (SPEC 10, "Loops"): the names an expression reads, the
record of one iteration and each accumulator's value after the loop. Used by :mod:`.loops`."""

from __future__ import annotations

from typing import Any

from dialectic.frontends.plan.spans import SpanRecord

__all__ = [
    "Contribution",
    "free_names",
    "scan_reads",
    "has_call",
    "ref",
    "when",
    "record",
    "final_value",
    "reducer",
    "literal",
    "step",
]


def ref(name: str) -> dict[str, Any]:
    return {"$ref": name}


def free_names(tree: Any) -> set[str]:
    """The names ``tree`` reads (``$ref``) that it does not bind itself (an arrow function's
    parameters, a block's aliases). Iterative: any depth, linear in the tree's size. (A tree
    without a part that binds names, the common one, is read here in one plain walk, in any
    order; one with such a part by :func:`scan_reads`, which knows the scopes.)"""
    names: set[str] = set()
    stack: list[Any] = [tree]
    pop, push = stack.pop, stack.append
    while stack:
        node = pop()
        kind = type(node)
        if kind is list:
            for v in node:
                if type(v) is dict:
                    if len(v) == 1 and "$ref" in v:  # (a read: taken at once)
                        names.add(v["$ref"])
                    else:
                        push(v)
                elif type(v) is list:
                    push(v)
            continue
        if kind is not dict:
            continue
        if len(node) == 1:
            ((key, value),) = node.items()
            if key == "$ref":
                names.add(value)
                continue
            if key == "$quote":
                continue
            if key == "$let" or key == "$do" or (key == "$fn" and type(value) is list):
                return scan_reads(tree)[0]
            if type(value) is dict or type(value) is list:
                push(value)
            continue
        if "$let" in node or "$do" in node:
            return scan_reads(tree)[0]
        for v in node.values():
            if type(v) is dict or type(v) is list:
                push(v)
    return names


#: global functions that read an array or an object without keeping it
_SAFE_GLOBALS = frozenset(
    ["Object.keys", "Object.values", "Object.entries", "JSON.stringify", "Object.hasOwn", "Date"]
)
#: operators that read an object (a member of it, its kind) without keeping it
_SAFE_OPS = frozenset(["in", "instanceof"])
#: methods that return their receiver (JavaScript reorders it in place)
_SAME = frozenset(["sort", "reverse"])
#: the core forms with an item that reads a value without keeping it
_READERS = frozenset(["$get", "$get?", "$method", "$method?", "$global", "$merge", "$op"])


def _safe(key: str, items: list[Any], index: int) -> bool:
    """Whether item ``index`` of the core form ``key`` reads an array or an object without
    keeping it: the object of a member read or of a method call, a global that reads it, an
    object spread."""
    if (index == 0 and key in ("$get", "$get?")) or key == "$merge":
        return True
    if index == 0 and key in ("$method", "$method?"):
        return not (len(items) > 1 and items[1] in _SAME)
    if key == "$op":
        return index > 0 and items[0] in _SAFE_OPS
    return index == 1 and key == "$global" and items[0] in _SAFE_GLOBALS


def scan_reads(
    tree: Any, nodes: list[dict[str, Any]] | None = None, skip: set[int] | None = None
) -> tuple[set[str], set[str]]:
    """The names ``tree`` reads and does not bind, and those of them it reads whole (kept,
    passed on: not a member read, a method's receiver, a spread or a global that only reads
    it); ``nodes`` (if given) receives each such ``$ref`` node; ``skip``: ids of parts not
    read. Iterative: any depth, linear in the tree's size. (Each part is visited once, in a
    fixed order: the last item of a list or a form first, as a stack pops them.)"""
    names: set[str] = set()
    whole: set[str] = set()
    stack: list[tuple[Any, frozenset[str], bool]] = [(tree, _NONE, False)]
    pop, push = stack.pop, stack.append
    while stack:
        node, bound, safe = pop()
        if skip and id(node) in skip:
            continue
        kind = type(node)
        if kind is list:
            for v in node:
                if type(v) is dict or type(v) is list:
                    push((v, bound, False))
            continue
        if kind is not dict:
            continue
        if len(node) == 1:
            ((key, value),) = node.items()
            if key == "$ref":
                if value not in bound:
                    names.add(value)
                    if not safe:
                        whole.add(value)
                    if nodes is not None:
                        nodes.append(node)
                continue
            if key == "$quote":
                continue
            if key == "$fn" and type(value) is list and len(value) == 2:
                push((value[1], bound | frozenset(value[0]), False))
                continue
            if key == "$spread":
                push((value, bound, True))
                continue
            if key in _READERS and type(value) is list:
                for i, v in enumerate(value):
                    if type(v) is dict or type(v) is list:
                        push((v, bound, _safe(key, value, i)))
                continue
        if "$let" in node or "$do" in node:  # a block: its aliases are bound inside it
            _block(node, bound, stack)
            continue
        for v in node.values():
            if type(v) is dict or type(v) is list:
                push((v, bound, False))
    return names, whole


_NONE: frozenset[str] = frozenset()


def _block(
    node: dict[str, Any], bound: frozenset[str], stack: list[tuple[Any, frozenset[str], bool]]
) -> None:
    """:func:`scan_reads` of a block (``$let``, ``$do``): its parts onto ``stack``, each with
    the block's aliases bound."""
    block = set(node.get("$let", ()))
    groups = [d["$let"] for d in node.get("$do", ()) if type(d) is dict and "$let" in d]
    for group in groups:
        block.update(group)
    inner = bound | block
    for group in [node.get("$let", {}), *groups]:
        stack.extend((v, inner, False) for v in group.values())
    stack.extend(
        (d, inner, False) for d in node.get("$do", ()) if not (type(d) is dict and "$let" in d)
    )
    stack.extend((node[k], inner, False) for k in ("$return", "$use") if k in node)


def has_call(tree: Any) -> bool:
    """Whether ``tree`` calls a function (a one-key object whose key is not a core form)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if type(node) is list:
            stack.extend(v for v in node if type(v) in (dict, list))
        elif type(node) is dict:
            if len(node) == 1:
                key, value = next(iter(node.items()))
                if key[:1] != "$":
                    return True
                if key == "$quote":
                    continue
                if key == "$object" and type(value) is dict:  # data: its values only
                    stack.extend(v for v in value.values() if type(v) in (dict, list))
                    continue
            stack.extend(v for v in node.values() if type(v) in (dict, list))
    return False


def when(reach: str | None, value: Any, otherwise: Any) -> Any:
    """``value`` when the statement is reached (``reach``: the hidden boolean alias saying so,
    None: always), else ``otherwise``: only the branch taken runs."""
    if reach is None:
        return value
    return {"$if": [ref(reach), value, otherwise]}


class Contribution:
    """One statement's change to an accumulator: ``kind`` (``push``, ``entry``, ``+``, ``-``,
    ``++``, ``--``, ``=``, or ``loop``: a loop inside the loop), the hidden alias of its value
    (for ``loop``, the inner loop's records), the alias saying whether it ran (None: always),
    the span of the statement (offsets) and, for ``loop``, the inner loop's field and changes
    of the accumulator."""

    __slots__ = ("kind", "value", "reach", "span", "nested")

    def __init__(
        self,
        kind: str,
        value: str | None,
        reach: str | None,
        span: tuple[int, int],
        nested: tuple[str, list[Contribution]] | None = None,
    ):
        self.kind = kind
        self.value = value
        self.reach = reach
        self.span = span
        self.nested = nested


def literal(fields: dict[str, Any]) -> Any:
    if len(fields) == 1:
        return {"$object": fields}
    return fields


def record(
    accumulators: dict[str, list[Contribution]], runs: list[str], field: dict[str, str]
) -> Any:
    """The record one iteration returns: per array or object accumulator its items (or
    entries) in order; per number or text accumulator each change's value and whether it ran;
    the hidden aliases that must run (``run``). ``field`` receives each accumulator's field."""
    fields: dict[str, Any] = {}
    for n, (name, changes) in enumerate(accumulators.items()):
        key = f"a{n}"
        field[name] = key
        if changes[0].kind in ("push", "entry"):
            parts = [ref(c.value) for c in changes if c.value is not None]
            fields[key] = parts[0] if len(parts) == 1 else [{"$spread": p} for p in parts]
            continue
        for k, c in enumerate(changes):
            if c.value is not None:
                fields[f"{key}v{k}"] = ref(c.value)
            if c.reach is not None:
                fields[f"{key}c{k}"] = ref(c.reach)
    if runs:
        fields["run"] = [ref(r) for r in runs]
    return literal(fields) if fields else {}


def step(kind: str, acc: Any, value: Any) -> Any:
    if kind == "=":
        return value
    if kind in ("++", "--"):  # JavaScript's x++: ToNumeric(x) + 1
        return {"$op": [kind[0], {"$op": ["+", acc]}, 1]}
    return {"$op": [kind, acc, value]}


def final_value(
    kind: str,
    init: str,
    loop: str,
    key: str,
    changes: list[Contribution],
    fresh: Any,
    rec: SpanRecord | None,
) -> Any:
    """An accumulator's value after the loop: ``[...init, ...items]``, ``{...init,
    ...Object.fromEntries(entries)}``, or ``records.reduce(step, init)`` with one step per
    change, in the body's order (JavaScript's ``+``, left to right). ``fresh(prefix)`` makes a
    hidden name; ``rec`` (when recording spans) gets each step's statement."""
    r = fresh("_r")
    if kind in ("push", "entry"):
        items = {"$method": [ref(loop), "flatMap", {"$fn": [[r], {"$get": [ref(r), key]}]}]}
        if kind == "push":
            return [{"$spread": ref(init)}, {"$spread": items}]
        return {"$merge": [ref(init), {"$global": ["Object.fromEntries", items]}]}
    return {
        "$method": [ref(loop), "reduce", {"$fn": reducer(r, key, changes, fresh, rec)}, ref(init)]
    }


def reducer(
    r: str,
    key: str,
    changes: list[Contribution],
    fresh: Any,
    rec: SpanRecord | None,
) -> list[Any]:
    """The function ``(a, r) => a'`` applying one record's changes to a number or a text; a
    loop inside the loop applies its records' changes in turn (a reduce of its own)."""
    a = fresh("_a")
    steps: dict[str, Any] = {}
    current: Any = ref(a)
    for k, c in enumerate(changes):
        value = {"$get": [ref(r), f"{key}v{k}"]} if c.value is not None else None
        if c.nested is not None:
            inner_key, inner = c.nested
            fn = reducer(fresh("_r"), inner_key, inner, fresh, rec)
            change: Any = {"$method": [value, "reduce", {"$fn": fn}, current]}
        else:
            change = step(c.kind, current, value)
        if c.reach is not None:
            change = {"$if": [{"$get": [ref(r), f"{key}c{k}"]}, change, current]}
        name = fresh("_a")
        steps[name] = change
        if rec is not None:
            rec[(rec.pin(steps), name)] = c.span
        current = ref(name)
    if len(steps) == 1:
        fn = [[a, r], next(iter(steps.values()))]
        if rec is not None:
            rec[(rec.pin(fn), 1)] = changes[0].span
        return fn
    return [[a, r], {"$let": steps, "$return": current}]
