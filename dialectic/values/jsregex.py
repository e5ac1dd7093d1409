"""JavaScript's regular expressions as run-time values, matched by RE2 in linear time (SPEC
1.8, "Regular expressions").

A :class:`JsRegExp` is ``/source/flags`` (``{"$global": ["RegExp", source, flags]}``): the
pattern written for RE2 by :mod:`.regexsyntax`, compiled once per pattern and flags. Texts are
matched as UTF-8 bytes (encoded once per call: each match's place is read from there, so many
matches stay linear); places given to the program are UTF-16 code units, as JavaScript's. A
regex never leaves the run (a result, an argument, ``JSON.stringify``: see
:func:`dialectic.values.collections.leaving`); ``exec``, ``lastIndex`` and ``test`` of a
``g`` regex are refused (their answer depends on the regex's state); a match array's
``index``, ``input`` and ``groups`` are kept by :mod:`.matchinfo`.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from contextvars import ContextVar
from time import monotonic
from typing import Any

from dialectic.values.collections import JsIterator
from dialectic.values.data import UNDEFINED
from dialectic.values.jsops import JsRefusal, TextTooLong, kind
from dialectic.values.matchinfo import OWNER, named_groups, remember
from dialectic.values.regexsyntax import FOLDED_APART, RegexSyntax, Translated, translate
from dialectic.values.regextext import _expand, _Subject, _template

__all__ = [
    "DEADLINE",
    "JsRegExp",
    "Overdue",
    "new_regexp",
    "regex_syntax_refusal",
    "text_regexp",
]

#: the run's deadline (``time.monotonic()``), set by the compiled method around a call: finding
#: every match searches again after each, and a search may read to the end of the text
#: (``/(?:a*b)?/g`` on a run of ``a``: quadratic), so the loops look at the clock
DEADLINE: ContextVar[float] = ContextVar("regex_deadline", default=math.inf)
#: (a power of two, minus one) the loops look at the clock after this many searches
_CHECK_EVERY = 255


class Overdue(Exception):
    """The run's deadline passed while matching (the caller reports it as the deadline's)."""


# (RE2 is imported with the first pattern compiled: a program without one does not pay for it)
_UNANCHORED: Any = None
_BOTH: Any = None
#: memory RE2 may use to compile one pattern
PATTERN_MEMORY = 8 << 20
_FLAGS = frozenset("gimsu")
_FOLDED_APART = frozenset(map(chr, FOLDED_APART))
_LINE_ENDS_RE2_MISSES = ("\r", "\u2028", "\u2029")


def regex_syntax_refusal(exc: RegexSyntax, source: str) -> JsRefusal:
    """A pattern's refusal as a run-time one (the place given as text)."""
    return JsRefusal(
        f"the regular expression /{source}/: {exc.message} (at {exc.offset})", exc.hint
    )


@functools.lru_cache(maxsize=32)  # (each holds up to PATTERN_MEMORY once used)
def _compiled(source: str, flags: str) -> tuple[Any, Translated]:
    global _UNANCHORED, _BOTH
    import re2  # type: ignore[import-untyped,unused-ignore]  # (google-re2: untyped)

    _UNANCHORED = re2._re2.RE2.Anchor.UNANCHORED
    _BOTH = re2._re2.RE2.Anchor.ANCHOR_BOTH
    done = translate(source, flags)
    if done.digits is not None:
        return done.digits, done
    options = re2.Options()
    options.max_mem = PATTERN_MEMORY
    options.log_errors = False
    compiled = re2._re2.RE2(done.pattern.encode("utf-8"), options)
    if not compiled.ok():
        raise RegexSyntax(
            "RE2 cannot run this pattern (" + compiled.error().decode("utf-8", "replace") + ")",
            0,
            "simplify the pattern (fewer or smaller repetitions)",
        )
    return compiled, done


