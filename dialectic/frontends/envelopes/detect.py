"""Detection: whether a program is in a model's answer shape, and the call tree it is then
(the rule is in the package's docstring)."""

from __future__ import annotations

from typing import Any

from dialectic.frontends.envelopes.common import (
    KIND_NAMES,
    Call,
    EnvelopeError,
    Functions,
    Names,
    listing,
    unused,
)
from dialectic.frontends.envelopes.responses import part_calls, read_response
from dialectic.frontends.envelopes.steps import is_nestful, nestful_calls, typechat_calls
from dialectic.frontends.envelopes.vendors import UNMARKED, classify, near_miss, single_calls
from dialectic.outcome.errors import JSONPath, clip
from dialectic.registry.registry import closest

__all__ = ["read_envelope"]


def _ambiguous(what: str, name: str, path: JSONPath, names: Names, program: Any) -> EnvelopeError:
    """Both readings of a shape without a marker whose function is not registered; ``details``
    has each as a program (``readings``: the data, quoted, and the call of each close name)."""
    near = closest(name, list(names.functions or ()), 3)
    did = f" (did you mean {' or '.join(f'`{n}`' for n in near)}?)" if near else ""
    readings: list[dict[str, Any]] = [
        {"description": "the object as data", "program": {"$quote": program}}
    ]
    if isinstance(program, dict) and any(set(program) == {"name", k} for k in UNMARKED.values()):
        for n in near:
            readings.append(
                {
                    "description": f"a call of `{n}`",
                    "program": {**program, "name": n},
                }
            )
    return EnvelopeError(
        f"this program could be read two ways: as {what} of `{clip(name)}`, but no function "
        f"`{clip(name)}` is registered{did}; or as a data object, which it is in Dialect JSON. "
        "Neither reading is picked for you",
        path,
        hint="To call a function, name a registered one (or write the call in Dialect JSON: "
        '{"f": {"x": 1}}); to return the object as data, write {"$quote": {...}}.',
        details={"readings": readings},
    )


