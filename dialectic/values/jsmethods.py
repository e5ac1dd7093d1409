"""JavaScript's methods of arrays and strings, and its global helpers (``Math``, ``Object``,
``JSON``, ``Number``, ``String``, ``parseInt``, ``parseFloat``, ``Array.isArray``), on JSON values
(SPEC.md section 1.8).

Like the operators (:mod:`dialectic.values.jsops`), each gives Node's value or raises
:class:`~dialectic.values.jsops.JsRefusal`. Strings are measured and indexed in UTF-16 code
units, as JavaScript does. Methods that take a function (``map``, ``filter``, ``sort``...) are
applied by the compiler (:mod:`dialectic.compiler.lambdas`); this module holds the rest and the
pieces those need (``sort_key``, ``same_value_zero``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

import orjson

from dialectic.values.data import UNDEFINED
from dialectic.values.jsnumber import js_number_to_string
from dialectic.values.jsops import (
    MAX_SAFE,
    JsRefusal,
    is_number,
    kind,
    number,
    strict_equal,
    to_number,
    truthy,
)

#: methods that take a function, by receiver type (applied by the compiler)
ARRAY_HIGHER = frozenset(
    {
        "map",
        "filter",
        "find",
        "findIndex",
        "findLast",
        "some",
        "every",
        "flatMap",
        "reduce",
        "sort",
        "toSorted",
    }
)
#: methods that change the receiver in JavaScript: refused, with the idiom to use instead
MUTATORS = {
    "push": "[...xs, item]",
    "pop": "xs.slice(0, -1) and xs.at(-1)",
    "shift": "xs.slice(1) and xs[0]",
    "unshift": "[item, ...xs]",
    "splice": "xs.slice(...) and concat",
    "fill": "xs.map(() => value)",
    "copyWithin": "slice and concat",
}


def _a(word: str) -> str:
    return ("an " if word[:1] in "aeiou" else "a ") + word


# -- UTF-16 ----------------------------------------------------------------------------------
def _bmp(s: str) -> bool:
    return s.isascii() or all(ord(c) <= 0xFFFF for c in s)


def utf16_length(s: str) -> int:
    if _bmp(s):
        return len(s)
    return len(s) + sum(1 for c in s if ord(c) > 0xFFFF)


def _units(s: str) -> bytes:
    return s.encode("utf-16-le", "surrogatepass")


def _from_units(b: bytes) -> str:
    text = b.decode("utf-16-le", "surrogatepass")
    if any(0xD800 <= ord(c) <= 0xDFFF for c in text):
        raise JsRefusal(
            "the result would split a character made of two UTF-16 units (such as an emoji)",
            "Slice at other positions.",
        )
    return text


def utf16_slice(s: str, start: int, end: int) -> str:
    if _bmp(s):
        return s[start:end]
    return _from_units(_units(s)[2 * start : 2 * end])


def utf16_index(s: str, i: int) -> str:
    return utf16_slice(s, i, i + 1)


# -- arguments -------------------------------------------------------------------------------
def _int_arg(v: Any, what: str, default: int) -> int:
    """ToIntegerOrInfinity for an index-like argument (numbers only; refused otherwise)."""
    if v is UNDEFINED:
        return default
    if not is_number(v):
        raise JsRefusal(f"{what} must be a number, got {_a(kind(v))}")
    if isinstance(v, float):
        if math.isnan(v):
            return 0
        return int(v) if abs(v) < 2**62 else (2**62 if v > 0 else -(2**62))
    return int(v)


def _relative(v: Any, length: int, what: str, default: int) -> int:
    i = _int_arg(v, what, default)
    if i < 0:
        return max(length + i, 0)
    return min(i, length)


def _text(v: Any, what: str) -> str:
    if type(v) is not str:
        raise JsRefusal(f"{what} must be text, got {_a(kind(v))}", "Convert with String(x).")
    return v


def _array(v: Any, what: str) -> list[Any]:
    if type(v) is not list:
        raise JsRefusal(f"{what} must be an array, got {_a(kind(v))}")
    return v


def same_value_zero(a: Any, b: Any) -> bool:
    """``includes``' equality; refused for two arrays/objects (identity in JavaScript)."""
    return strict_equal(a, b, "includes")


