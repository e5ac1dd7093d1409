"""Values out: executable-program form, JSON for outcomes, and template stringification.

A value of a registered type serializes as the call of its constructor, ``{"symbol": {...}}``,
which evaluates back to an equal value. Inside such a program a one-key object (which would read
as a call) is written ``{"$object": {...}}``.
"""

from __future__ import annotations

from typing import Any

import orjson

from dialectic.outcome.errors import DialecticError, LimitExceeded
from dialectic.registry.registry import Registry
from dialectic.values.arraytext import array_text
from dialectic.values.coercion import TypeSystem
from dialectic.values.collections import is_collection, leaving
from dialectic.values.data import (
    _INT64,
    DEFAULT_TEXT_LIMIT,
    DUMP_OPTIONS,
    MAX_VALUE_DEPTH,
    UNDEFINED,
    BadValue,
    NotJSON,
    TooDeep,
    TooLarge,
    _has_surrogate,
    json_safe,
)
from dialectic.values.infinity import infinity_leaving
from dialectic.values.jsdate import JsDate
from dialectic.values.jsglobals import json_stringify
from dialectic.values.jsnumber import js_number_to_string as js_number
from dialectic.values.jsops import JsRefusal, TextTooLong

_MAX_PROGRAM_DEPTH = 200
_SURROGATE = "the value contains a lone surrogate (not valid Unicode text)"


def value_error(exc: BadValue, limit_name: str = "max_output_bytes") -> DialecticError:
    """The runtime error for a value that cannot be written as JSON."""
    if isinstance(exc, TooLarge):
        return LimitExceeded(limit_name, f"{exc} ({limit_name} is {exc.limit})")
    if isinstance(exc, TooDeep):
        return LimitExceeded("max_depth", str(exc))
    return DialecticError(
        "invalid_value",
        f"the value cannot be written as JSON: {exc}",
        hint="Functions must return JSON data or values of registered types.",
    )


