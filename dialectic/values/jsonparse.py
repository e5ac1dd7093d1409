"""``JSON.parse``: JSON text read as JavaScript reads it (SPEC 1.8, the globals).

The JSON reader (orjson) reads almost every text. Where it stops and JavaScript does not throw,
the text is read another way or refused with what to write instead: a number beyond the largest
double is Infinity (as a run holds it); a text nested deeper than the reader's 1,024 levels, or
a lone surrogate escape (a string that is not valid Unicode), is refused; a text that is not
JSON throws a ``SyntaxError`` a ``catch`` may read, as in JavaScript."""

from __future__ import annotations

import json
from typing import Any

import orjson

from dialectic.values.jsnumber import JsRefusal, JsThrows
from dialectic.values.jsstrings import _text

#: the deepest JSON text ``JSON.parse`` reads (the JSON reader's own limit, orjson's)
JSON_DEPTH = 1024


def json_parse(text: Any) -> Any:
    text = _text(text, "JSON.parse's argument")
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        reason = str(exc)
        if "infinity" in reason:  # (`1e400`: JavaScript reads it as Infinity, as a run can)
            return _with_infinities(text)
        if _json_too(text):  # (a lone surrogate `"\\ud800"`: JavaScript reads it)
            raise JsRefusal(*_unreadable(reason)) from None
        raise JsThrows(f"JSON.parse: the text is not JSON ({exc})") from None


def _int64(digits: str) -> Any:
    """An integer of JSON text as the JSON reader gives it: exact within 64 bits, else the
    nearest double (as JavaScript holds every number)."""
    if len(digits) > 21:  # (beyond 64 bits; and `int` refuses thousands of digits)
        return float(digits)  # (rounded as JavaScript does; past a double: an infinity)
    n = int(digits)
    return n if -(2**63) <= n < 2**64 else float(digits)


def _with_infinities(text: str) -> Any:
    """JSON text holding a number beyond the largest double, read as JavaScript does (that
    number Infinity, or -Infinity) by the ``json`` module, with the JSON reader's limits: its
    depth, valid Unicode."""
    try:
        value = json.loads(text, parse_constant=_reject, parse_int=_int64)
    except RecursionError:
        raise JsRefusal(*_unreadable("depth limit exceeded")) from None
    except ValueError as exc:  # (not JSON further on: JavaScript throws)
        raise JsThrows(f"JSON.parse: the text is not JSON ({exc})") from None
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        v, depth = stack.pop()
        t = type(v)
        if t is str:
            if not v.isascii():
                try:
                    v.encode()
                except UnicodeEncodeError:
                    raise JsRefusal(*_unreadable("lone surrogate")) from None
        elif t is list or t is dict:
            if depth > JSON_DEPTH:
                raise JsRefusal(*_unreadable("depth limit exceeded")) from None
            if t is dict:
                stack.extend((k, depth) for k in v)
                stack.extend((x, depth + 1) for x in v.values())
            else:
                stack.extend((x, depth + 1) for x in v)
    return value


def _unreadable(reason: str) -> tuple[str, str]:
    """The refusal of a text that is JSON, which JavaScript reads and dialectic's values cannot
    hold (from the JSON reader's ``reason``): what is wrong, and what to do instead."""
    where = f" (at {reason[reason.find(': line ') + 2 :]})" if ": line " in reason else ""
    if reason.startswith("depth limit"):
        return (
            f"JSON.parse: the text is JSON nested deeper than {JSON_DEPTH:,} levels{where}, "
            "deeper than dialectic reads (JavaScript would read it)",
            "pass such data as a context value or a tool's reply, or nest it less",
        )
    if "surrogate" in reason:
        return (
            f"JSON.parse: the text holds a lone UTF-16 surrogate escape{where}: JavaScript "
            "reads it into a string that is not valid Unicode, which dialectic's texts cannot hold",
            "escape whole characters only (a high surrogate then a low one, like \\ud83d\\ude00)",
        )
    return (  # (another text JavaScript reads and orjson does not)
        f"JSON.parse: dialectic cannot read this JSON text ({reason})",
        "pass the data as a context value or a tool's reply instead",
    )


def _reject(word: str) -> Any:
    raise ValueError(word)


def _json_too(text: str) -> bool:
    """Whether JSON's grammar reads ``text`` (the ``json`` module, without its ``NaN``): where
    it does not, JavaScript's ``JSON.parse`` throws too (SPEC 1.2, ``$try``)."""
    try:
        json.loads(text, parse_constant=_reject)
    except ValueError:
        return False
    except RecursionError:  # (nested too deeply to tell: refused, never caught)
        pass
    return True