def to_string(v: Any, stringify: Callable[[Any], str]) -> str:
    """``String(v)`` for primitives and registered values; arrays and objects are refused."""
    t = type(v)
    if t is str:
        return v  # type: ignore[no-any-return]
    if is_number(v) or t is bool:
        return js_number_to_string(v)
    if v is None:
        return "null"
    if v is UNDEFINED:
        return "undefined"
    if t in (list, dict):
        raise JsRefusal(
            f"String() of {_a(kind(v))} gives `[object Object]` or items joined by commas",
            "Use JSON.stringify(x) or .join(', ').",
        )
    return stringify(v)


# -- array methods without a function ---------------------------------------------------------
def _slice(xs: list[Any], start: Any = UNDEFINED, end: Any = UNDEFINED) -> list[Any]:
    n = len(xs)
    return xs[_relative(start, n, "start", 0) : _relative(end, n, "end", n)]


def _concat(xs: list[Any], *items: Any) -> list[Any]:
    out = list(xs)
    for item in items:
        if type(item) is list:
            out.extend(item)
        else:
            out.append(item)
    return out


def _includes(xs: list[Any], item: Any) -> bool:
    return any(same_value_zero(x, item) for x in xs)


def _index_of(xs: list[Any], item: Any) -> int:
    for i, x in enumerate(xs):
        if strict_equal(x, item, "indexOf"):
            return i
    return -1


def _join(xs: list[Any], sep: Any = ",", *, stringify: Callable[[Any], str]) -> str:
    between: str = "," if sep is UNDEFINED else _text(sep, "the separator")
    parts = []
    for x in xs:
        if x is None or x is UNDEFINED:
            parts.append("")
        elif type(x) in (list, dict):
            raise JsRefusal(
                "join() of an array holding arrays or objects writes `[object Object]`",
                "Map the items to text first, e.g. xs.map(x => x.name).join(', ').",
            )
        else:
            parts.append(to_string(x, stringify))
    return between.join(parts)


def _at(xs: list[Any], i: Any = 0) -> Any:
    n = len(xs)
    k = _int_arg(i, "the index", 0)
    k = k + n if k < 0 else k
    return xs[k] if 0 <= k < n else UNDEFINED


def _flat(xs: list[Any], depth: Any = 1) -> list[Any]:
    d = _int_arg(depth, "the depth", 1)
    if d > 100:
        d = 100
    out: list[Any] = []
    stack: list[tuple[list[Any], int, int]] = [(xs, 0, d)]
    while stack:
        items, i, left = stack.pop()
        while i < len(items):
            x = items[i]
            i += 1
            if type(x) is list and left > 0:
                stack.append((items, i, left))
                items, i, left = x, 0, left - 1
                continue
            out.append(x)
    return out


def _reverse(xs: list[Any]) -> list[Any]:
    return xs[::-1]


def default_sort_key(x: Any) -> Any:
    """JavaScript's ``sort()`` without a comparator orders by ``String(x)``: a trap for
    numbers (``[10, 9].sort()`` is ``[10, 9]``), so only texts are sorted that way."""
    if type(x) is not str:
        raise JsRefusal(
            "sort() without a comparator compares items as text in JavaScript (10 comes before 9)",
            "Pass a comparator: .sort((a, b) => a - b) for numbers, "
            ".sort((a, b) => a.price - b.price) for a field.",
        )
    return x if _bmp(x) else _units_key(x)


def _units_key(x: str) -> bytes:
    return x.encode("utf-16-be", "surrogatepass")


def _array_method(name: str, stringify: Callable[[Any], str]) -> Callable[..., Any] | None:
    table: dict[str, Callable[..., Any]] = {
        "slice": _slice,
        "concat": _concat,
        "includes": _includes,
        "indexOf": _index_of,
        "join": lambda xs, sep=",": _join(xs, sep, stringify=stringify),
        "at": _at,
        "flat": _flat,
        "reverse": _reverse,
        "toReversed": _reverse,
    }
    return table.get(name)


