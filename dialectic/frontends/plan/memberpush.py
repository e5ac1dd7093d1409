"""A push onto an array held in an object the program wrote (SPEC 10, "Loops"): the group-by
as models write it in a loop or a ``reduce`` step::

    const groups = {};
    for (const p of people) {
      if (!groups[p.city]) groups[p.city] = [];
      groups[p.city].push(p.name);
    }

Read before parsing, on the tokens (as :mod:`.parensets` reads its form): the statement
``o[k].push(A);`` (also ``o.k.push(A);``) is ``o[k] = [...o[k], A];``, the change the loops,
blocks and ``reduce`` steps make in place (linear). That is JavaScript's push only when the
array in ``o[k]`` is held nowhere else, so ``o`` is defined just as ``const o = {};`` or an
object of new empty arrays and literals, ``const o = {ok: [], failed: [], n: 0};`` (or is a
``reduce`` step's accumulator starting from ``{}``), and from there to the end of the statement
holding the last push ``o`` is used only by such pushes and by the statements that make a
member an array: ``o[k] = [];``, ``o[k] = o[k] || [];`` (or ``??``), ``o[k] ||= [];`` (or
``??=``), the form :mod:`.parensets` writes (``o[k] = [...(o[k] || []), A];``), a new array
``o[k] = [B];`` (``B`` not reading ``o``), and the test ``if (!o[k])``. A key reads the same
twice (a name, a literal, a member chain of names: no call), and ``A`` does not read ``o``. A
member that is not an array when pushed fails, as in JavaScript (``[...undefined]``). Any
other use leaves the push as it is, which the parser refuses with what to write instead."""

from __future__ import annotations

from collections.abc import Sequence

from dialectic.frontends.plan.lexer import Lexed
from dialectic.frontends.plan.parensets import (
    MAX_OBJECTS,
    _reduce_body,
    _target_end,
    empty_arrays_end,
    name_index,
    pure_key,
)
from dialectic.frontends.plan.tokenscan import holding_statement_end, partners, starts_statement
from dialectic.frontends.plan.tokenwrite import TokenWriter

__all__ = ["member_pushes", "owner_end", "push_rewrite"]

#: `||` and `??`, as tokens
_EITHER = frozenset(["||", "??"])


def member_pushes(source: str, tokens: Lexed) -> Lexed | None:
    """``tokens`` with each push onto an array held in an object the program wrote written as
    the member's new value (None: there is none)."""
    if ".push" not in source:
        return None
    kinds, values = tokens.kinds, tokens.values
    partner: dict[int, int] | None = None
    found: dict[str, list[tuple[int, int, int]]] = {}
    at = 0
    while True:  # each `push` token (found by the list's own search)
        try:
            at = values.index("push", at + 1)
        except ValueError:
            break
        i = at - 1  # its `.`
        if not (
            kinds[i] == "."
            and kinds[at] == "name"
            and kinds[at + 1] == "("
            and (kinds[i - 1] == "]" or (kinds[i - 1] == "name" and kinds[i - 2] == "."))
        ):
            continue  # (`out.push(x)` of a name: not a member's array)
        if partner is None:
            partner = partners(kinds)
        push = _push_at(kinds, values, partner, i)
        if push is not None:
            found.setdefault(str(values[push[0]]), []).append(push)
    if not found or partner is None:
        return None
    index = name_index(kinds, values)
    kept = []
    for obj, pushes in list(found.items())[:MAX_OBJECTS]:  # (each costs a pass: bounded)
        inside = {j for start, dot, _ in pushes for j in range(start, dot)}  # (not the values)
        uses = [j for j in index.get(obj, ()) if j not in inside]
        if _only_groups(kinds, values, partner, uses, pushes):
            kept.extend(pushes)
    if not kept:
        return None
    return push_rewrite(
        source, tokens, [(_init_before(kinds, values, p), *p) for p in sorted(kept)]
    )


