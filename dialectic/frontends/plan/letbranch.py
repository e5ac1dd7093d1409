"""A ``let`` a loop's body sets by a test, read before parsing, on the tokens (as
:mod:`.memberpush` reads its form)::

    for (const p of people) {
      let label = 'adult';
      if (p.age < 18) { label = 'minor'; } else if (p.age > 64) label = 'senior';
      out.push(label);
    }

A local of a loop's body is not changed after its definition here, so the declaration (``let
x;`` too: undefined until set) and the ``if`` statements
right after it that only set the name (``label = v;`` or ``label += v;`` in every branch) are
read as the ``const`` JavaScript's statements leave::

    const _label1 = 'adult';
    const label = [_label1, (p.age < 18) ? ('minor') : (p.age > 64) ? ('senior') : _label1][1];

The tests and values run as JavaScript runs them: the tests in order, one branch's value (a
``? :`` evaluates only the branch taken); a read of the name in a test or a value reads the
value before the ``if`` (``label += '!'`` is ``_label1 + ('!')``). Several such ``if``
statements in a row each make a version, each computing the one before first (as JavaScript
computes every statement in turn: a version that would throw throws even when a later ``if``
sets the name again). Only where the body changes the name nowhere else
(another change leaves the program as written: the loop's refusal, "a local of the loop").
Statements ``const y = ...;`` that do not name it may stand between the ``let`` and the ``if``
statements (the ``const _try1 = %try(...);`` of a ``try`` whose block and handler set it:
``let status; try { ...; status = 'ok'; } catch { status = 'failed'; }``): they stay in their
place, between the ``let``'s value and the versions the ``if`` statements make.
"""

from __future__ import annotations

import re
from bisect import bisect_left

from dialectic.frontends.plan.base import CHANGES, expression_end
from dialectic.frontends.plan.letswitch import Switch, switch_chain
from dialectic.frontends.plan.lexer import Lexed
from dialectic.frontends.plan.tokenscan import CLOSE, OPEN
from dialectic.frontends.plan.tokenwrite import TokenWriter

__all__ = ["branch_lets", "for_awaits"]

_CHANGES = CHANGES | {"="}  # (a name changed: assigned, or `++`/`--`)
_LOOPS = frozenset(["for", "while"])
_WORD = re.compile(r"[\w$]+")  # (every name written in the text is one of its words)


class _Branches:
    """An ``if`` chain setting one name: ``(test, op, value)`` per branch (``test`` None for
    ``else``), each part a token range ``[first, end)``, and the token after the chain."""

    __slots__ = ("arms", "end")

    def __init__(self) -> None:
        #: (a switch's case: the tokens of its test, :mod:`.letswitch`)
        self.arms: list[
            tuple[tuple[int, int] | list[tuple[str, object, int]] | None, str, tuple[int, int]]
        ] = []
        self.end = 0


