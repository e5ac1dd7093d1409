"""``i++`` and ``++i`` inside a statement (SPEC 10, "Changes outside loops"), as models write an
index walked by hand:

    const item = items[i++];          labels.push(`${n++}. ${u.name}`);      total += xs[++k];

Read before parsing, on the tokens: a statement ``S`` holding one ``N++`` (``N--``) is ``S`` with
``(+N)`` in its place followed by the statement ``N++;``; one holding ``++N`` (``--N``) is the
statement ``N++;`` followed by ``S`` with ``N`` in its place. ``(+N)`` is the value JavaScript's
postfix gives (the old value as a number: ``s++`` of ``'5'`` is 5). The rest of the front end
then reads ``N++;`` as it reads any change of ``N``.

The statements are JavaScript's only when nothing in ``S`` can tell when ``N`` changed, so a
statement is read so only when all of these hold (anything else is left as written, and the
parser refuses it as before, with what to write instead):

- it is a statement of its own in a block or at the top (after ``;``, ``{`` or the ``}`` of a
  block), ended by ``;``, on one line outside brackets, starting with a name, ``const``, ``let``
  or ``await`` (not ``if``, ``return``, ``case``, ...), and holds no block;
- it has one ``++``/``--``, on a plain name ``N`` (not a member: those are :mod:`.recordfields`),
  and ``N`` appears nowhere else in it; it does not assign ``N`` (``x += x++;``, ``x = x++ +
  1;``: JavaScript's assignment comes after the step and overwrites it, so ``x++`` changes
  nothing);
- it holds no arrow, ``function``, ``&&``, ``||``, ``??``, ``?:`` or ``?.`` (each could run its
  part zero or many times) and no name of a function the program defines (which could read
  ``N``);
- it holds no ``await`` when it is inside an arrow or a function (another call's code could run
  in between and read ``N``);
- the program has no ``try``, ``catch``, ``finally``, ``then``, ``allSettled``, ``any`` or
  ``race`` (a failure of ``S`` after the change could be caught and ``N`` read there).
"""

from __future__ import annotations

from collections.abc import Sequence

from dialectic.frontends.plan.base import CHANGES
from dialectic.frontends.plan.lexer import Lexed
from dialectic.frontends.plan.tokenscan import CLOSE, OPEN
from dialectic.frontends.plan.tokenwrite import TokenWriter

__all__ = ["step_values"]

_STEPS = frozenset(["++", "--"])
#: names after which a program's failure could be caught (the pass then leaves all as written)
_CATCHERS = frozenset(["try", "catch", "finally", "then", "allSettled", "any", "race"])
#: the operators that may run a part of a statement zero or many times, or define a function
_BRANCHING = frozenset(["&&", "||", "??", "?", "?.", "=>", "&&=", "||=", "??="])
#: keywords that start a statement this pass does not read
_KEYWORDS = frozenset(
    ["if", "else", "for", "while", "do", "switch", "case", "default", "return", "throw", "try",
     "catch", "finally", "function", "async", "class", "break", "continue", "var", "import",
     "export", "yield", "new", "delete", "typeof", "void", "in", "of", "instanceof", "this",
     "super", "with", "debugger", "label"]
)  # fmt: skip
#: the heads whose `( ... )` a block follows
_BLOCK_HEADS = frozenset(["if", "for", "while", "switch", "catch", "with"])
#: the words a block follows directly
_BLOCK_WORDS = frozenset(["else", "try", "finally", "do"])


def step_values(source: str, tokens: Lexed) -> Lexed | None:
    """``tokens`` with each statement holding ``N++``/``++N`` written as two statements (None:
    there is none to write)."""
    kinds, values = tokens.kinds, tokens.values
    names = {v for k, v in zip(kinds, values, strict=True) if k == "name"}
    if not names.isdisjoint(_CATCHERS):
        return None
    found: list[tuple[_Statement, int]] = []
    for st in _statements(tokens):
        step = _one_step(kinds, values, st.start, st.end)
        if step >= 0:
            found.append((st, step))
    if not found:
        return None
    functions = _function_names(kinds, values)
    chosen = [(st, step) for st, step in found if _readable(tokens, functions, st, step)]
    if not chosen:
        return None
    return _rewrite(source, tokens, chosen)


class _Statement:
    """A statement of a block (or the top) holding a ``++``/``--`` outside any inner block, and
    no block of its own: its tokens ``start`` up to ``end`` (excluded), whether a ``;`` ends it
    (at ``end``; else a line break does, or the block's ``}``), whether it is inside an arrow's
    or a function's body, and whether it is the body of an ``if``/``for``/``while``/``else``
    without braces (written in braces with its change)."""

    __slots__ = ("start", "end", "semi", "in_function", "wrap")

    def __init__(self, start: int, end: int, semi: bool, in_function: bool, wrap: bool) -> None:
        self.start, self.end, self.semi = start, end, semi
        self.in_function, self.wrap = in_function, wrap


