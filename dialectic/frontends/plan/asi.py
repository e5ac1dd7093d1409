"""JavaScript's automatic semicolon insertion written into the tokens, in lenient mode, before
the passes that read statements by their `;` (:mod:`.parensets`, :mod:`.memberpush`,
:mod:`.trywrite`, ...), so that a program without semicolons is read as the one with them::

    const groups = {}
    for (const r of rows) {
      (groups[r.k] ??= []).push(r)
    }

A `;` goes between two tokens where JavaScript inserts one and no expression could go on: a
line break between a token that may end a statement (a name that is no keyword, a literal, `)`
that closes no statement's head, `]`, `}`, `++`, `--`) and one that may only begin the next
statement (a name other than `in`, `instanceof`, `of`, `else`, `catch`, `finally`, a `while`
after `}`; or the `}` closing the block), in a block or at the top, never inside brackets or an
object literal; a `}` closing a block needs none. A line that begins with `(`, `[`, a
template, an operator or `.` goes on as JavaScript reads it. Each new `;` has the value
``ASI``, so that the parser warns of it as of any semicolon it adds ("added the missing
`;`"). One pass, linear in the tokens.
"""

from __future__ import annotations

from collections.abc import Sequence

from dialectic.frontends.plan.lexer import LINE_TERMINATORS, Lexed
from dialectic.frontends.plan.tokenwrite import TokenWriter

__all__ = ["ASI", "insert_semicolons"]

#: the value of a `;` this module wrote
ASI = "asi"
#: names after which a statement cannot end (the expression or statement goes on)
_NO_END = frozenset(
    [
        "await",
        "typeof",
        "new",
        "delete",
        "void",
        "in",
        "instanceof",
        "of",
        "const",
        "let",
        "var",
        "if",
        "for",
        "while",
        "do",
        "else",
        "try",
        "catch",
        "finally",
        "function",
        "async",
        "case",
        "default",
        "switch",
        "throw",
        "return",
        "yield",
        "class",
        "extends",
        "import",
        "export",
        "static",
        "get",
        "set",
    ]
)
#: names that go on the statement before them
_NO_START = frozenset(["in", "instanceof", "of", "else", "catch", "finally"])
#: the heads whose `(...)` a statement follows (`if (t)` then a line: no `;`)
_HEADS = frozenset(["if", "for", "while", "with", "catch", "switch", "function"])
#: what a `{` opening a block follows (else it opens an object literal; also a `case x:`)
_BLOCK_AFTER = frozenset([")", ";", "{", "}"])
_BLOCK_WORDS = frozenset(["else", "do", "try", "finally"])


def insert_semicolons(source: str, tokens: Lexed) -> Lexed | None:
    """``tokens`` with the semicolons above (None: none to insert)."""
    if "\n" not in source and "\r" not in source and "\u2028" not in source:
        return None
    kinds, values = tokens.kinds, tokens.values
    blocks: list[bool] = []  # for each open bracket, whether it is a block's `{`
    heads: set[int] = set()  # the `)` closing a statement's head
    openers: list[int] = []
    at: list[int] = []  # the tokens a `;` goes before
    ended = False  # whether the token before may end a statement
    closed_block = False  # whether it is a `}` closing a block (its statement needs no `;`)
    labels: set[int] = set()  # the `:` ending a `case ...:` or `default:` (a block may follow)
    case_at = -1  # the bracket depth of a `case` whose `:` is still to come
    for i, kind in enumerate(kinds):
        if (
            ended
            and (not blocks or blocks[-1])
            and _starts(kinds, values, i)
            and LINE_TERMINATORS.search(tokens.gap(i)) is not None
        ):
            at.append(i)
        if kind == "name" and values[i] in ("case", "default") and (not blocks or blocks[-1]):
            case_at = len(openers)
        elif kind == ":" and case_at == len(openers):
            labels.add(i)
            case_at = -1
        if kind in ("(", "[", "{"):
            blocks.append(kind == "{" and (i - 1 in labels or _block(kinds, values, i)))
            openers.append(i)
        closed_block = False
        if kind in (")", "]", "}") and openers:
            closed_block = blocks.pop()
            opened = openers.pop()
            if kind == ")" and opened > 0 and values[opened - 1] in _HEADS:
                heads.add(i)
        ended = not closed_block and _ends(kinds, values, i, heads)
    if not at:
        return None
    w = TokenWriter(tokens)
    first = 0
    for i in at:
        w.copy(first, i)
        w.put(";", ASI, i - 1)
        first = i
    w.copy(first, len(kinds))
    return w.lexed(source)


def _block(kinds: Sequence[str], values: Sequence[object], i: int) -> bool:
    """Whether the `{` at token ``i`` opens a block (else an object literal)."""
    if i == 0:
        return True
    before = kinds[i - 1]
    if before in _BLOCK_AFTER:
        return True
    word = values[i - 1]
    if before == "op" and word == "=>":
        return True
    return before == "name" and word in _BLOCK_WORDS


def _ends(kinds: Sequence[str], values: Sequence[object], i: int, heads: set[int]) -> bool:
    kind, word = kinds[i], values[i]
    if kind == "name":
        return word not in _NO_END
    if kind in ("num", "str", "tpl", "tplt", "]", "}"):
        return True
    if kind == ")":
        return i not in heads
    return kind == "op" and word in ("++", "--")


def _starts(kinds: Sequence[str], values: Sequence[object], i: int) -> bool:
    kind = kinds[i]
    if kind == "}":
        return True
    if kind != "name":
        return False
    word = values[i]
    if word == "while":
        return kinds[i - 1] != "}"
    return word not in _NO_START
