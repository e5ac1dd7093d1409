"""``new URLSearchParams(...)`` as a value of the run (SPEC 1.8, "URLs and query strings"):
the WHATWG ``application/x-www-form-urlencoded`` parser and serializer, as Node's.

A :class:`JsSearchParams` is a list of ``[name, value]`` texts. Its reads are methods
(``get``, ``getAll``, ``has``, ``toString``, ``keys``, ``values``, ``entries``) and ``size``;
its text is ``toString()`` (also ``String(p)``, a template, ``'?' + p``); its pairs are
``[...p]`` and ``Object.fromEntries(p)``. A change (``p.append(k, v);``, ``p.set(k, v);``,
``p.delete(k);``) is a statement the Plan front end reads as the name's next version
(:mod:`dialectic.frontends.plan.collections`): an append to the newest version shares its list
(a loop of appends is linear); the other changes copy it, their total copying bounded.

Texts are converted as WebIDL's ``USVString``: a lone surrogate becomes U+FFFD, as in Node.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from dialectic.values.collections import JsIterator
from dialectic.values.data import UNDEFINED
from dialectic.values.jsnumber import js_number_to_string
from dialectic.values.jsops import JsRefusal, kind
from dialectic.values.keyorder import js_order

__all__ = [
    "JsSearchParams",
    "form_decode",
    "form_encode",
    "new_search_params",
    "primitive_text",
    "usv",
    "usv_text",
]

#: the bytes the form serializer writes as they are (WHATWG URL, urlencoded serializer)
_KEPT = frozenset(b"*-._0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
_BYTE_TEXT = [chr(b) if b in _KEPT else "+" if b == 0x20 else f"%{b:02X}" for b in range(256)]
_SURROGATE = re.compile("[\ud800-\udfff]")
_ESCAPE = re.compile(rb"%[0-9A-Fa-f]{2}")
#: the most pairs one value holds, and the most pairs its changes may copy in all
MAX_PAIRS = 100_000
_COPY_BUDGET = 4_000_000
_MEMBERS = "size; methods get, getAll, has, toString, keys, values, entries"


def usv(text: str) -> str:
    """``text`` as a USVString: a surrogate pair written as two halves is its character, a
    lone half U+FFFD."""
    if _SURROGATE.search(text) is None:
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def form_encode(text: str) -> str:
    """The form-urlencoded text of ``text`` (a space as ``+``; only ``*-._``, digits and
    ASCII letters kept)."""
    table = _BYTE_TEXT
    return "".join([table[b] for b in usv(text).encode("utf-8")])


def _percent_decode(data: bytes) -> bytes:
    if b"%" not in data:
        return data
    return _ESCAPE.sub(lambda m: bytes([int(m.group()[1:], 16)]), data)


def form_decode(text: str) -> list[list[str]]:
    """The ``[name, value]`` pairs of a form-urlencoded text (no leading ``?`` handling)."""
    out: list[list[str]] = []
    for part in usv(text).encode("utf-8").split(b"&"):
        if not part:
            continue
        name, eq, value = part.partition(b"=")
        pair = [
            _percent_decode(piece.replace(b"+", b" ")).decode("utf-8", "replace")
            for piece in (name, value if eq else b"")
        ]
        out.append(pair)
        if len(out) > MAX_PAIRS:
            raise _too_many()
    return out


def _too_many() -> JsRefusal:
    return JsRefusal(
        f"a URLSearchParams holds at most {MAX_PAIRS:,} pairs here", "Work on parts of the data."
    )


def primitive_text(v: Any) -> str | None:
    """JavaScript's ``String(v)`` of a primitive (a text as it is), None for another value."""
    t = type(v)
    if t is str:
        return v  # type: ignore[no-any-return]
    if t is bool:
        return "true" if v else "false"
    if t is int or t is float:
        return js_number_to_string(v)
    if v is None:
        return "null"
    if v is UNDEFINED:
        return "undefined"
    return None


