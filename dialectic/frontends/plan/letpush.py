"""A ``let`` array that a loop both pushes onto and starts again, as models chunk a list or
split it into runs (SPEC 10, "Loops")::

    const chunks = []; let cur = [];
    for (const x of xs) {
      cur.push(x);
      if (cur.length === 3) { chunks.push(cur); cur = []; }
    }
    if (cur.length) chunks.push(cur);

Read on the tokens, only when the program as written is refused (:func:`.parse_plan` reads it
again): each statement ``cur.push(A);`` is ``cur = [...cur, A];``, so ``cur`` is a ``let`` the
loop sets (a fold, linear) and ``chunks.push(cur)`` keeps the value ``cur`` has there. That is
JavaScript's answer only when no array ``cur`` held when it was read whole (pushed, returned,
given to a call...) is pushed onto afterwards: in JavaScript the array read is the same array,
and a later ``cur.push`` would change it there too. So the pass reads it so only when:

- ``cur`` is declared once, ``let cur = [...];`` (a new array; or ``let cur = await f(x);``
  of a function the program does not define: a tool's reply, new data), and nothing else in
  the program declares the name (no ``function``, no parameter of that name); the program has
  no ``try`` (a failure caught between a read whole and the new array would skip the new array);
- every other use is a push statement ``cur.push(A);`` (``A`` reading only members of
  ``cur``), a statement
  ``cur = [...];`` or ``cur = cur.slice(...);`` (a new array: also ``filter``, ``map``,
  ``concat``, ``toSorted``, ``toReversed``, ``flat``), a read of a member or a method that
  does not change the array (``cur.length``, ``cur[0]``, ``cur.slice()``), a spread
  ``...cur``, or a read whole;
- after each read whole, the next push or ``cur = [...]`` in the text is the ``cur = [...]``,
  and it runs on every path from the read before the loop around the read goes on: a statement
  of a block holding the read with only ``if``/``else`` blocks between them and no ``break`` or
  ``continue`` on the way; or there is none, and no loop around the read pushes onto ``cur``.

Such a read whole is then written as a copy, ``chunks.push([...cur])`` (the same value: nothing
pushes onto the array read; where the name stands alone as a value), so the array the loop
pushes onto is held by the loop alone and grows in place (:mod:`dialectic.resolve.foldstate`):
linear in the items whatever the size of a chunk. Anything else is left as written
(``chunks.push(cur); cur.push(x);`` stays refused: the pushed array would change)."""

from __future__ import annotations

from collections.abc import Sequence

from dialectic.frontends.plan.base import CHANGES, expression_end
from dialectic.frontends.plan.lexer import Lexed
from dialectic.frontends.plan.parensets import name_index
from dialectic.frontends.plan.tokenscan import CLOSE, partners, starts_statement
from dialectic.frontends.plan.tokenwrite import TokenWriter

__all__ = ["let_pushes"]

#: methods of an array that change it in place (a use by one leaves the program as written)
_MUTATING = frozenset(
    ["push", "pop", "shift", "unshift", "splice", "sort", "reverse", "fill", "copyWithin"]
)
#: methods of an array that make a new array (`cur = cur.slice(1);` starts a new one)
_NEW_ARRAY = frozenset(["slice", "filter", "map", "concat", "toSorted", "toReversed", "flat"])
#: how many `let` arrays, and reads whole of one, a program may have read so (each read costs a
#: walk back over its block)
_MAX = 32


def let_pushes(source: str, tokens: Lexed) -> Lexed | None:
    """``tokens`` with each push onto a ``let`` array the module describes written as the
    name's new value (None: there is none)."""
    if ".push" not in source or "let" not in source:
        return None
    kinds, values = tokens.kinds, tokens.values
    if "function" in values or "try" in values:
        return None  # (a failure caught between a read whole and the new array skips it)
    partner = partners(kinds)
    index = name_index(kinds, values)
    arrows = _arrow_expressions(kinds, values, partner)
    pushes: list[tuple[int, int]] = []
    copies: set[int] = set()
    for decl in index.get("let", ())[:_MAX]:
        if not (
            kinds[decl + 1] == "name"
            and kinds[decl + 2] == "="
            and (
                (kinds[decl + 3] == "[" and kinds[partner.get(decl + 3, 0) + 1] in (";", "eof"))
                or _reply(kinds, values, partner, index, decl + 3)
            )
        ):
            continue
        found = _pushes(kinds, values, partner, arrows, index[str(values[decl + 1])], decl + 1)
        if found is not None and found[0]:
            pushes.extend(found[0])
            copies.update(found[1])
    if not pushes:
        return None
    return _rewrite(source, tokens, sorted(pushes), copies)


