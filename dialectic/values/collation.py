"""``a.localeCompare(b)`` for texts of printable ASCII, as Node orders them (ICU's root
collation, which its default locale ``en-US`` keeps for these characters): each character has
a primary weight, in the order ``" _-,;:!?.'\\"()[]{}@*/\\\\&#%`^+<=>|~$"``, then the digits, then
the letters, a letter and its capital sharing one (no digit is read as a number: ``"10"`` comes
before ``"9"``); texts whose weights are equal differ by case, the first lowercase letter where
the other has a capital coming first (``"a" < "A"``, ``"ab" < "aB" < "Ab"``). The answer is -1,
0 or 1, as V8's. Another character (a tab, an accent, any non-ASCII text) would need the
locale's tables: refused with what to write instead.

The locales English's (``undefined``, ``'en'``, ``'en-US'``: the same order for these
characters); the options ``sensitivity`` (``'base'`` and ``'accent'`` compare the weights
only, so ``"a"`` and ``"A"`` are equal; ``'case'`` and ``'variant'`` as without options) and
``numeric`` (``true``: each run of digits weighs as its number, leading zeros apart, so
``"item9" < "item10"`` and ``"x01"`` equals ``"x1"``). Other locales and options are refused."""

from __future__ import annotations

from typing import Any

from dialectic.values.data import UNDEFINED
from dialectic.values.jsops import JsRefusal

__all__ = ["locale_compare"]

#: printable ASCII in ICU's root order (a letter and its capital together)
_ORDER = (
    " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789"
    "aAbBcCdDeEfFgGhHiIjJkKlLmMnNoOpPqQrRsStTuUvVwWxXyYzZ"
)
#: character -> its primary weight
_PRIMARY: dict[str, int] = {}
for _c in _ORDER:
    _PRIMARY[_c] = _PRIMARY.get(_c.lower(), len(_PRIMARY) + 1)
_HINT = (
    "Compare texts with a.name < b.name ? -1 : a.name > b.name ? 1 : 0 (their code units' "
    "order), or sort by a key."
)


def _weights(s: str) -> list[int]:
    try:
        return [_PRIMARY[c] for c in s]
    except KeyError:
        raise JsRefusal(
            "localeCompare() of a text with a character other than printable ASCII orders it "
            "by the locale's collation tables",
            _HINT,
        ) from None


def locale_compare(
    s: str, other: Any = UNDEFINED, locales: Any = UNDEFINED, options: Any = UNDEFINED
) -> int:
    """``s.localeCompare(other, locales, options)`` (see the module)."""
    if type(other) is not str:
        raise JsRefusal(
            "localeCompare() compares two texts here (JavaScript would convert the other value)",
            "Give it a text: a.localeCompare(String(b)).",
        )
    if not (locales is UNDEFINED or locales in _LOCALES or locales == []):
        raise JsRefusal(
            f"localeCompare() follows English's order only ('en', 'en-US' or none), not "
            f"{locales!r}",
            _HINT,
        )
    case, numeric = _options(options)
    if numeric:
        a, b = _units(s), _units(other)
    else:
        a, b = _weights(s), _weights(other)  # type: ignore[assignment]
    if a != b:
        return -1 if a < b else 1
    if not case:
        return 0
    if numeric:  # (the same weights: the first letter whose case differs decides)
        pairs = zip(_letters(s), _letters(other), strict=True)
    else:
        pairs = zip(s, other, strict=True)
    for x, y in pairs:
        if x != y:
            return -1 if x.islower() else 1
    return 0


_LOCALES = frozenset(["en", "en-US"])
_SENSITIVITY = {"base": False, "accent": False, "case": True, "variant": True}
_DIGIT = _PRIMARY["0"]


def _options(options: Any) -> tuple[bool, bool]:
    """Whether case decides a tie, and whether digits weigh as numbers."""
    if options is UNDEFINED:
        return True, False
    if type(options) is not dict:
        raise JsRefusal("localeCompare()'s options must be an object", _HINT)
    given = {k: v for k, v in options.items() if v is not UNDEFINED}
    for key, value in given.items():
        if key == "sensitivity" and value in _SENSITIVITY:
            continue
        if key == "numeric" and type(value) is bool:
            continue
        if (key, value) in (("usage", "sort"), ("ignorePunctuation", False)):
            continue
        raise JsRefusal(
            f"localeCompare()'s option {key}: {value!r} is not supported (sensitivity, numeric)",
            _HINT,
        )
    return _SENSITIVITY[given.get("sensitivity", "variant")], bool(given.get("numeric", False))


def _units(s: str) -> list[tuple[int, int, str]]:
    """``s``'s weights with each run of digits one unit weighing as its number (its digits
    without leading zeros, compared by count, then in order)."""
    out: list[tuple[int, int, str]] = []
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        if "0" <= c <= "9":
            j = i
            while j < n and "0" <= s[j] <= "9":
                j += 1
            digits = s[i:j].lstrip("0")
            out.append((_DIGIT, len(digits), digits))
            i = j
            continue
        weight = _PRIMARY.get(c)
        if weight is None:
            _weights(c)  # (refused: not printable ASCII)
        out.append((weight or 0, 0, ""))
        i += 1
    return out


def _letters(s: str) -> list[str]:
    """``s``'s characters but its digits (whose runs weighed as numbers)."""
    return [c for c in s if not "0" <= c <= "9"]
