"""A ``switch`` that sets a ``let`` of a loop's body, read as the ``if`` chain it is by
:mod:`.letbranch` (which reads the tokens before parsing)::

    let label;
    switch (t.status) {
      case 'open': label = t.assignee ? 'assigned' : 'triage'; break;
      case 'in_progress':
      case 'blocked': { label = 'working'; break; }
      default: label = 'done';
    }

Each case sets the name only (``label = v;``, ``+=``, ``-=``, ``++``, ``--``; braced or not)
and ends in ``break;`` (the last may end without); cases with no statements share the next
one's. Anything else (a case that falls into another's statements, another statement, a
``case`` value holding ``?``, whose ``:`` this reading would misplace) is left as written, for
the loop's reading to refuse or read. The chain tests the value read once (JavaScript reads it
once), with ``===``, the cases in order, lazily, then ``default`` wherever it stands.
"""

from __future__ import annotations

from collections.abc import Callable

from dialectic.frontends.plan.base import expression_end

__all__ = ["Switch", "switch_chain"]

#: :func:`.letbranch._arm`: a branch that only sets the name (its operator, its value's
#: tokens, the token after it)
_Arm = Callable[
    [list[str], list[object], dict[int, int], int, str], tuple[str, tuple[int, int], int] | None
]


class Switch:
    """The switch's value (a token range ``[first, end)``), its cases (the ranges of their
    values, ``None`` for ``default``; each with its operator and value's range), and the
    token after the ``switch``."""

    __slots__ = ("arms", "end", "head")

    def __init__(self, head: tuple[int, int]) -> None:
        self.head = head
        self.arms: list[tuple[list[tuple[int, int]] | None, str, tuple[int, int]]] = []
        self.end = 0


def switch_chain(
    kinds: list[str],
    values: list[object],
    partner: dict[int, int],
    at: int,
    name: str,
    arm: _Arm,
) -> Switch | None:
    """The ``switch`` at token ``at`` whose every case only sets ``name`` (the module), or
    None."""
    if not (values[at] == "switch" and kinds[at + 1] == "("):
        return None
    close = partner.get(at + 1)
    if close is None or kinds[close + 1] != "{":
        return None
    end = partner.get(close + 1)
    if end is None:
        return None
    found = Switch((at + 2, close))
    pending: list[tuple[int, int]] = []
    default = None
    i = close + 2
    while i < end:
        if values[i] == "case":
            stop = expression_end(kinds, i + 1, (":",))
            if kinds[stop] != ":" or stop == i + 1:
                return None
            if any(kinds[k] == "op" and values[k] == "?" for k in range(i + 1, stop)):
                return None  # (a `? :` in a case's value: its `:` is not the case's)
            pending.append((i + 1, stop))
        elif values[i] == "default" and kinds[i + 1] == ":":
            stop = i + 1
            default = True
        else:
            return None
        i = stop + 1
        if values[i] in ("case", "default"):
            continue  # (no statements: the next case's are theirs too)
        taken = _case_body(kinds, values, partner, i, end, name, arm)
        if taken is None:
            return None
        op, value, i = taken
        if default:
            if pending:  # (`case f(): default: ...`: its value is read first; left as is)
                return None
            found.arms.append((None, op, value))
            default = None
        else:
            found.arms.append((pending, op, value))
        pending = []
    if pending or default:
        return None  # (a last case with no statements)
    ends = [a for a in found.arms if a[0] is None]
    if len(ends) > 1:
        return None
    found.arms = [a for a in found.arms if a[0] is not None] + ends
    if not found.arms:
        return None
    found.end = end + 1
    return found


def _case_body(
    kinds: list[str],
    values: list[object],
    partner: dict[int, int],
    i: int,
    end: int,
    name: str,
    arm: _Arm,
) -> tuple[str, tuple[int, int], int] | None:
    """The statements of a case at token ``i``: one that sets ``name``, then ``break;``
    (braced or not; the last case may end without): its operator, its value's tokens and the
    token after the case's statements."""
    braced = kinds[i] == "{"
    inner_end = partner.get(i, -1) if braced else end
    taken = arm(kinds, values, partner, i + 1 if braced else i, name)
    if taken is None:
        return None
    op, value, after = taken
    broke = values[after] == "break" and kinds[after + 1] == ";"
    if broke:
        after += 2
    if braced:
        if after != inner_end:
            return None
        after += 1
        if values[after] == "break" and kinds[after + 1] == ";":
            broke = True
            after += 2
    if not broke and after != end:
        return None  # (it falls into the next case's statements)
    if after != end and values[after] not in ("case", "default"):
        return None
    return op, value, after