def _init_before(kinds: Sequence[str], values: Sequence[object], push: tuple[int, int, int]) -> int:
    """The first token of the statement just before the push that makes its member an
    array (`T ??= [];`, `T ||= [];`, `T = T || [];`, `if (!T) T = [];`, `if (!T) { T = []; }`),
    or -1: the two are read as one change, ``T = [...(T || []), A]`` (a `reduce` step makes
    one change of its accumulator per member)."""
    start, dot, _ = push
    target = [(kinds[j], values[j]) for j in range(start, dot)]
    width = len(target)
    empty = [("[", "["), ("]", "]")]

    def seq(a: int, b: int) -> list[tuple[str, object]]:
        return [(kinds[j], values[j]) for j in range(max(a, 0), b)]

    def starts(a: int) -> bool:
        return a >= 0 and (a == 0 or kinds[a - 1] in (";", "{", "}"))

    for op in ("??=", "||="):  # `T ??= [];`
        a = start - width - 4
        if starts(a) and seq(a, start) == [*target, ("op", op), *empty, (";", ";")]:
            return a
    for either in _EITHER:  # `T = T || [];`
        a = start - 2 * width - 5
        form = [*target, ("=", "="), *target, ("op", either), *empty, (";", ";")]
        if starts(a) and seq(a, start) == form:
            return a
    test = [("name", "if"), ("(", "("), ("op", "!"), *target, (")", ")")]
    a = start - 2 * width - 8  # `if (!T) T = [];`
    if starts(a) and seq(a, start) == [*test, *target, ("=", "="), *empty, (";", ";")]:
        return a
    a = start - 2 * width - 10  # `if (!T) { T = []; }`
    form = [*test, ("{", "{"), *target, ("=", "="), *empty, (";", ";"), ("}", "}")]
    if starts(a) and seq(a, start) == form:
        return a
    return -1


def _push_at(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], dot: int
) -> tuple[int, int, int] | None:
    """For the `.` of `.push(` at token ``dot``: (the statement's first token, the `.`, the
    call's `)`) when the statement is ``o[k].push(A);`` (a member, not a name), else None."""
    start = dot - 1
    while True:  # back to the object's name over `[key]` and `.name` members
        if kinds[start] == "]":
            start = partner.get(start, 0) - 1
        elif kinds[start] == "name" and kinds[start - 1] == ".":
            start -= 2
        else:
            break
    if start < 0 or kinds[start] != "name" or start == dot - 1:
        return None
    if not _chain_to(kinds, values, partner, start, dot):
        return None
    if not starts_statement(kinds, values, partner, start):
        return None
    end = partner.get(dot + 2, -1)
    if end < 0 or end == dot + 3 or kinds[end + 1] not in (";", "}", "eof"):
        return None
    obj = values[start]
    if any(
        kinds[j] == "name" and values[j] == obj and kinds[j + 1] != "." for j in range(dot + 3, end)
    ):
        return None  # (the value reads the object: only `o.name` may, checked with its uses)
    return start, dot, end


def _chain_to(
    kinds: Sequence[str],
    values: Sequence[object],
    partner: dict[int, int],
    start: int,
    stop: int,
) -> bool:
    """Whether tokens ``start`` up to ``stop`` are a name and members whose keys read the
    same twice (``g[p.city]``, ``g.all``, ``g[x > 0 ? 'pos' : 'neg']``: no call)."""
    i = start + 1
    while i < stop:
        if kinds[i] == "." and kinds[i + 1] == "name":
            i += 2
        elif kinds[i] == "[":
            close = partner.get(i, -1)
            if close < 0 or not pure_key(kinds, values, i + 1, close):
                return False
            i = close + 1
        else:
            return False
    return i == stop


def _only_groups(
    kinds: Sequence[str],
    values: Sequence[object],
    partner: dict[int, int],
    uses: list[int],
    pushes: list[tuple[int, int, int]],
) -> bool:
    """Whether the object of the ``pushes`` (``uses``: the tokens naming it outside them) is
    defined as ``{}`` and used only as the module says up to the end of the statement holding
    the last push."""
    end = owner_end(kinds, values, partner, uses, [p[0] for p in pushes], ("{", "}"))
    if end < 0:
        return False
    pushed = _pushed_keys(kinds, values, pushes)
    texts = _scalar_members(kinds, values, uses[0])
    if texts and (pushed is None or "..." in texts or not texts.isdisjoint(pushed)):
        return False  # (a push onto a text fails in JavaScript; `[...t, A]` would not, and
        # a number's or null's would fail with the spread's words, not Node's TypeError)
    for j in uses[1:]:
        if j >= end:  # (after the last push's statement, or `return acc;`: anything)
            break
        if not (
            _makes_array(kinds, values, partner, j)
            or _other_member_change(kinds, values, partner, j, pushed)
            or _other_member_read(kinds, values, j, pushed)
        ):
            return False
    return True