def branch_lets(source: str, tokens: Lexed) -> Lexed | None:
    """The tokens with each such ``let`` and its ``if`` statements read as ``const``
    definitions (the module), or None when the text has none."""
    if (
        "let " not in source
        or ("if" not in source and "try" not in source and "switch" not in source)
        or not _may_loop(source)
    ):
        return None  # (a `try` is written as an `if` of its outcome: :mod:`.trywrite`)
    kinds, values = tokens.kinds, tokens.values
    n = len(kinds)
    partner: dict[int, int] = {}
    opener: dict[int, int] = {}
    enclosing = [-1] * n  # the innermost bracket open at each token
    changes: dict[str, list[int]] = {}  # where each name is changed, in order
    stack: list[int] = []
    for i in range(n):
        kind = kinds[i]
        enclosing[i] = stack[-1] if stack else -1
        if kind in OPEN:
            stack.append(i)
        elif kind in CLOSE and stack:
            partner[stack[-1]] = i
            opener[i] = stack.pop()
        elif kind == "name" and _changes_at(kinds, values, i):
            changes.setdefault(str(values[i]), []).append(i)
    writer: TokenWriter | None = None
    copied = 0
    taken = _Hidden(source)
    i = 0
    while i < n - 3:
        if not (
            kinds[i] == "name"
            and values[i] == "let"
            and kinds[i + 1] == "name"
            and kinds[i + 2] in ("=", ";")
            and _in_loop_body(kinds, values, opener, enclosing[i])
        ):
            i += 1
            continue
        name = values[i + 1]
        assert isinstance(name, str)
        bare = kinds[i + 2] == ";"  # `let x;`: undefined until set
        semi = i + 2 if bare else _statement_end(kinds, i + 3)
        if semi is None:
            i += 1
            continue
        chains: list[_Branches | Switch] = []
        at = semi + 1
        while not chains:  # (consts that do not read the name may stand between)
            after = _other_const(kinds, values, at, name)
            if after is None:
                break
            at = after
        first = at
        while True:
            chain = _chain(kinds, values, partner, at, name) or switch_chain(
                kinds, values, partner, at, name, _arm
            )
            if chain is None:
                break
            chains.append(chain)
            at = chain.end
        block_end = partner.get(enclosing[i], n - 1)
        later = changes.get(name, [])
        if not chains or bisect_left(later, at) < bisect_left(later, block_end):
            i += 1
            continue
        if writer is None:
            writer = TokenWriter(tokens)
        writer.copy(copied, i)
        previous = taken.fresh(name)
        _const(writer, previous, i + 1 if bare else i + 3, semi, i)
        if bare:
            writer.put("name", "undefined", i + 1)
        else:
            writer.copy(i + 3, semi)
        writer.put(";", ";", semi)
        writer.copy(semi + 1, first)
        for k, read in enumerate(chains):
            target = name if k == len(chains) - 1 else taken.fresh(name)
            if isinstance(read, Switch):  # (its value read once: :mod:`.letswitch`)
                head = taken.fresh("case")
                _const(writer, head, read.head[0], None, read.head[0] - 2)
                _renamed(writer, kinds, values, read.head, name, previous)
                writer.put(";", ";", read.head[1])
                chain = _as_branches(kinds, values, read, head, name, previous)
            else:
                chain = read
            _const(writer, target, i + 1, None, i)
            # `[previous, test ? value : previous][1]`: the version before is computed first,
            # whatever the branch taken (JavaScript computes every statement in turn)
            writer.put("[", "[", chain.arms[0][2][0])
            writer.put("name", previous, chain.arms[0][2][0])
            writer.put(",", ",", chain.arms[0][2][0])
            for test, op, value in chain.arms:
                if type(test) is list:  # (a switch's cases: the tokens written)
                    writer.put("(", "(", test[0][2])
                    for kind, text, j in test:
                        writer.put(kind, text, j)
                    writer.put(")", ")", test[-1][2])
                    writer.put("op", "?", test[-1][2])
                elif type(test) is tuple:
                    _renamed(writer, kinds, values, test, name, previous)
                    writer.put("op", "?", test[1])
                _value(writer, kinds, values, op, value, name, previous)
                if test is not None:
                    writer.put(":", ":", value[1] - 1)
            if chain.arms[-1][0] is not None:  # (no `else`: the value before the `if`)
                writer.put("name", previous, chain.end - 1)
            writer.put("]", "]", chain.end - 1)
            writer.put("[", "[", chain.end - 1)
            writer.put("num", "1", chain.end - 1)
            writer.put("]", "]", chain.end - 1)
            writer.put(";", ";", chain.end - 1)
            previous = target
        copied = at
        i = at
    if writer is None:
        return None
    writer.copy(copied, n)
    return writer.lexed(source)


def _as_branches(
    kinds: list[str], values: list[object], switch: Switch, head: str, name: str, previous: str
) -> _Branches:
    """The ``switch``'s cases as an ``if`` chain's arms, each test the tokens ``head === (A)
    || head === (B)`` (a read of ``name`` in a case's value reading ``previous``)."""
    chain = _Branches()
    chain.end = switch.end
    for cases, op, value in switch.arms:
        if cases is None:
            chain.arms.append((None, op, value))
            continue
        tests: list[tuple[str, object, int]] = []
        for n, (first, end) in enumerate(cases):
            if n:
                tests.append(("op", "||", first))
            tests += [("name", head, first), ("op", "===", first), ("(", "(", first)]
            for j in range(first, end):
                read = kinds[j] == "name" and values[j] == name and kinds[j - 1] != "."
                tests.append((kinds[j], previous if read else values[j], j))
            tests.append((")", ")", end - 1))
        chain.arms.append((tests, op, value))
    return chain


