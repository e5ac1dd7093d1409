"""JavaScript's regular expression syntax written for RE2 (SPEC 1.8, "Regular expressions").

:func:`translate` reads a pattern as JavaScript does (without the ``v`` flag) and writes the
RE2 pattern that matches the same texts at the same places: every character is written by its
code point (``\\x{..}``), so nothing of JavaScript's syntax reaches RE2 unread. JavaScript's
classes are written out as ranges: ``\\s`` (its Unicode spaces; RE2's are ASCII), ``.`` (every
character but ``\\n``, ``\\r``, U+2028, U+2029, unless the ``s`` flag), ``\\d`` and ``\\w``
(ASCII in both). What RE2 cannot run (a backreference, a lookahead or lookbehind) or runs
otherwise (a capturing group inside a repeated group: JavaScript forgets its capture at each
repetition) is refused with the offset in the pattern and what to write instead.
"""

from __future__ import annotations

from dialectic.values.regexdigits import digit_groups
from dialectic.values.regexsets import (
    _LINE_ENDS,
    _MAX_CODE,
    _SETS,
    FOLDED_APART,
    MAX_PATTERN,
    ClassReader,
    RegexSyntax,
    Translated,
    _class_of,
    _complement,
    _cp,
)

__all__ = ["FOLDED_APART", "MAX_PATTERN", "RegexSyntax", "Translated", "translate"]

#: the most times RE2 repeats an item (``a{1001}`` is refused by RE2)
_MAX_REPEAT = 1000
_SYNTAX = frozenset("^$\\.*+?()[]{}|/")
_CONTROL = {"n": 0x0A, "r": 0x0D, "t": 0x09, "v": 0x0B, "f": 0x0C}
_HEX = frozenset("0123456789abcdefABCDEF")