def check_flags(flags: str) -> str | None:
    """Why ``flags`` are refused, or None."""
    for f in flags:
        if f in "dyv":
            what = {"d": "match indices", "y": "sticky matching", "v": "set notation"}[f]
            return f"the flag `{f}` ({what}) is not supported"
        if f not in _FLAGS:
            return f"`{f}` is not a flag of regular expressions (g, i, m, s, u)"
    if len(set(flags)) != len(flags):
        return "a flag is written twice"
    return None


def new_regexp(source: Any = UNDEFINED, flags: Any = UNDEFINED) -> JsRegExp:
    """``new RegExp(source, flags)``: ``source`` a text (or a regex: its pattern)."""
    if type(source) is JsRegExp:
        if flags is UNDEFINED:
            return source
        source = source.source
    if source is UNDEFINED:
        source = "(?:)"
    if type(source) is not str:
        raise JsRefusal(
            f"new RegExp() takes a text, not {_a(kind(source))}", "Convert with String(x)."
        )
    flags = "" if flags is UNDEFINED else flags
    if type(flags) is not str:
        raise JsRefusal(f"the flags of new RegExp() are a text, not {_a(kind(flags))}")
    why = check_flags(flags)
    if why is not None:
        raise JsRefusal(f"new RegExp(): {why}", "Use the flags g, i, m, s, u.")
    return JsRegExp(source or "(?:)", "".join(sorted(flags)))


_SYNTAX = frozenset("^$\\.*+?()[]{}|/")


def text_regexp(text: str, every: bool) -> JsRegExp:
    """The regex that finds ``text`` as it is (``s.replace('x', m => ...)``: JavaScript finds
    the text, then calls the function as for a regex without groups)."""
    source = "".join("\\" + c if c in _SYNTAX else c for c in text)
    return JsRegExp(source or "(?:)", "g" if every else "")


def _a(word: str) -> str:
    return ("an " if word[:1] in "aeiou" else "a ") + word


