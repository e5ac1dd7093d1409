"""An assignment in parentheses as a statement (SPEC 10, "Changes outside loops"), as models
write a group-by or a count:

    (groups[k] ||= []).push(x);            (groups[k] ??= []).push(x);
    (groups[k] = groups[k] || []).push(x);  (counts[k] = (counts[k] || 0) + 1);
    (table[r] ??= {})[kind] = v;

Read before parsing, on the tokens: ``(T op V);`` is the statement ``T op V;``,
``(T op V).f = W;`` (``[k]``, any member and what follows to the statement's end: the value of
``T op V`` is ``T``'s new value, and ``T`` reads the same twice) is ``T op V; T.f = W;``, and
``(T ||= []).push(A);`` (also ``??=``, and ``=`` with ``T || []`` or ``T ?? []``) is
``T = [...(T || []), A];``, the group-by change the loops, blocks and ``reduce`` steps make in
place (linear). ``T`` is a member ``o[k]``/``o.k`` whose key reads the same twice (a name, a
literal, a member chain of names: no call). The push is JavaScript's only when the array in
``o[k]`` is held nowhere else: so ``o`` is defined just as ``const o = {};`` (or is a ``reduce``
step's accumulator starting from ``{}``) and nothing else reads ``o`` from its definition to the
end of the statement holding the last such push (after it, anything may). Any other form is left
as it is, and the parser refuses it with what to write instead.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from dialectic.frontends.plan.lexer import Lexed
from dialectic.frontends.plan.tokenscan import (
    holding_statement_end,
    partners,
    starts_statement,
    value_end,
)
from dialectic.frontends.plan.tokenwrite import TokenWriter

__all__ = ["MAX_OBJECTS", "empty_arrays_end", "name_index", "pure_key", "split_parenthesized"]

#: a text that may hold `(name... op= ...)`: the token pass decides
_MAYBE = re.compile(
    r"\(\s*[A-Za-z_$][\w$]*\s*(?:[.\[][^;\n()=]*?)?(?:\|\||\?\?|&&|[-+*/%])?=(?![=>])"
)
#: how many objects' pushes one program may have read so (each costs a pass over its block;
#: the pushes of more objects are left as written, which the parser refuses)
MAX_OBJECTS = 64
#: the operators of a change in parentheses
_OPS = frozenset(["||=", "??=", "&&=", "+=", "-=", "*=", "/=", "%="])
#: the operators a key may use (no assignment, no `++`: the key reads the same twice)
_PURE_OPS = frozenset(
    ["!", "%", "*", "/", "**", "&&", "||", "??", "===", "!==", "==", "!=", "<", ">", "<=", ">=",
     "?", "?.", "&", "|", "^", "~", "<<", ">>", ">>>"]
)  # fmt: skip
#: the tokens a key may be made of besides names, literals and those operators
_PURE_KINDS = frozenset(["num", "str", ".", "[", "]", "(", ")", "+", "-", ":"])
#: names that run something (a key holding one may not read the same twice)
_EFFECT_NAMES = frozenset(["await", "new", "delete", "void", "yield", "function", "class"])


@dataclass(slots=True)
class _Found:
    """One statement ``(T op V)[.push(A)];``: its `(`, the operator, its `)`, the push's
    `(` and `)` (-1: no push), the object's name and `||` or `??` (pushes only)."""

    open: int
    op: int
    close: int
    call: int
    call_end: int
    obj: str
    either: str = "||"
    #: ``(T op V).f = W;``, ``(T op V)[k] = W;``: the token after ``W`` (-1: no such member)
    member_end: int = -1


def split_parenthesized(source: str, tokens: Lexed) -> Lexed | None:
    """``tokens`` with each assignment in parentheses that is a statement written as its own
    statement (None: there is none)."""
    if _MAYBE.search(source) is None:
        return None
    kinds, values = tokens.kinds, tokens.values
    partner = partners(kinds)
    found = [f for i in range(len(kinds)) if (f := _statement(kinds, values, partner, i))]
    if not found:
        return None
    pushes = [f for f in found if f.call >= 0]
    index = name_index(kinds, values) if pushes else {}
    objects = list(dict.fromkeys(f.obj for f in pushes))
    for obj in objects[MAX_OBJECTS:]:  # (each costs a pass over its block: bounded)
        found = [f for f in found if f.obj != obj]
    for obj in objects[:MAX_OBJECTS]:
        mine = [f for f in pushes if f.obj == obj]
        inside = {j for f in mine for j in range(f.open, f.call_end + 1)}
        uses = [j for j in index.get(obj, ()) if j not in inside]
        if not _held_nowhere_else(kinds, values, partner, uses, mine):
            found = [f for f in found if f.obj != obj]
    if not found:
        return None
    return _rewrite(source, tokens, found)


def name_index(kinds: Sequence[str], values: Sequence[object]) -> dict[str, list[int]]:
    """The tokens naming each name, in order (one pass for all the objects asked about)."""
    index: dict[str, list[int]] = {}
    for j, kind in enumerate(kinds):
        if kind == "name":
            index.setdefault(str(values[j]), []).append(j)
    return index