#: the tokens a statement may end with before a line break JavaScript ends it at (when a name
#: follows: no statement goes on with a name after these)
_ENDS = frozenset([")", "]", "}", "name", "num", "str", "tpl", "tplt", "re"])
#: names that go on with a statement after a line break
_GO_ON = frozenset(["in", "of", "instanceof"])
#: names a statement goes on after, over a line break
_GO_ON_WORDS = frozenset(["await", "const", "let", "var", "in", "of", "instanceof"])


def _statements(tokens: Lexed, methods: frozenset[str] | None = None) -> list[_Statement]:
    """The statements :class:`_Statement` describes, in order (``methods``: those holding a
    call ``.m(`` of one of these methods instead of a step, :mod:`.arrayvalues`)."""
    kinds, values = tokens.kinds, tokens.values
    out: list[_Statement] = []
    # one entry per open bracket: [kind, is a block, is a function's body]
    stack: list[tuple[str, bool, bool]] = []
    start = 0
    stepped = False  # a ++/-- in the statement so far (outside inner blocks)
    wrap = False  # the statement is the braceless body of an if/for/while/else
    in_function = 0
    heads: list[str] = []  # for each open `(`: the word before it
    last_head = ""  # the word before the `(` the last `)` closed
    n = len(kinds)
    for j in range(n):
        kind = kinds[j]
        at_block = not stack or stack[-1][1]
        if (
            at_block
            and kind == "name"
            and j > start
            and values[j] not in _GO_ON
            and _may_end(kinds[j - 1], values[j - 1])
            and "\n" in tokens.gap(j)  # JavaScript's `;` at the line break
        ):
            if stepped:
                out.append(_Statement(start, j, False, in_function > 0, wrap))
            start, stepped, wrap = j, False, False
        if kind == ";":
            if at_block:
                if stepped:
                    out.append(_Statement(start, j, True, in_function > 0, wrap))
                start, stepped, wrap = j + 1, False, False
            continue
        if kind == "op":
            if values[j] in _STEPS and methods is None:
                stepped = True
            continue
        if kind == "name":
            if methods is not None and values[j] in methods and kinds[j - 1] == ".":
                stepped = True
            if at_block and values[j] == "else" and kinds[j + 1] != "{" and values[j + 1] != "if":
                start, stepped, wrap = j + 1, False, True
            continue
        if kind == "(":
            before = str(values[j - 1]) if j and kinds[j - 1] == "name" else ""
            if j >= 2 and (values[j - 2] == "function" or before == "function"):
                before = "function"
            heads.append(before)
            stack.append(("(", False, False))
            continue
        if kind == "{":
            prev = kinds[j - 1] if j else ";"
            pval = values[j - 1] if j else ";"
            function = (prev == "op" and pval == "=>") or (prev == ")" and last_head == "function")
            block = (
                function
                or (prev == ")" and last_head in _BLOCK_HEADS)
                or (prev == "name" and pval in _BLOCK_WORDS)
                or prev in (";", "{", "}")
            )
            stack.append(("{", block, function))
            if block:
                start, stepped, wrap = j + 1, False, False
                if function:
                    in_function += 1
            continue
        if kind in OPEN:
            stack.append((kind, False, False))
            continue
        if kind in CLOSE:
            if not stack:
                return out  # (unbalanced: the parser says where)
            _, block, function = stack.pop()
            if kind == ")":
                last_head = heads.pop() if heads else ""
                if (
                    last_head in ("if", "for", "while")
                    and (not stack or stack[-1][1])
                    and kinds[j + 1] != "{"
                ):  # a body without braces starts
                    start, stepped, wrap = j + 1, False, True
            elif block:  # a block's `}`: the statement holding it is not read
                if function:
                    in_function -= 1
                start, stepped, wrap = j + 1, False, False
    return out


def _may_end(kind: str, value: object) -> bool:
    """Whether a statement may end with this token when a line break and a name follow."""
    if kind == "name":
        return value not in _KEYWORDS and value not in _GO_ON_WORDS
    return kind in _ENDS or (kind == "op" and value in _STEPS)


def _one_step(kinds: Sequence[str], values: Sequence[object], start: int, end: int) -> int:
    """The index of the statement's one ``++``/``--`` (-1: none, more than one, or the whole
    statement is ``N++``/``++N``)."""
    step = -1
    for j in range(start, end):
        if kinds[j] == "op" and values[j] in _STEPS:
            if step >= 0:
                return -1
            step = j
    if step < 0 or end - start <= 2:
        return -1
    return step


