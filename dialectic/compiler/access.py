"""Member access: what a program may read of a value, and nothing else (SPEC.md section 8).

JSON data exposes its keys and indexes (and ``length``); a registered type exposes its declared
fields and ``properties``. Python attributes are never reached, and the forbidden names
(:mod:`dialectic.resolve.forbidden`) are refused everywhere.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

from dialectic.outcome.errors import DialecticError, Failure, JSONPath, clip
from dialectic.registry.descriptions import TypeDescription
from dialectic.registry.registry import Registry, closest
from dialectic.resolve.forbidden import forbidden_error, is_forbidden
from dialectic.values.coercion import TypeSystem
from dialectic.values.collections import is_collection
from dialectic.values.data import UNDEFINED
from dialectic.values.jsmethods import utf16_index, utf16_length
from dialectic.values.jsnumber import js_number_to_string
from dialectic.values.jsops import MAX_SAFE, JsRefusal
from dialectic.values.keyorder import property_key
from dialectic.values.matchinfo import MEMBERS, NOT_A_MATCH, match_member

#: a text that names an array index in JavaScript (`"0"`, `"17"`; not `"-1"` or `"01"`, which
#: name no item: `xs["-1"]` is undefined where `xs[-1]` written in the tree counts from the end)
_INDEX = re.compile(r"0|[1-9][0-9]{0,17}")

#: what arrays, texts, numbers and booleans inherit in JavaScript (Array.prototype,
#: String.prototype...; Object.prototype's names are forbidden members): reading one gives a
#: function, never undefined, so where the data may be missing it still fails
_ARRAY = frozenset({
    "at", "concat", "copyWithin", "fill", "find", "findIndex", "findLast", "findLastIndex",
    "lastIndexOf", "pop", "push", "reverse", "shift", "unshift", "slice", "sort", "splice",
    "includes", "indexOf", "join", "keys", "entries", "values", "forEach", "filter", "flat",
    "flatMap", "map", "every", "some", "reduce", "reduceRight", "toReversed", "toSorted",
    "toSpliced", "with", "group", "groupToMap",
})  # fmt: skip
_STRING = frozenset({
    "anchor", "at", "big", "blink", "bold", "charAt", "charCodeAt", "codePointAt", "concat",
    "endsWith", "fontcolor", "fontsize", "fixed", "includes", "indexOf", "isWellFormed",
    "italics", "lastIndexOf", "link", "localeCompare", "match", "matchAll", "normalize",
    "padEnd", "padStart", "repeat", "replace", "replaceAll", "search", "slice", "small",
    "split", "strike", "sub", "substr", "substring", "sup", "startsWith", "toWellFormed",
    "trim", "trimStart", "trimLeft", "trimEnd", "trimRight", "toLocaleLowerCase",
    "toLocaleUpperCase", "toLowerCase", "toUpperCase",
})  # fmt: skip
_NUMBER = frozenset({"toExponential", "toFixed", "toPrecision"})
INHERITED: dict[type, frozenset[str]] = {
    list: _ARRAY,
    str: _STRING,
    int: _NUMBER,
    float: _NUMBER,
    bool: frozenset(),
}


def soft_member(
    member: Callable[[Any, Any, JSONPath], Any], value: Any, key: Any, path: JSONPath
) -> Any:
    """``member(value, key, path)`` where the program says the data may be missing (SPEC 1.2,
    "Optional members"): of JSON data (an object, an array, a text, a number, a boolean), a
    member it lacks or an index past its end is undefined. Anything else fails as ``member``
    does: a forbidden name, an undeclared member of a registered type, a member of null or
    undefined."""
    t = type(value)
    if t is dict and type(key) is str and not is_forbidden(key):
        # (no error built for a missing key: its "did you mean" compares the key with up to
        # 2,000 others, which made `acc[k] || 0` in a reduce cost O(keys) per item)
        return value.get(key, UNDEFINED)
    if t is dict and type(key) is int and -MAX_SAFE <= key <= MAX_SAFE:
        return value.get(str(key), UNDEFINED)  # (a number names the key of its text)
    if t is dict or t is list or t is str or t is int or t is float or t is bool:
        try:
            return member(value, key, path)
        except DialecticError as exc:
            if exc.code == "member_not_found" or exc.code == "index_out_of_range":
                if type(key) is str and t is not dict and key in INHERITED[t]:
                    raise _a_method(key, path) from None
                return UNDEFINED
            raise
    return member(value, key, path)


def _a_method(key: str, path: JSONPath) -> DialecticError:
    return DialecticError(
        "expression_error",
        f"`{clip(key)}` is a method in JavaScript: reading it gives a function, never "
        "undefined, and programs have no function values",
        path,
        hint=f"Call it (`x.{clip(key)}(...)`), or test the value itself "
        "(`Array.isArray(x)`, `typeof x === 'string'`).",
    )


def _float_key(key: float) -> int | float | str:
    """A number key as JavaScript reads it: a whole one as an index, an infinity as its text
    (`o[Infinity]` is `o["Infinity"]`)."""
    if key.is_integer():
        return int(key)
    if key in (math.inf, -math.inf):
        return "Infinity" if key > 0 else "-Infinity"
    return key


def _no_member(value: dict[str, Any], key: str, path: JSONPath) -> DialecticError:
    near = closest(key, list(value))
    return DialecticError(
        "member_not_found",
        f"the object has no member `{clip(key)}`"
        + (f"; did you mean `{near[0]}`?" if near else ""),
        path,
        hint=(
            "Its members are: " + ", ".join(f"`{clip(k)}`" for k in list(value)[:20])
            if value
            else "It is an empty object"
        )
        + f". If `{clip(key)}` may be missing, give a default: `... ?? default`.",
    )


def _declared(td: TypeDescription, value: Any, key: str, path: JSONPath) -> Any:
    """The declared field or property ``key`` of ``value``, a registered type's."""
    if key in td.parameters:
        getter = td.fields or getattr
        return getter(value, key)
    prop = td.properties.get(key)
    if prop is not None:
        try:
            return prop(value)
        except Failure as exc:
            raise DialecticError(exc.code, exc.message, path, hint=exc.hint)
        except Exception as exc:
            raise DialecticError(
                "function_error",
                f"reading `{key}` of a {td.name} failed: {type(exc).__name__}: {exc}",
                path,
            )
    members = [*td.parameters, *td.properties]
    near = closest(key, members)
    raise DialecticError(
        "member_not_found",
        f"a {td.name} has no member `{clip(key)}`"
        + (f"; did you mean `{near[0]}`?" if near else ""),
        path,
        hint="Its members are: " + ", ".join(f"`{m}`" for m in members),
    )


