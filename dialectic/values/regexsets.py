"""Character sets of JavaScript's regular expressions written for RE2 (see
:mod:`.regexsyntax`): the classes ``\\d``, ``\\w``, ``\\s`` (JavaScript's Unicode spaces) and
``.`` as ranges of code points, a class ``[...]`` read as JavaScript reads it, and the
properties ``\\p{...}`` RE2 knows; what a pattern is translated into (:class:`Translated`)
and the refusal (:class:`RegexSyntax`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dialectic.values.regexdigits import DigitGroups

__all__ = ["FOLDED_APART", "MAX_PATTERN", "ClassReader", "RegexSyntax", "Translated"]

#: the longest pattern a program may write
MAX_PATTERN = 1000
_MAX_CODE = 0x10FFFF

#: JavaScript's white space and line terminators (``\s``)
_SPACES = (
    (0x09, 0x0D),
    (0x20, 0x20),
    (0xA0, 0xA0),
    (0x1680, 0x1680),
    (0x2000, 0x200A),
    (0x2028, 0x2029),
    (0x202F, 0x202F),
    (0x205F, 0x205F),
    (0x3000, 0x3000),
    (0xFEFF, 0xFEFF),
)
_DIGITS = ((0x30, 0x39),)
_WORD = ((0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A))
_LINE_ENDS = ((0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029))
#: one character of each pair that case-insensitive matching without the ``u`` flag does not
#: fold together while RE2 (and JavaScript with ``u``) does: ``ſ`` and ``s``, the Kelvin sign
#: and ``k``, ``ẞ`` and ``ß``... (found by comparing Node and RE2 over every cased character)
FOLDED_APART = frozenset(
    [
        *(0x017F, 0x03F4, 0x1E9E, 0x1FBC, 0x1FCC, 0x1FD3, 0x1FE3, 0x1FFC, 0x2126, 0x212A),
        *(0x212B, 0xFB05, 0xFB06),
        *range(0x1F88, 0x1F90),
        *range(0x1F98, 0x1FA0),
        *range(0x1FA8, 0x1FB0),
    ]
)
#: JavaScript's general categories and scripts (``\p{L}``, ``\p{Script=Greek}``) RE2 knows
_CATEGORIES = frozenset((
    "L", "Lu", "Ll", "Lt", "Lm", "Lo", "M", "Mn", "Mc", "Me", "N", "Nd", "Nl", "No", "P", "Pc",
    "Pd", "Ps", "Pe", "Pi", "Pf", "Po", "S", "Sm", "Sc", "Sk", "So", "Z", "Zs", "Zl", "Zp", "C",
    "Cc", "Cf", "Co", "Cs",
))  # fmt: skip
_LONG_CATEGORIES = {
    "Letter": "L",
    "Uppercase_Letter": "Lu",
    "Lowercase_Letter": "Ll",
    "Number": "N",
    "Decimal_Number": "Nd",
    "Punctuation": "P",
    "Symbol": "S",
    "Mark": "M",
    "Separator": "Z",
    "Space_Separator": "Zs",
}


class RegexSyntax(Exception):
    """A pattern refused: ``message``, ``offset`` in the pattern, ``hint``."""

    def __init__(self, message: str, offset: int, hint: str) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.hint = hint


class Translated:
    """An RE2 pattern and what the run needs to know about it."""

    __slots__ = ("anchors", "digits", "groups", "halves", "inside", "names", "pattern")

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self.groups = 0
        self.names: list[str | None] = []  # each group's name, or None
        #: whether it may match half of a character beyond U+FFFF without the ``u`` flag
        #: (``.``, ``\S``, a negated class): then a text holding one is refused
        self.halves = False
        #: whether it holds `^` or `$`
        self.anchors = False
        #: whether it holds `\B` (RE2 finds it between the bytes of a character: a text with
        #: characters beyond ASCII is refused)
        self.inside = False
        #: the matcher of the thousands separators' lookahead (:mod:`.regexdigits`), which
        #: runs instead of RE2
        self.digits: DigitGroups | None = None


def _cp(c: int) -> str:
    if 0x30 <= c <= 0x39 or 0x41 <= c <= 0x5A or 0x61 <= c <= 0x7A:
        return chr(c)
    return f"\\x{{{c:x}}}"


def _ranges(rs: list[tuple[int, int]] | tuple[tuple[int, int], ...]) -> str:
    return "".join(_cp(a) if a == b else f"{_cp(a)}-{_cp(b)}" for a, b in rs)


def _complement(rs: tuple[tuple[int, int], ...]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    at = 0
    for a, b in sorted(rs):
        if a > at:
            out.append((at, a - 1))
        at = max(at, b + 1)
    if at <= _MAX_CODE:
        out.append((at, _MAX_CODE))
    return out


def _class_of(rs: list[tuple[int, int]], negated: bool) -> str:
    if not rs:  # `[]` matches nothing, `[^]` any character
        return f"[{'' if negated else '^'}\\x{{0}}-\\x{{10ffff}}]"
    return f"[{'^' if negated else ''}{_ranges(rs)}]"


_SETS = {"d": _DIGITS, "w": _WORD, "s": _SPACES}


class ClassReader:
    """A class ``[...]`` and a property ``\\p{...}`` (a part of :class:`.regexsyntax._Reader`)."""

    src: str
    i: int
    unicode: bool
    ignore_case: bool
    out: list[str]
    result: Translated

    if TYPE_CHECKING:  # defined by the reader

        def fail(self, message: str, at: int, hint: str) -> RegexSyntax: ...

        def check_fold(self, a: int, b: int, at: int) -> None: ...

        def char_escape(self, c: str, i: int, *, in_class: bool) -> int: ...

    def property(self, i: int) -> str:
        src = self.src
        c = src[i + 1]
        close = src.find("}", self.i)
        if src[self.i : self.i + 1] != "{" or close < 0:
            raise self.fail(
                f"\\{c} takes a property in braces", i, "write \\p{L} or \\p{Script=Greek}"
            )
        if self.ignore_case:
            raise self.fail(
                f"\\{c}{{...}} with the i flag: JavaScript case-folds the property's characters "
                "(\\P{Lu} then matches capitals too), RE2 otherwise",
                i,
                "drop the i flag: [\\p{Lu}\\p{Ll}] for letters of either case",
            )
        name = src[self.i + 1 : close]
        self.i = close + 1
        key, _, value = name.partition("=")
        if value and key in ("Script", "sc", "Script_Extensions", "scx") and value.isalpha():
            if key in ("Script_Extensions", "scx"):
                raise self.fail(
                    "Script_Extensions is not supported", i, f"write \\{c}{{Script={value}}}"
                )
            prop = value
        elif not value and name in _CATEGORIES:
            prop = name
        elif not value and name in _LONG_CATEGORIES:
            prop = _LONG_CATEGORIES[name]
        elif key in ("General_Category", "gc") and value in _CATEGORIES:
            prop = value
        else:
            raise self.fail(
                f"the property `{name}` is not supported",
                i,
                "write a general category (\\p{L}, \\p{Lu}, \\p{N}, \\p{P}) or \\p{Script=Greek}",
            )
        return f"\\{c}{{{prop}}}"

    # -- classes -------------------------------------------------------------------------
    def klass(self) -> None:
        src, start = self.src, self.i
        i = start + 1
        negated = src[i : i + 1] == "^"
        if negated:
            i += 1
            self.result.halves = True
        rs: list[tuple[int, int]] = []
        props: list[str] = []
        n = len(src)
        while True:
            if i >= n:
                raise self.fail("a class `[` is not closed", start, "close it with `]`")
            if src[i] == "]":
                break
            self.i = i
            first = self.class_atom(rs, props)
            i = self.i
            if first is not None and src[i : i + 1] == "-" and src[i + 1 : i + 2] not in ("]", ""):
                self.i = i + 1
                second = self.class_atom(rs, props)
                if second is None:
                    if self.unicode:
                        raise self.fail(
                            "a range cannot end at a class such as \\d", i, "write the range out"
                        )
                    rs.append((first, first))
                    rs.append((0x2D, 0x2D))
                elif second < first:
                    raise self.fail(
                        "a range `a-b` is out of order", i, "write the smaller character first"
                    )
                else:
                    self.check_fold(first, second, i)
                    rs.append((first, second))
                i = self.i
            elif first is not None:
                self.check_fold(first, first, i)
                rs.append((first, first))
        self.i = i + 1
        if not self.unicode and any(b > 0xFFFF for _, b in rs):
            raise self.fail(
                "a class with a character beyond U+FFFF matches either of its two UTF-16 halves "
                "in JavaScript without the u flag",
                start,
                "add the u flag",
            )
        if props:
            if negated:
                raise self.fail(
                    "a negated class with \\p{...} is not supported", start, "use \\P{...}"
                )
            inner = _ranges(rs) + "".join(props)
            self.out.append(f"[{inner}]")
            return
        self.out.append(_class_of(rs, negated))

    def class_atom(self, rs: list[tuple[int, int]], props: list[str]) -> int | None:
        """One item of a class at ``self.i``: its code point, or None for a set (``\\d``),
        which is added to ``rs``/``props``."""
        src, i = self.src, self.i
        c = src[i]
        if c != "\\":
            code = ord(c)
            self.i = i + 1
            return code
        if i + 1 >= len(src):
            raise self.fail("a pattern cannot end with `\\`", i, "write \\\\ for a backslash")
        e = src[i + 1]
        self.i = i + 2
        if e.lower() in _SETS:
            base = _SETS[e.lower()]
            rs.extend(_complement(base) if e.isupper() else base)
            if e.isupper():
                self.result.halves = True
            return None
        if e in ("p", "P") and self.unicode:
            props.append(self.property(i))
            return None
        if e == "b":
            return 0x08
        return self.char_escape(e, i, in_class=True)