def _other_member_read(
    kinds: Sequence[str], values: Sequence[object], j: int, pushed: frozenset[object] | None
) -> bool:
    """Whether the use of the object at token ``j`` reads a member no push pushes onto
    (``o.count``, in a test or a value): it holds no array of the pushes."""
    if pushed is None or kinds[j + 1] != "." or kinds[j + 2] != "name":
        return False
    after = j + 3
    if kinds[after] == "=" or (kinds[after] == "op" and values[after] in _CHANGING):
        return False
    if kinds[j - 1] == "op" and values[j - 1] in ("++", "--"):
        return False
    return values[j + 2] not in pushed


def _pushed_keys(
    kinds: Sequence[str], values: Sequence[object], pushes: list[tuple[int, int, int]]
) -> frozenset[object] | None:
    """The member names the ``pushes`` push onto (``o.ok.push``), None when one is a computed
    key (``o[k].push``: any member may be one)."""
    keys: set[object] = set()
    for start, dot, _ in pushes:
        if dot == start + 3 and kinds[start + 1] == ".":
            keys.add(values[start + 2])
            continue
        choice = _choice_keys(kinds, values, start + 1, dot)
        if choice is None:
            return None
        keys.update(choice)
    return frozenset(keys)


def _choice_keys(
    kinds: Sequence[str], values: Sequence[object], first: int, end: int
) -> tuple[object, ...] | None:
    """The member names of ``[T ? 'a' : 'b']`` (or ``['a']``) from token ``first`` up to
    ``end``, else None."""
    if kinds[first] != "[" or kinds[end - 1] != "]":
        return None
    if end - first == 3 and kinds[first + 1] == "str":
        return _names(values[first + 1])
    a, b = end - 4, end - 2  # `[T ? 'a' : 'b']`, no other `?` or `:` in `T`
    if not (
        kinds[a - 1] == "op"
        and values[a - 1] == "?"
        and kinds[a] == "str"
        and kinds[a + 1] == ":"
        and kinds[b] == "str"
    ):
        return None
    if any(kinds[m] == ":" or values[m] == "?" for m in range(first + 1, a - 1)):
        return None
    return _names(values[a], values[b])


def _scalar_members(
    kinds: Sequence[str], values: Sequence[object], first: int
) -> frozenset[object]:
    """The members of the object literal defining the name at token ``first`` (``const o =
    {label: 'x', n: 0, items: []}``) whose values are not arrays: ``o.label.push(A)`` is a
    TypeError in JavaScript, where ``o.label = [...o.label, A]`` would spread the text's
    characters (and a number's, ``null``'s spread would fail with other words than Node's
    ``o.n.push is not a function``: the push is left to :mod:`.nestedchanges`, which writes
    them). A key with an escape is ``...`` (any member)."""
    out: set[object] = set()
    i = first + 3
    if not (kinds[first + 1] == "=" and kinds[first + 2] == "{"):
        return frozenset()
    while i + 2 < len(kinds) and kinds[i] in ("name", "str") and kinds[i + 1] == ":":
        if kinds[i + 2] != "[":
            names = _names(values[i]) if kinds[i] == "str" else (values[i],)
            out.update(names if names is not None else ("...",))
        i += 3  # (key, `:`, value: empty_arrays_end checked each value is one token or `[]`)
        while i < len(kinds) and kinds[i] not in (",", "}"):
            i += 1
        i += 1
    if "..." in out:
        return frozenset(["..."])
    return frozenset(out)


def _names(*texts: object) -> tuple[object, ...] | None:
    """The member names the text literals ``texts`` (as written, quotes and all) name; None
    for one with an escape (its name is not read here)."""
    out = []
    for text in texts:
        raw = str(text)
        if "\\" in raw or len(raw) < 2:
            return None
        out.append(raw[1:-1])
    return tuple(out)


