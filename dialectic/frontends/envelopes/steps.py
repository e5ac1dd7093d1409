"""Step programs: TypeChat's ``{"@steps": [...]}`` and NESTFUL sequences."""

from __future__ import annotations

import re
from typing import Any

from dialectic.frontends.envelopes.common import (
    EnvelopeError,
    function_name,
    kind_of,
    listing,
    sequence,
)
from dialectic.limits import HARD_MAX_DEPTH
from dialectic.outcome.errors import JSONPath, clip

__all__ = ["NESTFUL_REF", "is_nestful", "nestful_calls", "typechat_calls"]

#: NESTFUL's reference to an earlier call's output: ``"$var_1.result$"``, ``"$var1.output_0$"``
NESTFUL_REF = re.compile(r"^\$([A-Za-z_]\w*)\.(\w+)\$$")
_NESTFUL_POSITIONAL = re.compile(r"^arg_(\d+)$")


# -- TypeChat ----------------------------------------------------------------------------------


def typechat_calls(obj: dict[str, Any]) -> Any:
    steps = obj["@steps"]
    if not isinstance(steps, list) or not steps:
        raise EnvelopeError(
            "`@steps` must be a non-empty array of steps",
            ("@steps",),
            hint='Write {"@steps": [{"@func": "f", "@args": [...]}]}.',
        )
    bindings: dict[str, Any] = {}

    def expr(value: Any, path: JSONPath, step: int, depth: int) -> Any:
        if depth > HARD_MAX_DEPTH:
            raise EnvelopeError("the program is nested too deeply", path)
        if isinstance(value, list):
            return [expr(v, (*path, i), step, depth + 1) for i, v in enumerate(value)]
        if not isinstance(value, dict):
            return value
        if "@ref" in value:
            ref = value["@ref"]
            if value.keys() != {"@ref"} or type(ref) is not int or not 0 <= ref < step:
                earlier = f"0 to {step - 1}" if step else "the first step has none"
                raise EnvelopeError(
                    f"`@ref` must be the index of an earlier step ({earlier}), "
                    f"not {clip(str(ref))}",
                    path,
                    hint='{"@ref": 0} is the result of the first step.',
                )
            return {"$ref": f"step_{ref + 1}"}
        if "@func" in value:
            return call(value, path, step, depth + 1)
        return {"$object": {k: expr(v, (*path, k), step, depth + 1) for k, v in value.items()}}

    def call(value: Any, path: JSONPath, step: int, depth: int) -> Any:
        if not isinstance(value, dict) or not {"@func"} <= value.keys() <= {"@func", "@args"}:
            raise EnvelopeError(
                'a TypeChat step must be {"@func": name, "@args": [...]}',
                path,
            )
        name = function_name(value["@func"], (*path, "@func"))
        args = value.get("@args", [])
        if not isinstance(args, list):
            raise EnvelopeError("`@args` must be an array", (*path, "@args"))
        return {name: [expr(a, (*path, "@args", i), step, depth) for i, a in enumerate(args)]}

    for i, step in enumerate(steps):
        bindings[f"step_{i + 1}"] = call(step, ("@steps", i), i, 0)
    return sequence(bindings, [f"step_{len(steps)}"])


# -- NESTFUL -----------------------------------------------------------------------------------


def is_nestful(items: list[Any]) -> bool:
    return bool(items) and all(
        isinstance(i, dict) and i.keys() == {"name", "arguments", "label"} for i in items
    )


def nestful_calls(calls: list[Any], *, positional: bool = True) -> Any:
    """The call tree of a NESTFUL sequence: each call is an alias named by its label (``$var_1``
    -> ``var_1``); an argument that is exactly ``"$var_1.result$"`` is ``{"$ref": "var_1"}`` (a
    call's value stands for its single output); the value is the last call's. With
    ``positional``, arguments named ``arg_0, arg_1, ...`` in order are passed by position (the
    corpus's convention); otherwise arguments are named."""
    bindings: dict[str, Any] = {}

    def arg(value: Any, path: JSONPath, depth: int) -> Any:
        if depth > HARD_MAX_DEPTH:
            raise EnvelopeError("the program is nested too deeply", path)
        if isinstance(value, str):
            m = NESTFUL_REF.match(value)
            if m is None:
                return value
            if m.group(1) not in bindings:
                raise EnvelopeError(
                    f"{value!r} refers to `${m.group(1)}`, which no earlier call is labelled",
                    path,
                    hint="A reference names the label of an earlier call: "
                    + (listing([f'"${b}.result$"' for b in bindings]) or "(none yet)"),
                )
            return {"$ref": m.group(1)}
        if isinstance(value, list):
            return [arg(v, (*path, i), depth + 1) for i, v in enumerate(value)]
        if isinstance(value, dict):
            return {"$object": {k: arg(v, (*path, k), depth + 1) for k, v in value.items()}}
        return value

    last = ""
    for i, call in enumerate(calls):
        path: JSONPath = (i,)
        if not isinstance(call, dict):
            raise EnvelopeError("a NESTFUL call must be an object", path)
        name = function_name(call.get("name"), (*path, "name"))
        label = call.get("label") or f"$step_{i + 1}"
        if not isinstance(label, str) or not re.match(r"^\$?[A-Za-z_]\w*$", label):
            raise EnvelopeError(
                f"a NESTFUL label must look like `$var_1`, not {clip(str(label))!r}",
                (*path, "label"),
            )
        alias = label.lstrip("$")
        if alias in bindings:
            raise EnvelopeError(f"the label `{label}` is used twice", (*path, "label"))
        args = call.get("arguments") or {}
        apath = (*path, "arguments")
        if not isinstance(args, dict):
            raise EnvelopeError(
                f"`arguments` must be an object, not {kind_of(args)}",
                apath,
            )
        keys = list(args)
        if positional and all(
            (m := _NESTFUL_POSITIONAL.match(k)) is not None and int(m.group(1)) == j
            for j, k in enumerate(keys)
        ):
            tree: Any = [arg(v, (*apath, k), 1) for k, v in args.items()]
        else:
            tree = (
                [{"$object": {k: arg(v, (*apath, k), 1) for k, v in args.items()}}] if keys else []
            )
        bindings[alias] = {name: tree}
        last = alias
    if not last:
        raise EnvelopeError("the NESTFUL sequence is empty: nothing to run", ())
    return sequence(bindings, [last])