def usv_text(v: Any, what: str) -> str:
    """JavaScript's ``String(v)`` of a name or value given to URLSearchParams, as a USVString:
    an array's items joined by commas (null and undefined as nothing); an object (JavaScript
    writes ``[object Object]``) and other values of the run are refused."""
    text = primitive_text(v)
    if text is not None:
        return usv(text)
    t = type(v)
    if t is list:
        return ",".join("" if x is None or x is UNDEFINED else usv_text(x, what) for x in v)
    to_text = getattr(t, "to_text", None)
    if to_text is not None:
        return usv(str(to_text(v)))
    raise JsRefusal(
        f"{what} would write {'`[object Object]`' if t is dict else _a(kind(v))} for {_a(kind(v))}",
        "Give a text or a number: JSON.stringify(v) for an object.",
    )


def _a(word: str) -> str:
    return ("an " if word[:1] in "aeiou" else "a ") + word


class _Shared:
    """The pairs list the versions made by appends share, and the copying done so far."""

    __slots__ = ("copied", "pairs")

    def __init__(self, pairs: list[list[str]], copied: int = 0) -> None:
        self.pairs = pairs
        self.copied = copied


class JsSearchParams:
    """A version of a ``URLSearchParams``: the first ``count`` pairs of a shared list."""

    __slots__ = ("_count", "_shared")
    js_kind = "URLSearchParams"
    run_only = True

    def __init__(self, pairs: list[list[str]], shared: _Shared | None = None) -> None:
        self._shared = shared if shared is not None else _Shared(pairs)
        self._count = len(self._shared.pairs) if shared is None else len(pairs)

    def __repr__(self) -> str:
        return f"URLSearchParams({self.to_text()!r})"

    def pairs(self) -> list[list[str]]:
        """This version's pairs (the shared list's first ``count``)."""
        shared = self._shared.pairs
        return shared if len(shared) == self._count else shared[: self._count]

    def _copy(self, pairs: list[list[str]]) -> JsSearchParams:
        """A new version holding ``pairs`` (a copy made by a change: counted)."""
        copied = self._shared.copied + len(pairs)
        if copied > _COPY_BUDGET:
            raise JsRefusal(
                "the program changes a URLSearchParams too often (each set() or delete() "
                "copies its pairs)",
                "Build it in one step: new URLSearchParams(object), or append() the pairs.",
            )
        out = JsSearchParams([])
        out._shared = _Shared(pairs, copied)
        out._count = len(pairs)
        return out

    # -- reads ------------------------------------------------------------------------------
    def to_text(self) -> str:
        return "&".join(form_encode(k) + "=" + form_encode(v) for k, v in self.pairs())

    def get(self, name: Any = UNDEFINED) -> str | None:
        key = usv_text(name, "get()")
        for k, v in self.pairs():
            if k == key:
                return v
        return None

    def get_all(self, name: Any = UNDEFINED) -> list[str]:
        key = usv_text(name, "getAll()")
        return [v for k, v in self.pairs() if k == key]

    def has(self, name: Any = UNDEFINED, value: Any = UNDEFINED) -> bool:
        key = usv_text(name, "has()")
        if value is UNDEFINED:
            return any(k == key for k, _ in self.pairs())
        want = usv_text(value, "has()")
        return any(k == key and v == want for k, v in self.pairs())

    def items(self) -> list[Any]:
        return [list(p) for p in self.pairs()]

    # -- changes (each gives the next version) --------------------------------------------
    def append(self, name: Any = UNDEFINED, value: Any = UNDEFINED) -> JsSearchParams:
        pair = [usv_text(name, "append()"), usv_text(value, "append()")]
        shared = self._shared
        if self._count >= MAX_PAIRS:
            raise _too_many()
        if len(shared.pairs) == self._count:  # the newest version: extend the shared list
            shared.pairs.append(pair)
            out = JsSearchParams([])
            out._shared = shared
            out._count = self._count + 1
            return out
        return self._copy([*self.pairs(), pair])

    def set(self, name: Any = UNDEFINED, value: Any = UNDEFINED) -> JsSearchParams:
        key, val = usv_text(name, "set()"), usv_text(value, "set()")
        out: list[list[str]] = []
        found = False
        for k, v in self.pairs():
            if k != key:
                out.append([k, v])
            elif not found:
                out.append([k, val])
                found = True
        if not found:
            if len(out) >= MAX_PAIRS:
                raise _too_many()
            out.append([key, val])
        return self._copy(out)

    def delete(self, name: Any = UNDEFINED, value: Any = UNDEFINED) -> JsSearchParams:
        key = usv_text(name, "delete()")
        if value is UNDEFINED:
            return self._copy([[k, v] for k, v in self.pairs() if k != key])
        want = usv_text(value, "delete()")
        return self._copy([[k, v] for k, v in self.pairs() if k != key or v != want])

    # -- the run's protocol (collections.is_collection: run_only) -------------------------
    def member(self, name: Any) -> Any:
        if name == "size":
            return self._count
        raise JsRefusal(
            f"a URLSearchParams has no member `{name}` here",
            f"Its members are: {_MEMBERS}.",
        )

    def method(self, name: str) -> Callable[..., Any]:
        fn = self._methods().get(name)
        if fn is None:
            raise JsRefusal(
                f"a URLSearchParams has no method `{name}` here",
                f"Its members are: {_MEMBERS}; append, set and delete are statements "
                "(`p.append(k, v);`) on a name defined by `const p = new URLSearchParams(...)`.",
            )
        return fn

    def _methods(self) -> dict[str, Callable[..., Any]]:
        return {
            "get": self.get,
            "getAll": self.get_all,
            "has": self.has,
            "toString": self.to_text,
            "keys": lambda: JsIterator([k for k, _ in self.pairs()]),
            "values": lambda: JsIterator([v for _, v in self.pairs()]),
            "entries": lambda: JsIterator(self.items()),
            "append": self.append,
            "set": self.set,
            "delete": self.delete,
        }

    def leaving(self) -> JsRefusal:
        return JsRefusal(
            "a URLSearchParams cannot leave the program as it is (JavaScript would write it as {})",
            "Give its text, p.toString(), or its pairs as an object, Object.fromEntries(p).",
        )