ARRAY_PLAIN = frozenset(
    ["slice", "concat", "includes", "indexOf", "join", "at", "flat", "reverse", "toReversed"]
)


# -- string methods --------------------------------------------------------------------------
def _str_slice(s: str, start: Any = UNDEFINED, end: Any = UNDEFINED) -> str:
    n = utf16_length(s)
    return utf16_slice(s, _relative(start, n, "start", 0), _relative(end, n, "end", n))


def _substring(s: str, start: Any = UNDEFINED, end: Any = UNDEFINED) -> str:
    n = utf16_length(s)
    a = min(max(_int_arg(start, "start", 0), 0), n)
    b = min(max(_int_arg(end, "end", n), 0), n)
    return utf16_slice(s, min(a, b), max(a, b))


def _split(s: str, sep: Any = UNDEFINED, limit: Any = UNDEFINED) -> list[str]:
    if sep is UNDEFINED:
        out = [s]
    else:
        sep = _text(sep, "the separator (regular expressions are not supported)")
        if sep == "":
            if not _bmp(s):
                units = _units(s)
                out = [_from_units(units[i : i + 2]) for i in range(0, len(units), 2)]
            else:
                out = list(s)
        else:
            out = s.split(sep)
    if limit is not UNDEFINED:
        out = out[: max(_int_arg(limit, "the limit", 0), 0)]
    return out


def _replacement(value: Any) -> str:
    text = _text(value, "the replacement")
    if "$" in text:
        raise JsRefusal(
            "a `$` in a replacement text is a pattern in JavaScript ($&, $1, $$)",
            "Write `$$` for a dollar sign, or build the text with a template.",
        )
    return text


def _replace(s: str, old: Any, new: Any) -> str:
    return s.replace(
        _text(old, "the text to replace (regular expressions are not supported)"),
        _replacement(new),
        1,
    )


def _replace_all(s: str, old: Any, new: Any) -> str:
    old = _text(old, "the text to replace (regular expressions are not supported)")
    new = _replacement(new)
    if old == "":
        raise JsRefusal("replaceAll('') inserts between every character", "Use split('').join(x).")
    return s.replace(old, new)


