"""JavaScript's ``in`` and ``instanceof`` operators and ``Object.hasOwn`` on a program's values
(SPEC.md section 1.7), exactly as Node.js 20 answers them, or a refusal.

A value has no prototype object here: what JavaScript finds on an object's prototype chain
(``'toString' in {}``, ``'map' in []``, ``'size' in new Map()``) is answered from fixed tables
of the names Node 20's prototypes hold (a test checks them against Node), never from the
Python object. ``in`` of a primitive on the right is JavaScript's TypeError, a failure here.
"""

from __future__ import annotations

from typing import Any

from dialectic.values.data import UNDEFINED
from dialectic.values.jsnumber import JsRefusal
from dialectic.values.keyorder import property_key

__all__ = [
    "CONSTRUCTORS",
    "ERROR_CLASSES",
    "OBJECT_PROTOTYPE",
    "has_own",
    "has_property",
    "instance_of",
    "kind",
]

#: the names on Object.prototype (every object has them, through its prototype chain)
OBJECT_PROTOTYPE = frozenset(
    """__defineGetter__ __defineSetter__ __lookupGetter__ __lookupSetter__ __proto__
    constructor hasOwnProperty isPrototypeOf propertyIsEnumerable toLocaleString toString
    valueOf""".split()  # noqa: SIM905 - a readable word list
)
#: the names on Array.prototype (and an array's own `length`), beyond Object.prototype's
_ARRAY = frozenset(
    """at concat copyWithin entries every fill filter find findIndex findLast findLastIndex
    flat flatMap forEach includes indexOf join keys lastIndexOf length map pop push reduce
    reduceRight reverse shift slice some sort splice toReversed toSorted toSpliced unshift
    values with""".split()  # noqa: SIM905
)
_MAP = frozenset("clear delete entries forEach get has keys set size values".split())  # noqa: SIM905
_SET = frozenset("add clear delete entries forEach has keys size values".split())  # noqa: SIM905
#: the inherited names of each kind of object (JavaScript's prototype chains in Node 20)
INHERITED = {
    "object": OBJECT_PROTOTYPE,
    "array": OBJECT_PROTOTYPE | _ARRAY,
    "Map": OBJECT_PROTOTYPE | _MAP,
    "Set": OBJECT_PROTOTYPE | _SET,
}
#: the error classes `instanceof` takes (a handler's error: :mod:`.frontends.plan.errortext`)
ERROR_CLASSES = frozenset(
    [
        "Error",
        "TypeError",
        "RangeError",
        "SyntaxError",
        "ReferenceError",
        "URIError",
        "EvalError",
        "AggregateError",
    ]
)
#: the right sides `instanceof` takes: JavaScript's global constructors a value may be made by
CONSTRUCTORS = (
    frozenset(["Array", "Object", "Map", "Set", "RegExp", "String", "Number", "Boolean", "Date"])
    | ERROR_CLASSES
)
_LARGEST_INDEX = 2**32 - 2


def _key(key: Any, op: str) -> str:
    """JavaScript's property key of ``key`` (ToPropertyKey), refusing an array or an object."""
    name = property_key(key)
    if name is None:
        raise JsRefusal(
            f"{op} takes a text or a number as the key, not {_a(kind(key))} (JavaScript would "
            "convert it to a text first)",
            "Write the key as a text: String(k), or a member name: 'name' in o.",
        )
    return name


#: JavaScript's word for each Python type of a value (:func:`kind`)
_KINDS = {bool: "boolean", int: "number", float: "number", str: "string", list: "array"}
_KINDS[dict] = "object"


def kind(v: Any) -> str:
    """JavaScript's type of ``v`` as a word (``Map``, ``Set``, ``RegExp`` for those objects)."""
    if v is None:
        return "null"
    if v is UNDEFINED:
        return "undefined"
    t = type(v)
    return _KINDS.get(t) or str(getattr(t, "js_kind", "value"))


def _a(word: str) -> str:
    if word == "null" or word == "undefined":
        return word
    return ("an " if word[:1] in "aeiou" else "a ") + word