def _target_end(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], i: int
) -> int:
    """The token after the target starting at token ``i`` (a name, then members whose keys
    read the same twice), or -1."""
    if kinds[i] != "name":
        return -1
    i += 1
    while True:
        if kinds[i] == "." and kinds[i + 1] == "name":
            i += 2
        elif kinds[i] == "[":
            close = partner.get(i, -1)
            if close < 0 or not pure_key(kinds, values, i + 1, close):
                return -1
            i = close + 1
        else:
            return i


def _same_twice(kinds: Sequence[str], first: int, end: int) -> bool:
    """Tokens ``first`` to ``end`` (excluded) are a literal, or a name followed by members
    whose keys are names or literals (``p.tags[0]``): no call, so read twice, the same."""
    if end - first == 1 and kinds[first] in ("str", "num"):
        return True
    if kinds[first] != "name":
        return False
    j = first + 1
    while j < end:
        if kinds[j] == "." and kinds[j + 1] == "name":
            j += 2
        elif kinds[j] == "[" and kinds[j + 1] in ("str", "num", "name") and kinds[j + 2] == "]":
            j += 3
        else:
            return False
    return j == end


def pure_key(kinds: Sequence[str], values: Sequence[object], first: int, end: int) -> bool:
    """Whether tokens ``first`` to ``end`` (excluded) are an expression without a call, an
    assignment or an increment (``p.city``, ``x % 16``, ``w.length > 3``): read twice, the
    same value."""
    if _same_twice(kinds, first, end):
        return True
    for j in range(first, end):
        kind = kinds[j]
        if kind == "name":
            if values[j] in _EFFECT_NAMES:
                return False
        elif kind == "op":
            if values[j] not in _PURE_OPS:
                return False
        elif kind not in _PURE_KINDS:
            return False
        if (
            kind == "("
            and j > first
            and (kinds[j - 1] in ("name", ")", "]") or values[j - 1] == "?.")
        ):
            return False  # (a call)
    return True


def _statement(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], i: int
) -> _Found | None:
    if kinds[i] != "(" or not starts_statement(kinds, values, partner, i):
        return None
    close = partner.get(i, -1)
    op = _target_end(kinds, values, partner, i + 1)
    if close < 0 or op < 0 or op >= close - 1:
        return None
    if not (kinds[op] == "=" or (kinds[op] == "op" and values[op] in _OPS)):
        return None
    after = close + 1
    if kinds[after] in (";", "}", "eof"):
        return _Found(i, op, close, -1, -1, "")
    if kinds[after] == "[" or (kinds[after] == "." and values[after + 1] != "push"):
        if i > 0 and kinds[i - 1] not in (";", "{", "}"):
            return None  # (`if (c) (...)[b] = v;`, `else ...`: two statements would not do)
        if not _member_change(kinds, values, partner, after):
            return None
        end = value_end(kinds, after)  # `(g[a] ??= {})[b] = v;`
        return _Found(i, op, close, -1, -1, "", member_end=end) if end > 0 else None
    if not (
        kinds[after] == "."
        and values[after + 1] == "push"
        and kinds[after + 2] == "("
        and op > i + 2  # a member, not a name
    ):
        return None
    call_end = partner.get(after + 2, -1)
    if call_end < 0 or kinds[call_end + 1] not in (";", "}", "eof") or call_end == after + 3:
        return None
    target = list(zip(kinds[i + 1 : op], values[i + 1 : op], strict=True))
    value = list(zip(kinds[op + 1 : close], values[op + 1 : close], strict=True))
    empty = [("[", "["), ("]", "]")]
    obj = str(values[i + 1])
    if values[op] in ("||=", "??=") and value == empty:
        return _Found(i, op, close, after + 2, call_end, obj, str(values[op])[:2])
    if not (
        kinds[op] == "="
        and value[: len(target)] == target
        and len(value) == len(target) + 3
        and value[len(target)][1] in ("||", "??")
        and value[len(target) + 1 :] == empty
    ):
        return None
    return _Found(i, op, close, after + 2, call_end, obj, str(value[len(target)][1]))


#: the changes of a member after ``(T op V)``
_MEMBER_OPS = frozenset(["=", "??=", "||=", "&&=", "+=", "-=", "*=", "/=", "%=", "++", "--"])


def _member_change(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], i: int
) -> bool:
    """Whether members from token ``i`` (``.f``, ``[k]``, more) are then set, changed or
    pushed onto (``= v``, ``+= v``, ``++``, ``.push(``)."""
    while True:
        if kinds[i] == "." and values[i + 1] == "push" and kinds[i + 2] == "(":
            return True
        if kinds[i] == "." and kinds[i + 1] == "name":
            i += 2
        elif kinds[i] == "[" and partner.get(i, -1) > i:
            i = partner[i] + 1
        else:
            return kinds[i] in ("=", "op") and str(values[i]) in _MEMBER_OPS


