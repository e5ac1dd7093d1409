"""``var`` where it means what ``let`` means, read as ``let`` before parsing::

    for (var i = 0; i < users.length; i++) {
      var u = users[i];
      if (u.active) out.push(u.name);
    }

A ``var`` lives in the whole function and one binding serves every turn of a loop; a
``let`` lives in its block, a new binding each turn. The two give the same values when
nothing tells them apart, which is checked on the tokens: every use of the name stands after
its declaration inside the statement it declares (a loop's head: that ``for`` statement;
elsewhere: the block ``{...}`` around the declaration, which sets the name with a value each
time it runs, so no turn reads the last one's), no other declaration of the name stands
elsewhere (``var`` twice in one scope is allowed), and no arrow or function is written there
(a callback run after the turn would read the one shared binding's last value). Any other
``var`` is left as written (the loop's refusal: "declared with `const` or `let`").
"""

from __future__ import annotations

from collections.abc import Sequence

from dialectic.frontends.plan.lexer import Lexed
from dialectic.frontends.plan.tokenscan import OPEN, partners, simple_end
from dialectic.frontends.plan.tokenwrite import TokenWriter

__all__ = ["loop_vars"]

_DECLARING = frozenset(["const", "let", "function", "class", "catch"])


def loop_vars(source: str, tokens: Lexed) -> Lexed | None:
    """``tokens`` with each such ``var`` written ``let`` (the module), or None."""
    if "var" not in source:
        return None
    kinds, values = tokens.kinds, tokens.values
    found = [
        d
        for d in range(len(kinds) - 1)
        if kinds[d] == "name" and values[d] == "var" and kinds[d + 1] == "name"
    ]
    if not found:
        return None
    partner = partners(kinds)
    enclosing = _enclosing(kinds, partner)
    # the region of each declaration (its first and last token) and the names it declares
    scopes: dict[str, list[tuple[int, int]]] = {}
    decls: dict[int, list[str]] = {}
    for d in found:
        part = _declaration(kinds, values, partner, enclosing, d)
        if part is None:
            continue
        region, names = part
        decls[d] = names
        for name in names:
            scopes.setdefault(name, []).append((d, region))
    written = [
        d for d, names in decls.items() if all(_alone(kinds, values, scopes, n) for n in names)
    ]
    if not written:
        return None
    writer = TokenWriter(tokens)
    copied = 0
    for d in sorted(written):
        writer.copy(copied, d)
        writer.put("name", "let", d)
        copied = d + 1
    writer.copy(copied, len(kinds))
    return writer.lexed(source)


def _enclosing(kinds: Sequence[str], partner: dict[int, int]) -> list[int]:
    """The innermost bracket open at each token (-1: none)."""
    out = [-1] * len(kinds)
    stack: list[int] = []
    for i, kind in enumerate(kinds):
        out[i] = stack[-1] if stack else -1
        if kind in OPEN and i in partner:
            stack.append(i)
        elif stack and partner.get(i) == stack[-1]:
            stack.pop()
    return out


def _declaration(
    kinds: Sequence[str],
    values: Sequence[object],
    partner: dict[int, int],
    enclosing: list[int],
    d: int,
) -> tuple[int, list[str]] | None:
    """The last token of the region of the ``var`` at token ``d`` (its ``for`` statement, or
    its block) and the names it declares; None for one read otherwise."""
    open_at = enclosing[d]
    head = open_at >= 1 and open_at == d - 1 and values[open_at - 1] == "for"
    names = [str(values[d + 1])]
    j = d + 2
    if head:
        close = partner.get(open_at, -1)
        depth_end = close
        while j < depth_end and kinds[j] not in (";",) and values[j] not in ("of", "in"):
            if kinds[j] in OPEN:
                j = partner.get(j, depth_end)
            elif kinds[j] == ",":
                if kinds[j + 1] != "name" or kinds[j + 2] != "=":
                    return None
                names.append(str(values[j + 1]))
            j += 1
        body = close + 1
        if close < 0 or body >= len(kinds):
            return None
        end = partner.get(body, -1) if kinds[body] == "{" else simple_end(kinds, partner, body)
        if end < 0:
            return None
        return end, names
    if open_at < 0 or kinds[open_at] != "{" or kinds[d + 2] != "=":
        return None  # (a `var` of the program's top level is read as it is; no value: the
        # binding keeps the last turn's)
    end = simple_end(kinds, partner, d + 2)
    if end < 0 or any(kinds[k] == "," and enclosing[k] == open_at for k in range(d, end)):
        return None
    return partner.get(open_at, -1), names


def _alone(
    kinds: Sequence[str],
    values: Sequence[object],
    scopes: dict[str, list[tuple[int, int]]],
    name: str,
) -> bool:
    """Whether every use of ``name`` stands after one of its declarations, inside its
    region, with no arrow or function in that region, and nothing else declares it."""
    regions = sorted(scopes[name])
    if any(end < 0 for _, end in regions):
        return False
    if any(regions[n + 1][0] <= regions[n][1] for n in range(len(regions) - 1)):
        return False  # (one inside another: JavaScript's one binding, two here)
    for d, end in regions:
        first = d - 2 if values[d - 1] == "(" else d
        if any(values[k] in ("=>", "function") for k in range(first, end)):
            return False
    for k, value in enumerate(values):
        if value != name or kinds[k] != "name" or (k and kinds[k - 1] == "."):
            continue
        if k and values[k - 1] in _DECLARING:
            return False
        if kinds[k + 1] == ":" and k and kinds[k - 1] in ("{", ","):
            continue  # (a key of an object literal)
        if not any(d < k <= end for d, end in regions):
            return False
    return True
