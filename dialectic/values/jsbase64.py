"""``btoa``, ``atob`` and the common forms of Node's ``Buffer.from(...).toString(...)``
(SPEC 1.8, "URLs and query strings").

``btoa(s)`` and ``atob(s)`` are exactly Node's (WHATWG's forgiving base64): a character beyond
U+00FF given to ``btoa``, and what ``atob`` cannot decode, throw an ``InvalidCharacterError`` a
``try``/``catch`` catches (:class:`JsThrows`). A :class:`JsBuffer` is bytes read only through
``toString(encoding)`` and ``length``; ``Buffer.from`` reads texts as UTF-8 (or Latin-1),
and well-formed base64, base64url and hex texts (Node reads other texts by rules of its own:
refused, with ``atob`` as what to write).
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable
from typing import Any

from dialectic.values.data import UNDEFINED
from dialectic.values.jsnumber import JsThrows
from dialectic.values.jsops import JsRefusal, kind
from dialectic.values.jsparams import primitive_text, usv

__all__ = ["JsBuffer", "atob", "btoa", "buffer_from"]

_WHITESPACE = " \t\n\f\r"
_ALPHABET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
_STRICT_B64 = re.compile(r"[A-Za-z0-9+/]*={0,2}")
_STRICT_B64URL = re.compile(r"[A-Za-z0-9\-_]*={0,2}")
_HEX = re.compile(r"(?:[0-9A-Fa-f]{2})*")


def _invalid(what: str, message: str, hint: str) -> JsThrows:
    err = JsThrows(message, hint)
    err.name = "InvalidCharacterError"
    err.said = f"{what} throws InvalidCharacterError: {message}"
    return err


_MISSING: Any = object()


def _text(v: Any, what: str) -> str:
    """JavaScript's `${v}` of a primitive; an array or an object is refused."""
    if v is _MISSING:  # (a TypeError in Node)
        raise JsRefusal(f"{what} needs the text to encode or decode", f"write {what[:-1]}s)")
    text = primitive_text(v)
    if text is not None:
        return text
    raise JsRefusal(
        f"{what} takes a text, not {kind(v)} (JavaScript would encode its text)",
        "Give a text: btoa(JSON.stringify(v)) for data.",
    )


def btoa(v: Any = _MISSING) -> str:
    """``btoa(s)``: the base64 of the text's characters as bytes (each at most U+00FF)."""
    text = _text(v, "btoa()")
    try:
        data = text.encode("latin-1")
    except UnicodeEncodeError as exc:
        raise _invalid(
            "btoa()",
            "Invalid character",
            f"btoa() takes characters up to U+00FF; the text has {text[exc.start]!r} at index "
            f"{exc.start}. For the base64 of a text's UTF-8 bytes write "
            "Buffer.from(s).toString('base64').",
        ) from None
    return base64.b64encode(data).decode("ascii")


def atob(v: Any = _MISSING) -> str:
    """``atob(s)``: WHATWG's forgiving base64 decode, as Node checks it: ASCII whitespace
    skipped, up to two ``=`` at the end (then the length a multiple of 4), the padding
    optional; each byte a character."""
    text = _text(v, "atob()")
    core = "".join(c for c in text if c not in _WHITESPACE)
    body = core.rstrip("=")
    if len(core) - len(body) > 2:
        body = core[:-2]  # (a third `=` is a character out of place)
    bad = next((c for c in body if c not in _ALPHABET), None)
    if bad is not None:
        raise _invalid(
            "atob()",
            "Invalid character",
            f"atob() of a text holding {bad!r}: base64 is A-Z, a-z, 0-9, + and /, with up to "
            "two = at the end.",
        )
    if len(body) % 4 == 1:
        raise _invalid(
            "atob()",
            "The string to be decoded is not correctly encoded.",
            "atob(): the length of the base64 text (without `=`) leaves one character over.",
        )
    if len(core) != len(body) and len(core) % 4:
        raise _invalid(
            "atob()", "Invalid character", "atob(): with `=` padding the length is a multiple of 4."
        )
    return _decode(body).decode("latin-1")


def _decode(core: str) -> bytes:
    """The bytes of base64 digits ``core`` (no padding; its length not 1 modulo 4); the bits
    left over in the last digit are dropped, as Node does."""
    whole = len(core) - len(core) % 4
    data = base64.b64decode(core[:whole]) if whole else b""
    tail = core[whole:]
    if tail:
        bits = 0
        for c in tail:
            bits = bits << 6 | _VALUE[c]
        bits <<= 6 * (4 - len(tail))
        data += bits.to_bytes(3, "big")[: len(tail) - 1]
    return data


