"""A labeled loop (``outer: for (...) { ... break outer; }``) read as the flags JavaScript's
label stands for (SPEC 10, "Loops"), before parsing, on the tokens::

    outer: for (const a of xs) {            let _break_outer1 = false;
      for (const b of ys) {                 for (const a of xs) {
        if (t) break outer;          ->       for (const b of ys) {
      }                                         if (t) { _break_outer1 = true; break; }
    }                                         }
                                              if (_break_outer1) break;
                                            }

A ``break LABEL;`` (``continue LABEL;``) directly in the labeled loop's body (inside ``if`` or
``else`` blocks, no loop or ``switch`` between) is ``break;`` (``continue;``). From inside
loops or ``switch`` statements of the body, it sets a flag and leaves the innermost with
``break;``, and after each of them a test leaves the next: ``if (flag) break;``, and in the
labeled loop's body ``if (flag) break;`` (``if (flag) continue;``). The ``break`` flag is
declared before the labeled loop, the ``continue`` flag first in its body (each item starts
without it). JavaScript leaves the same loops in the same order, and nothing else runs in
between: the statements after each construct left are skipped by its test.

Only when every loop and ``switch`` of the labeled body has a braced body, and each jump
stands in blocks of ``if``/``else``, loops and ``switch`` (no function, no expression; a
``switch`` only around a ``break LABEL;`` in its own case, no loop between): else
the label stays as written, which the parser refuses with what to write
(:mod:`.labels`). One pass over the tokens, one over each labeled loop's body (at most
:data:`_MAX_LABELS` of them), and each jump walks up at most :data:`_MAX_WALK` blocks: linear
in the tokens."""

from __future__ import annotations

from collections.abc import Sequence

from dialectic.frontends.plan.keywords import RESERVED
from dialectic.frontends.plan.lexer import Lexed
from dialectic.frontends.plan.tokenscan import CLOSE, OPEN
from dialectic.frontends.plan.tokenwrite import TokenWriter

__all__ = ["label_loops"]

_LOOPS = frozenset(["for", "while"])
#: the blocks a jump may stand in (a `try` keeps its own refusal of `break`)
_PLAIN = frozenset(["if", "else"])
#: how many blocks a jump may walk up to its labeled loop
_MAX_WALK = 32
#: how many labels a program may have read so (each costs a pass over its loop's body)
_MAX_LABELS = 64

#: an edit: before token ``at`` (``order`` among edits there), remove ``drop`` tokens and
#: write ``tokens`` (kind, value) standing for token ``at`` (or ``stand``)
Edit = tuple[int, int, int, list[tuple[str, str]], int]


class _Brackets:
    """Each bracket's partner and each token's innermost open bracket, in one walk (a closing
    bracket's is its own opening one here, unlike :func:`.tokenscan.enclosing`)."""

    __slots__ = ("partner", "parent")

    def __init__(self, kinds: Sequence[str]) -> None:
        self.partner: dict[int, int] = {}
        self.parent: list[int] = [-1] * len(kinds)  # the innermost bracket open around a token
        stack: list[int] = []
        for i, kind in enumerate(kinds):
            self.parent[i] = stack[-1] if stack else -1
            if kind in OPEN:
                stack.append(i)
            elif kind in CLOSE and stack:
                j = stack.pop()
                self.partner[i], self.partner[j] = j, i


def _kind_of_block(kinds: Sequence[str], values: Sequence[object], b: _Brackets, at: int) -> str:
    """What the ``{`` at token ``at`` opens: ``loop``, ``do``, ``switch``, ``plain`` (an
    ``if``/``else`` block) or ``other``."""
    if kinds[at] != "{" or at == 0:
        return "other"
    before = at - 1
    if kinds[before] == "name" and values[before] == "do":
        return "do"
    if kinds[before] == "name" and values[before] in _PLAIN:
        return "plain"
    if kinds[before] != ")":
        return "other"
    head = b.partner.get(before, 0) - 1
    word = values[head] if head >= 0 and kinds[head] == "name" else None
    if word in _LOOPS:
        return "loop"
    if word == "switch":
        return "switch"
    return "plain" if word == "if" else "other"


def _construct_end(kinds: Sequence[str], values: Sequence[object], b: _Brackets, at: int) -> int:
    """The last token of the loop or ``switch`` whose body opens at token ``at`` (a ``do``'s
    ``while (...);``)."""
    close = b.partner.get(at, len(kinds) - 1)
    if close + 2 >= len(kinds):
        return close
    if values[at - 1] == "do" and values[close + 1] == "while" and kinds[close + 2] == "(":
        end = b.partner.get(close + 2, close)
        return end + 1 if kinds[end + 1] == ";" else end
    return close


def _braced(
    kinds: Sequence[str], values: Sequence[object], b: _Brackets, first: int, end: int
) -> bool:
    """Whether every loop and ``switch`` in tokens ``[first, end)`` has a braced body."""
    for k in range(first, end):
        word = values[k] if kinds[k] == "name" else None
        if word == "do" and kinds[k + 1] != "{":
            return False
        if word in ("for", "while", "switch") and kinds[k + 1] == "(":
            if word == "while" and kinds[k - 1] == "}":  # (a `do`'s test, or a block's end)
                opener = b.partner.get(k - 1, 0)
                if opener and values[opener - 1] == "do":
                    continue
            close = b.partner.get(k + 1)
            if close is None or close + 1 >= len(kinds) or kinds[close + 1] != "{":
                return False
    return True