class Access:
    """Reads members of run-time values for one registry."""

    def __init__(self, registry: Registry, types: TypeSystem) -> None:
        self.registry = registry
        self.types = types

    def member(self, value: Any, key: Any, path: JSONPath) -> Any:
        """``value[key]`` for data, or a declared field/property of a registered type."""
        t = type(value)
        if type(key) is float:
            key = _float_key(key)
        if type(key) is str:
            if is_forbidden(key):
                raise forbidden_error(key, path)
            if t is dict:
                if key in value:
                    return value[key]
                raise _no_member(value, key, path)
            if t is list or t is str:
                if key == "length":  # a text's length in UTF-16 code units, as JavaScript's
                    return len(value) if t is list else utf16_length(value)
                if _INDEX.fullmatch(key):
                    return self.member(value, int(key), path)
                if key in MEMBERS and t is list:  # a match array's (s.match(re), matchAll)
                    found = match_member(value, key)
                    if found is not NOT_A_MATCH:
                        return found
            if is_collection(value):  # `m.size` (SPEC 1.8, "Maps and Sets")
                try:
                    return value.member(key)
                except JsRefusal as exc:
                    raise DialecticError(
                        "expression_error", exc.message, path, hint=exc.hint
                    ) from None
            td = self.registry.type_of_class(t)
            if td is not None:
                return _declared(td, value, key, path)
            raise self._cannot_read(value, key, path)
        if type(key) is int:
            if t is list or t is str:
                n = len(value) if t is list else utf16_length(value)
                i = key + n if key < 0 else key
                if 0 <= i < n:
                    if t is str:
                        try:
                            return utf16_index(value, i)
                        except JsRefusal as exc:
                            raise DialecticError("expression_error", exc.message, path) from None
                    return value[i]
                shown = key if -(10**18) < key < 10**18 else "(a huge number)"
                raise DialecticError(
                    "index_out_of_range",
                    f"index {shown} is out of range for {'an array' if t is list else 'a string'} "
                    f"of length {n}",
                    path,
                    hint="If the index may be past the end, give a default: `... ?? default`.",
                )
            if t is dict:
                if -MAX_SAFE <= key <= MAX_SAFE:
                    return self.member(value, str(key), path)
                try:  # the key JavaScript makes of the number, if it names this integer
                    return self.member(value, js_number_to_string(key), path)
                except JsRefusal as exc:
                    raise DialecticError(
                        "expression_error", exc.message, path, hint=exc.hint
                    ) from None
            raise self._cannot_read(value, key, path)
        named = property_key(key)  # `o[null]` is `o["null"]`, `o[1.5]` `o["1.5"]` (SPEC 1.2)
        if named is not None:
            return self.member(value, named, path)
        raise DialecticError(
            "invalid_key",
            "a member key must be a string, a number, a boolean, null or undefined, got "
            f"{self.types.type_of(key)}",
            path,
        )

    def _cannot_read(self, value: Any, key: Any, path: JSONPath) -> DialecticError:
        kind = "undefined" if value is UNDEFINED else self.types.type_of(value)
        hint = "Member access works on objects, arrays, strings and registered types."
        if type(value) is list and key in ("index", "groups", "input"):  # a match array's
            hint = (
                "Only a match array itself (s.match(re) without g, re.exec(s), an item of "
                "s.matchAll(re)) has index, input and groups; a copy of it ([...m], m.slice()) "
                "and the texts of s.match(/.../g) have not, as in JavaScript."
            )
        elif type(value) in (list, str) and key in _COUNTS:
            # `xs.size`, `xs.count`: a Map's and a Set's word, or Python's, for `length`
            hint = f"An array's or a text's count is `x.length` (`{key}` is {_COUNTS[key]})."
        elif type(value) is list and type(key) is str:
            n = len(value)
            hint = (
                f"The value is a list of {n} item{'s' if n != 1 else ''}: read an item first "
                f"(add `[0]` before `.{clip(key)}`; Plan2 lifts only a one-element result to "
                f"its item), or map over it: `.map(x => x.{clip(key)})`."
            )
        elif value is None or value is UNDEFINED:
            hint = "Give a default or read it optionally: `x?.key`, `x?.key ?? 'none'`."
        return DialecticError(
            "member_not_found",
            f"cannot read `{clip(key)}` of {'null' if value is None else kind}",
            path,
            hint=hint,
        )


#: member names models write for an array's or a text's `length`, and whose they are
_COUNTS = {
    "size": "a Map's or a Set's",
    "count": "no member of JavaScript's arrays",
    "len": "no member of JavaScript's arrays",
}