def _pad(s: str, length: Any, fill: Any, at_start: bool) -> str:
    target = _int_arg(length, "the length", 0)
    filler: str = " " if fill is UNDEFINED else _text(fill, "the padding")
    n = utf16_length(s)
    if target <= n or filler == "":
        return s
    if target > 10_000_000:
        raise JsRefusal("the padded text would be longer than 10,000,000 characters")
    need = target - n
    if not _bmp(filler):
        raise JsRefusal("padding with characters beyond the BMP (such as emoji) is not supported")
    pad = (filler * (need // len(filler) + 1))[:need]
    return pad + s if at_start else s + pad


def _repeat(s: str, count: Any) -> str:
    n = _int_arg(count, "the count", 0)
    if n < 0:
        raise JsRefusal("repeat() with a negative count is a RangeError in JavaScript")
    if len(s) * n > 10_000_000:
        raise JsRefusal("the repeated text would be longer than 10,000,000 characters")
    return s * n


def _str_index_of(s: str, sub: Any, start: Any = UNDEFINED) -> int:
    sub = _text(sub, "the text to find")
    if not _bmp(s) or not _bmp(sub):
        u, v = _units(s), _units(sub)
        i = _relative(start, len(u) // 2, "start", 0) if start is not UNDEFINED else 0
        pos = u.find(v, 2 * i)
        while pos != -1 and pos % 2:
            pos = u.find(v, pos + 1)
        return -1 if pos == -1 else pos // 2
    i = _int_arg(start, "start", 0)
    return s.find(sub, max(i, 0))


def _char_at(s: str, i: Any = 0) -> str:
    k = _int_arg(i, "the index", 0)
    return utf16_index(s, k) if 0 <= k < utf16_length(s) else ""


def _str_at(s: str, i: Any = 0) -> Any:
    n = utf16_length(s)
    k = _int_arg(i, "the index", 0)
    k = k + n if k < 0 else k
    return utf16_index(s, k) if 0 <= k < n else UNDEFINED


_JS_SPACE = (
    " \t\n\v\f\r\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)

STRING_METHODS: dict[str, Callable[..., Any]] = {
    "toUpperCase": str.upper,
    "toLowerCase": str.lower,
    "trim": lambda s: s.strip(_JS_SPACE),
    "trimStart": lambda s: s.lstrip(_JS_SPACE),
    "trimEnd": lambda s: s.rstrip(_JS_SPACE),
    "includes": lambda s, sub: _text(sub, "the text to find") in s,
    "startsWith": lambda s, sub: s.startswith(_text(sub, "the prefix")),
    "endsWith": lambda s, sub: s.endswith(_text(sub, "the suffix")),
    "slice": _str_slice,
    "substring": _substring,
    "split": _split,
    "replace": _replace,
    "replaceAll": _replace_all,
    "padStart": lambda s, n, fill=UNDEFINED: _pad(s, n, fill, True),
    "padEnd": lambda s, n, fill=UNDEFINED: _pad(s, n, fill, False),
    "repeat": _repeat,
    "indexOf": _str_index_of,
    "charAt": _char_at,
    "at": _str_at,
}


# -- globals ----------------------------------------------------------------------------------
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
        raise JsRefusal("Math.min() of nothing is Infinity, which JSON cannot hold")
    return number(min(xs))


def _max(*args: Any) -> Any:
    xs = _finite_numbers(args, "Math.max")
    if not xs:
        raise JsRefusal("Math.max() of nothing is -Infinity, which JSON cannot hold")
    return number(max(xs))


def _one_number(name: str, fn: Callable[[float], Any]) -> Callable[..., Any]:
    def apply(x: Any = UNDEFINED, *_rest: Any) -> Any:
        if not is_number(x):
            raise JsRefusal(f"{name} takes a number, got {_a(kind(x))}")
        return number(fn(x))

    return apply


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


def _keys(obj: Any) -> list[str]:
    if type(obj) is dict:
        return list(obj)
    if type(obj) is list:
        return [str(i) for i in range(len(obj))]
    raise JsRefusal(f"Object.keys of {_a(kind(obj))} is not supported")


def _values(obj: Any) -> list[Any]:
    if type(obj) is dict:
        return list(obj.values())
    if type(obj) is list:
        return list(obj)
    raise JsRefusal(f"Object.values of {_a(kind(obj))} is not supported")


def _entries(obj: Any) -> list[list[Any]]:
    if type(obj) is dict:
        return [[k, v] for k, v in obj.items()]
    if type(obj) is list:
        return [[str(i), v] for i, v in enumerate(obj)]
    raise JsRefusal(f"Object.entries of {_a(kind(obj))} is not supported")


def _from_entries(pairs: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in _array(pairs, "Object.fromEntries' argument"):
        if type(pair) is not list or len(pair) < 2:
            raise JsRefusal("Object.fromEntries takes [key, value] pairs")
        key = pair[0]
        if type(key) is not str:
            if is_number(key):
                key = js_number_to_string(key)
            else:
                raise JsRefusal(f"an object key must be text or a number, got {_a(kind(key))}")
        if key == "__proto__":
            raise JsRefusal("the key `__proto__` is not allowed")
        out[key] = pair[1]
    return out


def json_stringify(value: Any, stringify: Callable[[Any], str], indent: Any = UNDEFINED) -> Any:
    """``JSON.stringify``: compact, keys in order, numbers as JavaScript writes them."""
    if indent is not UNDEFINED:
        raise JsRefusal("JSON.stringify with an indent is not supported", "Omit the indent.")
    if value is UNDEFINED:
        return UNDEFINED
    out: list[str] = []
    stack: list[Any] = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, _Lit):
            out.append(v.text)
            continue
        t = type(v)
        if t is str:
            out.append(orjson.dumps(v).decode())
        elif t is bool:
            out.append("true" if v else "false")
        elif t is int or t is float:
            out.append(js_number_to_string(v))
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
            for k, x in v.items():
                if x is UNDEFINED:
                    continue
                parts.append(_Lit(("" if first else ",") + orjson.dumps(k).decode() + ":"))
                parts.append(x)
                first = False
            parts.append(_Lit("}"))
            stack.extend(reversed(parts))
        else:
            out.append(orjson.dumps(stringify(v)).decode())
    return "".join(out)


class _Lit:
    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def json_parse(text: Any) -> Any:
    text = _text(text, "JSON.parse's argument")
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        raise JsRefusal(f"JSON.parse: the text is not JSON ({exc})") from None


_INT_PREFIX = re.compile(r"[+-]?[0-9]+")
_FLOAT_PREFIX = re.compile(r"[+-]?(?:Infinity|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)")


def parse_int(value: Any, radix: Any = UNDEFINED) -> Any:
    if radix is not UNDEFINED and radix != 10:
        if radix == 16 and type(value) is str:
            m = re.match(r"\s*([+-]?)(?:0[xX])?([0-9a-fA-F]+)", value)
            if m:
                return number(int(m.group(1) + m.group(2), 16))
            raise JsRefusal("parseInt gives NaN here: the text does not start with a number")
        raise JsRefusal("parseInt supports radix 10 and 16 only")
    text = value if type(value) is str else _text(value, "parseInt's argument")
    m = _INT_PREFIX.match(text.lstrip(_JS_SPACE))
    if m is None:
        raise JsRefusal(
            "parseInt gives NaN here: the text does not start with a number",
            "Check the text first.",
        )
    n = int(m.group())
    if abs(n) > MAX_SAFE:
        raise JsRefusal("the number is beyond 2**53, which JavaScript cannot hold exactly")
    return n


def parse_float(value: Any) -> Any:
    text = value if type(value) is str else _text(value, "parseFloat's argument")
    m = _FLOAT_PREFIX.match(text.lstrip(_JS_SPACE))
    if m is None or "Infinity" in m.group():
        raise JsRefusal(
            "parseFloat gives NaN here: the text does not start with a number",
            "Check the text first.",
        )
    return number(float(m.group()))


def globals_table(stringify: Callable[[Any], str]) -> dict[str, Callable[..., Any]]:
    """The supported global functions by their JavaScript name."""
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
        "JSON.stringify": lambda v, *rest: json_stringify(v, stringify, *rest),
        "JSON.parse": json_parse,
        "Number": lambda v=0: to_number(v),
        "String": lambda v="": to_string(v, stringify),
        "Boolean": lambda v=False: truthy(v),
        "parseInt": parse_int,
        "parseFloat": parse_float,
        "Array.isArray": lambda v=UNDEFINED: type(v) is list,
    }


GLOBALS = frozenset(globals_table(str))
NAMESPACES = frozenset(name.split(".")[0] for name in GLOBALS if "." in name)


def plain_method(receiver: Any, name: str, stringify: Callable[[Any], str]) -> Callable[..., Any]:
    """The method ``name`` of ``receiver`` (an array or a string) that takes no function."""
    t = type(receiver)
    if t is list:
        if name in MUTATORS:
            raise JsRefusal(
                f"{name}() changes the array in place; programs do not change values",
                f"Build a new array instead: {MUTATORS[name]}.",
            )
        fn = _array_method(name, stringify)
        if fn is not None:
            return fn
        raise JsRefusal(f"arrays have no method `{name}` here", _known("array"))
    if t is str:
        fn = STRING_METHODS.get(name)
        if fn is not None:
            return fn
        raise JsRefusal(f"texts have no method `{name}` here", _known("string"))
    raise JsRefusal(
        f"cannot call `.{name}()` on {_a(kind(receiver))}",
        "Methods work on arrays and texts; check the value first (`x ?? []`).",
    )


def _known(what: str) -> str:
    names = sorted(ARRAY_PLAIN | ARRAY_HIGHER) if what == "array" else sorted(STRING_METHODS)
    return "The supported methods are: " + ", ".join(names) + "."


ALL_METHODS = frozenset(ARRAY_PLAIN | ARRAY_HIGHER | set(STRING_METHODS) | set(MUTATORS))
