"""When a fold's version is passed on by places that never run in the same step (SPEC 10, "Loops").

A change under a test is written in two aliases that read the test's alias: ``_add1 = _if1 ?
[...out, x] : null`` (the change) and ``_out2 = _if1 ? _add1 : out`` (the next version). Both
pass ``out`` on, but on opposite branches of the same alias ``_if1``, which has one value per
step: one of them passes it, never both. :mod:`.foldstate` counts such places as one, so
``if (ok) out = [...out, x];`` and a ``while`` loop's ``out = out.concat([x])`` change ``out`` in
place as an unconditional change does (before, each copied: quadratic).

A *guard* is the list of (test alias, branch) on the way from an alias's value to the place
that passes the version on; two places are exclusive when their guards take opposite branches
of one test alias (a test that is no alias of the step is left out of the guard: it proves
nothing).
"""

from __future__ import annotations

from itertools import combinations

from dialectic.tree.nodes import AliasRef, Node

__all__ = ["Guard", "exclusive", "guarded"]

#: the (slot of the test alias, branch taken) pairs on the way to a place
Guard = tuple[tuple[int, bool], ...]

#: more places than this are not compared (the check stays linear in the program)
_MOST = 8


def guarded(guard: Guard, test: Node, branch: bool, frame: int) -> Guard:
    """``guard`` and the branch ``branch`` of a ``? :`` testing ``test`` (an alias of the
    step at nesting level ``frame``, else nothing is added)."""
    if type(test) is AliasRef and test.frame == frame:
        return (*guard, (test.slot, branch))
    return guard


def exclusive(
    version: int, successors: set[int], guards: dict[tuple[int, int], list[Guard]]
) -> bool:
    """Whether at most one of the aliases ``successors`` passes ``version`` on in any step:
    every two places in different aliases take opposite branches of one test alias."""
    if len(successors) < 2 or len(successors) > _MOST:
        return len(successors) < 2
    places = [guards.get((version, s), [()]) for s in successors]
    for mine, theirs in combinations(places, 2):
        for a in mine:
            for b in theirs:
                if not _opposite(a, b):
                    return False
    return True


def _opposite(a: Guard, b: Guard) -> bool:
    taken = dict(a)
    return any(slot in taken and taken[slot] != branch for slot, branch in b)
