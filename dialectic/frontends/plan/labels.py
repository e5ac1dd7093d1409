"""What to write instead of a label (``outer: for (...) { ... break outer; }``): Plan has no
labels (SPEC 10, "Loops"); the refusal says how to leave or skip the outer loop from the inner
one, by what the labeled loop's body does with its label."""

from __future__ import annotations

from collections.abc import Sequence

from dialectic.frontends.plan.base import closing

__all__ = ["label_refusal"]

_BREAK = (
    "write `break;` where it is directly in the labeled loop; from a loop inside it, set a "
    "flag and test it after the inner loop: `let done = false; for (const a of xs) "
    "{ for (const b of ys) { if (test) { done = true; break; } } if (done) break; }`, or put "
    "the loops in a function and `return` from it"
)
_CONTINUE = (
    "write `continue;` where it is directly in the labeled loop; from a loop inside it, end "
    "that loop and skip the rest of the outer one on a flag: `for (const a of xs) "
    "{ let skip = false; for (const b of ys) { if (test) { skip = true; break; } } if (skip) "
    "continue; ... }`, or test first: `if (ys.some(b => test)) continue;`"
)


def label_refusal(kinds: Sequence[str], values: Sequence[str], pos: int) -> tuple[str, str]:
    """The message and the hint for the label at token ``pos`` (its name, then `:`): by the
    `break LABEL` and `continue LABEL` of the statement it labels (its braces' tokens, once)."""
    label = values[pos]
    start = pos + 2
    while kinds[start] not in ("{", "eof"):  # (`for (...) {`: the body's brace)
        if kinds[start] in ("(", "["):
            start = closing(kinds, start)  # (the `eof` token when never closed)
            if kinds[start] == "eof":
                break
        start += 1
    end = closing(kinds, start) if kinds[start] == "{" else start
    used = {
        values[i - 1]
        for i in range(start + 1, end)
        if kinds[i] == "name" and values[i] == label and values[i - 1] in ("break", "continue")
    }
    hints = ([_BREAK] if "break" in used else []) + ([_CONTINUE] if "continue" in used else [])
    jumps = " and ".join(f"`{word} {label}`" for word in ("break", "continue") if word in used)
    message = "Plan has no labels" + (f" (the statement uses {jumps})" if jumps else "")
    hint = "; ".join(hints) or "remove the label"
    return message, hint
