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
from dialectic.values.coercion import TypeSystem
from dialectic.values.data import (
    DEFAULT_TEXT_LIMIT,
    DUMP_OPTIONS,
    UNDEFINED,
    BadValue,
    TooDeep,
    TooLarge,
    check_size,
    json_safe,
)
from dialectic.values.jsnumber import js_number_to_string as js_number

_MAX_PROGRAM_DEPTH = 200


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

    def default(self, value: Any) -> Any:
        """orjson's ``default`` hook: registered values become their program form."""
        if value is UNDEFINED:
            return None
        td = self.registry.type_of_class(type(value))
        if td is not None:
            return {td.name: self.program(self.types.serialize_args(td, value))}
        if isinstance(value, tuple | set | frozenset):
            return list(value)
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
        td = self.registry.type_of_class(t)
        if td is not None:
            return {td.name: self.program(self.types.serialize_args(td, value), depth + 1)}
        raise DialecticError(
            "invalid_value",
            f"a value of Python type {t.__name__} is neither JSON nor a registered type",
        )

    def dumps(
        self, value: Any, limit: int | None = None, limit_name: str = "max_output_bytes"
    ) -> bytes:
        """``value`` as JSON bytes; refused (``limit_exceeded``) beyond ``limit`` bytes."""
        limit = self.output_limit if limit is None else limit
        try:
            if check_size(value, limit):
                value = json_safe(value)
            return orjson.dumps(value, default=self.default, option=DUMP_OPTIONS)
        except BadValue as exc:
            raise value_error(exc, limit_name) from None
        except (TypeError, orjson.JSONEncodeError) as exc:
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
        """Template stringification: JavaScript's String() for primitives, JSON otherwise."""
        t = type(value)
        if t is str:
            return value  # type: ignore[no-any-return]
        if t is bool:
            return "true" if value else "false"
        if t is int or t is float:
            return js_number(value)
        if value is None:
            return "null"
        if value is UNDEFINED:
            return "undefined"
        td = self.registry.type_of_class(t)
        if td is not None and td.format is not None:
            return td.format(value)
        return self.dumps(value, self.text_limit, "max_string_length").decode()
