"""``new URL(text)`` and ``new URL(text, base)`` as a value of the run (SPEC 1.8, "URLs and
query strings"): the WHATWG URL parser, as Node's, for the URLs tools take.

Supported: ``http`` and ``https`` URLs whose host is an ASCII domain or a dotted IPv4 address
of four decimal parts, with a port, a path (its ``.`` and ``..`` segments resolved), a query
and a fragment, each percent-encoded as the standard says; relative references against such a
base. What Node rejects is a thrown ``TypeError: Invalid URL`` (a ``try``/``catch`` catches it:
:class:`JsThrows`). What is not implemented here is refused, with what to write instead: other
schemes, credentials (``user@host``), IPv6 and non-ASCII (IDNA) hosts, percent-escapes in a
host, other IPv4 forms (``0x7f.1``, ``127.1``).

A URL never changes here (its members are read, not set: ``u.searchParams`` is a new
:class:`JsSearchParams` of its query).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial
from typing import Any

from dialectic.values.data import UNDEFINED
from dialectic.values.jsnumber import JsThrows
from dialectic.values.jsops import JsRefusal, TextTooLong, kind
from dialectic.values.jsparams import JsSearchParams, form_decode, usv

__all__ = ["JsURL", "new_url", "url_can_parse"]

_DEFAULT_PORTS = {"http": "80", "https": "443"}
_QUERY_CHANGES = frozenset(["searchParams.set", "searchParams.append", "searchParams.delete"])
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")
_TAB_NEWLINE = re.compile("[\t\n\r]")
_C0_SPACE = "".join(chr(c) for c in range(0x21))
#: what each part percent-encodes beyond the C0 controls, DEL and non-ASCII
_PATH_SET = frozenset(' "#<>?`{}')
_QUERY_SET = frozenset(" \"#<>'")
_FRAGMENT_SET = frozenset(' "<>`')
#: code points a host may not hold (WHATWG URL's forbidden domain code points, beyond C0)
_FORBIDDEN_HOST = frozenset(" #/:<>?@[\\]^|%\x7f")
_DECIMAL_PART = re.compile(r"0|[1-9][0-9]{0,2}")
_NUMERIC_LABEL = re.compile(r"[0-9]+|0[xX][0-9A-Fa-f]*")
_SLASH = re.compile(r"[/\\]")
_SINGLE_DOT = frozenset([".", "%2e", "%2E"])
_DOUBLE_DOT = frozenset([a + b for a in (".", "%2e", "%2E") for b in (".", "%2e", "%2E")])
_MEMBERS = (
    "href, protocol, host, hostname, port, pathname, search, hash, origin, searchParams, "
    "username, password; methods toString(), toJSON()"
)
_INVALID_HINT = (
    "A URL needs its scheme and host: 'https://example.com/path'; a path is resolved against "
    "a base: new URL('/path', 'https://example.com')."
)


#: the longest URL text read here (a member's text is not measured where it is read)
MAX_URL = 1_000_000


def _bounded(size: int) -> None:
    if size > MAX_URL:
        raise TextTooLong(size, MAX_URL)


def _invalid(text: str) -> JsThrows:
    err = JsThrows("Invalid URL", _INVALID_HINT)
    err.name = "TypeError"
    shown = text if len(text) <= 80 else text[:80] + "..."
    err.said = f"new URL() of {shown!r} throws TypeError: Invalid URL"
    return err


def _unsupported(what: str, hint: str | None = None) -> JsRefusal:
    return JsRefusal(
        f"new URL() of {what} is not supported here",
        hint
        or "Give an http or https URL of an ASCII host name, or build the text with a template "
        "and encodeURIComponent().",
    )


def _encode(text: str, kept_out: frozenset[str]) -> str:
    """``text`` with the C0 controls, DEL, non-ASCII and ``kept_out`` percent-encoded (UTF-8)."""
    if text.isascii() and not any(c in kept_out or c < " " or c == "\x7f" for c in text):
        return text
    out: list[str] = []
    for c in text:
        if " " <= c < "\x7f" and c not in kept_out:
            out.append(c)
        else:
            out.extend(f"%{b:02X}" for b in c.encode("utf-8"))
    return "".join(out)


class JsURL:
    """A parsed URL (see the module); ``port`` is "" for the scheme's default."""

    __slots__ = ("_params", "_query", "fragment", "hostname", "path", "port", "scheme")
    js_kind = "URL"
    run_only = True

    def __init__(
        self,
        scheme: str,
        hostname: str,
        port: str,
        path: str,
        query: str | None,
        fragment: str | None,
    ) -> None:
        self.scheme = scheme
        self.hostname = hostname
        self.port = port
        self.path = path
        self._query = query
        self.fragment = fragment
        #: the pairs its query changes made (the query written from them when first read)
        self._params: JsSearchParams | None = None
        _bounded(len(path) + len(query or "") + len(fragment or ""))

    @property
    def query(self) -> str | None:
        params = self._params
        if params is not None:
            self._query = params.to_text() or None  # (no pair left: no query, as the standard)
            self._params = None
            _bounded(len(self.path) + len(self._query or "") + len(self.fragment or ""))
        return self._query

    def __repr__(self) -> str:
        return f"URL({self.to_text()!r})"

    @property
    def host(self) -> str:
        return self.hostname + (":" + self.port if self.port else "")

    @property
    def origin(self) -> str:
        return f"{self.scheme}://{self.host}"

    def to_text(self) -> str:
        out = f"{self.origin}{self.path}"
        if self.query is not None:
            out += "?" + self.query
        if self.fragment is not None:
            out += "#" + self.fragment
        return out

    def to_json(self) -> str:
        return self.to_text()

    def member(self, name: Any) -> Any:
        if name == "href":
            return self.to_text()
        if name == "protocol":
            return self.scheme + ":"
        if name in ("host", "hostname", "port", "origin"):
            return getattr(self, name)
        if name == "pathname":
            return self.path
        if name == "search":
            return "?" + self.query if self.query else ""
        if name == "hash":
            return "#" + self.fragment if self.fragment else ""
        if name == "searchParams":
            if self._params is not None:
                return self._params
            return JsSearchParams(form_decode(self.query or ""))
        if name == "username" or name == "password":
            return ""
        raise JsRefusal(f"a URL has no member `{name}` here", f"Its members are: {_MEMBERS}.")

    def method(self, name: str) -> Callable[..., Any]:
        if name == "toString" or name == "toJSON":
            return self.to_text
        if name in _QUERY_CHANGES:  # (Plan's statement `u.searchParams.set(k, v);`)
            return partial(self._query_changed, name[len("searchParams.") :])
        raise JsRefusal(f"a URL has no method `{name}` here", f"Its members are: {_MEMBERS}.")

    def _query_changed(self, change: str, *args: Any) -> JsURL:
        """The URL's next version after ``u.searchParams.<change>(...args)``: its query is the
        changed pairs' text (none when no pair is left, as the URL standard updates it),
        written when first read (a loop of appends shares one list: linear)."""
        params = getattr(self.member("searchParams"), change)(*args)
        out = JsURL(self.scheme, self.hostname, self.port, self.path, None, self.fragment)
        out._params = params
        return out

    def items(self) -> list[Any]:
        raise JsRefusal("a URL is not iterable (a TypeError in JavaScript)")

    def leaving(self) -> JsRefusal:
        return JsRefusal(
            "a URL cannot leave the program as it is (JavaScript would write it as {})",
            "Give its text: u.href or u.toString().",
        )