def _may_loop(source: str) -> bool:
    """Whether ``source`` may hold a loop (`for`, `while`, `do`): a `let` is read here only
    in a loop's body (a few substring tests, before the walk over every token)."""
    return "for" in source or "while" in source or "do" in source


def _in_loop_body(
    kinds: list[str], values: list[object], opener: dict[int, int], block: int
) -> bool:
    """Whether the bracket open at token ``block`` is a loop's body block (``for (...) {``,
    ``while (...) {``, ``do {``)."""
    if block <= 0 or kinds[block] != "{":
        return False
    if values[block - 1] == "do":
        return True
    start = opener.get(block - 1)
    return start is not None and start > 0 and values[start - 1] in _LOOPS


def _other_const(kinds: list[str], values: list[object], at: int, name: str) -> int | None:
    """The token after the statement ``const x = ...;`` at token ``at`` when nothing in it is
    ``name`` (the hidden ``const _try1 = %try(...);`` of a `try` that sets the name, written
    by :mod:`.trywrite`), else None."""
    if not (values[at] == "const" and kinds[at + 1] == "name" and kinds[at + 2] == "="):
        return None
    end = _statement_end(kinds, at + 3)
    if end is None or any(
        kinds[k] == "name" and values[k] == name and kinds[k - 1] != "." for k in range(at + 1, end)
    ):
        return None
    return end + 1


def _statement_end(kinds: list[str], i: int) -> int | None:
    """The `;` ending the declaration whose value starts at token ``i`` (one name)."""
    end = expression_end(kinds, i, (",", ";"))
    return end if kinds[end] == ";" else None


def _chain(
    kinds: list[str], values: list[object], partner: dict[int, int], at: int, name: str
) -> _Branches | None:
    """The ``if`` chain at token ``at`` whose every branch only sets ``name``, or None."""
    chain = _Branches()
    while True:
        if not (values[at] == "if" and kinds[at + 1] == "("):
            return None
        close = partner.get(at + 1)
        if close is None:
            return None
        arm = _arm(kinds, values, partner, close + 1, name)
        if arm is None:
            return None
        op, value, after = arm
        chain.arms.append(((at + 2, close), op, value))
        if values[after] != "else":
            chain.end = after
            return chain
        if values[after + 1] == "if":
            at = after + 1
            continue
        arm = _arm(kinds, values, partner, after + 1, name)
        if arm is None:
            return None
        op, value, after = arm
        chain.arms.append((None, op, value))
        chain.end = after
        return chain


def _arm(
    kinds: list[str], values: list[object], partner: dict[int, int], at: int, name: str
) -> tuple[str, tuple[int, int], int] | None:
    """``name = v;`` or ``{ name = v; }`` (also ``+=``, ``-=``, ``name++``, ``name--``) at
    token ``at``: the operator, the value's tokens and the token after the branch."""
    braced = kinds[at] == "{"
    start = at + 1 if braced else at
    if not (kinds[start] == "name" and values[start] == name):
        return None
    step = values[start + 1] if kinds[start + 1] == "op" else None
    if step in ("++", "--") and kinds[start + 2] == ";":  # (no value: `name - -1`, a number)
        end = start + 2
        after = end + 1
        if braced:
            if partner.get(at) != after:
                return None
            after += 1
        return str(step), (end, end), after
    if not (kinds[start + 1] == "=" or step in ("+=", "-=")):
        return None
    semi = _statement_end(kinds, start + 2)
    if semi is None or semi == start + 2:
        return None
    op = "=" if kinds[start + 1] == "=" else str(step)
    if _changed(kinds, values, start + 2, semi, name):
        return None
    if braced:
        close = partner.get(at)
        if close != semi + 1:
            return None
        return op, (start + 2, semi), close + 1
    return op, (start + 2, semi), semi + 1


def _changed(kinds: list[str], values: list[object], first: int, end: int, name: str) -> bool:
    """Whether tokens ``first`` to ``end`` change ``name`` (an assignment, ``++``/``--``)."""
    return any(
        values[j] == name and _changes_at(kinds, values, j)
        for j in range(first, min(end, len(kinds) - 1))
    )


