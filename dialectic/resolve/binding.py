"""Binding a call's arguments to the callee's declared parameters (SPEC.md section 1.5)."""

from __future__ import annotations

from dialectic.outcome.errors import DialecticError, JSONPath
from dialectic.registry.descriptions import FunctionDescription
from dialectic.registry.registry import Param, Registry, closest
from dialectic.tree.nodes import Call, Node, Obj
from dialectic.tree.parse import call_as_nested, call_named


def _single_target(params: tuple[Param, ...]) -> Param | None:
    required = [p for p in params if not p.optional]
    if len(required) == 1:
        return required[0]
    if not required and len(params) >= 1:
        return params[0]
    return None


def _unknown_keys(
    fname: str, unknown: list[str], names: list[str], path: JSONPath, sig: str
) -> DialecticError:
    hints = []
    for k in unknown:
        near = closest(k, names, 1)
        hints.append(f"`{k}`" + (f" (did you mean `{near[0]}`?)" if near else ""))
    return DialecticError(
        "unknown_parameter",
        f"`{fname}` has no parameter{'s' if len(unknown) > 1 else ''} " + ", ".join(hints),
        path,
        hint=f"The signature is {sig}.",
    )


def bind(registry: Registry, call: Call, fn: FunctionDescription) -> dict[str, Node]:
    """Map the call's arguments to parameter names; omitted parameters are absent."""
    params = registry.params(fn)
    names = [p.name for p in params]
    name_set = set(names)
    bound: dict[str, Node]
    sig = registry.signature(fn)
    if call.kind == "array":
        args = call.positional
        first = args[0] if len(args) == 1 else None
        keys = set(first.fields) if isinstance(first, Obj) else set()
        if isinstance(first, Obj) and (
            (keys <= name_set and all(p.name in keys for p in params if not p.optional))
            or (keys & name_set and params[0].type not in ("object", "any"))
        ):
            # one object literal standing for named arguments: `f({a: 1, b: 2})`
            unknown = [k for k in first.fields if k not in name_set]
            if unknown:
                raise _unknown_keys(fn.name, unknown, names, first.fields[unknown[0]].path, sig)
            bound = dict(first.fields)
        else:
            if len(args) > len(params):
                raise DialecticError(
                    "too_many_arguments",
                    f"`{fn.name}` takes {len(params)} argument{'s' if len(params) != 1 else ''}, "
                    f"{len(args)} were given",
                    call.path,
                    hint=f"The signature is {sig}.",
                )
            bound = {params[i].name: a for i, a in enumerate(args)}
    elif call.kind == "object":
        arg_keys = list(call.raw)
        if all(k in name_set for k in arg_keys):
            bound = dict(call_named(call))
        elif len(arg_keys) == 1:
            key = arg_keys[0]
            target = _single_target(params)
            other, _ = registry.resolve_function(key)
            near = closest(key, names)
            if other is None and near:
                raise DialecticError(
                    "unknown_parameter",
                    f"`{fn.name}` has no parameter `{key}`; did you mean `{near[0]}`?",
                    (*call.path, call.name, key),
                    hint=f"The signature is {sig}.",
                )
            if target is None:
                raise DialecticError(
                    "unknown_parameter",
                    f"`{fn.name}` has no parameter `{key}`",
                    (*call.path, call.name, key),
                    hint=f"The signature is {sig}. Pass named arguments as an object of "
                    "parameter names.",
                )
            bound = {target.name: call_as_nested(call)}
        else:
            unknown = [k for k in arg_keys if k not in name_set]
            target = _single_target(params)
            if any(k in name_set for k in arg_keys) or target is None:
                path = (*call.path, call.name, unknown[0])
                raise _unknown_keys(fn.name, unknown, names, path, sig)
            obj = Obj((*call.path, call.name), dict(call_named(call)), False)
            bound = {target.name: obj}
    else:
        assert call.single is not None
        target = _single_target(params)
        if target is None:
            if not params:
                raise DialecticError(
                    "too_many_arguments",
                    f"`{fn.name}` takes no arguments, one was given",
                    call.path,
                    hint=f'Call it as {{"{call.name}": {{}}}}.',
                )
            raise DialecticError(
                "missing_argument",
                f"`{fn.name}` needs {len([p for p in params if not p.optional])} arguments; "
                "a single value was given",
                call.path,
                hint=f"The signature is {sig}. Pass an object of named arguments or an array.",
            )
        bound = {target.name: call.single}
    missing = [p.name for p in params if not p.optional and p.name not in bound]
    if missing:
        listed = ", ".join(f"`{m}`" for m in missing)
        raise DialecticError(
            "missing_argument",
            f"`{fn.name}` needs the argument{'s' if len(missing) > 1 else ''} {listed}",
            call.path,
            hint=f"The signature is {sig}.",
        )
    return bound