def _fresh(names: set[str], stem: str) -> str:
    n = 1
    while f"{stem}{n}" in names:
        n += 1
    names.add(f"{stem}{n}")
    return f"{stem}{n}"


def _label_edits(
    kinds: Sequence[str], values: Sequence[object], b: _Brackets, i: int, names: set[str]
) -> list[Edit] | None:
    """The edits for the label at token ``i`` (its name, `:`, then a loop), or None when the
    label stays as written."""
    label = values[i]
    head = i + 2
    if values[head] == "do":
        body = head + 1
    elif kinds[head + 1] == "(" and head + 1 in b.partner:
        body = b.partner[head + 1] + 1
    else:
        return None
    if kinds[body] != "{" or body not in b.partner:
        return None
    close = b.partner[body]
    if not _braced(kinds, values, b, body, close):
        return None
    edits: list[Edit] = [(i, 0, 2, [], i)]  # (the label and its `:` dropped)
    flags: dict[str, str] = {}
    after: set[tuple[int, str, str]] = set()  # (construct end, flag, `break`/`continue`)
    for j in range(body + 1, close):
        word = values[j] if kinds[j] == "name" else None
        if word not in ("break", "continue") or values[j + 1] != label or kinds[j + 1] != "name":
            continue
        if kinds[j + 2] != ";":
            return None
        chain: list[int] = []  # the loops and switches between, innermost first
        at, walked = b.parent[j], 0
        while at != body:
            kind = _kind_of_block(kinds, values, b, at)
            walked += 1
            if kind == "other" or at < 0 or walked > _MAX_WALK:
                return None
            if kind == "switch" and (chain or word == "continue"):
                return None  # (a flag a case sets: only one declared before the loop)
            if kind != "plain":
                chain.append(at)
            at = b.parent[at]
        if not chain:  # directly in the labeled loop: the label dropped
            edits.append((j + 1, 0, 1, [], j + 1))
            continue
        flag = flags.get(str(word))
        if flag is None:
            flag = flags[str(word)] = _fresh(names, f"_{word}_{label}")
        # (in braces where it is an `if`'s or `else`'s single statement)
        alone = kinds[j - 1] == ")" or values[j - 1] == "else"
        set_flag = [("name", flag), ("=", "="), ("name", "true"), (";", ";")]
        edits.append((j, 0, 0, [("{", "{"), *set_flag] if alone else set_flag, j))
        edits.append((j, 1, 2, [("name", "break")], j))  # (the innermost left: `break;`)
        if alone:
            edits.append((j + 3, 0, 0, [("}", "}")], j + 2))
        for n, block in enumerate(chain):
            leave = str(word) if n == len(chain) - 1 else "break"
            after.add((_construct_end(kinds, values, b, block), flag, leave))
    for end, flag, leave in sorted(after):
        test = [("name", "if"), ("(", "("), ("name", flag), (")", ")"), ("name", leave), (";", ";")]
        edits.append((end + 1, 1, 0, test, end))
    declare = [("name", "let"), ("name", ""), ("=", "="), ("name", "false"), (";", ";")]
    if "break" in flags:
        edits.append((i, 1, 0, [*declare[:1], ("name", flags["break"]), *declare[2:]], i))
    if "continue" in flags:
        edits.append(
            (body + 1, 0, 0, [*declare[:1], ("name", flags["continue"]), *declare[2:]], body)
        )
    return edits


def label_loops(source: str, tokens: Lexed) -> Lexed | None:
    """``tokens`` with each labeled loop written with flags (the module), or None when there
    is none it reads so."""
    if ":" not in source or ("break" not in source and "continue" not in source):
        return None
    kinds, values = tokens.kinds, tokens.values
    n = len(kinds)
    starts = [
        i
        for i in range(n - 2)
        if kinds[i] == "name"
        and kinds[i + 1] == ":"
        and values[i] not in RESERVED
        and values[i + 2] in ("for", "while", "do")
        and (i == 0 or kinds[i - 1] in (";", "{", "}"))
    ]
    if not starts or len(starts) > _MAX_LABELS:
        return None  # (each label's body is read once: at most this many passes)
    b = _Brackets(kinds)
    names = {str(v) for k, v in zip(kinds, values, strict=True) if k == "name"}
    edits: list[Edit] = []
    for i in starts:
        found = _label_edits(kinds, values, b, i, names)
        if found is not None:
            edits.extend(found)
    if not edits:
        return None
    out = TokenWriter(tokens)
    at = 0
    for pos, _, drop, new, stand in sorted(edits, key=lambda e: (e[0], e[1])):
        if pos > at:
            out.copy(at, pos)
            at = pos
        for kind, value in new:
            out.put(kind, value, stand)
        at = max(at, pos + drop)
    out.copy(at, n)
    return out.lexed(source)
