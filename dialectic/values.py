"""Runtime values: JSON data, registered-type instances and ``undefined``.

Stringification follows JavaScript's ``String()`` for primitives; arrays and objects become
compact JSON (a documented difference from JavaScript).
"""

from __future__ import annotations

from typing import Any, Final

import orjson


class _Undefined:
    """JavaScript's ``undefined`` (from Plan); a singleton."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "undefined"

    def __bool__(self) -> bool:
        return False


UNDEFINED: Final = _Undefined()

JSON_TYPE_NAMES: Final = {
    str: "string",
    bool: "boolean",
    int: "number",
    float: "number",
    list: "array",
    dict: "object",
    type(None): "null",
}


#: the size beyond which a value is refused before it is written as JSON text
DEFAULT_TEXT_LIMIT = 1_000_000


class TooLarge(ValueError):
    """A value would be larger than allowed once written as JSON."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"the value is larger than {limit} bytes as JSON")
        self.limit = limit


def check_size(value: Any, limit: int) -> None:
    """Raise TooLarge if ``value`` written as JSON would exceed ``limit`` bytes.

    Walks the value without recursion and stops as soon as the bound is passed, so a value that
    shares structure exponentially (``b = [a, a]; c = [b, b]; ...``) costs at most O(limit).
    """
    total = 0
    stack = [value]
    while stack:
        v = stack.pop()
        t = type(v)
        if t is str:
            total += len(v) + 2
        elif t is list or t is tuple:
            total += 2 + len(v)
            stack.extend(v)
        elif t is dict:
            total += 2 + len(v)
            for k, item in v.items():
                total += len(k) + 3
                stack.append(item)
        else:
            total += 8
        if total > limit:
            raise TooLarge(limit)


def dumps_compact(value: Any, limit: int = DEFAULT_TEXT_LIMIT) -> str:
    if type(value) is list or type(value) is dict:
        check_size(value, limit)
    return orjson.dumps(value, default=_json_default).decode()


def _json_default(value: Any) -> Any:
    if value is UNDEFINED:
        return None
    raise TypeError(f"not JSON: {type(value).__name__}")