_VALUE = {
    c: i for i, c in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
}

_ENCODINGS = {"utf8": "utf8", "utf-8": "utf8", "latin1": "latin1", "binary": "latin1"}
_ENCODINGS.update({"base64": "base64", "base64url": "base64url", "hex": "hex"})
_FORMS = "'utf8', 'base64', 'base64url', 'hex', 'latin1'"


def _encoding(v: Any, what: str) -> str:
    if v is UNDEFINED:
        return "utf8"
    found = _ENCODINGS.get(v.lower()) if type(v) is str else None
    if found is None:
        raise JsRefusal(f"{what}: the encoding {v!r} is not supported here", f"Use {_FORMS}.")
    return found


class JsBuffer:
    """Node's ``Buffer`` of some bytes: ``toString(encoding)`` and ``length``."""

    __slots__ = ("data",)
    js_kind = "Buffer"
    run_only = True

    def __init__(self, data: bytes) -> None:
        self.data = data

    def __repr__(self) -> str:
        return f"Buffer({self.data!r})"

    def to_text(self, encoding: Any = UNDEFINED) -> str:
        form = _encoding(encoding, "toString()")
        data = self.data
        if form == "utf8":
            return data.decode("utf-8", "replace")
        if form == "latin1":
            return data.decode("latin-1")
        if form == "hex":
            return data.hex()
        out = base64.b64encode(data).decode("ascii")
        if form == "base64url":
            return out.rstrip("=").replace("+", "-").replace("/", "_")
        return out

    def member(self, name: Any) -> Any:
        if name == "length":
            return len(self.data)
        raise JsRefusal(
            f"a Buffer has no member `{name}` here",
            "Read it with toString(encoding) (" + _FORMS + ") or length.",
        )

    def method(self, name: str) -> Callable[..., Any]:
        if name == "toString":
            return self.to_text
        raise JsRefusal(
            f"a Buffer has no method `{name}` here",
            "Read it with toString(encoding) (" + _FORMS + ") or length.",
        )

    def items(self) -> list[Any]:
        return list(self.data)

    def leaving(self) -> JsRefusal:
        return JsRefusal(
            "a Buffer cannot leave the program as it is",
            "Give its text: b.toString('base64'), b.toString('utf8') or b.toString('hex').",
        )


def buffer_from(v: Any = UNDEFINED, encoding: Any = UNDEFINED) -> JsBuffer:
    """``Buffer.from(text, encoding)`` (and of an array of bytes 0-255)."""
    if type(v) is list:
        if all(type(b) is int and 0 <= b <= 255 for b in v):
            return JsBuffer(bytes(v))
        raise JsRefusal(
            "Buffer.from() of an array takes bytes 0 to 255 here",
            "Give the bytes, or a text: Buffer.from(s).",
        )
    if type(v) is JsBuffer:
        return JsBuffer(v.data)
    if type(v) is not str:
        raise JsRefusal(
            f"Buffer.from() takes a text or an array of bytes, not {kind(v)}",
            "Give a text: Buffer.from(s).toString('base64').",
        )
    form = _encoding(encoding, "Buffer.from()")
    if form == "utf8":
        return JsBuffer(usv(v).encode("utf-8"))  # (a lone half of a pair as U+FFFD)
    if form == "latin1":
        try:
            return JsBuffer(v.encode("latin-1"))
        except UnicodeEncodeError:
            raise JsRefusal(
                "Buffer.from(s, 'latin1') of a character beyond U+00FF (Node keeps its low byte)",
                "Encode the text as UTF-8: Buffer.from(s).",
            ) from None
    if form == "hex":
        if _HEX.fullmatch(v) is None:
            raise _loose(v, "hex", "an even number of hexadecimal digits")
        return JsBuffer(bytes.fromhex(v))
    pattern = _STRICT_B64 if form == "base64" else _STRICT_B64URL
    if pattern.fullmatch(v) is None or len(v.rstrip("=")) % 4 == 1 or ("=" in v and len(v) % 4):
        raise _loose(v, form, "base64 digits with at most two `=` at the end")
    core = v.rstrip("=")
    if form == "base64url":
        core = core.replace("-", "+").replace("_", "/")
    try:
        return JsBuffer(_decode(core))
    except (binascii.Error, ValueError):  # (not expected: the text was checked)
        raise _loose(v, form, "well-formed base64") from None


def _loose(v: str, form: str, want: str) -> JsRefusal:
    return JsRefusal(
        f"Buffer.from() of a text that is not well-formed {form} ({v[:40]!r}): Node reads it "
        "by rules of its own",
        f"Give {want}; atob(s) checks base64 text (and throws on bad input).",
    )
