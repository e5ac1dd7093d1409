"""Binding a call's arguments to the callee's declared parameters (SPEC.md section 1.5).

The rule that keeps a misnamed argument from becoming a wrong answer: an *argument object* (the
whole ARGS object in Dialect JSON and Plan2, or the only positional argument when it is an object
literal, Plan's ``f({...})``) is named arguments, or, only when no key is a parameter and the
callee has exactly one parameter that could hold an object, that one parameter's value. Anything
else is an ``unknown_parameter`` failure naming the closest parameters: an object of named
arguments is never bound whole to one parameter by accident.
"""

from __future__ import annotations

from collections.abc import Mapping

from dialectic.outcome.errors import DialecticError, JSONPath, clip
from dialectic.registry.descriptions import BUILTIN_TYPES, FunctionDescription
from dialectic.registry.registry import Param, Registry, closest
from dialectic.tree.nodes import Call, Node, Obj
from dialectic.tree.parse import call_as_nested, call_named


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def positional_order(params: tuple[Param, ...]) -> tuple[Param, ...]:
    """The order positional arguments fill parameters: required ones first, then optional ones,
    each group in declared order (``flightInfo('UA 5117')`` fills the required ``flight`` even if
    an optional ``airline`` is declared before it)."""
    return tuple(p for p in params if not p.optional) + tuple(p for p in params if p.optional)


class Signature:
    """What binding a call needs of its function's parameters, worked out once per list of
    parameters (kept per registry and function: a program may call one function thousands of
    times, and every program calls the same few)."""

    __slots__ = ("params", "names", "name_set", "order", "single", "required", "by_count", "pairs")

    def __init__(self, params: tuple[Param, ...]) -> None:
        self.params = params
        self.names = [p.name for p in params]
        self.name_set = frozenset(self.names)
        self.order = positional_order(params)
        #: the parameter a single non-object argument fills (None: no such parameter)
        self.single = _single_target(self.order)
        self.required = [p.name for p in params if not p.optional]
        #: n positional arguments -> (parameter, index of its argument) in declared order, or
        #: None when n arguments leave a required parameter without one (made on first need)
        self.by_count: dict[int, tuple[tuple[Param, int], ...] | None] = {}
        #: (parameter, its name) in declared order
        self.pairs = tuple((p, p.name) for p in params)

    def positional(self, n: int) -> tuple[tuple[Param, int], ...] | None:
        """How ``n`` (at most as many as the parameters) positional arguments bind: (parameter,
        index of its argument) in declared order; None when a required parameter gets none."""
        if n in self.by_count:
            return self.by_count[n]
        plan: tuple[tuple[Param, int], ...] | None = None
        if n >= len(self.required):  # the required parameters come first in `order`
            position = {p.name: i for i, p in enumerate(self.order[:n])}
            plan = tuple((p, position[p.name]) for p in self.params if p.name in position)
        self.by_count[n] = plan
        return plan

    def named(self, fields: Mapping[str, Node]) -> list[tuple[Param, Node]] | None:
        """Named arguments that are all parameters and give every required one, as (parameter,
        expression) in declared order; None when not so (:func:`bind` says what they are)."""
        if not fields:
            return None
        name_set = self.name_set
        for k in fields:
            if k not in name_set:
                return None
        for r in self.required:
            if r not in fields:
                return None
        return [(p, fields[name]) for p, name in self.pairs if name in fields]


def _holds_objects(p: Param) -> bool:
    return p.type in ("object", "any") or p.type not in BUILTIN_TYPES


def value_target(params: tuple[Param, ...]) -> Param | None:
    """The parameter an argument object is the value of (when none of its keys is a parameter):
    the only parameter, or the only required one, if its type can hold an object."""
    required = [p for p in params if not p.optional]
    if len(params) == 1:
        target = params[0]
    elif len(required) == 1:
        target = required[0]
    else:
        return None
    return target if _holds_objects(target) else None


def _single_target(params: tuple[Param, ...]) -> Param | None:
    """The parameter a single non-object argument fills: the only required one, else (none
    required) the first one in positional order."""
    required = [p for p in params if not p.optional]
    if len(required) == 1:
        return required[0]
    if not required and params:
        return params[0]
    return None