def read_envelope(
    tree: Any, *, functions: Functions = None, strict: bool = False
) -> tuple[Any, list[str]] | None:
    """The call tree of a program written in a model's answer shape, and the warnings saying
    what it was read as; None when ``tree`` is Dialect JSON (see the module's detection rule).

    ``functions``: the registered function names (None: no registry, the shape decides)."""
    if (
        type(tree) is dict
        and len(tree) == 1
        and "@steps" not in tree
        and "candidates" not in tree
        and "functionCall" not in tree
        and "toolUse" not in tree
    ):
        return None  # a call or a core form (every envelope but these has two keys or more)
    names = Names(functions)
    warnings: list[str] = []
    if isinstance(tree, dict):
        whole = read_response(tree, names, strict=strict, warnings=warnings)
        if whole is not None:
            warnings.insert(0, _read_as(*whole))
            found = whole[1]
            return (found[0].tree if len(found) == 1 else [c.tree for c in found]), warnings
        if tree.keys() == {"@steps"} and not (names.known and names.has("@steps")):
            steps = tree["@steps"]
            if isinstance(steps, list) and all(isinstance(s, dict) and "@func" in s for s in steps):
                out = typechat_calls(tree)
                unused = unused_steps(out)
                warnings.append(
                    f"read as {KIND_NAMES['typechat']} of {len(steps)} "
                    f"step{'s' if len(steps) > 1 else ''}; its value is the last step's"
                    + unused_note(unused)
                )
                return out, warnings
            return None
        kind = classify(tree)
        if kind is None:
            miss = near_miss(tree, names, ())
            if miss is not None:
                raise miss
            return None
        if kind in UNMARKED and not names.has(tree["name"]):
            if not names.known:
                return None  # `{"name": "Ada Lovelace", ...}`: data
            raise _ambiguous(KIND_NAMES[kind], tree["name"], ("name",), names, tree)
        calls = single_calls(tree, kind, (), strict=strict, warnings=warnings)
        warnings.insert(0, _read_as(kind, calls))
        if len(calls) == 1:
            return calls[0].tree, warnings
        return [c.tree for c in calls], warnings
    if isinstance(tree, list) and tree:
        if is_nestful(tree):
            for i, item in enumerate(tree):
                name = item["name"]
                if not isinstance(name, str) or not names.has(name):
                    if not names.known:
                        return None
                    raise _ambiguous(
                        "a call in " + KIND_NAMES["nestful"], str(name), (i, "name"), names, tree
                    )
            out = nestful_calls(tree)
            warnings.append(
                f"read as {KIND_NAMES['nestful']} of {len(tree)} call"
                f"{'s' if len(tree) > 1 else ''}; its value is the last call's"
                + unused_note(unused_steps(out))
            )
            return out, warnings
        listed = part_calls(tree, names)
        if listed is not None:
            what, parts = listed
            warnings.append(
                f"read as {len(parts)} parallel call{'s' if len(parts) > 1 else ''} ({what}): "
                + listing([f"`{c.name}`" for c in parts])
                + "; the value is the list of their results"
            )
            return [c.tree for c in parts], warnings
        kinds = [classify(item) for item in tree]
        if not names.known:  # without a registry, {"name": "Ada Lovelace", ...} is data
            kinds = [
                None if k in UNMARKED and not names.has(item["name"]) else k
                for item, k in zip(tree, kinds, strict=True)
            ]
        for i, (item, k) in enumerate(zip(tree, kinds, strict=True)):
            miss = near_miss(item, names, (i,)) if k is None else None
            if miss is not None:
                raise miss
        if all(k is None for k in kinds):
            return None
        plain = [i for i, k in enumerate(kinds) if k is None]
        if plain:
            first = next(i for i, k in enumerate(kinds) if k is not None)
            raise EnvelopeError(
                f"element {first} of this array is {KIND_NAMES[kinds[first] or '']}, but element "
                f"{plain[0]} is not: an array of tool calls must hold only tool calls, and "
                "Dialect JSON is not mixed with them",
                (plain[0],),
                hint="Send only tool calls, or the whole program in Dialect JSON "
                '([{"f": {...}}, {"g": {...}}]; an object meant as data is {"$quote": {...}}).',
            )
        calls = []
        for i, (item, kind) in enumerate(zip(tree, kinds, strict=True)):
            assert kind is not None
            if kind in UNMARKED and not names.has(item["name"]):
                raise _ambiguous(KIND_NAMES[kind], item["name"], (i, "name"), names, tree)
            calls.extend(single_calls(item, kind, (i,), strict=strict, warnings=warnings))
        used = sorted({k for k in kinds if k is not None}, key=list(KIND_NAMES).index)
        warnings.insert(
            0,
            f"read as {len(calls)} parallel call{'s' if len(calls) > 1 else ''} "
            f"({', '.join(KIND_NAMES[k] for k in used)}): "
            + listing([f"`{c.name}`" for c in calls])
            + "; the value is the list of their results",
        )
        return [c.tree for c in calls], warnings
    return None


def _read_as(kind: str, calls: list[Call]) -> str:
    listed = listing([f"`{c.name}`" for c in calls])
    if len(calls) == 1:
        return f"read as {KIND_NAMES[kind]}: the call {listed}"
    return (
        f"read as {KIND_NAMES[kind]} of {len(calls)} parallel calls ({listed}); the value is the "
        "list of their results"
    )


def unused_steps(tree: Any) -> list[str]:
    if isinstance(tree, dict) and "$let" in tree:
        ret = tree["$return"]
        return unused(tree["$let"], [ret["$ref"]] if isinstance(ret, dict) else [])
    return []


def unused_note(unused: list[str]) -> str:
    if not unused:
        return ""
    return (
        f" (step{'s' if len(unused) > 1 else ''} {', '.join(unused)} "
        f"{'are' if len(unused) > 1 else 'is'} not used by it and do"
        f"{'' if len(unused) > 1 else 'es'} not run)"
    )
