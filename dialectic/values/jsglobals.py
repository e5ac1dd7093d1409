"""JavaScript's global helpers on JSON values: ``Math``, ``Object``, ``JSON``, ``Number``,
``String``, ``Boolean``, ``parseInt``, ``parseFloat``, ``Array.isArray`` (SPEC.md section 1.8).
See :mod:`dialectic.values.jsmethods`."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

import orjson

from dialectic.values.collections import is_collection, leaving
from dialectic.values.data import UNDEFINED
from dialectic.values.jsextras import extra_globals
from dialectic.values.jsnumber import js_number_to_string
from dialectic.values.jsonkeys import keep_keys, replacer_keys
from dialectic.values.jsonparse import json_parse
from dialectic.values.jsonpretty import gap_of, pretty
from dialectic.values.jsops import (
    MAX_SAFE,
    JsRefusal,
    NotANumber,
    TextTooLong,
    inexact_integer,
    is_number,
    kind,
    number,
    to_number,
    truthy,
)
from dialectic.values.jsrelations import has_own
from dialectic.values.jsstrings import _JS_SPACE, _a, _array, _text, to_string
from dialectic.values.jsuri import (
    decode_uri,
    decode_uri_component,
    encode_uri,
    encode_uri_component,
)
from dialectic.values.keyorder import js_order, property_key
from dialectic.values.matchinfo import match_fields


def _finite_numbers(args: tuple[Any, ...], name: str) -> list[int | float]:
    out = []
    for a in args:
        if not is_number(a):
            raise JsRefusal(
                f"{name} takes numbers, got {_a(kind(a))}",
                f"For an array of numbers write {name}(...xs).",
            )
        out.append(a)
    return out


def _min(*args: Any) -> Any:
    xs = _finite_numbers(args, "Math.min")
    if not xs:
        return math.inf  # (as in JavaScript; a result cannot hold it: SPEC 5)
    return number(min(xs))


def _max(*args: Any) -> Any:
    xs = _finite_numbers(args, "Math.max")
    if not xs:
        return -math.inf
    return number(max(xs))


def _one_number(name: str, fn: Callable[[float], Any]) -> Callable[..., Any]:
    def apply(x: Any = UNDEFINED, *_rest: Any) -> Any:
        if not is_number(x):
            raise JsRefusal(f"{name} takes a number, got {_a(kind(x))}")
        if type(x) is int and not -MAX_SAFE <= x <= MAX_SAFE:
            raise inexact_integer(x, f"{name}()")
        if x != x:  # (a NaN only the host's context can hold: SPEC 1.7)
            raise JsRefusal(f"{name} of NaN is NaN, which a run does not hold")
        if name in _WHOLE and (x in _INFINITIES or (type(x) is float and abs(x) > MAX_SAFE)):
            return x  # (an infinity, or a double beyond 2**53 (whole), is its own floor, ...)
        return number(fn(x))

    return apply


_INFINITIES = (math.inf, -math.inf)
_WHOLE = frozenset({"Math.round", "Math.floor", "Math.ceil", "Math.trunc"})


def _round(x: float) -> float:
    """``Math.round``: to the nearest integer, ties toward +Infinity."""
    if isinstance(x, int):
        return x
    r = math.floor(x)
    return r + 1 if x - r >= 0.5 else r


def _sqrt(x: float) -> float:
    if x < 0:
        raise JsRefusal("Math.sqrt of a negative number is NaN, which JSON cannot hold")
    return math.sqrt(x)


#: what to write instead of Object.keys/values/entries of a text, a number, null...
_NOT_OBJECT = (
    "Pass an object or an array (test the value first: `x && typeof x === 'object' ? "
    "Object.keys(x) : []`); a text's characters are `[...s]`."
)


def _keys(obj: Any) -> list[str]:
    if type(obj) is dict:
        return js_order(obj)
    if type(obj) is list:  # (a match array's index, input, groups after its items)
        return [str(i) for i in range(len(obj))] + [k for k, _ in match_fields(obj)]
    raise JsRefusal(f"Object.keys of {_a(kind(obj))} is not supported", _NOT_OBJECT)


def _values(obj: Any) -> list[Any]:
    if type(obj) is dict:
        return [obj[k] for k in js_order(obj)]
    if type(obj) is list:
        return list(obj) + [v for _, v in match_fields(obj)]
    raise JsRefusal(f"Object.values of {_a(kind(obj))} is not supported", _NOT_OBJECT)


def _entries(obj: Any) -> list[list[Any]]:
    if type(obj) is dict:
        return [[k, obj[k]] for k in js_order(obj)]
    if type(obj) is list:
        return [[str(i), v] for i, v in enumerate(obj)] + [[k, v] for k, v in match_fields(obj)]
    raise JsRefusal(f"Object.entries of {_a(kind(obj))} is not supported", _NOT_OBJECT)


def _from_entries(pairs: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if is_collection(pairs):  # `Object.fromEntries(m)`: a Map's [key, value] pairs
        pairs = pairs.items()
    for pair in _array(pairs, "Object.fromEntries' argument"):
        if type(pair) is not list or len(pair) < 2:
            raise JsRefusal("Object.fromEntries takes [key, value] pairs")
        key = pair[0]
        if type(key) is not str:
            key = property_key(key)  # `{[null]: 1}` is `{"null": 1}`, `{[1.5]: 1}` `{"1.5": 1}`
            if key is None:
                raise JsRefusal(
                    "an object key must be text, a number, a boolean, null or undefined, "
                    f"got {_a(kind(pair[0]))}",
                    "JavaScript would make its text the key (`[object Object]`, `1,2`): "
                    "write the key you mean, e.g. `JSON.stringify(k)` or `k.join(',')`.",
                )
        if key == "__proto__":
            raise JsRefusal("the key `__proto__` is not allowed")
        out[key] = pair[1]  # (an undefined value is held, as in JavaScript: SPEC 1.2)
    return out


def json_stringify(
    value: Any,
    stringify: Callable[[Any], str],
    replacer: Any = UNDEFINED,
    space: Any = UNDEFINED,
    *,
    limit: int,
    raw: Callable[[Any], str] | None = None,
) -> Any:
    """``JSON.stringify``: compact, keys in order, numbers as JavaScript writes them; the text
    within ``limit`` (the run's ``max_string_length``), measured as it is written. A value of
    a registered type is written as the JSON text of ``stringify(v)``, or as ``raw(v)``.
    ``space`` indents as JavaScript does (:mod:`.jsonpretty`); a ``replacer`` that is an array
    lists the keys written (:mod:`.jsonkeys`); another other than null is refused."""
    if isinstance(replacer, list):  # the keys to write (:mod:`.jsonkeys`)
        value = keep_keys(value, replacer_keys(replacer))
    elif replacer is not UNDEFINED and replacer is not None:
        raise JsRefusal(
            "JSON.stringify with a replacer other than null or a list of keys is not supported",
            "pass null (JSON.stringify(v, null, 2)), or the keys to write: "
            "JSON.stringify(v, ['id', 'name'])",
        )
    if value is UNDEFINED:
        return UNDEFINED
    gap = gap_of(space) if space is not UNDEFINED else ""
    if gap:

        def scalar(v: Any) -> str:
            if v is None:
                return "null"
            written = json_stringify(v, stringify, limit=limit, raw=raw)
            return "null" if written is UNDEFINED else str(written)

        return pretty(value, gap, scalar, limit)
    if _orjson_writes_it(value, limit):
        try:
            text: str = orjson.dumps(value).decode()
        except orjson.JSONEncodeError:
            pass  # (nested deeper than orjson writes, or a lone surrogate: the writer says)
        else:
            if len(text) > limit:
                raise TextTooLong(len(text), limit)
            return text
    out: list[str] = []
    stack: list[Any] = [value]
    size = 0  # at least what is written: one character a step, a text's length
    while stack:
        v = stack.pop()
        size += len(v) + 1 if type(v) is str else 1
        if size > limit:  # (so shared parts cost O(limit) steps at most)
            raise TextTooLong(size, limit)
        if isinstance(v, _Lit):
            out.append(v.text)
            continue
        t = type(v)
        if t is str:
            out.append(orjson.dumps(v).decode())
        elif t is bool:
            out.append("true" if v else "false")
        elif t is int or t is float:
            out.append(js_number_to_string(v) if v - v == 0.0 else "null")  # (as JS)
        elif v is None or v is UNDEFINED:
            out.append("null")
        elif t is list:
            out.append("[")
            items: list[Any] = []
            for i, x in enumerate(v):
                if i:
                    items.append(_Lit(","))
                items.append(x)
            items.append(_Lit("]"))
            stack.extend(reversed(items))
        elif t is dict:
            out.append("{")
            parts: list[Any] = []
            first = True
            for k in js_order(v):
                x = v[k]
                if x is UNDEFINED:
                    continue
                parts.append(_Lit(("" if first else ",") + orjson.dumps(k).decode() + ":"))
                parts.append(x)
                first = False
            parts.append(_Lit("}"))
            stack.extend(reversed(parts))
        else:
            out.append(_written(v, stringify, raw))
    text = "".join(out)
    if len(text) > limit:  # (escapes write more than the count above)
        raise TextTooLong(len(text), limit)
    return text


def _written(v: Any, stringify: Callable[[Any], str], raw: Callable[[Any], str] | None) -> str:
    """The JSON text of a value that is not JSON: a Date's ISO text (null for an Invalid
    Date: its toJSON), else a registered value's ``raw(v)`` or the JSON text of its
    ``stringify(v)``."""
    if hasattr(type(v), "to_json"):  # (a Date, a URL: toJSON)
        return orjson.dumps(v.to_json()).decode()
    if is_collection(v):  # (a Map, a URLSearchParams: JavaScript writes {})
        raise leaving(v)
    if raw is not None:
        return raw(v)
    return orjson.dumps(stringify(v)).decode()


def _orjson_writes_it(value: Any, limit: int) -> bool:
    """Whether ``orjson.dumps(value)`` is the text ``JSON.stringify`` writes (and at most about
    ``limit`` characters): only texts, booleans, null, integers within 2**53, non-whole floats
    from 1e-5 to 1e16 in size, arrays, and objects with text keys. orjson writes those floats
    with the shortest round-trip digits, as JavaScript does, and positionally, where JavaScript
    does too (from 1e-6 to 1e21); it writes ``1.0``, ``1e+16``, ``1e-6``, ``-0.0`` otherwise
    (tests/expressions/test_json_stringify_fast.py checks the bounds against Node). Stops at
    the first other value, and once ``limit`` is passed (shared parts cost O(limit))."""
    stack = [value]
    size = 0
    while stack:
        v = stack.pop()
        t = type(v)
        if t is str:
            size += len(v)
        elif t is int:
            if not -9007199254740992 <= v <= 9007199254740992:
                return False
        elif t is float:
            if v.is_integer() or not 1e-5 <= abs(v) < 1e16:
                return False
        elif t is list:
            size += len(v)
            stack.extend(v)
        elif t is dict:
            size += len(v)
            for k in v:
                if type(k) is not str or k[:1].isdigit():  # (not str; JavaScript's key order)
                    return False
                size += len(k)
            stack.extend(v.values())
        elif not (t is bool or v is None):
            return False  # undefined, a registered value: the writer below
        size += 1
        if size > limit:
            return False
    return True


class _Lit:
    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


_INT_PREFIX = re.compile(r"[+-]?[0-9]+")
#: parseInt without a radix reads `0x1f` (after a sign) as hexadecimal, as JavaScript does
_HEX_INT = re.compile(r"([+-]?)0[xX]([0-9a-fA-F]*)")
_FLOAT_PREFIX = re.compile(r"[+-]?(?:Infinity|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)")


def parse_int(value: Any, radix: Any = UNDEFINED) -> Any:
    r = _radix(radix)
    if r != 10 and r != 0:
        return _parse_int_radix(value, r)
    text = value if type(value) is str else _text(value, "parseInt's argument")
    stripped = text.lstrip(_JS_SPACE)
    if r == 0:  # (no radix: `0x1f` is hexadecimal)
        h = _HEX_INT.match(stripped)
        if h is not None:
            if not h.group(2):
                raise NotANumber(
                    JsRefusal("parseInt gives NaN here: `0x` is followed by no hex digit")
                )
            n = int(h.group(1) + h.group(2), 16)
            if abs(n) > MAX_SAFE:
                raise JsRefusal("the number is beyond 2**53, which JavaScript cannot hold exactly")
            return n
    m = _INT_PREFIX.match(stripped)
    if m is None:
        raise NotANumber(
            JsRefusal(
                "parseInt gives NaN here: the text does not start with a number",
                "Test the value before using it: const n = parseInt(t, 10); "
                "if (isNaN(n)) return null; (SPEC 1.7).",
            )
        )
    digits = m.group().lstrip("+-").lstrip("0")
    # (beyond 16 digits, past 2**53; and int() of a text of 4,300 digits or more raises)
    if len(digits) > 16 or (n := int(digits or "0")) > MAX_SAFE:
        raise JsRefusal("the number is beyond 2**53, which JavaScript cannot hold exactly")
    return -n if m.group()[0] == "-" else n


_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def _radix(radix: Any) -> int:
    """JavaScript's ``ToInt32`` of parseInt's radix: 0 for ``undefined`` and its kin (base 10,
    where a ``0x`` prefix still reads as hexadecimal); a radix outside 2..36 gives NaN."""
    if radix is UNDEFINED or radix is None:
        return 0
    if type(radix) is bool or type(radix) not in (int, float):
        raise JsRefusal(
            "parseInt's radix must be a number here",
            "Write the radix as a number: parseInt(t, 16).",
        )
    if type(radix) is float and not math.isfinite(radix):
        return 0  # (ToInt32 of NaN and of an infinity is 0)
    r = int(radix) % 2**32
    r = r - 2**32 if r >= 2**31 else r
    if r == 0:
        return 0
    if not 2 <= r <= 36:
        raise NotANumber(JsRefusal(f"parseInt gives NaN here: the radix {r} is not in 2..36"))
    return r


def _parse_int_radix(value: Any, r: int) -> int:
    """parseInt with a radix other than 10, as JavaScript reads it: a sign, for 16 an optional
    ``0x``, then the longest run of the radix's digits (a letter is a digit of its value)."""
    text = value if type(value) is str else _text(value, "parseInt's argument")
    rest = text.lstrip(_JS_SPACE)
    sign = 1
    if rest[:1] in ("+", "-"):
        sign = -1 if rest[0] == "-" else 1
        rest = rest[1:]
    if r == 16 and rest[:2] in ("0x", "0X"):
        rest = rest[2:]
    allowed = _DIGITS[:r] + _DIGITS[10:r].upper()
    end = 0
    for ch in rest:
        if ch not in allowed:
            break
        end += 1
    if end == 0:
        raise NotANumber(
            JsRefusal(f"parseInt gives NaN here: the text does not start with a base-{r} digit")
        )
    if end > 64:
        raise JsRefusal("the number is beyond 2**53, which JavaScript cannot hold exactly")
    n = int(rest[:end], r)
    if n > MAX_SAFE:
        raise JsRefusal("the number is beyond 2**53, which JavaScript cannot hold exactly")
    return sign * n