class _Reader(ClassReader):
    """One pass over a pattern (see :func:`translate`)."""

    def __init__(self, src: str, flags: str) -> None:
        self.src = src
        self.unicode = "u" in flags
        self.ignore_case = "i" in flags
        self.fold = "i" in flags and "u" not in flags
        self.dot_all = "s" in flags
        self.i = 0
        self.out: list[str] = []
        self.result = Translated("")
        # open groups: (capturing, start in out, holds a capture)
        self.stack: list[list[bool | int]] = []
        # the last item written: (start in out, kind: "atom", "group", "assert", "astral"),
        # and whether that group holds a capture
        self.last: tuple[int, str, bool] | None = None

    def fail(self, message: str, at: int, hint: str) -> RegexSyntax:
        return RegexSyntax(message, at, hint)

    def read(self) -> Translated:
        src = self.src
        n = len(src)
        while self.i < n:
            c = src[self.i]
            at = len(self.out)
            if c == "\\":
                self.escape()
            elif c == "[":
                self.klass()
                self.last = (at, "atom", False)
            elif c == "(":
                self.open()
                continue
            elif c == ")":
                self.close()
                continue
            elif c == ".":
                self.out.append(
                    "(?s:.)" if self.dot_all else _class_of(_complement(_LINE_ENDS), False)
                )
                self.result.halves = True
                self.last = (at, "atom", False)
                self.i += 1
            elif c in "*+?{":
                self.quantifier()
                continue
            elif c == "^" or c == "$":
                self.out.append(c)
                self.result.anchors = True
                self.last = (at, "assert", False)
                self.i += 1
            elif c == "|":
                self.out.append("|")
                self.last = None
                self.i += 1
            elif c in "]}" and self.unicode:
                raise self.fail(
                    f"a lone `{c}` is a syntax error with the u flag", self.i, f"write \\{c}"
                )
            else:
                self.literal(ord(c))
                self.i += 1
        if self.stack:
            raise self.fail("a group `(` is not closed", n, "close it with `)`")
        self.result.pattern = "".join(self.out)
        return self.result

    def literal(self, c: int) -> None:
        at = len(self.out)
        self.check_fold(c, c, self.i)
        if c > 0xFFFF and not self.unicode:
            if self.fold:
                raise self.fail(
                    "a character beyond U+FFFF in a case-insensitive pattern without the u flag "
                    "is matched by its two UTF-16 halves in JavaScript",
                    self.i,
                    "add the u flag",
                )
            self.last = (at, "astral", False)
        else:
            self.last = (at, "atom", False)
        self.out.append(_cp(c))

    def check_fold(self, a: int, b: int, at: int) -> None:
        if self.fold and any(a <= c <= b for c in FOLDED_APART):
            raise self.fail(
                "this character is folded to another one by RE2's case-insensitive matching "
                "but not by JavaScript's without the u flag (such as ſ and s, K and k)",
                at,
                "add the u flag, or write the characters the pattern means",
            )

    # -- groups --------------------------------------------------------------------------
    def open(self) -> None:
        src, i = self.src, self.i
        if src.startswith("(?", i):
            nxt = src[i + 2 : i + 3]
            if nxt == ":":
                self.stack.append([False, len(self.out), False])
                self.out.append("(?:")
                self.i = i + 3
                self.last = None
                return
            if src.startswith(("(?=", "(?!", "(?<=", "(?<!"), i):
                hint = (
                    # the thousands separators of /\B(?=(\d{3})+(?!\d))/g
                    "to group a number's digits, write n.toLocaleString('en-US') (options: "
                    "{minimumFractionDigits: 2, maximumFractionDigits: 2}), or the pattern "
                    "exactly as /\\B(?=(\\d{3})+(?!\\d))/g (flag g or none)"
                    if src.startswith(("(?=(\\d{3})+", "(?=(?:\\d{3})+"), i)
                    else "match the part too and take the group you need: "
                    "s.match(/(\\d+)px/)[1] instead of /\\d+(?=px)/; or test twice: "
                    "re1.test(s) && !re2.test(s)"
                )
                raise self.fail(
                    "lookahead and lookbehind (`(?=`, `(?!`, `(?<=`, `(?<!`) cannot run in "
                    "linear time (RE2)",
                    i,
                    hint,
                )
            if nxt == "<":
                end = src.find(">", i + 3)
                name = src[i + 3 : end] if end > 0 else ""
                if (
                    not name
                    or not (name[0].isalpha() or name[0] in "_$")
                    or not all(ch.isalnum() or ch in "_$" for ch in name)
                    or not name.isascii()
                ):
                    raise self.fail(
                        "a named group is written (?<name>...) with an ASCII name",
                        i,
                        "write (?<year>\\d{4})",
                    )
                if name in self.result.names:
                    raise self.fail(f"the group name `{name}` is used twice", i, "rename one")
                if "$" in name:
                    raise self.fail("a group name with `$` is not supported", i, "rename it")
                self.capture(name)
                self.out.append(f"(?P<{name}>")
                self.i = end + 1
                return
            raise self.fail(
                "`(?` starts no group JavaScript's regular expressions have here",
                i,
                "write (?:...) for a group that captures nothing, (?<name>...) for a named one",
            )
        self.capture(None)
        self.out.append("(")
        self.i = i + 1

    def capture(self, name: str | None) -> None:
        self.result.groups += 1
        self.result.names.append(name)
        for group in self.stack:
            group[2] = True
        self.stack.append([True, len(self.out), True])
        self.last = None

    def close(self) -> None:
        if not self.stack:
            raise self.fail(
                "a `)` closes no group", self.i, "remove it, or write \\) for the character"
            )
        _, start, holds = self.stack.pop()
        self.out.append(")")
        self.last = (int(start), "group", bool(holds))
        self.i += 1

    # -- quantifiers ---------------------------------------------------------------------
    def quantifier(self) -> None:
        src, i = self.src, self.i
        c = src[i]
        end = i + 1
        many = c != "?"
        text = c
        if c == "{":
            close = src.find("}", i)
            body = src[i + 1 : close] if close > 0 else ""
            low, comma, high = body.partition(",")
            if not low.isdigit() or not (high.isdigit() or not high) or not low.isascii():
                if self.unicode:
                    raise self.fail("a lone `{` is a syntax error with the u flag", i, "write \\{")
                self.literal(ord("{"))
                self.i = i + 1
                return
            lo = int(low)
            hi = int(high) if high else (lo if not comma else -1)
            if hi >= 0 and hi < lo:
                raise self.fail("the numbers of `{n,m}` are out of order", i, "write {1,3}")
            if lo > _MAX_REPEAT or hi > _MAX_REPEAT:
                raise self.fail(
                    f"a repetition counts at most {_MAX_REPEAT} here (RE2)",
                    i,
                    f"repeat at most {_MAX_REPEAT} times, or use + or *",
                )
            many = hi != 0 and hi != 1
            end = close + 1
            text = f"{{{lo}{',' if comma else ''}{high}}}"
        last = self.last
        if last is None or last[1] == "assert":
            raise self.fail("nothing to repeat before this quantifier", i, f"escape it: \\{c}")
        if last[1] == "astral":
            raise self.fail(
                "a quantifier after a character beyond U+FFFF repeats only its second UTF-16 "
                "half in JavaScript without the u flag",
                i,
                "add the u flag, or group it: (?:😀)+",
            )
        if last[1] == "group" and last[2]:
            if many:
                self.nested_capture(i, last)
            self.empty_capture(i, last)
        if src[end : end + 1] == "?":
            text += "?"
            end += 1
        self.out.append(text)
        self.last = None
        self.i = end

    def nested_capture(self, i: int, last: tuple[int, str, bool]) -> None:
        """A repeated group holding a capture: allowed when the group is that capture alone
        (``(\\w+,)+``: both keep the last repetition's); refused when a capture is inside it
        (JavaScript forgets an inner capture at each repetition, RE2 keeps the last one)."""
        inner = "".join(self.out[last[0] + 1 :])
        if "(" in inner.replace("(?:", "").replace("(?s:", ""):
            raise self.fail(
                "a capturing group inside a repeated group: JavaScript forgets its capture at "
                "each repetition, RE2 does not",
                i,
                "make the inner group (?:...), or capture the repeated part as a whole",
            )

    def empty_capture(self, i: int, last: tuple[int, str, bool]) -> None:
        """A repeated group holding a capture that can match nothing (``(a*)?``): refused
        (JavaScript does not repeat a group on an empty match, so its capture stays undefined;
        RE2 captures the empty text)."""
        group = "".join(self.out[last[0] :])
        if any(a in group for a in ("^", "$", "\\b", "\\B")) or _matches_empty(group):
            raise self.fail(
                "a repeated group that captures and can match nothing: JavaScript leaves its "
                "capture undefined, RE2 captures ''",
                i,
                "make the group match at least one character: (a+)? instead of (a*)?",
            )

    # -- escapes -------------------------------------------------------------------------
    def escape(self) -> None:
        src, i = self.src, self.i
        at = len(self.out)
        if i + 1 >= len(src):
            raise self.fail("a pattern cannot end with `\\`", i, "write \\\\ for a backslash")
        c = src[i + 1]
        self.i = i + 2
        lower = c.lower()
        if lower in _SETS:
            rs = _SETS[lower]
            if c.isupper():
                self.out.append(_class_of(list(rs), True))
                self.result.halves = True
            else:
                self.out.append(_class_of(list(rs), False))
            self.last = (at, "atom", False)
            return
        if c == "b" or c == "B":
            self.result.inside = self.result.inside or c == "B"
            self.out.append("\\" + c)
            self.last = (at, "assert", False)
            return
        if (c == "p" or c == "P") and self.unicode:
            self.out.append(self.property(i))
            self.last = (at, "atom", False)
            return
        code = self.char_escape(c, i, in_class=False)
        self.literal(code)

    def char_escape(self, c: str, i: int, *, in_class: bool) -> int:
        """The code point of the escape ``\\c`` at ``i`` (``self.i`` after its letter)."""
        src = self.src
        if c in _CONTROL:
            return _CONTROL[c]
        if c == "0" and not src[self.i : self.i + 1].isdigit():
            return 0
        if c.isdigit():
            raise self.fail(
                "a backreference (\\1, \\2...) cannot run in linear time (RE2)"
                if not in_class
                else "an octal escape in a class is not supported",
                i,
                "match the part again with its own pattern, or compare groups afterwards: "
                "m && m[1] === m[2]",
            )
        if c == "k" and (self.unicode or "(?<" in src):
            raise self.fail(
                "a named backreference (\\k<name>) cannot run in linear time (RE2)",
                i,
                "compare the groups afterwards: m[1] === m[2]",
            )
        if c == "c":
            letter = src[self.i : self.i + 1]
            if letter.isascii() and letter.isalpha():
                self.i += 1
                return ord(letter) % 32
            raise self.fail("\\c takes a letter (\\cJ is a line feed)", i, "write \\cA to \\cZ")
        if c == "x":
            digits = src[self.i : self.i + 2]
            if len(digits) == 2 and set(digits) <= _HEX:
                self.i += 2
                return int(digits, 16)
            return self.identity(c, i)
        if c == "u":
            return self.unicode_escape(i)
        if c in ("p", "P") and self.unicode:
            raise self.fail("\\p{...} is read by property() only", i, "")
        if c in _SYNTAX or c == "-":
            if c == "-" and self.unicode and not in_class:
                raise self.fail(
                    "`\\-` is a syntax error outside a class with the u flag", i, "write -"
                )
            return ord(c)
        return self.identity(c, i)

    def identity(self, c: str, i: int) -> int:
        if self.unicode:
            raise self.fail(
                f"`\\{c}` is no escape (a syntax error with the u flag)", i, f"write {c}"
            )
        if c.isascii() and c.isalpha() and c not in "xuck":
            raise self.fail(
                f"`\\{c}` is no escape in JavaScript (it means `{c}` there)",
                i,
                f"write {c}, or the escape you mean (\\d, \\w, \\s, \\b, \\n, \\t)",
            )
        return ord(c)

    def unicode_escape(self, i: int) -> int:
        src = self.src
        if self.unicode and src[self.i : self.i + 1] == "{":
            close = src.find("}", self.i)
            digits = src[self.i + 1 : close] if close > 0 else ""
            if digits and set(digits) <= _HEX and int(digits, 16) <= _MAX_CODE:
                self.i = close + 1
                code = int(digits, 16)
                if 0xD800 <= code <= 0xDFFF:
                    raise self.fail(
                        "a lone surrogate cannot be matched here", i, "write the whole character"
                    )
                return code
            raise self.fail("\\u{...} takes a hexadecimal code point", i, "write \\u{1F600}")
        digits = src[self.i : self.i + 4]
        if len(digits) != 4 or not set(digits) <= _HEX:
            return self.identity("u", i)
        self.i += 4
        code = int(digits, 16)
        if 0xD800 <= code <= 0xDBFF and src[self.i : self.i + 2] == "\\u":
            low = src[self.i + 2 : self.i + 6]
            if len(low) == 4 and set(low) <= _HEX and 0xDC00 <= int(low, 16) <= 0xDFFF:
                self.i += 6
                return 0x10000 + ((code - 0xD800) << 10) + (int(low, 16) - 0xDC00)
        if 0xD800 <= code <= 0xDFFF:
            raise self.fail(
                "a lone surrogate (half of a character beyond U+FFFF) cannot be matched here",
                i,
                "write the whole character, or both halves: \\uD83D\\uDE00",
            )
        return code


def _matches_empty(pattern: str) -> bool:
    import re2  # type: ignore[import-untyped,unused-ignore]  # (google-re2: untyped)

    try:
        compiled = re2.compile(pattern)
    except Exception:  # (too big: the whole pattern's compilation reports it)
        return True
    return compiled.fullmatch("") is not None


def translate(source: str, flags: str) -> Translated:
    """The RE2 pattern of the JavaScript pattern ``source`` with ``flags`` (checked by the
    caller); :class:`RegexSyntax` for what is refused."""
    if len(source) > MAX_PATTERN:
        raise RegexSyntax(
            f"a pattern is at most {MAX_PATTERN:,} characters here",
            MAX_PATTERN,
            "split the work into smaller patterns",
        )
    digits = digit_groups(source, flags)
    if digits is not None:  # (the one lookahead idiom, matched by a scan of its own)
        done = Translated(source)
        done.digits = digits
        done.groups = digits.groups
        done.names = [None] * digits.groups
        done.anchors = digits.at_end
        return done
    reader = _Reader(source, flags)
    done = reader.read()
    prefix = ("(?i)" if "i" in flags else "") + ("(?m)" if "m" in flags else "")
    done.pattern = prefix + done.pattern
    return done