def _other_member_change(
    kinds: Sequence[str],
    values: Sequence[object],
    partner: dict[int, int],
    j: int,
    pushed: frozenset[object] | None,
) -> bool:
    """Whether the use of the object at token ``j`` is a statement changing a member no push
    pushes onto, from a value not reading the object (``o.count++;``, ``o.total += x;``,
    ``o.last = x;``): no array of the object is held elsewhere by it."""
    if pushed is None or not starts_statement(kinds, values, partner, j):
        return False
    if kinds[j + 1] != "." or kinds[j + 2] != "name" or values[j + 2] in pushed:
        return False
    op = j + 3
    if kinds[op] == "op" and values[op] in ("++", "--"):
        return kinds[op + 1] in (";", "}", "eof")
    if not (kinds[op] == "=" or (kinds[op] == "op" and values[op] in _ARITHMETIC)):
        return False
    obj, depth = values[j], 0
    for m in range(op + 1, len(kinds)):
        kind = kinds[m]
        if kind == "name" and values[m] == obj and not _other_member_read(kinds, values, m, pushed):
            return False
        if kind in ("(", "[", "{"):
            depth += 1
        elif kind in (")", "]", "}"):
            depth -= 1
            if depth < 0:
                return True
        elif depth == 0 and kind in (";", "eof"):
            return True
    return False


#: the operators that change what stands before them
_CHANGING = frozenset(["++", "--", "+=", "-=", "*=", "/=", "%=", "||=", "??=", "&&=", "**="])
#: the assigning operators of a number's change
_ARITHMETIC = frozenset(["+=", "-=", "*=", "/=", "%="])


def owner_end(
    kinds: Sequence[str],
    values: Sequence[object],
    partner: dict[int, int],
    uses: list[int],
    pushes: list[int],
    initial: tuple[str, ...],
) -> int:
    """For the container of the ``pushes`` (their first tokens; ``uses``: the tokens naming it
    outside them), defined as ``initial`` (``const o = {};``, ``new Map()``) or the accumulator
    of a ``reduce`` step from it: the token from which any use may follow (the end of the
    statement holding the last push, or the ``acc`` of the step's ``return acc;``), else -1."""
    if not uses:
        return -1
    first = uses[0]
    if kinds[first - 1] == "name" and values[first - 1] in ("const", "let", "var"):
        after = first + 2 + len(initial)
        if initial == ("{", "}") and kinds[first + 1] == "=":
            after = empty_arrays_end(kinds, values, first + 2)
            if after < 0 or kinds[after] not in (";", "eof") or pushes[0] < first:
                return -1
            return holding_statement_end(kinds, values, first, pushes[-1])
        if after >= len(kinds) or any(kinds[j] == "str" for j in range(first + 1, after)):
            return -1
        if [str(v) for v in values[first + 1 : after]] != ["=", *initial]:
            return -1
        if kinds[after] not in (";", "eof") or pushes[0] < first:
            return -1
        return holding_statement_end(kinds, values, first, pushes[-1])
    # `xs.reduce((acc, x) => { ...; return acc; }, {})`
    body = _reduce_body(kinds, values, partner, first, initial)
    if body < 0 or not all(body < p < partner[body] for p in pushes):
        return -1
    end = partner[body] - (2 if kinds[partner[body] - 1] == ";" else 1)
    if not (values[end - 1] == "return" and values[end] == values[first]):
        return -1
    return end


