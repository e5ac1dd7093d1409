"""JavaScript's ``encodeURIComponent``, ``encodeURI``, ``decodeURIComponent`` and ``decodeURI``
(ECMAScript's Encode and Decode, SPEC 1.8): UTF-8 percent-escapes; what JavaScript throws a
``URIError`` for (a lone surrogate, a malformed escape or UTF-8 sequence) is refused. Linear in
the text; a result longer than the run's ``max_string_length`` is refused."""

from __future__ import annotations

import string

from dialectic.values.jsops import JsRefusal

__all__ = ["decode_uri", "decode_uri_component", "encode_uri", "encode_uri_component"]

_ALWAYS = frozenset(string.ascii_letters + string.digits + "-_.!~*'()")
#: what ``encodeURI`` also leaves as it is, and ``decodeURI`` does not decode
_RESERVED = frozenset(";/?:@&=+$,#")
_URI_KEPT = _ALWAYS | _RESERVED
_HEX = frozenset(string.hexdigits)


def _encode(text: str, kept: frozenset[str], name: str, limit: int) -> str:
    out: list[str] = []
    size = 0
    for ch in text:
        if ch in kept:
            out.append(ch)
            size += 1
        else:
            if "\ud800" <= ch <= "\udfff":
                raise JsRefusal(
                    f"{name}() of a text holding half a surrogate pair (a URIError in JavaScript)",
                    "Encode whole characters: do not split a text inside an emoji.",
                )
            piece = "".join(f"%{b:02X}" for b in ch.encode("utf-8"))
            out.append(piece)
            size += len(piece)
        if size > limit:
            raise JsRefusal(
                f"{name}() would make a text longer than max_string_length ({limit} characters)",
                "Encode a shorter text.",
            )
    return "".join(out)


def encode_uri_component(text: str, limit: int) -> str:
    """``encodeURIComponent``: everything but ``A-Z a-z 0-9 - _ . ! ~ * ' ( )`` escaped."""
    return _encode(text, _ALWAYS, "encodeURIComponent", limit)


def encode_uri(text: str, limit: int) -> str:
    """``encodeURI``: also keeps ``; / ? : @ & = + $ , #``."""
    return _encode(text, _URI_KEPT, "encodeURI", limit)


def _malformed(name: str, at: int) -> JsRefusal:
    return JsRefusal(
        f"{name}() of a malformed escape at index {at} (a URIError in JavaScript)",
        "Each % starts an escape of two hexadecimal digits, and the escapes of one character "
        "are its UTF-8 bytes; write a literal % as %25.",
    )


def _byte(text: str, i: int, name: str) -> int:
    """The byte of the escape ``%XX`` at index ``i``."""
    if i + 2 >= len(text) or text[i] != "%" or text[i + 1] not in _HEX or text[i + 2] not in _HEX:
        raise _malformed(name, i)
    return int(text[i + 1 : i + 3], 16)


def _decode(text: str, keep: frozenset[str], name: str) -> str:
    out: list[str] = []
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch != "%":
            start = i
            i = text.find("%", i)
            if i < 0:
                i = n
            out.append(text[start:i])
            continue
        first = _byte(text, i, name)
        if first < 0x80:
            decoded = chr(first)
            out.append(text[i : i + 3] if decoded in keep else decoded)
            i += 3
            continue
        count = 2 if 0xC0 <= first < 0xE0 else 3 if 0xE0 <= first < 0xF0 else 4
        if not 0xC0 <= first < 0xF8:
            raise _malformed(name, i)
        data = bytearray([first])
        at = i
        i += 3
        for _ in range(count - 1):
            b = _byte(text, i, name)
            if b & 0xC0 != 0x80:
                raise _malformed(name, i)
            data.append(b)
            i += 3
        try:
            out.append(bytes(data).decode("utf-8"))
        except UnicodeDecodeError:  # overlong, a surrogate, beyond U+10FFFF
            raise _malformed(name, at) from None
    return "".join(out)


def decode_uri_component(text: str) -> str:
    """``decodeURIComponent``: every escape decoded."""
    return _decode(text, frozenset(), "decodeURIComponent")


def decode_uri(text: str) -> str:
    """``decodeURI``: an escape of ``; / ? : @ & = + $ , #`` is kept as it is."""
    return _decode(text, _RESERVED, "decodeURI")
