"""Two more ways code-mode programs write a loop, read as a ``for...of`` loop (SPEC 10, "Loops"):

- ``xs.forEach(x => { ... });`` (also ``(x, i) => ...``, a pattern parameter, an expression
  body): the loop ``for (const x of xs.map(v => v)) { ... }`` over the array (the ``map`` makes
  a text or an object fail, as ``forEach`` is an array's method); ``return;`` in the callback
  goes on with the next item, as ``continue`` does. Refused: an ``async`` callback (``forEach``
  does not wait for it: the statements after it would run first), ``return`` of a value (it is
  dropped), ``break`` (JavaScript's SyntaxError), a third parameter;
- ``for (let i = A; i < B; i++)`` (also ``<=``, ``i += n`` for a whole number ``n``, ``++i``,
  and counting down with ``>``/``>=`` and ``i--``/``i -= n``): the loop over
  ``Array.from({length: c}).map((_, k) => A + k * n)`` with ``c`` the count JavaScript's test
  allows, ``B`` read once (the body cannot change what it reads: the loop may not read what it
  changes through ``B``) and ``A`` free of calls. Other steps, tests or starts keep the "only
  for...of" refusal;
(``for (const [i, x] of xs.entries())`` is a plain ``for...of``: ``entries()`` gives an iterator,
SPEC 1.8, "Maps and Sets".)
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from dialectic.frontends.plan.base import DECLARATORS, ParseFailure, ParserBase, closing
from dialectic.frontends.plan.loopbuild import has_call, ref
from dialectic.frontends.plan.promiseloop import check_segments
from dialectic.frontends.plan.tokenscan import CLOSE, OPEN

__all__ = ["Each", "LoopFormsMixin"]

Header = tuple[str | None, int, Any, tuple[int, int]]
#: the tokens that may end a statement after `xs.forEach(...)`
_ENDS = frozenset([";", "}", "eof"])
_UP = {"<": "up", "<=": "up", ">": "down", ">=": "down"}


class _Padded:
    """A token list read past its end as ``pad`` (a program cut short ends anywhere)."""

    __slots__ = ("items", "pad")

    def __init__(self, items: Sequence[Any], pad: Any) -> None:
        self.items = items
        self.pad = pad

    def __getitem__(self, i: int) -> Any:
        return self.items[i] if i < len(self.items) else self.pad


@dataclass(slots=True)
class Each:
    """A ``forEach`` statement read as a loop: its header, the locals its parameters bind
    beside the loop's variable, the token of the call's ``)``, and whether the callback's body
    is an expression."""

    header: Header
    close: int
    expression: bool
    locals: list[tuple[str, int, Any]] = field(default_factory=list)
    #: a statement outside a loop read as a loop over one item (:mod:`.reassign`); ``close``
    #: is its last token
    statement: bool = False
    #: ``await Promise.all(xs.map(async x => ...))`` (:mod:`.promiseloop`): the ``)`` closing
    #: ``Promise.all(``
    awaited: int | None = None


#: operators that bind less tightly than `<`: `i < n && ok` is `(i < n) && ok`
_LOOSER = frozenset(["??", "||", "&&", "==", "!=", "===", "!==", "<", "<=", ">", ">="])


def _looser(tree: Any) -> bool:
    """Whether ``tree``, read after `i <`, is an operator binding less tightly than `<`
    (JavaScript reads the test as `(i < a) op b`) or a conditional."""
    if type(tree) is not dict:
        return False
    if "$if" in tree:
        return True
    op = tree.get("$op")
    return type(op) is list and bool(op) and op[0] in _LOOSER and len(op) == 3


class LoopFormsMixin(ParserBase):
    """``xs.forEach(...)`` statements and counted ``for (let i = 0; i < n; i++)`` headers."""

    #: whether the text holds `forEach` at all (found on first need)
    _for_each_written: bool | None = None

    if TYPE_CHECKING:

        def fresh(self, prefix: str) -> str: ...

        def _put(self, container: Any, key: str | int, first: int, last: int) -> None: ...

        def arrow_params(self, pos: int) -> list[str] | None: ...

        def refuse_param_extras(self, at: int) -> None: ...

        def collection_each(self, receiver: Any, item: str, count: int) -> Any: ...

        _arrow_patterns: dict[str, Any]

    # -- forEach ---------------------------------------------------------------------------------

    def for_each_at(self, pos: int) -> int | None:
        """The token of the ``.`` of ``.forEach(`` when the statement at token ``pos`` is
        ``receiver.forEach(...)`` and nothing else, else None."""
        has = self._for_each_written
        if has is None:  # (once per parse: a text search per statement is quadratic)
            has = self._for_each_written = "forEach" in self.source
        if not has:
            return None
        kinds, values = self.kinds, self.values
        depth = 0
        i = pos
        found = None
        while kinds[i] != "eof":
            kind = kinds[i]
            if kind in OPEN:
                if (
                    depth == 0
                    and kind == "("
                    and i > pos + 2
                    and values[i - 1] == "forEach"
                    and kinds[i - 2] == "."
                ):
                    close = closing(kinds, i)
                    if kinds[close] == "eof":
                        return None
                    end = kinds[close + 1]
                    if end in _ENDS or self.newline_before(close + 1):
                        found = i - 2
                    i = close + 1
                    continue
                depth += 1
            elif kind in CLOSE:
                depth -= 1
                if depth < 0:
                    break
            elif depth == 0 and (
                kind == ";" or (i > pos and kind != "." and self.newline_before(i))
            ):  # (a line that does not go on with `.member` starts another statement)
                break
            i += 1
        return found

    def for_each(self, pos: int, dot: int, awaited: int | None = None) -> Each:
        """The loop that the statement ``receiver.forEach(callback)`` at token ``pos`` is
        (``dot``: its ``.``); ``self.pos`` at the callback's body. ``awaited``: the statement
        is ``await Promise.all(receiver.map(async callback))`` (:mod:`.promiseloop`), this
        the ``)`` closing ``Promise.all(``."""
        kinds, values = self.kinds, self.values
        opened = dot + 2
        close = closing(kinds, opened)
        kinds[dot] = ";"  # the receiver ends there
        try:
            self.pos = pos if awaited is None else pos + 5
            receiver = self.expr(0)
        finally:
            kinds[dot] = "."
        if self.pos != dot:
            raise self.unexpected(self.tok(self.pos), "`.map(`" if awaited else "`.forEach(`")
        p = opened + 1
        if awaited is not None:
            p += 1  # (`async`: Promise.all waits for every callback)
        elif values[p] == "async":
            raise self.fail(
                "`forEach` does not wait for an `async` callback: the statements after it "
                "would run before the callback's calls end",
                self.starts[p],
                "loop with for...of and await inside: for (const x of xs) { "
                "out.push(await f(x)); }",
            )
        params = self.arrow_params(p)
        self.refuse_param_extras(p)
        if params is None:
            raise self.fail(
                "`forEach` takes an arrow function here: xs.forEach(x => { ... })",
                self.starts[p],
                "or loop with for...of: for (const x of xs) { ... }",
            )
        patterns, self._arrow_patterns = self._arrow_patterns, {}
        arrow = p
        while not (kinds[arrow] == "op" and values[arrow] == "=>"):
            arrow += 1
        if len(params) > 2:
            raise self.fail(
                "a `forEach` callback here takes the item and its index, not the array",
                self.starts[p],
                "read the array by its name inside the callback",
            )
        if len(params) == 2 and (params[1] in patterns or params[0] in patterns):
            raise self.fail(
                "a `forEach` callback with an index takes plain names: (x, i) => ...",
                self.starts[p],
                "take the item whole and read its parts inside: (x, i) => { const {a} = x; }",
            )
        item = self.fresh("_x")
        index = self.fresh("_i") if len(params) == 2 else None
        made: Any = [ref(item), ref(index)] if index is not None else ref(item)
        mapper = {"$fn": [[item] if index is None else [item, index], made]}
        each_of = (  # `m.forEach((v, k) => {})`
            None if awaited is not None else self.collection_each(receiver, item, len(params))
        )
        if each_of is not None:
            receiver, mapper = each_of
        items: list[Any] = [receiver, "map", mapper]
        self._put(items, 0, pos, dot - 1)
        iterable = {"$method": items}
        span = (pos, dot - 1)
        tokens = [i for i in range(p, arrow) if kinds[i] == "name" and values[i] in params]
        if awaited is not None:
            self.pos = awaited  # (a refusal goes on after the statement)
            if kinds[arrow + 1] == "{":
                check_segments(self, arrow + 2, closing(kinds, arrow + 1) - 1, params)
            else:
                check_segments(self, arrow + 1, close - 1, params)
        self.pos = arrow + 1
        if index is None:
            name = params[0] if params else self.fresh("_item")  # (`() => { n++; }`)
            if name in patterns:  # `([k, v]) => ...`: the loop's pattern, at its tokens
                at = patterns[name].start
                return Each(
                    (None, at, iterable, span), close, kinds[arrow + 1] != "{", awaited=awaited
                )
            header: Header = (name, tokens[0] if tokens else p, iterable, span)
            each = Each(header, close, kinds[arrow + 1] != "{", awaited=awaited)
        else:
            pair = self.fresh("_each")
            header = (pair, tokens[0] if tokens else p, iterable, span)
            each = Each(header, close, kinds[arrow + 1] != "{", awaited=awaited)
            for n, name in enumerate(params):
                tok = tokens[n] if n < len(tokens) else p
                each.locals.append((name, tok, {"$get": [ref(pair), n]}))
        return each

    def each_return(self, pos: int, call: str = "`forEach`") -> ParseFailure | None:
        """``return;`` in a ``forEach`` callback goes on with the next item (None); ``return``
        of a value is refused (``call``: how the message names the call)."""
        if self.kinds[pos + 1] in (";", "}"):
            return None
        return self.fail(
            f"{call} drops the value its callback returns",
            self.starts[pos],
            "write `return;` to go on with the next item, or collect values with map",
        )

    def each_continue(self, pos: int, call: str = "`forEach`") -> ParseFailure:
        return self.fail(
            f"a {call} callback has no `continue` (JavaScript's SyntaxError)",
            self.starts[pos],
            "write `return;` to go on with the next item",
        )

    def each_break(self, pos: int, call: str = "`forEach`") -> ParseFailure:
        return self.fail(
            f"a {call} callback has no `break` (JavaScript's SyntaxError)",
            self.starts[pos],
            "loop with for...of to stop early: for (const x of xs) { if (...) break; ... }",
        )

    # -- counted for -----------------------------------------------------------------------------

    def counted_header(self, pos: int) -> Header | None:
        """``for (let i = A; i < B; i++)`` at token ``pos`` as a header over the values ``i``
        takes; ``self.pos`` after ``)``. None when the loop is not of that form."""
        kinds, values = _Padded(self.kinds, "eof"), _Padded(self.values, None)
        i = pos + 2
        if not (
            values[i] in DECLARATORS
            and values[i] != "const"
            and kinds[i + 1] == "name"
            and kinds[i + 2] == "="
        ):
            return None
        name, at = values[i + 1], i + 1
        self.pos = i + 3
        first = self.pos
        start = self.expr(0)
        start_span = (first, self.pos - 1)
        if has_call(start):
            return None
        if kinds[self.pos] != ";" or values[self.pos + 1] != name:
            return None
        test = self.pos + 2
        op = values[test] if kinds[test] == "op" else None
        if op not in _UP:
            return None
        self.pos = test + 1
        bound_first = self.pos
        bound = self.expr(0)
        bound_span = (bound_first, self.pos - 1)
        if kinds[self.pos] != ";" or (_looser(bound) and id(bound) not in self.parened):
            return None  # (`i < n && ok`, `i < a ? b : c`: the test is not `i < bound`)
        step = self._step(self.pos + 1, name)
        if step is None or step[0] != _UP[op]:
            return None
        self.pos = step[1]
        if kinds[self.pos] != ")":
            return None
        self.pos += 1
        made = self._count(op, start, bound, step[2], start_span, bound_span)
        return name, at, made, start_span

    def _step(self, i: int, name: str) -> tuple[str, int, int] | None:
        """``i++``, ``++i``, ``i += n`` (up; ``n`` a whole number literal) or their downward
        kin at token ``i``: the direction, the token after the step and the step."""
        kinds, values = _Padded(self.kinds, "eof"), _Padded(self.values, None)
        if values[i] == name and kinds[i + 1] == "op" and values[i + 1] in ("++", "--"):
            return ("up" if values[i + 1] == "++" else "down"), i + 2, 1
        if kinds[i] == "op" and values[i] in ("++", "--") and values[i + 1] == name:
            return ("up" if values[i] == "++" else "down"), i + 2, 1
        raw = values[i + 2]
        if (
            type(raw) is str
            and values[i] == name
            and kinds[i + 1] == "op"
            and values[i + 1] in ("+=", "-=")
            and kinds[i + 2] == "num"
            and raw.isdigit()
            and raw[0] != "0"
            and len(raw) < 10
        ):
            return ("up" if values[i + 1] == "+=" else "down"), i + 3, int(raw)
        return None

    def _count(
        self,
        op: str,
        start: Any,
        bound: Any,
        step: int,
        start_span: tuple[int, int],
        bound_span: tuple[int, int],
    ) -> Any:
        """``Array.from({length: n}).map((_, k) => start ± k * step)`` with ``n`` the number of
        values JavaScript's test lets through: ``Math.max(0, Math.ceil((B - A) / step))`` for
        ``<`` and ``Math.max(0, Math.floor((B - A) / step) + 1)`` for ``<=`` (downward:
        ``A - B``)."""
        skip, k = self.fresh("_"), self.fresh("_k")
        up = _UP[op] == "up"
        again = copy.deepcopy(start)  # (no call in it: computing it twice changes nothing)
        gap: Any = {"$op": ["-", bound, start] if up else ["-", start, bound]}
        self._put(gap["$op"], 1 if up else 2, *bound_span)
        self._put(gap["$op"], 2 if up else 1, *start_span)
        if step != 1:
            gap = {"$op": ["/", gap, step]}
        if op in ("<", ">"):
            size: Any = {"$global": ["Math.ceil", gap]}
        else:
            size = {"$op": ["+", {"$global": ["Math.floor", gap]}, 1]}
        length = {"$global": ["Math.max", 0, size]}
        offset: Any = ref(k) if step == 1 else {"$op": ["*", ref(k), step]}
        value = {"$op": ["+" if up else "-", again, offset]}
        self._put(value["$op"], 1, *start_span)
        made = {"$global": ["Array.from", {"$object": {"length": length}}]}
        return {"$method": [made, "map", {"$fn": [[skip, k], value]}]}
