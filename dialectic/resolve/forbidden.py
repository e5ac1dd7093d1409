"""Names a program may never reach (SPEC.md section 8): checked statically by the resolver
and again at run time by member access (:mod:`dialectic.compiler.access`)."""

from __future__ import annotations

from dialectic.outcome.errors import DialecticError, JSONPath, clip

#: Member names refused everywhere (besides every name starting with "__").
FORBIDDEN_MEMBERS = frozenset(
    {
        "__proto__",
        "constructor",
        "prototype",
        "toString",
        "valueOf",
        "hasOwnProperty",
        "isPrototypeOf",
        "propertyIsEnumerable",
        "toLocaleString",
        "__defineGetter__",
        "__defineSetter__",
        "__lookupGetter__",
        "__lookupSetter__",
        "__class__",
        "mro",
        "func_globals",
        "gi_frame",
        "f_globals",
    }
)


def is_forbidden(name: str) -> bool:
    return name in FORBIDDEN_MEMBERS or name.startswith("__")


def forbidden_error(name: str, path: JSONPath) -> DialecticError:
    instead = _INSTEAD.get(name)
    return DialecticError(
        "forbidden_member",
        f"access to the member `{clip(name)}` is not allowed",
        path,
        hint=(instead + " " if instead else "")
        + "Programs may read only JSON data and the declared fields of registered types; "
        "names starting with __ and JavaScript's constructor/prototype members are refused.",
    )


#: what to write instead of a refused member that models call as a method
_INSTEAD = {
    "toString": "x.toString() may only be called where it is written (String(x) and a "
    "template `${x}` give the same text).",
    "toLocaleString": "Write String(x), or x.toFixed(2) for a number.",
    "valueOf": "Use the value itself (a Date's time in milliseconds: d.getTime()).",
    "hasOwnProperty": "Call it where it is written, x.hasOwnProperty('k') (or "
    "Object.hasOwn(x, 'k'), 'k' in x); or test the member itself: `x.k ?? fallback`.",
}