def _host(text: str, whole: str) -> str:
    """The host of an http(s) URL (lowercased), or the failure Node gives (thrown), or a
    refusal for what is not implemented."""
    if not text:
        raise _invalid(whole)
    if text[0] == "[":
        raise _unsupported("an IPv6 host", "Give a host name, or an IPv4 address 1.2.3.4.")
    if "%" in text or not text.isascii():
        raise _unsupported(
            "a host with percent-escapes or non-ASCII letters (IDNA)",
            "Give the host in ASCII (its xn-- form), e.g. 'https://xn--mnchen-3ya.de/'.",
        )
    if any(c in _FORBIDDEN_HOST or c < " " for c in text):
        raise _invalid(whole)
    host = text.lower()
    labels = host.split(".")
    last = labels[-1] if labels[-1] or len(labels) == 1 else labels[-2]
    if _NUMERIC_LABEL.fullmatch(last):  # (an IPv4 address, as WHATWG's "ends in a number")
        if len(labels) == 4 and all(_DECIMAL_PART.fullmatch(p) and int(p) <= 255 for p in labels):
            return host
        raise _unsupported(
            "an IPv4 address written other than as four decimal numbers 0-255",
            "Write the address as 1.2.3.4, or give a host name.",
        )
    if any(label[:4] == "xn--" for label in labels):
        raise _unsupported(
            "an IDNA (xn--) host name", "Give the URL as text: its host is not checked here."
        )
    return host


def _path(text: str) -> list[str]:
    """The segments of a special URL's path text (its first slash removed), dot segments
    resolved, each percent-encoded."""
    out: list[str] = []
    parts = _SLASH.split(text)
    last = len(parts) - 1
    for i, part in enumerate(parts):
        if part in _DOUBLE_DOT:
            if out:
                out.pop()
            if i == last:
                out.append("")
        elif part in _SINGLE_DOT:
            if i == last:
                out.append("")
        else:
            out.append(_encode(part, _PATH_SET))
    return out