class JsRegExp:
    """``/source/flags`` (see the module)."""

    __slots__ = ("_compiled", "_info", "flags", "source")
    js_kind = "RegExp"
    run_only = True

    def __init__(self, source: str, flags: str) -> None:
        self.source = source
        self.flags = flags
        try:
            self._compiled, self._info = _compiled(source, flags)
        except RegexSyntax as exc:
            raise regex_syntax_refusal(exc, source) from None

    @property
    def is_global(self) -> bool:
        return "g" in self.flags

    def __repr__(self) -> str:
        return f"/{self.source}/{self.flags}"

    # -- members -------------------------------------------------------------------------
    def member(self, name: Any) -> Any:
        if name == "source":
            return self.source
        if name == "flags":
            return self.flags
        word = {"global": "g", "ignoreCase": "i", "multiline": "m", "dotAll": "s", "unicode": "u"}
        if name in word:
            return word[name] in self.flags
        if name == "lastIndex":
            raise JsRefusal(
                "`lastIndex` is a regex's changing state, which Plan does not have",
                "Use s.matchAll(/.../g) for every match with its groups.",
            )
        raise JsRefusal(
            f"a regular expression has no member `{name}` here",
            "Its members are source, flags, global, ignoreCase, multiline, dotAll, unicode, "
            "and the method test(s).",
        )

    def method(self, name: str) -> Any:
        if name == "test":
            return self.test
        if name == "exec":
            return self.exec
        raise JsRefusal(
            f"a regular expression has no method `{name}` here",
            "Use re.test(s), or the text's methods with it: s.match(re), s.matchAll(re), "
            "s.replace(re, ...), s.split(re), s.search(re).",
        )

    def items(self) -> list[Any]:
        raise JsRefusal(
            "a regular expression is not iterable (a TypeError in JavaScript)",
            "Use [...s.matchAll(/.../g)] for the matches.",
        )

    def leaving(self) -> JsRefusal:
        return JsRefusal(
            "a regular expression cannot leave the program as it is (JavaScript would write "
            "it as {})",
            "Give its text: re.source, or the matches: s.match(re).",
        )

    # -- matching ------------------------------------------------------------------------
    def _subject(self, s: Any, what: str) -> _Subject:
        if type(s) is not str:
            raise JsRefusal(
                f"{what} takes a text, not {_a(kind(s))}", "Convert with String(x) first."
            )
        info = self._info
        flags = self.flags
        subject = _Subject(s)
        if "m" in flags and info.anchors and any(c in s for c in _LINE_ENDS_RE2_MISSES):
            raise JsRefusal(
                "with the m flag, JavaScript ends lines at \\r, U+2028 and U+2029 too; the regex "
                "engine only at \\n",
                "Make the line ends \\n first: s.replaceAll('\\r\\n', '\\n').",
            )
        if subject.ascii:
            return subject
        if info.inside:
            raise JsRefusal(
                "\\B (not at a word boundary) on a text with characters beyond ASCII is not "
                "supported (the regex engine finds it inside a character)",
                "Match the characters around it instead: /\\w\\w/ for two word characters.",
            )
        if (
            "u" not in flags
            and any(ord(c) > 0xFFFF for c in s)
            and (info.halves or self._empty_inside())
        ):
            raise JsRefusal(
                f"/{self.source}/{flags} could match half of a character beyond U+FFFF "
                "(such as an emoji) in this text: JavaScript matches UTF-16 halves without "
                "the u flag",
                "Add the u flag.",
            )
        if "i" in flags and "u" not in flags and not _FOLDED_APART.isdisjoint(s):
            raise JsRefusal(
                "the text holds a character that JavaScript's case-insensitive matching without "
                "the u flag folds otherwise than the regex engine (such as ſ, the Kelvin sign, ẞ)",
                "Add the u flag.",
            )
        return subject

    def _empty_inside(self) -> bool:
        """Whether the pattern matches the empty text between two characters that are
        neither word characters nor line ends (as between the halves of an emoji)."""
        return bool(self._compiled.Match(_BOTH, b"!!", 1, 1)[0][0] == 1)

    def _search(self, subject: _Subject, at: int) -> list[tuple[int, int]] | None:
        spans: list[tuple[int, int]] = self._compiled.Match(
            _UNANCHORED, subject.data, at, len(subject.data)
        )
        return None if spans[0][0] < 0 else spans

    def _all(self, subject: _Subject) -> list[list[tuple[int, int]]]:
        """Every match, as JavaScript's global iteration finds them (after an empty match,
        the next search starts one character on)."""
        out: list[list[tuple[int, int]]] = []
        at = 0
        end = len(subject.data)
        deadline = DEADLINE.get()
        while at <= end:
            if not len(out) & _CHECK_EVERY and len(out) and monotonic() > deadline:
                raise Overdue
            spans = self._search(subject, at)
            if spans is None:
                break
            out.append(spans)
            a, b = spans[0]
            if a == b:
                if b >= end:
                    break
                at = subject.next_char(b)
            else:
                at = b
        return out

    def _groups(self, subject: _Subject, spans: list[tuple[int, int]]) -> list[Any]:
        return [UNDEFINED if a < 0 else subject.part(a, b) for a, b in spans]

    def test(self, s: Any = UNDEFINED) -> bool:
        """``re.test(s)`` (refused with ``g``: it reads and changes ``lastIndex``)."""
        if self.is_global:
            raise JsRefusal(
                "test() of a regex with the g flag starts where the last test() ended "
                "(lastIndex): the same call can answer differently",
                "Drop the g flag: /.../.test(s).",
            )
        return self._search(self._subject(s, "test()"), 0) is not None

    def match(self, s: str) -> Any:
        """``s.match(re)``: the first match's groups (no ``g``), every match's text (``g``),
        or null."""
        subject = self._subject(s, "match()")
        if not self.is_global:
            spans = self._search(subject, 0)
            if spans is None:
                return None
            found = self._groups(subject, spans)
            if OWNER.get() is not None:  # (the program may read its index, input, groups)
                names = self._info.names
                named = [named_groups(names, found)] if any(names) else []
                remember([found], [subject.units(spans[0][0])], s, named)
            return found
        found = self._all(subject)
        return [subject.part(*spans[0]) for spans in found] if found else None

    def match_all(self, s: str) -> JsIterator:
        if not self.is_global:
            raise JsRefusal(
                "matchAll() takes a regex with the g flag (a TypeError in JavaScript)",
                f"Write /{self.source}/g{self.flags}.",
            )
        subject = self._subject(s, "matchAll()")
        every = self._all(subject)
        found = [self._groups(subject, spans) for spans in every]
        if OWNER.get() is not None:  # (the program may read their index, input, groups)
            names = self._info.names
            named = [named_groups(names, groups) for groups in found] if any(names) else []
            units = subject.units
            remember(found, [units(spans[0][0]) for spans in every], s, named)
        return JsIterator(found)

    def exec(self, s: Any = UNDEFINED) -> Any:
        """``re.exec(s)`` of a regex without ``g``: ``s.match(re)`` (with ``g`` refused: it
        reads and changes ``lastIndex``)."""
        if self.is_global:
            raise JsRefusal(
                "re.exec() of a regex with the g flag starts where the last exec() ended "
                "(lastIndex): the same call can answer differently",
                "Use [...s.matchAll(/.../g)] for every match, or drop the g flag for the first.",
            )
        return self.match(s)

    def search(self, s: str) -> int:
        subject = self._subject(s, "search()")
        spans = self._search(subject, 0)
        return -1 if spans is None else subject.units(spans[0][0])

    def split(self, s: str, count: int) -> list[Any]:
        """``s.split(re, limit)`` (``count``: the limit, ToUint32): JavaScript's splitting,
        captured groups spliced in; an empty match at the start of a piece does not split."""
        subject = self._subject(s, "split()")
        size = len(subject.data)
        out: list[Any] = []
        if count == 0:
            return out
        if size == 0:
            return [] if self._compiled.Match(_BOTH, b"", 0, 0)[0][0] == 0 else [s]
        p = q = 0
        deadline = DEADLINE.get()
        searches = 0
        while q < size:
            searches += 1
            if not searches & _CHECK_EVERY and monotonic() > deadline:
                raise Overdue
            spans = self._search(subject, q)
            if spans is None or spans[0][0] >= size:
                break
            start, e = spans[0]
            if e == p or start == size:
                q = subject.next_char(start)
                continue
            out.append(subject.part(p, start))
            if len(out) == count:
                return out
            for a, b in spans[1:]:
                out.append(UNDEFINED if a < 0 else subject.part(a, b))
                if len(out) == count:
                    return out
            p = q = e
        out.append(subject.part(p, size))
        return out

    def replace(
        self, s: str, new: str | Callable[[tuple[Any, ...]], str], limit: int, every: bool
    ) -> str:
        """``s.replace(re, new)`` (every match with ``g``), ``$`` patterns read as JavaScript
        does, or ``new`` a function given what JavaScript gives a replacement function (the
        match, its groups, its place, the text, and the named groups if any); the result
        within ``limit``."""
        subject = self._subject(s, "replace()")
        if every:
            found = self._all(subject)
        else:
            first = self._search(subject, 0)
            found = [] if first is None else [first]
        if not found:
            return s
        info = self._info
        template = _template(new, info) if type(new) is str and "$" in new else None
        parts: list[str] = []
        size = 0
        at = 0
        for spans in found:
            a, b = spans[0]
            piece = subject.part(at, a)
            if type(new) is str:
                made = new if template is None else _expand(template, subject, spans)
            else:
                groups = self._groups(subject, spans)
                given = (*groups, subject.units(a), s)
                if any(info.names):
                    names = info.names
                    given += ({n: groups[i + 1] for i, n in enumerate(names) if n is not None},)
                made = new(given)  # type: ignore[operator]
            parts.append(piece)
            parts.append(made)
            size += len(piece) + len(made)
            if size > limit:
                raise TextTooLong(size, limit)
            at = b
        tail = subject.part(at, len(subject.data))
        if size + len(tail) > limit:
            raise TextTooLong(size + len(tail), limit)
        parts.append(tail)
        return "".join(parts)