def _makes_array(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], j: int
) -> bool:
    """Whether the use of the object at token ``j`` is a test ``if (!o[k])``, ``k in o`` (a
    membership test holds no array), or a statement that makes a member an array (the
    module's list)."""
    if kinds[j - 1] == "name" and values[j - 1] == "in" and kinds[j + 1] in (")", "?", "op"):
        return kinds[j + 1] != "op" or values[j + 1] in ("?", "&&", "||", "??", "===", "!==")
    target = _target_end(kinds, values, partner, j)
    if target < 0 or target == j + 1:
        return False  # (the object itself, or a key read twice differently)
    if kinds[j - 1] == "op" and values[j - 1] == "!":  # `if (!o[k])`
        return (
            kinds[j - 2] == "("
            and kinds[j - 3] == "name"
            and values[j - 3] == "if"
            and kinds[target] == ")"
        )
    if not starts_statement(kinds, values, partner, j):
        # the second read in `o[k] = o[k] || [];` or `o[k] = [...(o[k] || []), A];`
        return _second_read(kinds, values, partner, j, target)
    op = target
    if kinds[op] == "op" and values[op] in ("||=", "??="):
        return _empty_array_then_end(kinds, op + 1)
    if kinds[op] != "=":
        return False
    if _empty_array_then_end(kinds, op + 1):
        return True  # `o[k] = [];`
    close = partner.get(op + 1, -1) if kinds[op + 1] == "[" else -1
    if close > 0 and kinds[close + 1] in (";", "}", "eof"):  # `o[k] = [x];`: a new array
        obj = values[j]
        return not any(kinds[m] == "name" and values[m] == obj for m in range(op + 1, close))
    same = list(zip(kinds[j:target], values[j:target], strict=True))
    width = target - j
    after = op + 1
    here = list(zip(kinds[after : after + width], values[after : after + width], strict=True))
    if here == same and kinds[after + width] == "op" and values[after + width] in _EITHER:
        return _empty_array_then_end(kinds, after + width + 1)  # `o[k] = o[k] || [];`
    return _spread_of_same(kinds, values, partner, after, same)


def _second_read(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], j: int, end: int
) -> bool:
    """``o[k]`` at token ``j`` read in `o[k] = o[k] || [];` or `[...(o[k] || []), A]`: the
    statement's own target, checked where the statement starts."""
    width = end - j
    if kinds[end] == "op" and values[end] in _EITHER and kinds[j - 1] in ("=", "("):
        start = j - 1 - width if kinds[j - 1] == "=" else j - 4 - width
        if start >= 0 and starts_statement(kinds, values, partner, start):
            return list(kinds[start : start + width]) == list(kinds[j:end]) and list(
                values[start : start + width]
            ) == list(values[j:end])
    return False


def _spread_of_same(
    kinds: Sequence[str],
    values: Sequence[object],
    partner: dict[int, int],
    at: int,
    same: list[tuple[str, object]],
) -> bool:
    """``[...(o[k] || []), A];`` from token ``at`` (``same``: the tokens of ``o[k]``), ``A``
    not reading the object."""
    width = len(same)
    if not (kinds[at] == "[" and kinds[at + 1] == "op" and values[at + 1] == "..."):
        return False
    i = at + 2
    if kinds[i] != "(":
        return False
    inner = list(zip(kinds[i + 1 : i + 1 + width], values[i + 1 : i + 1 + width], strict=True))
    k = i + 1 + width
    if inner != same or not (kinds[k] == "op" and values[k] in _EITHER):
        return False
    if not (kinds[k + 1] == "[" and kinds[k + 2] == "]" and kinds[k + 3] == ")"):
        return False
    close = partner.get(at, -1)
    obj = same[0][1]
    return (
        close > 0
        and kinds[close + 1] in (";", "}", "eof")
        and not any(kinds[m] == "name" and values[m] == obj for m in range(k + 4, close))
    )


def _empty_array_then_end(kinds: Sequence[str], i: int) -> bool:
    return kinds[i] == "[" and kinds[i + 1] == "]" and kinds[i + 2] in (";", "}", "eof")


def push_rewrite(source: str, tokens: Lexed, pushes: list[tuple[int, int, int, int]]) -> Lexed:
    """The tokens with each push ``T.push(A);`` written as ``T = [...T, A];``, or with the
    statement before it that makes the member an array (its first token, else -1) as
    ``T = [...(T || []), A];`` (new tokens take the places of the ones they stand for)."""
    out = TokenWriter(tokens)
    put, copy = out.put, out.copy
    at = 0
    for init, start, dot, end in pushes:
        copy(at, init if init >= 0 else start)
        copy(start, dot)  # T
        put("=", "=", dot)
        put("[", "[", dot + 2)
        put("op", "...", dot + 1)
        if init >= 0:  # `(T || [])`
            put("(", "(", dot + 1)
            copy(start, dot)
            put("op", "||", dot + 1)
            put("[", "[", dot + 1)
            put("]", "]", dot + 1)
            put(")", ")", dot + 1)
        else:
            copy(start, dot)  # T
        put(",", ",", dot + 2)
        copy(dot + 3, end)  # A
        put("]", "]", end)
        at = end + 1
    copy(at, len(tokens.kinds))
    return out.lexed(source)