class Serializer:
    def __init__(
        self,
        registry: Registry,
        types: TypeSystem,
        output_limit: int = DEFAULT_TEXT_LIMIT * 5,
        text_limit: int = DEFAULT_TEXT_LIMIT,
    ) -> None:
        self.registry = registry
        self.types = types
        self.output_limit = output_limit
        self.text_limit = text_limit
        #: the Dates written so far (a count: a result that held one is read back from JSON)
        self.dates = 0

    def default(self, value: Any) -> Any:
        """orjson's ``default`` hook: registered values become their program form."""
        if value is UNDEFINED:
            return None
        td = self.registry.type_of_class(type(value))
        if td is not None:
            return {td.name: self.program(self.types.serialize_args(td, value))}
        if isinstance(value, tuple | set | frozenset):
            return list(value)
        if type(value) is JsDate:
            self.dates += 1  # (the result is then read back from its JSON: run/finish.py)
            return value.to_json()  # (its ISO text, as JSON.stringify writes it: SPEC 1.8)
        if is_collection(value):
            raise leaving(value)
        raise TypeError(
            f"a value of Python type {type(value).__name__} is neither JSON nor a registered type"
        )

    def program(self, value: Any, depth: int = 0) -> Any:
        """``value`` written as a program that evaluates to it."""
        if depth > _MAX_PROGRAM_DEPTH:
            raise DialecticError("limit_exceeded", "the value is nested too deeply to serialize")
        t = type(value)
        if t is str or t is int or t is float or t is bool or value is None:
            return value
        if t is list or t is tuple:
            return [self.program(v, depth + 1) for v in value]
        if t is dict:
            fields = {k: self.program(v, depth + 1) for k, v in value.items()}
            if len(fields) == 1 or any(k.startswith("$") for k in fields):
                return {"$object": fields}
            return fields
        if value is UNDEFINED:
            return {"$undefined": None}
        if t is JsDate:
            return value.to_json()
        if is_collection(value):
            refusal = leaving(value)
            raise DialecticError("expression_error", refusal.message, hint=refusal.hint)
        td = self.registry.type_of_class(t)
        if td is not None:
            return {td.name: self.program(self.types.serialize_args(td, value), depth + 1)}
        raise DialecticError(
            "invalid_value",
            f"a value of Python type {t.__name__} is neither JSON nor a registered type",
        )

    def measure(self, value: Any, limit: int) -> int:
        """At least how many bytes ``value`` takes as JSON (registered values as their program
        form), without building the text; raises :class:`TooLarge` as soon as that passes
        ``limit``. Iterative, and each step adds at least one byte, so it costs O(limit) even
        for a value that shares its parts exponentially (``b = [a, a]; c = [b, b]; ...``) or
        wraps a large text in a registered value (which ``check_size`` counts as a few bytes).
        """
        total = 0
        stack: list[Any] = [value]
        pop = stack.pop
        type_of = self.registry.type_of_class
        while stack:
            v = pop()
            t = type(v)
            if t is str:
                total += len(v) + 2
            elif t is list or t is tuple:
                total += 1 + len(v)  # brackets and commas
                if total > limit:
                    break
                stack.extend(v)
            elif t is dict:
                total += 1 + 2 * len(v)  # braces, colons and commas
                if total > limit:
                    break
                for k, x in v.items():
                    total += len(k) + 2 if type(k) is str else 1
                    stack.append(x)
            elif t is int or t is float or t is bool or v is None:
                total += 1
            else:
                td = type_of(t)
                if td is None:
                    total += 1  # `undefined`, or not JSON: check_size and orjson say which
                else:
                    total += len(td.name) + 4  # {"name":...}
                    stack.append(self.types.serialize_args(td, v))
            if total > limit:
                break
        if total > limit:
            raise TooLarge(limit)
        return total

    def scan(self, value: Any, limit: int) -> bool:
        """:func:`~dialectic.values.data.check_size` and :meth:`measure` in one walk, before
        ``value`` is written as JSON: raises :class:`TooLarge` once at least ``limit`` bytes
        are counted (each step counts at least one, so shared parts cost O(limit)),
        :class:`TooDeep` past :data:`MAX_VALUE_DEPTH` levels (registered values count as a
        level), ``NotJSON`` for a non-text key or a lone surrogate; returns whether an integer
        is beyond 64 bits. A container's scalar members are counted in place, not pushed."""
        # the value is walked as the one item of a list that adds nothing (its 2 bytes off)
        total = -2
        big = False
        stack: list[tuple[Any, int]] = [((value,), -1)]
        pop, push = stack.pop, stack.append
        type_of = self.registry.type_of_class
        while stack:
            v, depth = pop()
            t = type(v)
            if t is dict or t is list or t is tuple:
                if depth >= MAX_VALUE_DEPTH:
                    raise TooDeep()
                items = v.values() if t is dict else v
                total += 1 + (2 * len(v) if t is dict else len(v))
                if t is dict:
                    for k in v:
                        if type(k) is not str:
                            raise NotJSON(f"object keys must be text, not {type(k).__name__}")
                        total += len(k) + 2
                if total > limit:
                    raise TooLarge(limit)
                inner = depth + 1
                for x in items:
                    tx = type(x)
                    if tx is str:
                        total += len(x) + 2
                        if not x.isascii() and _has_surrogate(x):
                            raise NotJSON(_SURROGATE)
                    elif tx is int:
                        total += 1
                        if not -_INT64 <= x < _INT64:
                            big = True
                    elif tx is float or tx is bool or x is None:
                        total += 1
                    else:
                        push((x, inner))
                if total > limit:
                    raise TooLarge(limit)
                continue
            td = type_of(t)  # (a scalar is counted where its container is)
            if td is None:
                total += 1  # `undefined`, or not JSON: orjson's default says which
            else:
                total += len(td.name) + 4  # {"name":...}
                push((self.types.serialize_args(td, v), depth + 1))
            if total > limit:
                raise TooLarge(limit)
        return big

    def text_length_at_least(self, value: Any, limit: int) -> int:
        """At least how many characters :meth:`stringify` makes of ``value``, without building
        the text (for a template or ``str`` to refuse a huge result before building it);
        raises :class:`~dialectic.values.data.TooLarge` once that passes ``limit``. Exact for
        text; a lower bound otherwise."""
        t = type(value)
        if t is str:
            if len(value) > limit:
                raise TooLarge(limit)
            return len(value)
        if t is bool or t is int or t is float or value is None or value is UNDEFINED:
            return 1
        if t is list:  # (its items joined by commas: at least the commas)
            if len(value) - 1 > limit:
                raise TooLarge(limit)
            return max(len(value) - 1, 0)
        td = self.registry.type_of_class(t)
        if td is not None and td.format is not None:
            return 1  # (a plugin's format: its text is checked once made)
        return self.measure(value, limit)

    def dumps(
        self, value: Any, limit: int | None = None, limit_name: str = "max_output_bytes"
    ) -> bytes:
        """``value`` as JSON bytes; refused (``limit_exceeded``) beyond ``limit`` bytes, before
        the text is built (:meth:`measure`)."""
        limit = self.output_limit if limit is None else limit
        try:
            if self.scan(value, limit):
                value = json_safe(value)
            return orjson.dumps(value, default=self.default, option=DUMP_OPTIONS)
        except BadValue as exc:
            raise value_error(exc, limit_name) from None
        except (TypeError, orjson.JSONEncodeError) as exc:
            if isinstance(exc.__cause__, JsRefusal):  # a Map or a Set (SPEC 1.8)
                cause = exc.__cause__
                raise DialecticError("expression_error", cause.message, hint=cause.hint) from None
            raise DialecticError(
                "invalid_value",
                f"the value cannot be written as JSON: {exc}",
                hint="Functions must return JSON data or values of registered types.",
            ) from None

    def data(self, value: Any) -> Any:
        """The JSON-serializable form used by ``Outcome.to_json()``."""
        t = type(value)
        if t is str or t is bool or value is None or (t is int and -(2**63) <= value < 2**63):
            return value
        return orjson.loads(self.dumps(value))

    def stringify(self, value: Any) -> str:
        """Template stringification: JavaScript's String() for primitives and arrays of them,
        JSON for an object."""
        t = type(value)
        if t is str:
            return value  # type: ignore[no-any-return]
        if t is bool:
            return "true" if value else "false"
        if t is int or t is float:
            try:
                return js_number(value)
            except JsRefusal as exc:  # an integer beyond 2**53 Node would write differently
                raise DialecticError("expression_error", exc.message, hint=exc.hint) from None
        if value is None:
            return "null"
        if value is UNDEFINED:
            return "undefined"
        if t is JsDate or hasattr(t, "to_text"):  # (a URL, a URLSearchParams, a Buffer)
            text: str = value.to_text()
            return text  # (String(d): `Mon Jan 15 2024 10:30:00 GMT+0000 (...)`)
        if is_collection(value):  # (JavaScript writes `[object Map]`)
            refusal = leaving(value)
            raise DialecticError("expression_error", refusal.message, hint=refusal.hint)
        td = self.registry.type_of_class(t)
        if td is not None and td.format is not None:
            return td.format(value)
        if t is list:  # as JavaScript writes it: `1,2,3`
            try:
                self.scan(value, self.text_limit)  # (its depth and size checked as for JSON)
                return array_text(value, self.stringify, self.text_limit)
            except BadValue as exc:
                raise value_error(exc, "max_string_length") from None
            except TextTooLong as exc:
                raise LimitExceeded("max_string_length", exc.message) from None
            except JsRefusal:  # an object inside: the array as JSON, as an object is (SPEC 5)
                pass
        if t is dict or t is list:
            # as JSON.stringify writes it: numbers as JavaScript writes them (`1`, not `1.0`),
            # an undefined member left out; a registered value inside as its program form
            limit = self.text_limit
            try:
                self.scan(value, limit)  # (its depth, size and keys checked as for JSON)
                held = infinity_leaving(value)
                if held is not None:  # (JSON would write it null: a value lost unseen)
                    raise held.error("the template's value")
                return json_stringify(  # type: ignore[no-any-return]
                    value,
                    self.stringify,
                    limit=limit,
                    raw=lambda v: self.dumps(v, limit, "max_string_length").decode(),
                )
            except BadValue as exc:
                raise value_error(exc, "max_string_length") from None
            except TextTooLong as exc:
                raise LimitExceeded("max_string_length", exc.message) from None
            except JsRefusal as exc:  # an integer beyond 2**53 inside
                raise DialecticError("expression_error", exc.message, hint=exc.hint) from None
            except orjson.JSONEncodeError:
                raise DialecticError("invalid_value", _SURROGATE) from None
        return self.dumps(value, self.text_limit, "max_string_length").decode()