def _target(kinds: Sequence[str], values: Sequence[object], step: int) -> tuple[int, bool]:
    """The name token ``++``/``--`` changes and whether it is postfix (-1: not a plain name)."""
    before = step - 1
    if kinds[before] == "name" and values[before] not in _KEYWORDS:
        ahead = kinds[before - 1] if before > 0 else ";"
        member = ahead == "." or (ahead == "op" and values[before - 1] == "?.")
        if member or kinds[step + 1] in ("name", "num", "str"):
            return -1, True
        return before, True
    after = step + 1
    nxt, nval = kinds[after + 1], values[after + 1]
    if (
        kinds[after] == "name"
        and values[after] not in _KEYWORDS
        and nxt not in (".", "[", "(")
        and not (nxt == "op" and nval in ("?.", "=>"))
    ):
        return after, False
    return -1, False


def _readable(tokens: Lexed, functions: set[str], st: _Statement, step: int) -> bool:
    """Whether the statement may be read as two (see the module docstring)."""
    kinds, values = tokens.kinds, tokens.values
    start, end = st.start, st.end
    first = values[start]
    if kinds[start] != "name" or first in _KEYWORDS:
        return False
    if first in ("const", "let") and kinds[start + 1] in ("{", "["):
        return False  # (a pattern's defaults are read after the value: not in token order)
    target, postfix = _target(kinds, values, step)
    if target < 0:
        return False
    if "\n" in tokens.gap(step) or "\n" in tokens.gap(step + 1):
        return False  # (`a\n++b` is `a; ++b`)
    name = values[target]
    if postfix and first == name and (kinds[start + 1] == "=" or values[start + 1] in CHANGES):
        return False  # (`x += x++;`: the assignment, made after the step, overwrites it)
    for j in range(start, end):
        kind, value = kinds[j], values[j]
        if kind == "name":
            # a read in the statement sees the value before `N++` and after `++N`
            if (
                value == name
                and j != target
                and ((postfix and j > step) or (not postfix and j < step) or kinds[j - 1] == ".")
            ):
                return False
            if value in functions or value == "function" or (value == "await" and st.in_function):
                return False
        elif kind == "op" and value in _BRANCHING:
            return False
    return True


def _function_names(kinds: Sequence[str], values: Sequence[object]) -> set[str]:
    """The names the program defines functions or arrows by: ``function f``, ``f = (...) =>``,
    ``f = x =>``, ``f = async (...) =>``."""
    out: set[str] = set()
    closing: dict[int, int] | None = None
    n = len(kinds)
    for j in range(n - 2):
        if kinds[j] != "name":
            continue
        if values[j] == "function" and kinds[j + 1] == "name":
            out.add(str(values[j + 1]))
            continue
        if kinds[j + 1] != "=":
            continue
        k = j + 2
        if kinds[k] == "name" and values[k] == "async":
            k += 1
        if kinds[k] == "name" and kinds[k + 1] == "op" and values[k + 1] == "=>":
            out.add(str(values[j]))
        elif kinds[k] == "(":
            if closing is None:
                closing = _closing(kinds)
            k = closing.get(k, n - 1)
            if k + 1 < n and kinds[k + 1] == "op" and values[k + 1] == "=>":
                out.add(str(values[j]))
        elif kinds[k] == "name" and values[k] == "function":
            out.add(str(values[j]))
    return out


def _rewrite(source: str, tokens: Lexed, chosen: list[tuple[_Statement, int]]) -> Lexed:
    """The tokens with each chosen statement written as two."""
    kinds, values = tokens.kinds, tokens.values
    out = TokenWriter(tokens)
    at = 0
    for st, step in chosen:
        start, end = st.start, st.end
        target, postfix = _target(kinds, values, step)
        op = str(values[step])
        out.copy(at, start)
        if st.wrap:
            out.put("{", "{", start)
        if postfix:  # S with `(+N)` for `N++`, then `N++;`
            out.copy(start, target)
            out.put("(", "(", target)
            out.put("+", "+", target)
            out.copy(target, target + 1)
            out.put(")", ")", step)
            out.copy(step + 1, end)
            out.put(";", ";", step)
            out.put("name", values[target], target)
            out.put("op", op, step)
            out.put(";", ";", step)
        else:  # `N++;`, then S with `N` for `++N`
            out.put("name", values[target], target)
            out.put("op", op, step)
            out.put(";", ";", step)
            out.copy(start, step)
            out.copy(target, end)
            out.put(";", ";", step)
        if st.wrap:
            out.put("}", "}", end - 1)
        at = end + 1 if st.semi else end
    out.copy(at, len(kinds))
    return out.lexed(source)


def _closing(kinds: Sequence[str]) -> dict[int, int]:
    """Each `(`'s `)` (one pass)."""
    out: dict[int, int] = {}
    stack: list[int] = []
    for j, kind in enumerate(kinds):
        if kind == "(":
            stack.append(j)
        elif kind == ")" and stack:
            out[stack.pop()] = j
    return out