def _unknown_keys(
    fname: str, unknown: list[str], names: list[str], path: JSONPath, sig: str, example: str
) -> DialecticError:
    hints = []
    for k in unknown[:5]:
        near = closest(k, names, 2)
        hints.append(
            f"`{clip(k)}`"
            + (f" (did you mean {' or '.join(f'`{n}`' for n in near)}?)" if near else "")
        )
    more = f" and {len(unknown) - 5} more" if len(unknown) > 5 else ""
    return DialecticError(
        "unknown_parameter",
        f"`{fname}` has no parameter{'s' if len(unknown) > 1 else ''} " + ", ".join(hints) + more,
        path,
        hint=f"The signature is {sig}. Pass named arguments with these names{example}.",
        details={"unknown": unknown[:20], "parameters": names},
    )


def _example(fn: FunctionDescription, params: tuple[Param, ...]) -> str:
    if not params:
        return ""
    first = params[0].name
    return f", e.g. {fn.name}({{{first}: ...}})"


def _object_argument(
    registry: Registry,
    fn: FunctionDescription,
    fields: Mapping[str, Node],
    path: JSONPath,
    whole: Node | None,
    sig: Signature,
) -> dict[str, Node]:
    """Bind an argument object: named arguments, or the value of the one parameter that can
    hold it, or an ``unknown_parameter`` failure (SPEC 1.5)."""
    params = sig.params
    names = sig.names
    name_set = sig.name_set
    if fn.parameter_aliases:
        fields = _own_names(fn, fields, path)
    if fields and all(k in name_set for k in fields):
        return dict(fields)
    unknown = [k for k in fields if k not in name_set]
    target = value_target(params) if len(unknown) == len(fields) else None
    if target is not None:
        value = whole if whole is not None else Obj(path, dict(fields), False)
        return {target.name: value}
    if not fields:  # `f({})`: no arguments
        return {}
    raise _unknown_keys(
        fn.name, unknown, list(names), path, registry.signature(fn), _example(fn, params)
    )


def _own_names(
    fn: FunctionDescription, fields: Mapping[str, Node], path: JSONPath
) -> dict[str, Node]:
    """Named arguments with each declared synonym (``from``) under its parameter's own name
    (``origin``); a parameter given under two names is an error."""
    synonyms = fn.parameter_aliases
    out: dict[str, Node] = {}
    given: dict[str, str] = {}
    for key, node in fields.items():
        own = synonyms.get(key, key)
        if own in out:
            raise DialecticError(
                "too_many_arguments",
                f"`{fn.name}` got the parameter `{own}` twice (as `{given[own]}` and `{key}`)",
                (*path, key),
                hint=f"`{key}` is another name of `{own}`; give it once.",
            )
        out[own] = node
        given[own] = key
    return out


def bind(
    registry: Registry, call: Call, fn: FunctionDescription, sig: Signature | None = None
) -> dict[str, Node]:
    """Map the call's arguments to parameter names; omitted parameters are absent. ``sig``:
    the function's :class:`Signature`, if the caller keeps one."""
    if sig is None:
        sig = Signature(registry.params(fn))
    params = sig.params
    name_set = sig.name_set
    bound: dict[str, Node]
    if call.kind == "array":
        args = call.positional
        first = args[0] if len(args) == 1 else None
        if isinstance(first, Obj):
            # one object literal: named arguments, `f({a: 1, b: 2})`, or one object value
            bound = _object_argument(registry, fn, first.fields, first.path, first, sig)
        else:
            if len(args) > len(params):
                raise DialecticError(
                    "too_many_arguments",
                    f"`{fn.name}` takes {_plural(len(params), 'argument')}, {len(args)} were given",
                    call.path,
                    hint=f"The signature is {registry.signature(fn)}.",
                )
            order = sig.order
            bound = {}
            for i, a in enumerate(args):
                bound[order[i].name] = a
    elif call.kind == "object":
        arg_keys = list(call.raw)
        if (
            len(arg_keys) == 1
            and arg_keys[0] not in name_set
            and arg_keys[0] not in fn.parameter_aliases
        ):
            bound = _one_key(registry, call, fn, sig)
        else:
            path = (*call.path, call.name)
            bound = _object_argument(registry, fn, call_named(call), path, None, sig)
    else:
        assert call.single is not None
        target = sig.single
        if target is None:
            if not params:
                raise DialecticError(
                    "too_many_arguments",
                    f"`{fn.name}` takes no arguments, one was given",
                    call.path,
                    hint=f'Call it as {{"{clip(call.name)}": {{}}}}.',
                )
            raise DialecticError(
                "missing_argument",
                f"`{fn.name}` needs {len([p for p in params if not p.optional])} arguments; "
                "a single value was given",
                call.path,
                hint=f"The signature is {registry.signature(fn)}. Pass an object of named "
                "arguments or an array.",
            )
        bound = {target.name: call.single}
    _require(registry, call, fn, sig, bound)
    return bound


