"""The one lookahead idiom models write, matched without a backtracking engine (SPEC 1.8,
"Regular expressions"): the thousands separators of ``/\\B(?=(\\d{3})+(?!\\d))/g`` and its
variants (``(?:\\d{3})``, a leading ``(\\d)`` replaced by ``'$1,'``, ``$`` for ``(?!\\d)``).

RE2 runs no lookahead, so :func:`digit_groups` recognizes these patterns by their exact text,
and :class:`DigitGroups` finds their matches by one scan of the text's bytes with RE2's
``Match`` interface (so :class:`~dialectic.values.jsregex.JsRegExp` uses it as it uses RE2).
What the lookahead asks is simple: ``(\\d{3})+(?!\\d)`` holds at a place where a run of digits
starts whose length is a multiple of three and is followed by no digit (``$``: by the text's
end); ``(\\d{3})+`` captures the run's last three digits, as JavaScript's last repetition.
Digits and word characters are ASCII in JavaScript (``\\d``, ``\\B`` without ``u``), so the
bytes of UTF-8 are read directly: no character beyond ASCII is a digit or a word character.
"""

from __future__ import annotations

__all__ = ["DigitGroups", "digit_groups"]

_RUN = ("(\\d{3})+", "(?:\\d{3})+")
_END = ("(?!\\d)", "$")
_HEAD = ("\\B", "(\\d)", "\\d")


class DigitGroups:
    """The matcher of one such pattern: its head (``\\B`` or a digit, captured or not),
    whether the run's group captures, and whether the run ends at the text's end (``$``)."""

    __slots__ = ("at_end", "groups", "head", "run_captures", "_seen")

    def __init__(self, head: str, run_captures: bool, at_end: bool) -> None:
        self.head = head
        self.run_captures = run_captures
        self.at_end = at_end
        self.groups = (head == "(\\d)") + run_captures
        #: the text last searched, its end, and the ends of its digit runs by place (the
        #: searches of one text's every match read each run once: linear)
        self._seen: tuple[bytes, int, dict[int, int]] = (b"", 0, {})

    def _holds(self, p: int, end: int, data: bytes, runs: dict[int, int]) -> int:
        """The end of the digit run at ``p`` when the lookahead holds there, else -1."""
        if p >= end or not _digit(data[p]):
            return -1
        stop = runs.get(p)
        if stop is None:
            stop = p
            while stop < end and _digit(data[stop]):
                stop += 1
            for q in range(p, stop):
                runs[q] = stop
        if (stop - p) % 3 or (self.at_end and stop != end):
            return -1
        return stop

    def Match(self, anchor: object, data: bytes, at: int, end: int) -> list[tuple[int, int]]:
        """RE2's ``Match`` (so named): the spans of the first match in ``data[at:end]``
        (``anchor`` other than unanchored: the match must span it all), ``(-1, -1)`` each
        when none."""
        from dialectic.values import jsregex

        seen = self._seen
        if seen[0] is data and seen[1] == end:
            runs = seen[2]
        else:
            runs = {}
            self._seen = (data, end, runs)
        none = [(-1, -1)] * (1 + self.groups)
        anchored = anchor is not jsregex._UNANCHORED
        start = at
        while start <= end:
            if self.head == "\\B":
                p = start
                word = 0 < p < end and _word(data[p - 1])
            else:
                p = start + 1
                word = start < end and _digit(data[start])
            run_end = self._holds(p, end, data, runs) if word else -1
            if run_end >= 0:
                if anchored and (start, p) != (at, end):
                    return none
                spans = [(start, p)]
                if self.head == "(\\d)":
                    spans.append((start, p))
                if self.run_captures:
                    spans.append((run_end - 3, run_end))
                return spans
            if anchored:
                return none
            start += 1
        return none


def _digit(b: int) -> bool:
    return 0x30 <= b <= 0x39


def _word(b: int) -> bool:
    return 0x30 <= b <= 0x39 or 0x41 <= b <= 0x5A or 0x61 <= b <= 0x7A or b == 0x5F


def digit_groups(source: str, flags: str) -> DigitGroups | None:
    """The matcher of ``source`` when it is one of the idiom's patterns (flags ``g`` or none),
    else None."""
    if flags not in ("", "g"):
        return None
    for head in _HEAD:
        for run in _RUN:
            for tail in _END:
                if source == f"{head}(?={run}{tail})":
                    return DigitGroups(head, run.startswith("(\\"), tail == "$")
    return None
