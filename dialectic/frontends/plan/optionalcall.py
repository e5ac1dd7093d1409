"""Optional calls, ``f?.(x)`` and ``obj.m?.(x)`` (SPEC 10, "Semantics"): JavaScript calls the
function unless it is ``null`` or ``undefined``, and then the value is ``undefined``.

- ``f?.(x)`` of a name is ``f(x)``: a name Plan calls is a function of the program or a
  registered one, never ``null`` or ``undefined`` (a name that holds data is no function in
  Plan, and the call is refused as ``f(x)`` is);
- ``obj.m?.(x)`` of one of JavaScript's methods ``m`` is, with ``obj`` read once (a hidden
  alias), ``Object.hasOwn(obj, 'm') && obj.m == null ? undefined : obj.m(x)``: the method's
  call unless the member is the object's own and ``null`` or ``undefined`` (a method every
  value inherits, ``o.hasOwnProperty?.(k)``, is the call);
- ``obj.m?.(x)`` of another name (an options object's callback, ``opts.onDone?.()``) is
  ``obj?.m == null ? undefined : <Node's TypeError "obj.m is not a function">``: data holds no
  function, so JavaScript gives one of these two;
- ``obj?.m?.(x)`` is ``undefined`` when ``obj`` is ``null`` or ``undefined``, as in JavaScript;
- another callee (``xs[0]?.()``, ``f(x)?.()``, ``a?.b.m?.()``) and a method that changes its
  receiver (``xs.push?.(1)``) are refused with a hint."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dialectic.frontends.plan.base import ParseFailure
from dialectic.values.jsmethods import ALL_METHODS

if TYPE_CHECKING:
    from dialectic.frontends.plan.postfix import PostfixMixin

__all__ = ["optional_call"]

#: methods that change their receiver: the hidden alias would change in its place
_CHANGING = frozenset(
    [
        "push",
        "pop",
        "shift",
        "unshift",
        "splice",
        "sort",
        "reverse",
        "fill",
        "copyWithin",
        "set",
        "add",
        "delete",
        "clear",
    ]
)
_UNDEFINED = {"$undefined": None}
#: the methods every value inherits from Object.prototype
_OBJECT_METHODS = frozenset(
    [
        "toString",
        "toLocaleString",
        "valueOf",
        "hasOwnProperty",
        "isPrototypeOf",
        "propertyIsEnumerable",
    ]
)


def optional_call(
    p: PostfixMixin,
    node: Any,
    keys: list[Any] | None,
    first: int,
    pos: int,
    callee: str | None,
    method_last: int,
    depth: int,
) -> Any:
    """The tree of the optional call whose ``?.`` is token ``pos`` (``(`` is the next one),
    after the expression ``node`` that starts at token ``first`` (``keys``: the list of its
    ``$get`` or ``$get?``, the method's name last; ``callee``: its name when it is a plain
    name; ``method_last``: the receiver's last token)."""
    if callee is not None:  # `f?.(x)`: the function's call
        p.pos = pos + 1
        return p._call(node, None, first, pos + 1, callee, -1, depth)
    if method_last < 0 or keys is None or len(keys) < 2 or type(keys[-1]) is not str:
        raise _refused(p, pos, "only a function's name or a member's method can be called so")
    fn = keys[-1]
    if fn in _CHANGING:
        raise _refused(p, pos, f"`{fn}?.(...)` changes its receiver")
    maybe = len(keys) == 2 and "$get?" in node  # `obj?.m?.(x)`
    if not maybe and _optional(node):
        raise _refused(p, pos, "an optional call after another optional link")
    text = _receiver_text(p, first, method_last)
    keys.pop()
    receiver = keys[0] if len(keys) == 1 else node
    hidden = p.fresh("_callee")
    args: list[Any] = [{"$ref": hidden}]
    p.pos = pos + 2
    p.arguments(args, depth)
    rec = p.rec
    if rec is not None:
        rec[(rec.pin(args), 0)] = (p.starts[first], p.ends[method_last])
    member: list[Any] = [{"$ref": hidden}, fn]
    if fn in _OBJECT_METHODS:  # (every value has them: `o.hasOwnProperty?.(k)` is the call)
        value: Any = p.call_form(fn, args, False)
    elif fn in ALL_METHODS:  # `s.trim?.()`: the method, unless an own member is null
        own = {"$global": ["Object.hasOwn", {"$ref": hidden}, fn]}
        nullish = {"$op": ["==", {"$get": member}, None]}
        value = {"$if": [{"$op": ["&&", own, nullish]}, _UNDEFINED, p.call_form(fn, args, False)]}
    else:  # `opts.onDone?.()`: data is no function, so undefined or Node's TypeError
        if text is None:
            raise _refused(p, pos, f"`{fn}` is no method, and the receiver is no plain name")
        failed = {"$throw": {"$object": {"name": "TypeError", "message": f"{text}.{fn} is "
                                         "not a function"}}}  # fmt: skip
        value = {"$if": [{"$op": ["==", {"$get?": member}, None]}, _UNDEFINED, failed]}
    if maybe:
        value = {"$if": [{"$op": ["==", {"$ref": hidden}, None]}, _UNDEFINED, value]}
    if rec is not None:
        rec[(rec.pin(member), 0)] = (p.starts[first], p.ends[p.pos - 1])
    return {"$let": {hidden: receiver}, "$return": value}


def _receiver_text(p: PostfixMixin, first: int, last: int) -> str | None:
    """The receiver's text as Node's message writes it (``o.a.b``: names and dots), or None."""
    kinds, values = p.kinds, p.values
    parts: list[str] = []
    for i in range(first, last + 1):
        if kinds[i] == "name" and (i == first or kinds[i - 1] in (".", "op")):
            parts.append(str(values[i]))
        elif kinds[i] == "." or (kinds[i] == "op" and values[i] == "?."):
            parts.append(".")
        else:
            return None
    return "".join(parts) if parts else None


def _optional(node: Any) -> bool:
    """Whether the chain ``node`` has an optional link (``a?.b.m``, ``x?.trim().m``)."""
    while type(node) is dict and len(node) == 1:
        ((form, items),) = node.items()
        if form not in ("$get", "$get?", "$method", "$method?") or type(items) is not list:
            return False
        if form[-1] == "?":
            return True
        if not items:
            return False
        node = items[0]
    return False


def _refused(p: PostfixMixin, pos: int, what: str) -> ParseFailure:
    return p.fail(
        f"{what}: Plan reads `?.(...)` only as `f?.(x)` and `obj.method?.(x)`",
        p.starts[pos],
        "call it plainly, x.m(a), or test the value first: v == null ? undefined : v.m(a)",
    )