def _array_index(name: str) -> int:
    """The array index ``name`` writes (``'0'``, ``'12'``), or -1 if it writes none."""
    if name.isdigit() and name.isascii() and (name[0] != "0" or name == "0"):
        n = int(name) if len(name) < 12 else _LARGEST_INDEX + 1
        return n if n <= _LARGEST_INDEX else -1
    return -1


def _own(target: Any, name: str) -> bool | None:
    """Whether ``name`` is an own property of ``target`` (None: not an object Plan knows)."""
    t = type(target)
    if t is dict:
        return name in target
    if t is list:
        i = _array_index(name)
        return 0 <= i < len(target) or name == "length"
    if getattr(t, "js_kind", None) in ("Map", "Set"):
        return False  # (a Map's keys are entries, not properties)
    return None


def has_property(key: Any, target: Any) -> bool:
    """``key in target``: an own property, or one of the prototype chain's (fixed tables)."""
    t = type(target)
    name = _key(key, "`in`") if t is not str else ""
    own = _own(target, name)
    if own is None:
        what = kind(target)
        if what in ("boolean", "number", "string", "null", "undefined"):
            raise JsRefusal(
                f"`in` needs an object on its right, not {_a(what)} (a TypeError in JavaScript)",
                "Test an object's member: 'key' in obj; for a text, s.includes(part).",
            )
        raise JsRefusal(
            f"`in` on {_a(what)} is not answered here",
            "Test an object, an array, a Map or a Set: 'key' in obj, m.has(k).",
        )
    return own or name in INHERITED[kind(target)]


def has_own(target: Any, key: Any) -> bool:
    """``Object.hasOwn(target, key)`` (and ``target.hasOwnProperty(key)``)."""
    if target is None or target is UNDEFINED:
        raise JsRefusal(
            f"Object.hasOwn() of {kind(target)} (a TypeError in JavaScript: it has no properties)",
            "Test the value first: o != null && Object.hasOwn(o, k).",
        )
    name = _key(key, "Object.hasOwn()")
    own = _own(target, name)
    if own is not None:
        return own
    if type(target) is str:
        i = _array_index(name)
        return 0 <= i < len(target.encode("utf-16-le")) // 2 or name == "length"
    if kind(target) in ("boolean", "number"):
        return False
    raise JsRefusal(
        f"Object.hasOwn() of {_a(kind(target))} is not answered here",
        "Test an object or an array: Object.hasOwn(o, k).",
    )


def has_own_property(target: Any, key: Any = UNDEFINED) -> bool:
    """``target.hasOwnProperty(key)``: ``Object.hasOwn(target, key)``, unless the object has a
    member of that name itself (a tool's reply, ``JSON.parse``'s `{"hasOwnProperty": 1}`):
    JavaScript then calls that member, which no JSON value is, a TypeError."""
    if type(target) is dict and "hasOwnProperty" in target:
        raise JsRefusal(
            "the object has a member `hasOwnProperty` of its own, so `o.hasOwnProperty(k)` "
            "calls that member, which is no function (a TypeError in JavaScript)",
            "Write Object.hasOwn(o, k), which any object answers.",
        )
    return has_own(target, key)


def instance_of(value: Any, constructor: Any) -> bool:
    """``value instanceof C`` for one of JavaScript's global constructors ``C`` (its name)."""
    if type(constructor) is not str or constructor not in CONSTRUCTORS:
        shown = constructor if type(constructor) is str else kind(constructor)
        raise JsRefusal(
            f"`instanceof {shown}`: the right side of `instanceof` must be one of "
            f"JavaScript's constructors {', '.join(sorted(CONSTRUCTORS))}",
            "Test the kind directly: Array.isArray(x), typeof x === 'object' && x !== null.",
        )
    what = kind(value)
    if what in ("boolean", "number", "string", "null", "undefined"):
        return False  # (a primitive is no object)
    if constructor == "Object":
        return True
    if constructor == "Array":
        return what == "array"
    return what == constructor  # (`Map`, `Set`, `RegExp`; no value is an error or a Date)