def new_search_params(init: Any = UNDEFINED) -> JsSearchParams:
    """``new URLSearchParams(init)``: a query text (a leading ``?`` skipped), an object's
    own keys in JavaScript's order, ``[name, value]`` pairs, or another URLSearchParams."""
    t = type(init)
    if init is UNDEFINED:
        return JsSearchParams([])
    if t is JsSearchParams:
        return JsSearchParams(init.items())
    if t is str:
        return JsSearchParams(form_decode(init[1:] if init[:1] == "?" else init))
    if t is dict:
        if len(init) > MAX_PAIRS:
            raise _too_many()
        return JsSearchParams(
            [[usv(k), usv_text(init[k], "new URLSearchParams()")] for k in js_order(init)]
        )
    if t is list or type(init) is JsIterator or getattr(t, "js_kind", None) == "Map":
        return JsSearchParams(_pairs(init if t is list else init.items()))
    if t is bool or t is int or t is float or init is None:
        text = usv_text(init, "new URLSearchParams()")
        return JsSearchParams(form_decode(text))
    raise JsRefusal(
        f"new URLSearchParams() takes a query text, an object or [name, value] pairs, not "
        f"{_a(kind(init))}",
        "new URLSearchParams({q: 'x', page: 2}) or new URLSearchParams('q=x&page=2')",
    )


def _pairs(items: list[Any]) -> list[list[str]]:
    if len(items) > MAX_PAIRS:
        raise _too_many()
    out: list[list[str]] = []
    for item in items:
        if type(item) is not list or len(item) != 2:
            raise JsRefusal(
                "new URLSearchParams() takes pairs of exactly a name and a value; an item is "
                + (f"an array of {len(item)}" if type(item) is list else _a(kind(item)))
                + " (a TypeError in JavaScript)",
                "Give [name, value] pairs: new URLSearchParams(xs.map(x => ['id', x])).",
            )
        out.append([usv_text(item[0], "new URLSearchParams()"), usv_text(item[1], "a value")])
    return out