def _reply(
    kinds: Sequence[str],
    values: Sequence[object],
    partner: dict[int, int],
    index: dict[str, list[int]],
    at: int,
) -> bool:
    """Whether the tokens from ``at`` are ``await f(...);`` (or ``f(...);``) of a function the
    program does not define (every use of ``f`` is a call of it: a registered function or a
    global), whose reply is new data (SPEC 1.8 and 5), held by nothing else."""
    at += kinds[at] == "name" and values[at] == "await"
    if kinds[at] != "name" or kinds[at + 1] != "(":
        return False
    if kinds[partner.get(at + 1, 0) + 1] not in (";", "eof") or values[at] == "Object":
        return False  # (`Object(xs)` is `xs` itself)
    return all(
        kinds[u + 1] == "(" and (u == 0 or kinds[u - 1] != ".") for u in index[str(values[at])]
    )


def _rewrite(source: str, tokens: Lexed, pushes: list[tuple[int, int]], copies: set[int]) -> Lexed:
    """The tokens with each push ``V.push(A);`` (first token, the call's `)`) written as ``V =
    [...V, A];`` and each read whole of ``copies`` as ``[...V]`` (new tokens take the places
    of the ones they stand for)."""
    out = TokenWriter(tokens)
    put = out.put

    def copy(first: int, end: int) -> None:
        j = first
        for u in sorted(c for c in copies if first <= c < end):
            out.copy(j, u)
            put("[", "[", u)
            put("op", "...", u)
            out.copy(u, u + 1)
            put("]", "]", u)
            j = u + 1
        out.copy(j, end)

    at = 0
    for start, end in pushes:
        copy(at, start)
        out.copy(start, start + 1)  # `V = [...V, A]`
        put("=", "=", start + 1)
        put("[", "[", start + 3)
        put("op", "...", start + 2)
        out.copy(start, start + 1)
        put(",", ",", start + 3)
        copy(start + 4, end)
        put("]", "]", end)
        at = end + 1
    copy(at, len(tokens.kinds))
    return out.lexed(source)


def _arrow_expressions(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int]
) -> list[tuple[int, int]]:
    """The token ranges of the arrow functions' expression bodies (a use of the array there is
    left as written: when such a body runs is not a statement's place)."""
    out = []
    for a, kind in enumerate(kinds):
        if kind != "op" or values[a] != "=>" or kinds[a + 1] == "{":
            continue
        j = expression_end(kinds, a + 1, (",", ";"))
        out.append((a, j))
    return out


def _block_of(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], j: int
) -> list[int]:
    """The `{` of each block holding token ``j``, innermost first (the braces of object
    literals left out)."""
    out = []
    k = j - 1
    while k >= 0:
        kind = kinds[k]
        if kind in CLOSE:
            k = partner.get(k, 0) - 1
            continue
        if kind == "{" and _is_block(kinds, values, k):
            out.append(k)
        k -= 1
    return out


def _is_block(kinds: Sequence[str], values: Sequence[object], brace: int) -> bool:
    """Whether the `{` at ``brace`` opens a block (not an object literal)."""
    before = brace - 1
    if before < 0 or kinds[before] in (")", ";", "{", "}"):
        return True
    if kinds[before] == "name":
        return values[before] in ("else", "do", "try", "finally")
    return kinds[before] == "op" and values[before] == "=>"


def _loop_brace(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], b: int
) -> bool:
    """Whether the block at ``b`` may run more than once (a loop's or an arrow function's
    body; anything but an ``if``/``else`` branch or a plain block)."""
    before = b - 1
    if before < 0 or kinds[before] in (";", "{", "}"):
        return False  # a plain block
    if kinds[before] == "name" and values[before] == "else":
        return False
    if kinds[before] == ")":
        head = partner.get(before, 0) - 1
        return not (head >= 0 and kinds[head] == "name" and values[head] == "if")
    return True


def _pushes(
    kinds: Sequence[str],
    values: Sequence[object],
    partner: dict[int, int],
    arrows: list[tuple[int, int]],
    uses: list[int],
    decl: int,
) -> tuple[list[tuple[int, int]], list[int]] | None:
    """For the ``let`` array named at token ``decl`` (``uses``: every token of its name), its
    push statements (first token, the call's `)`) and the reads whole to copy, when all its
    uses are as the module says, else None."""
    name = values[decl]
    home = _block_of(kinds, values, partner, decl)
    home_end = partner.get(home[0], len(kinds)) if home else len(kinds)
    pushes: list[tuple[int, int]] = []
    sets: list[int] = []
    wholes: list[int] = []
    for u in uses:
        if u == decl or kinds[u - 1] == "." or (kinds[u + 1] == ":" and kinds[u - 1] in ("{", ",")):
            continue  # (a member's or a key's name)
        if u < decl or u > home_end or any(a < u < e for a, e in arrows):
            return None
        if any(start < u < end for start, end in pushes):
            continue  # (`cur.length` in a push's value: read before the push, as in JavaScript)
        if kinds[u - 1] == "name" and values[u - 1] in ("let", "const", "var"):
            return None
        kind = _use(kinds, values, partner, u)
        if kind is None:
            return None
        if kind == "push":
            end = partner[u + 3]
            if any(
                kinds[m] == "name"
                and values[m] == name
                and (kinds[m + 1] != "." or values[m + 2] in _MUTATING)
                for m in range(u + 4, end)
            ):
                return None  # (`cur.push(cur)`; `cur.push(x, cur.length)` is a use of its own)
            pushes.append((u, end))
        elif kind == "set":
            sets.append(u)
        elif kind == "whole":
            wholes.append(u)
    if len(wholes) > _MAX:
        return None
    for u in wholes:
        if not _safe_read(kinds, values, partner, u, [p for p, _ in pushes], sets):
            return None
    # each read whole a copy (`chunks.push([...cur])`): no array of the loop is held elsewhere,
    # so each push grows the array the loop made (linear; the same value, as nothing pushes
    # onto the array read)
    return pushes, [u for u in wholes if _value_place(kinds, values, u)]