def _split_tail(text: str) -> tuple[str, str | None, str | None]:
    """``text`` up to its ``?`` or ``#``, the query and the fragment (encoded; None: none)."""
    fragment = None
    hash_at = text.find("#")
    if hash_at >= 0:
        text, fragment = text[:hash_at], _encode(text[hash_at + 1 :], _FRAGMENT_SET)
    query = None
    ask = text.find("?")
    if ask >= 0:
        text, query = text[:ask], _encode(text[ask + 1 :], _QUERY_SET)
    return text, query, fragment


def _authority(scheme: str, rest: str, whole: str) -> JsURL:
    """An http(s) URL from what follows its ``scheme:`` and slashes."""
    end = len(rest)
    for i, c in enumerate(rest):
        if c in "/\\?#":
            end = i
            break
    authority, tail = rest[:end], rest[end:]
    if "@" in authority:
        raise _unsupported(
            "a URL with credentials (user@host)", "Pass credentials apart, not in the URL."
        )
    host_text, port = authority, ""
    colon = authority.rfind(":")
    if colon >= 0 and "[" not in authority:
        host_text, port = authority[:colon], authority[colon + 1 :]
        if not (port.isascii() and (port == "" or port.isdigit())):
            raise _invalid(whole)
        if port:
            number = int(port)
            if number > 65535:
                raise _invalid(whole)
            port = "" if str(number) == _DEFAULT_PORTS[scheme] else str(number)
    hostname = _host(host_text, whole)
    path_text, query, fragment = _split_tail(tail)
    return JsURL(scheme, hostname, port, "/" + "/".join(_path(path_text[1:])), query, fragment)


def _cleaned(text: str) -> str:
    return _TAB_NEWLINE.sub("", usv(text).strip(_C0_SPACE))


def _parse(text: str, base: JsURL | None) -> JsURL:
    whole = text
    text = _cleaned(text)
    m = _SCHEME.match(text)
    if m is not None:
        scheme = m.group()[:-1].lower()
        if scheme not in _DEFAULT_PORTS:
            raise _unsupported(f"a URL of the scheme `{scheme}:`")
        rest = text[m.end() :]
        if (
            base is not None
            and base.scheme == scheme
            and rest[:2] not in ("//", "\\\\", "/\\", "\\/")
        ):
            raise _unsupported(
                f"a relative reference that starts with its scheme ({scheme}:path)",
                "Give the whole URL, or the path alone: new URL('/path', base).",
            )
        return _authority(scheme, rest.lstrip("/\\"), whole)
    if base is None:
        raise _invalid(whole)
    return _relative(text, base, whole)


def _relative(text: str, base: JsURL, whole: str) -> JsURL:
    """``text`` (no scheme) resolved against ``base``."""
    if text[:1] in ("/", "\\") and text[1:2] in ("/", "\\"):
        return _authority(base.scheme, text.lstrip("/\\"), whole)
    kept = base.query or None  # (Node drops the base's empty query: `?` alone)
    if text == "":
        return JsURL(base.scheme, base.hostname, base.port, base.path, kept, None)
    path_text, query, fragment = _split_tail(text)
    if text[0] == "#":
        return JsURL(base.scheme, base.hostname, base.port, base.path, kept, fragment)
    if text[0] == "?":
        return JsURL(base.scheme, base.hostname, base.port, base.path, query, fragment)
    if path_text[:1] not in ("/", "\\"):
        directory = base.path[: base.path.rfind("/") + 1]
        path_text = directory + path_text
    path = "/" + "/".join(_path(path_text[1:]))
    return JsURL(base.scheme, base.hostname, base.port, path, query, fragment)


def _text_of(v: Any, what: str) -> str:
    t = type(v)
    if t is str:
        return v  # type: ignore[no-any-return]
    if t is JsURL:
        return v.to_text()  # type: ignore[no-any-return]
    raise JsRefusal(
        f"new URL() takes {what} as text, not {kind(v)}",
        "Give the URL as text: new URL('https://example.com/path').",
    )


def new_url(text: Any = UNDEFINED, base: Any = UNDEFINED) -> JsURL:
    """``new URL(text)``, ``new URL(text, base)``."""
    given = _text_of(text, "the URL")
    if base is UNDEFINED:
        return _parse(given, None)
    if type(base) is JsURL:
        return _parse(given, base)
    return _parse(given, _parse(_text_of(base, "the base"), None))


def url_can_parse(text: Any = UNDEFINED, base: Any = UNDEFINED) -> bool:
    """``URL.canParse(text, base)``: whether ``new URL`` would not throw (a refusal stays)."""
    try:
        new_url(text, base)
    except JsThrows:
        return False
    return True