def _require(
    registry: Registry, call: Call, fn: FunctionDescription, sig: Signature, bound: dict[str, Node]
) -> None:
    """A required parameter without an argument is a ``missing_argument`` failure."""
    for name in sig.required:
        if name not in bound:
            break
    else:
        return
    missing = [n for n in sig.required if n not in bound]
    listed = ", ".join(f"`{m}`" for m in missing)
    raise DialecticError(
        "missing_argument",
        f"`{fn.name}` needs the argument{'s' if len(missing) > 1 else ''} {listed}",
        call.path,
        hint=f"The signature is {registry.signature(fn)}.",
    )


def bind_args(
    registry: Registry, call: Call, fn: FunctionDescription, sig: Signature
) -> list[tuple[Param, Node]]:
    """:func:`bind`'s arguments as (parameter, expression) in declared parameter order, the
    common shapes read directly (named arguments that are all parameters; positional
    arguments; a single value), anything else by :func:`bind` (same result, same errors)."""
    kind = call.kind
    if kind == "array":
        args = call.positional
        n = len(args)
        if n == 1 and type(args[0]) is Obj:  # `f({a: 1, b: 2})`
            if not fn.parameter_aliases:
                pairs = sig.named(args[0].fields)
                if pairs is not None:
                    return pairs
        elif n <= len(sig.params):
            plan = sig.positional(n)
            if plan is not None:
                return [(p, args[i]) for p, i in plan]
    elif kind == "single":
        target = sig.single
        if target is not None:  # (it is the only required parameter, if any is)
            assert call.single is not None
            return [(target, call.single)]
    else:
        raw = call.raw
        only = next(iter(raw)) if len(raw) == 1 else None
        if only is None or only in sig.name_set or only in fn.parameter_aliases:
            # named arguments (not a nested call): parsed once, here
            fields = call_named(call)
            if not fn.parameter_aliases:
                pairs = sig.named(fields)
                if pairs is not None:
                    return pairs
            path = (*call.path, call.name)
            bound = _object_argument(registry, fn, fields, path, None, sig)
            _require(registry, call, fn, sig, bound)
            return [(p, bound[name]) for p, name in sig.pairs if name in bound]
    bound = bind(registry, call, fn, sig)
    return [(p, bound[name]) for p, name in sig.pairs if name in bound]


def _one_key(
    registry: Registry, call: Call, fn: FunctionDescription, sig: Signature
) -> dict[str, Node]:
    """``{"f": {"k": X}}`` where ``k`` is not a parameter of ``f``: the nested call ``k(X)``
    passed as the one parameter that takes a single argument (Dialect JSON's composition), unless
    ``k`` is no function and close to a parameter name (then it is a misspelt parameter)."""
    key = next(iter(call.raw))
    names = sig.names
    other, _ = registry.resolve_function(key)
    near = closest(key, names) if other is None else []
    if near:  # a misspelt parameter rather than a call of an unknown function
        raise DialecticError(
            "unknown_parameter",
            f"`{fn.name}` has no parameter `{clip(key)}`; did you mean `{near[0]}`?",
            (*call.path, call.name, key),
            hint=f"The signature is {registry.signature(fn)}.",
            details={"unknown": [key], "parameters": list(names)},
        )
    target = sig.single
    if target is None:
        raise DialecticError(
            "unknown_parameter",
            f"`{fn.name}` has no parameter `{clip(key)}`",
            (*call.path, call.name, key),
            hint=f"The signature is {registry.signature(fn)}. Pass named arguments as an "
            "object of parameter names.",
            details={"unknown": [key], "parameters": list(names)},
        )
    return {target.name: call_as_nested(call)}
