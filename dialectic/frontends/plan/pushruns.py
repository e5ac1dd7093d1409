"""Consecutive ``push`` statements on one array at the top of the program, read as one push
(SPEC 10, "Changes outside loops")::

    rows.push(1);
    rows.push({name: a, n: 2});      ->    rows.push(1, {name: a, n: 2}, b);
    rows.push(b);

Each push statement makes a new version of the array, a copy of the one before with the items
added (:mod:`.straight`): ``n`` statements copied ``n * n / 2`` items when the program ran
(9,000 pushes took a second, and the time grew with the square of their number). One push of
all the items makes one copy.

JavaScript evaluates each statement's arguments, then pushes them, in turn; one push evaluates
all the arguments, then pushes them all: the same array, as long as evaluating an argument after
the first statement's can neither fail nor run anything nor read the array. So the statements
read so are those whose arguments (but the first's) are names other than the array's, literals
(numbers, texts, arrays and objects of such) and operators that never fail (``+``, ``-``, ``*``,
``/``, ``%``, comparisons, ``&&``, ``||``, ``??``, ``!``): no member, call, spread, template,
``await`` nor arrow. Only statements of the program's own block (none inside braces or
parentheses), each after ``;``, ``}`` or at the start, and each ending with ``;``.
"""

from __future__ import annotations

from dialectic.frontends.plan.lexer import Lexed
from dialectic.frontends.plan.tokenscan import CLOSE, OPEN
from dialectic.frontends.plan.tokenwrite import TokenWriter

__all__ = ["push_runs"]

#: the tokens an argument after the first statement's may hold (by kind; `op` by value)
_KINDS = frozenset(["name", "num", "str", ",", "[", "]", "{", "}", ":", "+", "-", "*", "/", "%"])
_OPS = frozenset(
    ["&&", "||", "??", "!", "<", ">", "<=", ">=", "==", "!=", "===", "!==", "+", "-", "*", "/"]
)
#: names that are not a value read (or that run something)
_WORDS = frozenset(
    ["await", "new", "function", "yield", "delete", "this", "in", "instanceof", "class", "async"]
)


def push_runs(source: str, tokens: Lexed) -> Lexed | None:
    """The tokens with each run of two or more such push statements as one (the module), or
    None when the program has none."""
    kinds, values = tokens.kinds, tokens.values
    n = len(kinds)
    closer: dict[int, int] = {}  # each `(` of the top level's statements: its `)`
    stack: list[int] = []
    for i in range(n):
        kind = kinds[i]
        if kind in OPEN:
            stack.append(i)
        elif kind in CLOSE and stack:
            opened = stack.pop()
            if not stack and kind == ")":
                closer[opened] = i
    runs: list[list[int]] = []  # each run: the first token of each of its statements
    depth = 0
    i = 0
    while i < n:
        kind = kinds[i]
        if depth == 0 and _starts(kinds, values, closer, i):
            run = [i]
            at = closer[i + 3] + 2
            while at < n and _starts(kinds, values, closer, at) and values[at] == values[i]:
                if not _harmless(kinds, values, at + 4, closer[at + 3], values[i]):
                    break
                run.append(at)
                at = closer[at + 3] + 2
            if len(run) > 1:
                runs.append(run)
                i = at
                continue
        if kind in OPEN:
            depth += 1
        elif kind in CLOSE:
            depth -= 1
        i += 1
    return None if not runs else _rewrite(source, tokens, runs, closer)


def _starts(kinds: list[str], values: list[object], closer: dict[int, int], i: int) -> bool:
    """Whether token ``i`` starts ``NAME.push(...);`` after ``;``, ``}`` or at the start."""
    return (
        kinds[i] == "name"
        and (i == 0 or kinds[i - 1] in (";", "}"))
        and i + 3 < len(kinds)
        and kinds[i + 1] == "."
        and values[i + 2] == "push"
        and kinds[i + 3] == "("
        and i + 3 in closer
        and kinds[closer[i + 3] + 1] == ";"
        and values[i] not in _WORDS
    )


def _harmless(kinds: list[str], values: list[object], first: int, end: int, array: object) -> bool:
    """Whether tokens ``first`` to ``end`` (excluded) can be evaluated before the pushes
    before them (the module)."""
    for j in range(first, end):
        kind = kinds[j]
        if kind == "op":
            if values[j] not in _OPS:
                return False
        elif kind not in _KINDS or (kind == "name" and (values[j] == array or values[j] in _WORDS)):
            return False
    return True


def _rewrite(source: str, tokens: Lexed, runs: list[list[int]], closer: dict[int, int]) -> Lexed:
    kinds = tokens.kinds
    out = TokenWriter(tokens)
    copied = 0
    for run in runs:
        first = run[0]
        out.copy(copied, closer[first + 3])  # (the first statement but its `);`)
        open_list = kinds[closer[first + 3] - 1] not in ("(", ",")
        for at in run[1:]:
            args, end = at + 4, closer[at + 3]
            if args == end:
                continue  # (`xs.push();`)
            if open_list:
                out.put(",", ",", at)
            out.copy(args, end)
            open_list = kinds[end - 1] != ","
        last = closer[run[-1] + 3]
        out.copy(last, last + 2)  # `);`
        copied = last + 2
    out.copy(copied, len(kinds))
    return out.lexed(source)
