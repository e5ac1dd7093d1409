"""``a.localeCompare(b)`` for texts of printable ASCII, as Node orders them (ICU's root
collation, which its default locale ``en-US`` keeps for these characters): each character has
a primary weight, in the order ``" _-,;:!?.'\\"()[]{}@*/\\\\&#%`^+<=>|~$"``, then the digits, then
the letters, a letter and its capital sharing one (no digit is read as a number: ``"10"`` comes
before ``"9"``); texts whose weights are equal differ by case, the first lowercase letter where
the other has a capital coming first (``"a" < "A"``, ``"ab" < "aB" < "Ab"``). The answer is -1,
0 or 1, as V8's. Another character (a tab, an accent, any non-ASCII text) would need the
locale's tables: refused with what to write instead; so are the locales and options
arguments."""

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


def locale_compare(s: str, other: Any = UNDEFINED, *rest: Any) -> int:
    """``s.localeCompare(other)`` (see the module)."""
    if type(other) is not str:
        raise JsRefusal(
            "localeCompare() compares two texts here (JavaScript would convert the other value)",
            "Give it a text: a.localeCompare(String(b)).",
        )
    if any(r is not UNDEFINED for r in rest):
        raise JsRefusal("localeCompare() with locales or options follows those rules", _HINT)
    a, b = _weights(s), _weights(other)
    if a != b:
        return -1 if a < b else 1
    for x, y in zip(s, other, strict=True):  # (the same letters: the first case apart decides)
        if x != y:
            return -1 if x.islower() else 1
    return 0