def parse_float(value: Any) -> Any:
    text = value if type(value) is str else _text(value, "parseFloat's argument")
    m = _FLOAT_PREFIX.match(text.lstrip(_JS_SPACE))
    if m is None:
        raise NotANumber(
            JsRefusal(
                "parseFloat gives NaN here: the text does not start with a number",
                "Test the value before using it: const x = parseFloat(t); "
                "if (isNaN(x)) return null; or parseFloat(t) || 0 (SPEC 1.7).",
            )
        )
    found = m.group()
    if "Infinity" in found:
        return -math.inf if found[0] == "-" else math.inf
    return number(float(found))


def _no_collection(v: Any, written: str = "to_text") -> Any:
    """``v``, unless it is a Map or a Set (JavaScript's ``JSON.stringify`` writes ``{}``); a
    Date, a URL (a URLSearchParams for String) are written as their text (String: its
    ``to_text``) or their JSON text (JSON.stringify, ``written`` ``to_json``)."""
    if is_collection(v) and not hasattr(type(v), written):
        raise leaving(v)
    return v


def globals_table(stringify: Callable[[Any], str], limit: int) -> dict[str, Callable[..., Any]]:
    """The supported global functions by their JavaScript name; a text one makes is within
    ``limit`` (the run's ``max_string_length``: ``JSON.stringify`` measures it as it writes,
    the caller measures ``String()``'s)."""
    return {
        "Math.min": _min,
        "Math.max": _max,
        "Math.round": _one_number("Math.round", _round),
        "Math.floor": _one_number("Math.floor", math.floor),
        "Math.ceil": _one_number("Math.ceil", math.ceil),
        "Math.abs": _one_number("Math.abs", abs),
        "Math.trunc": _one_number("Math.trunc", math.trunc),
        "Math.sign": _one_number("Math.sign", lambda x: (x > 0) - (x < 0)),
        "Math.sqrt": _one_number("Math.sqrt", _sqrt),
        "Object.keys": _keys,
        "Object.values": _values,
        "Object.entries": _entries,
        "Object.fromEntries": _from_entries,
        "Object.hasOwn": lambda v=UNDEFINED, k=UNDEFINED: has_own(v, k),
        # the value itself: a run changes only objects the program wrote, which a frozen one
        # is not (a change to it is refused where JavaScript's strict mode throws)
        "Object.freeze": lambda v=UNDEFINED: v,
        "JSON.stringify": lambda v, *rest: json_stringify(
            _no_collection(v, "to_json"), stringify, *rest, limit=limit
        ),
        "JSON.parse": json_parse,
        "Number": lambda v=0: to_number(v),
        "String": lambda v="": to_string(_no_collection(v), stringify, limit),
        "Boolean": lambda v=False: truthy(v),
        "parseInt": parse_int,
        "parseFloat": parse_float,
        "Array.isArray": lambda v=UNDEFINED: type(v) is list,
        "encodeURIComponent": lambda v=UNDEFINED: encode_uri_component(
            to_string(v, stringify, limit), limit
        ),
        "encodeURI": lambda v=UNDEFINED: encode_uri(to_string(v, stringify, limit), limit),
        "decodeURIComponent": lambda v=UNDEFINED: decode_uri_component(to_string(v, stringify)),
        "decodeURI": lambda v=UNDEFINED: decode_uri(to_string(v, stringify)),
        **extra_globals(),
    }


GLOBALS = frozenset(globals_table(str, 1))
NAMESPACES = frozenset(name.split(".")[0] for name in GLOBALS if "." in name)