def _held_nowhere_else(
    kinds: Sequence[str],
    values: Sequence[object],
    partner: dict[int, int],
    uses: list[int],
    pushes: list[_Found],
) -> bool:
    """Whether the arrays the ``pushes`` change in their object are held nowhere else (its
    ``uses``: the tokens naming it outside the pushes): the object is defined once, as ``{}``
    (a `const`, or a `reduce` step's accumulator from ``{}``), and read by nothing else before
    the end of the statement holding the last push (after it, by anything)."""
    if not uses:
        return False
    first = uses[0]
    if kinds[first - 1] == "name" and values[first - 1] in ("const", "let", "var"):
        if not (kinds[first + 1] == "=" and kinds[first + 2] == "{" and kinds[first + 3] == "}"):
            return False
        if kinds[first + 4] not in (";", "eof") or pushes[0].open < first:
            return False
        end = holding_statement_end(kinds, values, first, pushes[-1].open)
        return end >= 0 and all(j > end for j in uses[1:])
    # `xs.reduce((acc, x) => { ...; return acc; }, {})`
    body = _reduce_body(kinds, values, partner, first)
    if body < 0:
        return False
    body_end = partner[body]
    allowed = {body_end - 2}  # `return acc; }`
    if not (values[body_end - 3] == "return" and kinds[body_end - 1] == ";"):
        allowed = set()
    return all(body < f.open < body_end for f in pushes) and all(
        j in allowed or j > body_end for j in uses[1:]
    )


#: the literals an object of new arrays may hold beside them
_PLAIN = frozenset(["true", "false", "null", "undefined", "Infinity", "NaN"])


def empty_arrays_end(kinds: Sequence[str], values: Sequence[object], i: int) -> int:
    """For an object literal at token ``i`` whose members are new empty arrays (each held by
    the object alone), new empty objects, or literal numbers, texts, booleans and nulls
    (``{}``, ``{adults: [], 'minors': [], count: 0, min: -Infinity, byName: {}}``), the token
    after its ``}``, else -1."""
    if kinds[i] != "{":
        return -1
    i += 1
    while kinds[i] != "}":
        if not (kinds[i] in ("name", "str") and kinds[i + 1] == ":"):
            return -1
        i += 2
        if (kinds[i] == "[" and kinds[i + 1] == "]") or (kinds[i] == "{" and kinds[i + 1] == "}"):
            i += 2
        else:
            if kinds[i] == "op" and values[i] == "-":  # (`min: -1`, `max: -Infinity`)
                i += 1
            if not (kinds[i] in ("num", "str") or (kinds[i] == "name" and values[i] in _PLAIN)):
                return -1
            i += 1
        if kinds[i] == ",":
            i += 1
        elif kinds[i] != "}":
            return -1
    return i + 1


def _reduce_body(
    kinds: Sequence[str],
    values: Sequence[object],
    partner: dict[int, int],
    at: int,
    initial: tuple[str, ...] = ("{", "}"),
) -> int:
    """The `{` of the body when the name at token ``at`` is the first parameter of a `reduce`
    step ``.reduce((acc, x) => { ... }, {})`` (``initial``: the tokens of the initial value,
    ``{}`` or ``new Map()``); else -1."""
    if not (
        kinds[at - 1] == "("
        and kinds[at - 2] == "("
        and values[at - 3] == "reduce"
        and kinds[at - 4] == "."
        and kinds[at + 1] == ","
        and kinds[at + 2] == "name"
        and kinds[at + 3] == ")"
        and values[at + 4] == "=>"
        and kinds[at + 5] == "{"
    ):
        return -1
    end = partner.get(at + 5, -1)
    last = end + len(initial) + 3  # (excluded: `,`, the value, `)`)
    if end < 0 or last > len(kinds) or any(kinds[j] == "str" for j in range(end + 1, last)):
        return -1
    if [str(values[j]) for j in range(end + 1, last)] != [",", *initial, ")"]:
        return -1
    return at + 5


def _rewrite(source: str, tokens: Lexed, found: list[_Found]) -> Lexed:
    """The tokens with each found statement written out (new tokens take the places of the
    ones they stand for, so a problem in them points into the statement)."""
    out = TokenWriter(tokens)
    put, copy = out.put, out.copy
    at = 0
    for f in found:
        copy(at, f.open)
        if f.member_end >= 0:  # `(T op V)[k] = W;`: `T op V; T[k] = W;`
            copy(f.open + 1, f.close)
            put(";", ";", f.close)
            copy(f.open + 1, f.op)
            copy(f.close + 1, f.member_end)
            at = f.member_end
            continue
        if f.call < 0:  # `(T op V);`: `T op V;`
            copy(f.open + 1, f.close)
            at = f.close + 1
            continue
        # `(T ||= []).push(A);`: `T = [...(T || []), A];`
        copy(f.open + 1, f.op)
        put("=", "=", f.op)
        put("[", "[", f.close)
        put("op", "...", f.close)
        put("(", "(", f.open)
        copy(f.open + 1, f.op)
        put("op", f.either, f.op)
        put("[", "[", f.op)
        put("]", "]", f.op)
        put(")", ")", f.close)
        put(",", ",", f.call)
        copy(f.call + 1, f.call_end)
        put("]", "]", f.call_end)
        at = f.call_end + 1
    copy(at, len(tokens.kinds))
    return out.lexed(source)