def _value_place(kinds: Sequence[str], values: Sequence[object], u: int) -> bool:
    """Whether the name at token ``u`` stands alone as a value (an argument, an item, a
    member's value, ``return cur;``): ``[...cur]`` may stand there."""
    before, after = kinds[u - 1], kinds[u + 1]
    if after not in (")", ",", "]", ";", "}"):
        return False
    if before == "name":
        return values[u - 1] == "return"
    return before in ("(", ",", "[", "=", ":")


def _use(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], u: int
) -> str | None:
    """What the use of the array at token ``u`` is: "push", "set" (``cur = [...];``), "read"
    (a member, a method that does not change it, a spread), "whole", or None (a change the
    module does not read)."""
    after, value = kinds[u + 1], values[u + 1]
    if kinds[u - 1] == "op" and values[u - 1] in ("++", "--"):
        return None
    if after == "op" and value in CHANGES:
        return None
    statement = starts_statement(kinds, values, partner, u)
    if after == "=":
        close = _new_array_end(kinds, values, partner, u)
        ok = statement and close > 0 and kinds[close + 1] in (";", "}", "eof")
        return "set" if ok else None
    if after == "." and kinds[u + 2] == "name":
        method = values[u + 2]
        if kinds[u + 3] in ("=",) or (kinds[u + 3] == "op" and values[u + 3] in CHANGES):
            return None  # (`cur.length = 0;`)
        if method == "push" and kinds[u + 3] == "(":
            end = partner.get(u + 3, -1)
            ok = statement and end > u + 4 and kinds[end + 1] in (";", "}", "eof")
            return "push" if ok else None
        return None if method in _MUTATING else "read"
    if after == "[":
        close = partner.get(u + 1, -1)
        if close < 0 or kinds[close + 1] == "=" or values[close + 1] in CHANGES:
            return None
        return "read"
    if kinds[u - 1] == "op" and values[u - 1] == "...":
        return "read"
    return "whole"


def _new_array_end(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], u: int
) -> int:
    """The last token of the new array set to the name at token ``u`` (``cur = [...]``, ``cur =
    cur.slice(1)``: a method of the array making a new one), else -1."""
    if kinds[u + 2] == "[":
        return partner.get(u + 2, -1)
    if (
        values[u + 2] == values[u]
        and kinds[u + 3] == "."
        and values[u + 4] in _NEW_ARRAY
        and kinds[u + 5] == "("
    ):
        return partner.get(u + 5, -1)
    return -1


def _safe_read(
    kinds: Sequence[str],
    values: Sequence[object],
    partner: dict[int, int],
    u: int,
    pushes: list[int],
    sets: list[int],
) -> bool:
    """Whether no push can reach the array read whole at token ``u`` (the module's rule)."""
    later = [p for p in pushes if p > u]
    reset = [s for s in sets if s > u]
    blocks = _block_of(kinds, values, partner, u)
    loops = [b for b in blocks if _loop_brace(kinds, values, partner, b)]
    if reset and (not later or reset[0] < later[0]):
        a = reset[0]
        if kinds[a - 1] not in (";", "{", "}"):
            return False  # (a branch's statement: `if (t) cur = [];`)
        if any(kinds[m] == "name" and values[m] in ("break", "continue") for m in range(u, a)):
            return False
        home = _block_of(kinds, values, partner, a)
        if not home:  # (a statement of the program's body)
            return not loops
        inner = home[0]
        # the `cur = [...]` is in a block holding the read, and no loop lies between the two
        return inner in blocks and (not loops or blocks.index(loops[0]) >= blocks.index(inner))
    if later:
        return False
    if not loops:
        return True
    outer = loops[-1]
    return not any(outer < p < partner.get(outer, 0) for p in pushes)