def _changes_at(kinds: list[str], values: list[object], j: int) -> bool:
    """Whether the name at token ``j`` is changed there (not a member: ``o.name = v``)."""
    if kinds[j] != "name" or (j and kinds[j - 1] == "."):
        return False
    after = values[j + 1] if kinds[j + 1] in ("=", "op") else None
    before = values[j - 1] if j and kinds[j - 1] == "op" else None
    return after in _CHANGES or before in ("++", "--")


class _Hidden:
    """The hidden names ``_name1``, ``_name2``... made so far, each written nowhere in the text
    (the text's words read once, and each name's count kept: a search of the whole text per
    ``let`` was quadratic)."""

    __slots__ = ("counts", "source", "words")

    def __init__(self, source: str) -> None:
        self.source = source
        self.words: set[str] | None = None
        self.counts: dict[str, int] = {}

    def fresh(self, name: str) -> str:
        words = self.words
        if words is None:
            words = self.words = set(_WORD.findall(self.source))
        k = self.counts.get(name, 0) + 1
        while f"_{name}{k}" in words:
            k += 1
        self.counts[name] = k
        return f"_{name}{k}"


def _const(writer: TokenWriter, name: str, where: int, _unused: int | None, at: int) -> None:
    writer.put("name", "const", at)
    writer.put("name", name, where)
    writer.put("=", "=", where)


def _renamed(
    writer: TokenWriter,
    kinds: list[str],
    values: list[object],
    part: tuple[int, int],
    name: str,
    previous: str,
) -> None:
    """Tokens ``part`` in parentheses, a read of ``name`` reading ``previous``."""
    first, end = part
    writer.put("(", "(", first)
    for j in range(first, end):
        read = kinds[j] == "name" and values[j] == name and kinds[j - 1] != "."
        if read and not (kinds[j + 1] == ":" and kinds[j - 1] in ("{", ",")):
            writer.put("name", previous, j)
        else:
            writer.put(kinds[j], values[j], j)
    writer.put(")", ")", end - 1)


def _value(
    writer: TokenWriter,
    kinds: list[str],
    values: list[object],
    op: str,
    value: tuple[int, int],
    name: str,
    previous: str,
) -> None:
    """The branch's value: ``(v)``, ``previous + (v)`` for ``+=``, ``previous - (v)`` for
    ``-=``; for ``++`` and ``--`` ``previous - (0 - 1)`` and ``previous - 1`` (a number, as
    JavaScript's `++` makes one: a text is NaN, refused)."""
    at = value[0]
    if op in ("++", "--"):
        writer.put("(", "(", at)
        writer.put("name", previous, at)
        writer.put("-", "-", at)
        if op == "++":
            for kind, text in (("(", "("), ("num", "0"), ("-", "-"), ("num", "1"), (")", ")")):
                writer.put(kind, text, at)
        else:
            writer.put("num", "1", at)
        writer.put(")", ")", at)
        return
    if op in ("+=", "-="):
        writer.put("(", "(", at)
        writer.put("name", previous, at)
        writer.put(op[0], op[0], at)  # (`+` or `-`: the lexer's kind is the character)
    _renamed(writer, kinds, values, value, name, previous)
    if op in ("+=", "-="):
        writer.put(")", ")", value[1] - 1)


def for_awaits(source: str, tokens: Lexed) -> Lexed | None:
    """``for await (const x of xs)`` read as ``for (const x of xs)``: over an array (of values
    or of calls) JavaScript awaits each item in turn, and Plan awaits every call where its value
    is used, so the items are the same (the calls run side by side in both). None when the
    text has none."""
    kinds, values = tokens.kinds, tokens.values
    drop = [
        i
        for i in range(1, len(kinds) - 1)
        if values[i] == "await" and values[i - 1] == "for" and kinds[i + 1] == "("
    ]
    if not drop:
        return None
    writer = TokenWriter(tokens)
    copied = 0
    for i in drop:
        writer.copy(copied, i)
        copied = i + 1
    writer.copy(copied, len(kinds))
    return writer.lexed(source)
