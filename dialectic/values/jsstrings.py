"""JavaScript's strings on Python ones: measured and indexed in UTF-16 code units, the
argument checks the methods share, ``String(x)``, and the string methods (SPEC.md section 1.8).
See :mod:`dialectic.values.jsmethods`."""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Callable
from functools import lru_cache, partial
from typing import Any, Literal

from dialectic.values.arraytext import array_text
from dialectic.values.collation import locale_compare
from dialectic.values.data import UNDEFINED
from dialectic.values.jsnumber import js_number_to_string
from dialectic.values.jsops import JsRefusal, TextTooLong, is_number, kind
from dialectic.values.jsregex import new_regexp
from dialectic.values.textreplace import replace_text


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


def to_string(v: Any, stringify: Callable[[Any], str], limit: int | None = None) -> str:
    """``String(v)`` for primitives, arrays of them (within ``limit`` characters, else as
    ``stringify``, a template's, writes them) and registered values; objects are refused."""
    t = type(v)
    if t is str:
        return v  # type: ignore[no-any-return]
    if is_number(v) or t is bool:
        return js_number_to_string(v)
    if v is None:
        return "null"
    if v is UNDEFINED:
        return "undefined"
    if t is list and limit is not None:
        return array_text(v, stringify, limit)
    if t is dict:
        raise JsRefusal(
            f"String() of {_a(kind(v))} gives `[object Object]` in JavaScript",
            "Use JSON.stringify(x), or its fields: `${o.name} (${o.id})`.",
        )
    return stringify(v)


# -- string methods --------------------------------------------------------------------------
def _str_slice(s: str, start: Any = UNDEFINED, end: Any = UNDEFINED) -> str:
    n = utf16_length(s)
    return utf16_slice(s, _relative(start, n, "start", 0), _relative(end, n, "end", n))


def _substring(s: str, start: Any = UNDEFINED, end: Any = UNDEFINED) -> str:
    n = utf16_length(s)
    a = min(max(_int_arg(start, "start", 0), 0), n)
    b = min(max(_int_arg(end, "end", n), 0), n)
    return utf16_slice(s, min(a, b), max(a, b))


def _is_regex(v: Any) -> bool:
    return getattr(type(v), "js_kind", None) == "RegExp"


def _uint32(v: Any, what: str) -> int:
    """JavaScript's ToUint32 of a number (``split``'s limit: -1 is 4294967295, no limit)."""
    if not is_number(v):
        raise JsRefusal(f"{what} must be a number, got {_a(kind(v))}")
    if type(v) is float:
        if math.isnan(v) or math.isinf(v):
            return 0
        v = int(v)
    return int(v) % 2**32


def _split(s: str, sep: Any = UNDEFINED, limit: Any = UNDEFINED) -> list[str]:
    count = 2**32 - 1 if limit is UNDEFINED else _uint32(limit, "the limit")
    if _is_regex(sep):  # (a regular expression: SPEC 1.8, "Regular expressions")
        return sep.split(s, count)  # type: ignore[no-any-return]
    if sep is UNDEFINED:
        out = [s]
    else:
        sep = _text(sep, "the separator")
        if sep == "":
            if not _bmp(s):
                units = _units(s)
                out = [_from_units(units[i : i + 2]) for i in range(0, len(units), 2)]
            else:
                out = list(s)
        else:
            out = s.split(sep)
    if count < len(out):
        out = out[:count]
    return out


def _regex_replacement(new: Any) -> str:
    if type(new) is not str:
        raise JsRefusal(
            f"the replacement must be text or an arrow function, got {_a(kind(new))}",
            "Convert with String(x).",
        )
    return new


def _replace(s: str, old: Any, new: Any, *, limit: int) -> str:
    if _is_regex(old):
        return old.replace(s, _regex_replacement(new), limit, old.is_global)  # type: ignore[no-any-return]
    old = _text(old, "the text to replace")
    new = _text(new, "the replacement")
    if "$" in new:  # a pattern in JavaScript (`$&`, `$$`, ...)
        return replace_text(s, old, new, limit, False)
    if len(new) > len(old) and len(s) + len(new) - len(old) > limit and old in s:
        raise TextTooLong(len(s) + len(new) - len(old), limit)
    return s.replace(old, new, 1)


