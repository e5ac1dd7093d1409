"""``N = N.concat(A);`` read as ``N.push(...[A].flat());`` where the program also pushes onto
``N`` (SPEC 10, "Loops"), as recursive walks collect what they find::

    async function walk(dir) {
      let files = [];
      for (const e of await list(dir)) {
        if (e.dir) { files = files.concat(await walk(e.path)); } else { files.push(e.name); }
      }
      return files;
    }

A loop changes an accumulator in one way (an assignment, or pushes), so the two statements
above were refused ("changes `files` in two different ways"). ``concat`` gives a new array, the
items of ``N`` followed by each argument's items (an array's, one level) or the argument itself
(anything else): exactly what ``[A].flat()`` lists, so when nothing else holds the array ``N``
held, the assignment is the push of those items. The push's own checks see to that (an array
the program made, not read whole before the loop), and a ``const N``, which JavaScript refuses to
assign (a TypeError), is never written so: every declaration of ``N`` in the program must be
``let N =`` or ``var N =`` (a parameter, a pattern's name, a ``const``: left as written).

Only for a program refused as written (:func:`.reading._states`), and only a statement
``N = N.concat(...);`` that starts a statement (after ``;``, ``{``, a block, ``else`` or an
``if``/``for``/``while`` head) and ends at ``;`` or ``}``; ``N`` must also be pushed onto
(``N.push(``) somewhere, else the assignment already runs as written."""

from __future__ import annotations

from collections.abc import Sequence

from dialectic.frontends.plan.lexer import Lexed
from dialectic.frontends.plan.sortreturns import declared_tokens
from dialectic.frontends.plan.tokenscan import partners, starts_statement
from dialectic.frontends.plan.tokenwrite import TokenWriter

__all__ = ["concat_pushes"]


def concat_pushes(source: str, tokens: Lexed) -> Lexed | None:
    """``tokens`` with each such statement written as a push (None: there is none)."""
    kinds, values = tokens.kinds, tokens.values
    n = len(kinds)
    pushed = {
        str(values[i])
        for i in range(n - 3)
        if kinds[i] == "name"
        and kinds[i + 1] == "."
        and values[i + 2] == "push"
        and kinds[i + 3] == "("
        and (i == 0 or kinds[i - 1] != ".")
    }
    if not pushed:
        return None
    partner = partners(kinds)
    found: list[tuple[int, int]] = []  # (N's token, the concat's `)`)
    for i in range(n - 6):
        name = values[i]
        if not (
            kinds[i] == "name"
            and name in pushed
            and kinds[i + 1] == "="
            and values[i + 2] == name
            and kinds[i + 2] == "name"
            and kinds[i + 3] == "."
            and values[i + 4] == "concat"
            and kinds[i + 5] == "("
            and starts_statement(kinds, values, partner, i)
        ):
            continue
        close = partner.get(i + 5, -1)
        if close < 0 or kinds[close + 1] not in (";", "}"):
            continue
        found.append((i, close))
    if not found:
        return None
    lets = _only_lets(kinds, values, {str(values[i]) for i, _ in found})
    found = [f for f in found if values[f[0]] in lets]
    if not found:
        return None
    out = TokenWriter(tokens)
    done = 0
    for i, close in found:
        out.copy(done, i + 1)  # `N`
        out.put(".", ".", i + 3)
        out.put("name", "push", i + 4)
        out.put("(", "(", i + 5)
        out.put("op", "...", i + 5)
        out.put("[", "[", i + 5)
        out.copy(i + 6, close)  # the arguments
        out.put("]", "]", close)
        out.put(".", ".", close)
        out.put("name", "flat", close)
        out.put("(", "(", close)
        out.put(")", ")", close)
        out.put(")", ")", close)
        done = close + 1
    out.copy(done, n)
    return out.lexed(source)


def _only_lets(kinds: Sequence[str], values: Sequence[object], names: set[str]) -> set[str]:
    """Those of ``names`` every declaration of which is ``let N =`` or ``var N =``."""
    bad: set[str] = set()
    for j in declared_tokens(kinds, values):
        name = values[j]
        if kinds[j] != "name" or name not in names:
            continue
        if not (values[j - 1] in ("let", "var") and kinds[j + 1] == "="):
            bad.add(str(name))
    return names - bad
