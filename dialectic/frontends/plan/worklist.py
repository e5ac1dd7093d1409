"""Stacks and queues: ``pop()`` and ``shift()`` on an array the program made (SPEC 10,
"Stacks and queues"), read before parsing, on the tokens (as :mod:`.memberpush` reads its
form)::

    const queue = [...nums]; const seen = [];
    while (queue.length > 0) { const x = queue.shift(); seen.push(x); }

JavaScript changes the array itself, a change the loops and blocks make when nothing else holds
the array, so the statements are written as such changes:

- a **stack** (``pop``): ``const x = W.pop();`` is ``const x = W.length ? W[W.length - 1] :
  undefined; W.pop(x);``, and the statement ``W.pop(x);`` is a change of ``W`` in the family of
  ``push`` (:mod:`.loopchanges`; the fold's version ``W.slice(0, -1)`` reads ``x`` first, so it
  is made in place, :mod:`dialectic.resolve.foldstate`);
- a **queue** (``shift``): ``W`` keeps its items and a hidden ``let`` counts the ones shifted
  out (``_headN``): ``const x = W.shift();`` is ``const _shiftN = _headN < W.length; const x =
  _shiftN ? W[_headN] : undefined; _headN = _shiftN ? _headN + 1 : _headN;``, and every read of
  ``W`` reads what is left: ``W.length`` is ``(W.length - _headN)``, ``W[0]`` is ``W[_headN +
  0]`` (past the end ``W.slice(_headN)[0]``, which fails as such a read does), ``W.at(0)`` and
  ``W.at(-1)`` the item while one is left, any other read ``W.slice(_headN)`` (a copy, as costly
  as JavaScript's own read). A shift costs O(1); pushes stay pushes.

Only where the result is JavaScript's: ``W`` is defined once, as ``const W = [...];`` or ``let W
= [...];`` (a new array), and every other use of it is one of the statements ``W.pop();``,
``W.shift();``, ``const x = W.pop();``, ``x = W.shift();``, ``return W.pop();``, ``W.push(...);``
(in the program's blocks, not in a function's body: run again, it goes on changing the array),
a read of a member or a method that reads (``W.length``, ``W[i]``, ``W.at(i)``,
``W.includes(x)``...), or ``return W;`` ending the program. An array read whole (``const keep =
W;``, ``f(W)``, ``[...W]``, ``for (const x of W)``) may be shared, and ``pop`` and ``shift`` of
one array make a deque: those leave the program as written, which the resolver refuses
("pop() changes the array in place")."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from dialectic.frontends.plan.lexer import Lexed, lex
from dialectic.frontends.plan.parensets import MAX_OBJECTS, name_index
from dialectic.frontends.plan.tokenscan import enclosing, partners, starts_statement
from dialectic.frontends.plan.tokenwrite import TokenWriter

__all__ = ["worklists"]

#: methods that read an array and hold none of it (their value is new)
_READING = frozenset(
    {
        "includes", "indexOf", "lastIndexOf", "join", "slice", "concat", "map", "filter",
        "find", "findIndex", "findLast", "findLastIndex", "some", "every", "reduce",
        "reduceRight", "flat", "flatMap", "toSorted", "toReversed", "toString", "with",
    }
)  # fmt: skip
_DECLARE = frozenset(["const", "let"])
_CHANGES = frozenset(["pop", "shift"])
#: tokens after a member that make it the target of an assignment
_ASSIGNS = frozenset(["=", "++", "--", "+=", "-=", "*=", "/=", "%=", "||=", "&&=", "??="])

#: an edit: replace tokens ``first`` up to ``end`` (excluded) by ``text``, placed at token
#: ``at`` (its place in the program's text)
_Edit = tuple[int, int, str, int]


def worklists(source: str, tokens: Lexed) -> Lexed | None:
    """``tokens`` with each stack's ``pop()`` and queue's ``shift()`` written as the changes
    above (None: there is none)."""
    if ".pop(" not in source and ".shift(" not in source:
        return None
    return per_array(source, tokens, _CHANGES, _Worklist.plan)


def per_array(
    source: str,
    tokens: Lexed,
    methods: frozenset[str],
    plan: Callable[[_Worklist, list[int]], list[_Edit] | None],
) -> Lexed | None:
    """``tokens`` with the edits ``plan`` makes for each array a call ``W.m(`` of one of the
    ``methods`` is written on (given its reader and the tokens naming it); None: none."""
    kinds, values = tokens.kinds, tokens.values
    names: list[str] = []
    for j, value in enumerate(values):
        if (
            value in methods
            and kinds[j] == "name"
            and kinds[j - 1] == "."
            and kinds[j - 2] == "name"
            and kinds[j + 1] == "("
            and str(values[j - 2]) not in names
        ):
            names.append(str(values[j - 2]))
    if not names:
        return None
    partner = partners(kinds)
    index = name_index(kinds, values)
    taken = set(index)
    blocks = _Blocks(kinds)
    edits: list[_Edit] = []
    for name in names[:MAX_OBJECTS]:  # (each costs a pass over its uses: bounded)
        found = plan(_Worklist(kinds, values, partner, name, taken, blocks), index[name])
        if found is not None:
            edits.extend(found)
    if not edits:
        return None
    return _rewrite(source, tokens, sorted(edits))


class _Blocks:
    """Each token's innermost open bracket (-1: none), found in one pass, what
    :meth:`_Worklist._outside_functions` found of each bracket, and the hidden names' counts
    (shared by the arrays of one program)."""

    __slots__ = ("inside", "known", "counts")

    def __init__(self, kinds: Sequence[str]) -> None:
        self.inside = enclosing(kinds)
        self.known: dict[tuple[int, bool], bool] = {}
        #: the last hidden name's number, per prefix
        self.counts: dict[str, int] = {}


class _Worklist:
    """One array's uses, read as a stack's or a queue's (or not)."""

    def __init__(
        self,
        kinds: Sequence[str],
        values: Sequence[object],
        partner: dict[int, int],
        name: str,
        taken: set[str],
        blocks: _Blocks,
    ) -> None:
        self.blocks = blocks
        self.kinds = kinds
        self.values = values
        self.partner = partner
        self.name = name
        self.taken = taken
        self.head = ""
        self.edits: list[_Edit] = []

    def plan(self, uses: list[int]) -> list[_Edit] | None:
        """The edits making ``name`` a stack or a queue; None: a use that is not one's."""
        kinds, values = self.kinds, self.values
        uses = [u for u in uses if kinds[u - 1] != "."]  # (not `o.name`: a member)
        decl = uses[0]
        if not (
            values[decl - 1] in _DECLARE
            and kinds[decl - 1] == "name"
            and self._statement_start(decl - 1)
            and kinds[decl + 1] == "="
            and kinds[decl + 2] == "["
        ):
            return None
        close = self.partner.get(decl + 2, -1)
        if close < 0 or kinds[close + 1] != ";":
            return None
        rest = uses[1:]
        methods = {str(values[u + 2]) for u in rest if kinds[u + 1] == "."}
        if "pop" in methods and "shift" in methods:
            return None  # (a deque: left as written)
        if "shift" in methods:
            self.head = self._fresh()
            self.edits.append((close + 2, close + 2, f"let {self.head} = 0;", close + 1))
        for u in rest:
            if u < close or not self._use(u):
                return None
        return self.edits

    def _last(self, u: int) -> bool:
        """Whether ``return W;`` at token ``u`` ends the program, outside any block."""
        return self.kinds[u + 2] == "eof" and self.blocks.inside[u] < 0

    def _outside_functions(self, u: int, each: bool = False) -> bool:
        """Whether token ``u`` is in statements of the program's blocks (of `if`, loops,
        `else`, `try`...), not in a function's or an arrow function's body (run again, a
        `return` there goes on; ``each``: but in a ``xs.forEach(x => {...})`` loop). Each
        bracket's answer is kept: the uses of all arrays cost one walk of the brackets."""
        blocks = self.blocks
        stack: list[int] = []
        j = blocks.inside[u]
        while j >= 0 and (j, each) not in blocks.known:
            stack.append(j)
            j = blocks.inside[j]
        ok = j < 0 or blocks.known[(j, each)]
        while stack:  # (outermost first)
            j = stack.pop()
            ok = ok and self._statement_block(j, each)
            blocks.known[(j, each)] = ok
        return ok

    def _statement_block(self, j: int, each: bool) -> bool:
        """Whether the bracket at token ``j`` opens the block of a statement (`if`, a loop,
        `else`, `try`...: ``each``, also a `forEach` loop's arrow function, or the `(` of
        its call)."""
        kinds, values, partner = self.kinds, self.values, self.partner
        before = j - 1
        if kinds[j] == "(":
            return each and before >= 1 and values[before] == "forEach"
        if kinds[j] != "{" or before < 0:
            return False
        if each and self._for_each(before) >= 0:
            return True
        if kinds[before] == "name":
            return values[before] in ("else", "do", "try", "finally")
        if kinds[before] == ")":
            head = partner.get(before, 0) - 1
            return head >= 0 and values[head] in ("if", "for", "while", "catch")
        return False

    def _for_each(self, arrow: int) -> int:
        """The `(` of ``.forEach(`` when token ``arrow`` is the `=>` of ``.forEach(x => {`` or
        ``.forEach((x, i) => {`` (a loop, SPEC 10); else -1."""
        kinds, values = self.kinds, self.values
        if arrow < 3 or values[arrow] != "=>":
            return -1
        start = arrow - 1
        if kinds[start] == ")":
            start = self.partner.get(start, 0)
        if start >= 3 and kinds[start - 1] == "(" and values[start - 2] == "forEach":
            return start - 1
        return -1

    def _fresh(self, prefix: str = "_head") -> str:
        """A name written nowhere in the program (the count goes on from the last one's)."""
        counts = self.blocks.counts
        n = counts.get(prefix, 0) + 1
        while f"{prefix}{n}" in self.taken:
            n += 1
        counts[prefix] = n
        name = f"{prefix}{n}"
        self.taken.add(name)
        return name

    def _statement_start(self, i: int) -> bool:
        """Whether token ``i`` starts a statement of a block (not the lone body of `if`)."""
        return i == 0 or self.kinds[i - 1] in (";", "{", "}")

    def _use(self, u: int) -> bool:
        """Record the edit for the use at token ``u``; False: not a stack's or queue's use."""
        kinds, values, w, h = self.kinds, self.values, self.name, self.head
        nxt = kinds[u + 1]
        if nxt == ";" and values[u - 1] == "return" and self._last(u):  # `return W;` at the end
            if h:
                self.edits.append((u, u + 1, f"{w}.slice({h})", u))
            return True
        if nxt == "[":
            end = self.partner.get(u + 1, -1)
            if end < 0 or kinds[end + 1] in _ASSIGNS or values[end + 1] in _ASSIGNS:
                return False
            if h and end == u + 3 and kinds[u + 2] == "num":
                at = f"{h} + {values[u + 2]}"
                text = f"{w}[{at}]"  # (`W[0] ?? d`: a read that may be missing, SPEC 1.2)
                if values[end + 1] not in (
                    "??",
                    "?.",
                ):  # past the end, the read of what is left fails
                    text = f"({at} < {w}.length ? {text} : {w}.slice({h})[{values[u + 2]}])"
                self.edits.append((u, end + 1, text, u))
            elif h:
                self.edits.append((u, u + 1, f"{w}.slice({h})", u))
            return True
        if nxt != "." or kinds[u + 2] != "name":
            return False
        method = str(values[u + 2])
        if method == "length":
            if kinds[u + 3] in _ASSIGNS or values[u + 3] in _ASSIGNS:
                return False
            if h:
                self.edits.append((u, u + 3, f"({w}.length - {h})", u))
            return True
        if kinds[u + 3] != "(":
            return False
        if method in _CHANGES:
            return self._change(u)
        if method == "push":
            return self._push(u)
        if method == "at":
            return self._at(u)
        if method in _READING:
            if h:
                self.edits.append((u, u + 1, f"{w}.slice({h})", u))
            return True
        return False

    def _change(self, u: int) -> bool:
        """``W.pop();``, ``const x = W.pop();``, ``x = W.shift();``."""
        kinds, values, w, h = self.kinds, self.values, self.name, self.head
        if kinds[u + 4] != ")" or kinds[u + 5] != ";":
            return False
        if values[u - 1] == "return" and kinds[u - 1] == "name" and self._outside_functions(u):
            # `return W.pop();`: the item, as nothing runs after it
            if h:
                item = f"({h} < {w}.length ? {w}[{h}] : undefined)"
            else:
                item = f"({w}.length ? {w}[{w}.length - 1] : undefined)"
            self.edits.append((u, u + 5, item, u))
            return True
        if not self._outside_functions(u, each=True):
            return False  # (a function's body, run again: JavaScript's array goes on changing)
        if starts_statement(kinds, values, self.partner, u):  # `W.pop();`
            if not h:
                return True  # (the change :mod:`.loopchanges` reads)
            first, target = u, ""
        elif (
            kinds[u - 1] == "="
            and kinds[u - 2] == "name"
            and values[u - 2] != w
            and values[u - 2] != h
        ):
            first = u - 2
            if kinds[u - 3] == "name" and values[u - 3] in _DECLARE:
                first = u - 3
            if not self._statement_start(first):
                return False
            target = " ".join(str(values[j]) for j in range(first, u)) + " "
        else:
            return False
        if h and target:  # a queue
            left = self._fresh("_shift")
            text = (
                f"const {left} = {h} < {w}.length; {target}{left} ? {w}[{h}] : undefined; "
                f"{h} = {left} ? {h} + 1 : {h};"
            )
        elif h:
            text = f"{h} = {h} < {w}.length ? {h} + 1 : {h};"
        else:  # a stack: the item read before the change (which reads it: in place)
            item = f"{w}.length ? {w}[{w}.length - 1] : undefined"
            text = f"{target}{item}; {w}.pop({values[u - 2]});"
        self.edits.append((first, u + 6, text, u))
        return True

    def _push(self, u: int) -> bool:
        """``W.push(A);``, a statement (its value, the length, is not read)."""
        end = self.partner.get(u + 3, -1)
        kinds = self.kinds
        return (
            end >= 0
            and kinds[end + 1] == ";"
            and starts_statement(kinds, self.values, self.partner, u)
        )

    def _at(self, u: int) -> bool:
        """``W.at(k)`` of a whole number ``k``: the item read by its index (for a queue, of
        what is left), which the change after it may make in place."""
        kinds, values, w = self.kinds, self.values, self.name
        h = self.head or "0"
        end = self.partner.get(u + 3, -1)
        if end == u + 5 and kinds[u + 4] == "num" and str(values[u + 4]).isdigit():  # `at(0)`
            at = f"{h} + {values[u + 4]}"
            text = f"({at} < {w}.length ? {w}[{at}] : undefined)"
        elif (
            end == u + 6
            and kinds[u + 4] == "-"
            and kinds[u + 5] == "num"
            and str(values[u + 5]).isdigit()
        ):  # `W.at(-1)`
            k = values[u + 5]
            text = f"({w}.length - {h} >= {k} ? {w}[{w}.length - {k}] : undefined)"
        elif self.head:
            self.edits.append((u, u + 1, f"{w}.slice({h})", u))
            return True
        else:
            return True
        self.edits.append((u, end + 1, text, u))
        return True


def _rewrite(source: str, tokens: Lexed, edits: list[_Edit]) -> Lexed:
    """The tokens with each edit made (new tokens take the place of the token they stand for,
    so a problem in them points at the use as written)."""
    out = TokenWriter(tokens)
    at = 0
    for first, end, text, place in edits:
        out.copy(at, first)
        new = lex(text)
        for kind, value in zip(new.kinds, new.values, strict=True):
            if kind != "eof":
                out.put(kind, value, place)
        at = end
    out.copy(at, len(tokens.kinds))
    return out.lexed(source)