def _replace_all(s: str, old: Any, new: Any, *, limit: int) -> str:
    if _is_regex(old):
        if not old.is_global:
            raise JsRefusal(
                "replaceAll() takes a regex with the g flag (a TypeError in JavaScript)",
                "Add the g flag: s.replaceAll(/.../g, ...), or use s.replace(re, ...).",
            )
        return old.replace(s, _regex_replacement(new), limit, True)  # type: ignore[no-any-return]
    old = _text(old, "the text to replace")
    new = _text(new, "the replacement")
    if old == "":
        raise JsRefusal("replaceAll('') inserts between every character", "Use split('').join(x).")
    if "$" in new:  # a pattern in JavaScript (`$&`, `$$`, ...)
        return replace_text(s, old, new, limit, True)
    if len(new) > len(old):
        grown = len(s) + s.count(old) * (len(new) - len(old))
        if grown > limit:  # measured before the text is built
            raise TextTooLong(grown, limit)
    return s.replace(old, new)


def _pad(s: str, length: Any, fill: Any, at_start: bool, limit: int) -> str:
    target = _int_arg(length, "the length", 0)
    filler: str = " " if fill is UNDEFINED else _text(fill, "the padding")
    n = utf16_length(s)
    if target <= n or filler == "":
        return s
    need = target - n
    if len(s) + need > limit:  # measured before the text is built
        raise TextTooLong(len(s) + need, limit)
    if not _bmp(filler):
        raise JsRefusal("padding with characters beyond the BMP (such as emoji) is not supported")
    pad = (filler * (need // len(filler) + 1))[:need]
    return pad + s if at_start else s + pad


def _repeat(s: str, count: Any, *, limit: int) -> str:
    n = _int_arg(count, "the count", 0)
    if n < 0 or count in (math.inf, -math.inf):
        raise JsRefusal("repeat() with a negative or infinite count is a RangeError in JavaScript")
    if len(s) * n > limit:  # measured before the text is built
        raise TextTooLong(len(s) * n, limit)
    return s * n


_FORMS: tuple[Literal["NFC", "NFD", "NFKC", "NFKD"], ...] = ("NFC", "NFD", "NFKC", "NFKD")


def _normalize(s: str, form: Any = UNDEFINED, *, limit: int) -> str:
    """``s.normalize(form)``: Unicode's normalization forms (NFC by default). A character that
    this Python's Unicode tables do not know is refused: Node's may know it, and normalization
    is stable only for assigned characters (Unicode's stability policy)."""
    name = "NFC" if form is UNDEFINED else form
    if name not in _FORMS:
        raise JsRefusal(
            f"normalize() takes 'NFC', 'NFD', 'NFKC' or 'NFKD', not {name!r} "
            "(JavaScript throws a RangeError)"
        )
    if not s.isascii():
        for ch in s:
            if unicodedata.category(ch) == "Cn":
                raise JsRefusal(
                    f"normalize() of U+{ord(ch):04X}, a character this runtime's Unicode "
                    f"tables ({unicodedata.unidata_version}) do not know: Node's may normalize "
                    "it otherwise"
                )
    out = unicodedata.normalize(_FORMS[_FORMS.index(name)], s)
    if len(out) > limit:
        raise TextTooLong(len(out), limit)
    return out


def _str_index_of(s: str, sub: Any, start: Any = UNDEFINED) -> int:
    sub = _text(sub, "the text to find")
    # the start is clamped to the text, as JavaScript does (a negative one is 0, not counted
    # from the end: 'abc'.indexOf('', 10) is 3)
    i = max(_int_arg(start, "start", 0), 0) if start is not UNDEFINED else 0
    if not _bmp(s) or not _bmp(sub):
        u, v = _units(s), _units(sub)
        pos = u.find(v, 2 * min(i, len(u) // 2))
        while pos != -1 and pos % 2:
            pos = u.find(v, pos + 1)
        return -1 if pos == -1 else pos // 2
    return s.find(sub, min(i, len(s)))


def _str_includes(s: str, sub: Any, start: Any = UNDEFINED) -> bool:
    if start is UNDEFINED:
        return _text(sub, "the text to find") in s
    return _str_index_of(s, sub, start) != -1


def _starts_with(s: str, sub: Any, start: Any = UNDEFINED) -> bool:
    """``s.startsWith(sub, start)``: ``start`` a UTF-16 index, clamped to the text."""
    sub = _text(sub, "the prefix")
    if start is UNDEFINED:
        return s.startswith(sub)
    i = max(_int_arg(start, "the start", 0), 0)
    if _bmp(s) and _bmp(sub):
        return s.startswith(sub, min(i, len(s)))
    u = _units(s)
    return u.startswith(_units(sub), 2 * min(i, len(u) // 2))


def _ends_with(s: str, sub: Any, end: Any = UNDEFINED) -> bool:
    """``s.endsWith(sub, end)``: ``end`` a UTF-16 index, clamped to the text."""
    sub = _text(sub, "the suffix")
    if end is UNDEFINED:
        return s.endswith(sub)
    k = max(_int_arg(end, "the end", 0), 0)
    if _bmp(s) and _bmp(sub):
        return s.endswith(sub, 0, min(k, len(s)))
    u = _units(s)
    return u.endswith(_units(sub), 0, 2 * min(k, len(u) // 2))


def _char_at(s: str, i: Any = 0) -> str:
    k = _int_arg(i, "the index", 0)
    return utf16_index(s, k) if 0 <= k < utf16_length(s) else ""


def _str_at(s: str, i: Any = 0) -> Any:
    n = utf16_length(s)
    k = _int_arg(i, "the index", 0)
    k = k + n if k < 0 else k
    return utf16_index(s, k) if 0 <= k < n else UNDEFINED


def _char_code_at(s: str, i: Any = 0) -> int:
    """``s.charCodeAt(i)``: the UTF-16 code unit at ``i``; past either end JavaScript gives
    NaN, which a program cannot hold (refused)."""
    k = _int_arg(i, "the index", 0)
    if not 0 <= k < utf16_length(s):
        raise JsRefusal(
            f"charCodeAt({k}) is past the text's end: NaN in JavaScript, which JSON cannot hold",
            "Test the index first: i < s.length ? s.charCodeAt(i) : null.",
        )
    if _bmp(s):
        return ord(s[k])
    return int.from_bytes(_units(s)[2 * k : 2 * k + 2], "little")


def _code_point_at(s: str, i: Any = 0) -> Any:
    """``s.codePointAt(i)``: the code point that starts at UTF-16 unit ``i`` (a pair's second
    unit alone at its own index), undefined past either end."""
    k = _int_arg(i, "the index", 0)
    if not 0 <= k < utf16_length(s):
        return UNDEFINED
    if _bmp(s):
        return ord(s[k])
    units = _units(s)
    first = int.from_bytes(units[2 * k : 2 * k + 2], "little")
    if 0xD800 <= first <= 0xDBFF and 2 * k + 4 <= len(units):
        second = int.from_bytes(units[2 * k + 2 : 2 * k + 4], "little")
        if 0xDC00 <= second <= 0xDFFF:
            return 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
    return first


def _substr(s: str, start: Any = UNDEFINED, length: Any = UNDEFINED) -> str:
    """``s.substr(start, length)``: ``length`` units from ``start`` (counted from the end when
    negative)."""
    n = utf16_length(s)
    a = _relative(start, n, "start", 0)
    size = n - a if length is UNDEFINED else min(max(_int_arg(length, "the length", 0), 0), n - a)
    return utf16_slice(s, a, a + size)


def _str_last_index_of(s: str, sub: Any) -> int:
    """The last position of ``sub`` in ``s``, in UTF-16 code units."""
    sub = _text(sub, "the text to find")
    if s.isascii() and sub.isascii():
        return s.rfind(sub)
    units, find = s.encode("utf-16-be", "surrogatepass"), sub.encode("utf-16-be", "surrogatepass")
    pos = units.rfind(find)
    while pos != -1 and pos % 2:
        pos = units.rfind(find, 0, pos + len(find) - 1)
    return -1 if pos == -1 else pos // 2


def _str_concat(s: str, *parts: Any, limit: int) -> str:
    total = len(s) + sum(len(p) for p in parts if type(p) is str)
    if total > limit:  # the texts measured before the text is built (numbers' are short)
        raise TextTooLong(total, limit)
    out = [s]
    for p in parts:
        if type(p) is str:
            out.append(p)
        elif is_number(p) or type(p) is bool or p is None or p is UNDEFINED:
            out.append(
                js_number_to_string(p)
                if is_number(p)
                else {True: "true", False: "false", None: "null"}.get(p, "undefined")
            )
        else:
            raise JsRefusal(
                f"concat() of {_a(kind(p))} writes it as JavaScript's String() does",
                "Concatenate texts: a + b, or JSON.stringify(x) first.",
            )
    made = "".join(out)
    if len(made) > limit:
        raise TextTooLong(len(made), limit)
    return made


def _regex(v: Any, method: str, flags: str = "") -> Any:
    """The regex argument of ``match``, ``matchAll`` (``flags`` "g") and ``search``: a text is
    the pattern of a new one, as JavaScript makes it (``'a.b'.search('.')`` is 0)."""
    if _is_regex(v):
        return v
    if type(v) is str:
        return new_regexp(v, flags)
    raise JsRefusal(
        f"{method}() takes a regular expression, got {_a(kind(v))}",
        "Write a regex: s.match(/\\d+/), or new RegExp(text) for a pattern held in a text.",
    )


def _match(s: str, re: Any = UNDEFINED) -> Any:
    return _regex(re, "match").match(s)


def _match_all(s: str, re: Any = UNDEFINED) -> Any:
    return _regex(re, "matchAll", "g").match_all(s)


def _search(s: str, re: Any = UNDEFINED) -> Any:
    return _regex(re, "search").search(s)


_JS_SPACE = (
    " \t\n\v\f\r\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)

#: the string methods whose text cannot grow past what they are given (a case change grows
#: a few characters by a few: a method's result is measured by its caller, SPEC 1.8 "Limits")
_UNSIZED: dict[str, Callable[..., Any]] = {
    "toUpperCase": str.upper,
    "toLowerCase": str.lower,
    "trim": lambda s: s.strip(_JS_SPACE),
    "trimStart": lambda s: s.lstrip(_JS_SPACE),
    "trimEnd": lambda s: s.rstrip(_JS_SPACE),
    "includes": _str_includes,
    "startsWith": _starts_with,
    "endsWith": _ends_with,
    "slice": _str_slice,
    "substring": _substring,
    "split": _split,
    "indexOf": _str_index_of,
    "charAt": _char_at,
    "at": _str_at,
    "lastIndexOf": lambda s, sub: _str_last_index_of(s, sub),
    "charCodeAt": _char_code_at,
    "codePointAt": _code_point_at,
    "substr": _substr,
    "toString": lambda s, *_: s,  # (a text ignores a radix)
    "match": _match,
    "matchAll": _match_all,
    "search": _search,
    "localeCompare": locale_compare,
}


def _pad_start(s: str, n: Any, fill: Any = UNDEFINED, *, limit: int) -> str:
    return _pad(s, n, fill, True, limit)


def _pad_end(s: str, n: Any, fill: Any = UNDEFINED, *, limit: int) -> str:
    return _pad(s, n, fill, False, limit)


#: the string methods that make a longer text, each measuring it against ``limit`` (the run's
#: ``max_string_length``, a keyword) before building it
_SIZED: dict[str, Callable[..., Any]] = {
    "replace": _replace,
    "replaceAll": _replace_all,
    "padStart": _pad_start,
    "padEnd": _pad_end,
    "repeat": _repeat,
    "concat": _str_concat,
    "normalize": _normalize,
}

#: the names of the string methods
STRING_METHODS = frozenset(_UNSIZED) | frozenset(_SIZED)


@lru_cache(maxsize=16)
def string_methods(limit: int) -> dict[str, Callable[..., Any]]:
    """The string methods by name, the ones that make longer texts bound to ``limit`` (the
    run's ``max_string_length``); built once per limit."""
    return {**_UNSIZED, **{name: partial(fn, limit=limit) for name, fn in _SIZED.items()}}
