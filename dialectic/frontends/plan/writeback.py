"""The group-by that reads a key's array into a local, pushes onto it and writes it back (SPEC
10, "Loops"), as models write it with a Map or an object::

    const arr = groups.get(k) || [];  arr.push(x);  groups.set(k, arr);
    const arr = acc[k] ?? [];         arr.push(x);  acc[k] = arr;
    const arr = groups.get(k);  if (arr) arr.push(x); else groups.set(k, [x]);

Read before parsing, on the tokens, as the forms :mod:`.mappush` and :mod:`.memberpush` read
(which then decide, on their own conditions, whether the push runs or is refused):

- ``const A = C || [];`` (or ``?? []``, or ``let``) followed at once by statements that are
  each ``A.push(...)`` (at least one) or the one write-back ``m.set(K, A);`` / ``C = A;`` is
  ``if (!m.has(K)) m.set(K, []);`` / ``C ||= [];`` followed by the pushes onto ``C`` itself;
- ``const A = C;`` followed by ``if (A) A.push(...); else W;`` (or ``if (!A) W; else
  A.push(...);``, braces allowed), ``W`` the write of a new array (``m.set(K, [...]);`` /
  ``C = [...];``), is ``if (!m.has(K)) W; else m.get(K).push(...);`` (``if (!C) W; else
  C.push(...);``);
- ``m.has(K) || m.set(K, []);`` is ``if (!m.has(K)) m.set(K, []);``, and ``m.get(K)?.push(...)
  ?? m.set(K, [...]);`` is ``if (!m.has(K)) m.set(K, [...]); else m.get(K).push(...);``.

``C`` is ``m.get(K)`` or a member ``o[K]``/``o.k``, ``K`` reads the same twice (a name, a
literal, a member chain of names: no call); the pushes do not read ``A`` or the container, and
``A`` appears nowhere else in its block. The same value as JavaScript's whenever every value of
the container is an array held nowhere else, which the pass that reads the push checks.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from dialectic.frontends.plan.lexer import Lexed
from dialectic.frontends.plan.mappush import pure_key
from dialectic.frontends.plan.parensets import MAX_OBJECTS
from dialectic.frontends.plan.tokenscan import partners, starts_statement
from dialectic.frontends.plan.tokenwrite import TokenWriter
from dialectic.frontends.plan.writebacktokens import (
    _branch,
    _Container,
    _container,
    _new_array,
    _semicolon,
    _test,
    _toks,
    _used,
)

__all__ = ["write_backs"]

#: `m.has(K) ||`
_HAS_OR = re.compile(r"\.has\([^()]*\)\s*\|\|")
#: one rewrite: the first and last token it replaces, and the tokens written instead, each
#: with the token whose place it takes
_Edit = tuple[int, int, list[tuple[str, object, int]]]


def write_backs(source: str, tokens: Lexed) -> Lexed | None:
    """``tokens`` with each write-back group-by written as a push onto the container's array
    (None: there is none)."""
    if ".push" not in source and "||" not in source:
        return None
    words: list[str] = []
    if ".push" in source and _pushed_local(source):
        words.extend(("const", "let"))
    if "||" in source and _HAS_OR.search(source) is not None:
        words.append("has")
    if "?.push(" in source:
        words.append("get")
    if not words:
        return None
    kinds, values = tokens.kinds, tokens.values
    starts = sorted(j for word in words for j in _found(values, word))  # (a C-speed search)
    partner: dict[int, int] | None = None
    edits: list[_Edit] = []
    at = -1
    for j in starts[: 4 * MAX_OBJECTS]:  # (each may cost a pass over its block: bounded)
        value = values[j]
        i = j if value in ("const", "let") else j - 2
        if i <= at or i < 0 or kinds[i] != "name":
            continue
        if value in ("const", "let"):
            if kinds[i + 1] != "name" or kinds[i + 2] != "=" or kinds[i + 3] != "name":
                continue
            if partner is None:
                partner = partners(kinds)
            edit = _local(kinds, values, partner, i)
        elif kinds[i + 1] == "." and kinds[i + 3] == "(":
            if partner is None:
                partner = partners(kinds)
            if value == "has":
                edit = _has_or_set(kinds, values, partner, i)
            else:
                edit = _push_or_set(kinds, values, partner, i)
        else:
            continue
        if edit is not None:
            edits.append(edit)
            at = edit[1]
    if not edits:
        return None
    out = TokenWriter(tokens)
    done = 0
    for first, last, new in edits:
        out.copy(done, first)
        for kind, value, place in new:
            out.put(kind, value, place)
        done = last + 1
    out.copy(done, len(kinds))
    return out.lexed(source)


def _pushed_local(source: str) -> bool:
    """Whether the text pushes onto a name it declares from a member or a Map's get (``const A
    = m.get(...``, ``A.push(``): searched for in the literal text, each pattern once (a regular
    expression starting with a name is slow unless it starts where a name does)."""
    pushed = set(_PUSHED.findall(source))
    for keyword in ("const ", "let "):
        at = source.find(keyword)
        while at >= 0:
            found = _NAME.match(source, at + len(keyword))
            assert found is not None  # (it matches the empty name too)
            end = found.end()
            if found.group() in pushed and _member_after(source[end : end + 120]):
                return True
            at = source.find(keyword, end)
    return False


#: a name's characters (`str.isalnum`, `_`, `$`) from a place; the whole run of them before
#: each `.push(` (it starts where no such character precedes: each try inside a run fails at
#: once, so that a long run costs one pass)
_NAME = re.compile(r"[\w$]*")
_PUSHED = re.compile(r"(?<![\w$])([\w$]*+)\.push\(")


def _member_after(text: str) -> bool:
    """Whether ``text`` starts with `` = name.`` or `` = name[`` (a member or a Map's get)."""
    rest = text.lstrip(" ")
    if not rest.startswith("=") or rest.startswith("=="):
        return False
    rest = rest[1:].lstrip(" ")
    end = 0
    while end < len(rest) and (rest[end].isalnum() or rest[end] in "_$"):
        end += 1
    return end > 0 and rest[end:].lstrip(" ")[:1] in (".", "[")


def _found(values: list[Any], word: str) -> list[int]:
    """The places of the token ``word`` (``list.index``: a search at C speed)."""
    out: list[int] = []
    at = -1
    while True:
        try:
            at = values.index(word, at + 1)
        except ValueError:
            return out
        out.append(at)


def _local(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], i: int
) -> _Edit | None:
    """``const A = C || [];`` and its pushes and write-back, or ``const A = C;`` and its
    ``if``; else None."""
    if not starts_statement(kinds, values, partner, i):
        return None
    name = values[i + 1]
    c = _container(kinds, values, partner, i + 3)
    if c is None:
        return None
    after = c.end
    if kinds[after] == "op" and values[after] in ("||", "??"):
        if not (kinds[after + 1] == "[" and kinds[after + 2] == "]" and kinds[after + 3] == ";"):
            return None
        found = _pushes_and_set(kinds, values, partner, c, name, after + 4)
        if found is None:
            return None
        pushes, last = found
        if _used(kinds, values, partner, name, i, last):
            return None
        return (
            i,
            last,
            _ensure(kinds, values, c, i) + _pushes_onto(kinds, values, partner, c, pushes),
        )
    if kinds[after] != ";":
        return None
    found_if = _if_else(kinds, values, partner, c, name, after + 1)
    if found_if is None or _used(kinds, values, partner, name, i, found_if[1]):
        return None
    return i, found_if[1], found_if[0]


def _ensure(
    kinds: Sequence[str], values: Sequence[object], c: _Container, place: int
) -> list[tuple[str, object, int]]:
    """``if (!m.has(K)) m.set(K, []);`` or ``C ||= [];``."""
    if not c.is_map:
        return [*_toks(kinds, values, c.start, c.end), ("op", "||=", place), ("[", "[", place),
                ("]", "]", place), (";", ";", place)]  # fmt: skip
    m = (kinds[c.start], values[c.start], c.start)
    key = _toks(kinds, values, c.key, c.key_end)
    return [
        ("name", "if", place), ("(", "(", place), ("op", "!", place), m, (".", ".", place),
        ("name", "has", place), ("(", "(", place), *key, (")", ")", place), (")", ")", place),
        m, (".", ".", place), ("name", "set", place), ("(", "(", place), *key, (",", ",", place),
        ("[", "[", place), ("]", "]", place), (")", ")", place), (";", ";", place),
    ]  # fmt: skip


def _pushes_onto(
    kinds: Sequence[str],
    values: Sequence[object],
    partner: dict[int, int],
    c: _Container,
    pushes: list[int],
) -> list[tuple[str, object, int]]:
    """Each statement ``A.push(...);`` (its first token in ``pushes``) as ``C.push(...);``."""
    out: list[tuple[str, object, int]] = []
    for p in pushes:
        out.extend(_toks(kinds, values, c.start, c.end))
        end = partner.get(p + 3, p) + 1  # the `;` after the call
        out.extend(_toks(kinds, values, p + 1, end + 1))
    return out


def _push_statement(
    kinds: Sequence[str],
    values: Sequence[object],
    partner: dict[int, int],
    name: object,
    box: object,
    s: int,
) -> int:
    """The `;` of ``A.push(...);`` at token ``s`` (the value reads neither ``A`` nor the
    container ``box``), else -1."""
    if not (values[s] == name and kinds[s] == "name" and kinds[s + 1] == ".") or not (
        values[s + 2] == "push" and kinds[s + 3] == "("
    ):
        return -1
    close = partner.get(s + 3, -1)
    if close <= s + 4 or kinds[close + 1] != ";":
        return -1
    if any(kinds[m] == "name" and values[m] in (name, box) for m in range(s + 4, close)):
        return -1
    return close + 1


def _pushes_and_set(
    kinds: Sequence[str],
    values: Sequence[object],
    partner: dict[int, int],
    c: _Container,
    name: object,
    s: int,
) -> tuple[list[int], int] | None:
    """The pushes onto ``A`` and the write-back, statement after statement from token ``s``:
    (the pushes' first tokens, the last token), else None."""
    pushes: list[int] = []
    wrote = False
    last = -1
    box = values[c.start]
    while True:
        end = _push_statement(kinds, values, partner, name, box, s)
        if end >= 0:
            pushes.append(s)
        elif not wrote and (end := _write_back(kinds, values, c, name, s)) >= 0:
            wrote = True
        else:
            break
        last = end
        s = end + 1
    return (pushes, last) if wrote and pushes else None


def _write_back(
    kinds: Sequence[str], values: Sequence[object], c: _Container, name: object, s: int
) -> int:
    """The `;` of ``m.set(K, A);`` or ``C = A;`` at token ``s``, else -1."""
    width = c.end - c.start
    same = list(kinds[s : s + width]) == list(kinds[c.start : c.end]) and list(
        values[s : s + width]
    ) == list(values[c.start : c.end])
    if c.is_map:
        head = [(kinds[c.start], values[c.start]), (".", "."), ("name", "set"), ("(", "(")]
        key = list(zip(kinds[c.key : c.key_end], values[c.key : c.key_end], strict=True))
        form = [*head, *key, (",", ","), ("name", name), (")", ")"), (";", ";")]
        here = list(zip(kinds[s : s + len(form)], values[s : s + len(form)], strict=True))
        return s + len(form) - 1 if here == form else -1
    if (
        same
        and s + width + 2 < len(kinds)
        and kinds[s + width] == "="
        and (kinds[s + width + 1], values[s + width + 1]) == ("name", name)
        and kinds[s + width + 2] == ";"
    ):
        return s + width + 2
    return -1


def _if_else(
    kinds: Sequence[str],
    values: Sequence[object],
    partner: dict[int, int],
    c: _Container,
    name: object,
    s: int,
) -> tuple[list[tuple[str, object, int]], int] | None:
    """``if (A) A.push(...); else W;`` (or ``if (!A) W; else A.push(...);``) at token ``s``:
    its new tokens and last token, else None."""
    if not (values[s] == "if" and kinds[s + 1] == "("):
        return None
    negated = kinds[s + 2] == "op" and values[s + 2] == "!"
    t = s + 3 if negated else s + 2
    if not (values[t] == name and kinds[t] == "name" and kinds[t + 1] == ")"):
        return None
    first = _branch(kinds, values, partner, t + 2)
    if first is None or values[first[1] + 1] != "else":
        return None
    second = _branch(kinds, values, partner, first[1] + 2)
    if second is None:
        return None
    push, write = (second, first) if negated else (first, second)
    box = values[c.start]
    if _push_statement(kinds, values, partner, name, box, push[0]) != push[2]:
        return None
    if not _new_array(kinds, values, partner, c, name, write[0], write[2]):
        return None
    out = _test(kinds, values, c, s)
    out.extend(_toks(kinds, values, write[0], write[2] + 1))
    out.append(("name", "else", first[1] + 1))
    out.extend(_pushes_onto(kinds, values, partner, c, [push[0]]))
    return out, second[1]


def _has_or_set(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], i: int
) -> _Edit | None:
    """``m.has(K) || m.set(K, []);`` as ``if (!m.has(K)) m.set(K, []);``."""
    close = partner.get(i + 3, -1)
    if close < 0 or not starts_statement(kinds, values, partner, i):
        return None
    key = list(zip(kinds[i + 4 : close], values[i + 4 : close], strict=True))
    if not key or not pure_key(kinds, values, i + 4, close):
        return None
    j = close + 1
    form = [("op", "||"), ("name", values[i]), (".", "."), ("name", "set"), ("(", "("), *key,
            (",", ","), ("[", "["), ("]", "]"), (")", ")"), (";", ";")]  # fmt: skip
    if list(zip(kinds[j : j + len(form)], values[j : j + len(form)], strict=True)) != form:
        return None
    last = j + len(form) - 1
    new = [("name", "if", i), ("(", "(", i), ("op", "!", i), *_toks(kinds, values, i, close + 1),
           (")", ")", close), *_toks(kinds, values, j + 1, last + 1)]  # fmt: skip
    return i, last, new


def _push_or_set(
    kinds: Sequence[str], values: Sequence[object], partner: dict[int, int], i: int
) -> _Edit | None:
    """``m.get(K)?.push(...) ?? m.set(K, [...]);`` as ``if (!m.has(K)) m.set(K, [...]); else
    m.get(K).push(...);``."""
    if not starts_statement(kinds, values, partner, i):
        return None
    c = _container(kinds, values, partner, i)
    if c is None:
        return None
    j = c.end  # `?.push(`
    if not (values[j] == "?." and values[j + 1] == "push" and kinds[j + 2] == "("):
        return None
    close = partner.get(j + 2, -1)
    if close <= j + 3 or values[close + 1] != "??" or kinds[close + 1] != "op":
        return None
    box = values[i]
    if any(kinds[m] == "name" and values[m] == box for m in range(j + 3, close)):
        return None
    write = close + 2
    end = _semicolon(kinds, partner, write)
    if end < 0 or not _new_array(kinds, values, partner, c, box, write, end):
        return None
    new = _test(kinds, values, c, i)
    new.extend(_toks(kinds, values, write, end + 1))
    new.append(("name", "else", close + 1))
    new.extend(_toks(kinds, values, c.start, c.end))
    new.append((".", ".", j))
    new.extend(_toks(kinds, values, j + 1, close + 1))
    new.append((";", ";", end))
    return i, end, new
