"""``switch`` in a loop's body, or as a statement that changes values (SPEC 10, "Switch"):

    switch (t.kind) {
      case 'bug': bugs++; break;
      case 'idea':
      case 'wish': ideas.push(t.id); break;
      default: other += 1;
    }

reads as the ``if``/``else if`` chain it is: the value in a hidden local read once
(``_sw1``), then one branch per case, its hidden boolean ``_sw1 === 'bug'`` when no case
before was taken, ``default``'s when none was (wherever it stands). Each case's statements end
in ``break;`` (the last one may end without); a case that falls into another's statements, or a
``break`` elsewhere in a case, is refused. ``continue`` goes on with the loop's next item, as in
JavaScript."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dialectic.frontends.plan.base import ParserBase, closing
from dialectic.frontends.plan.caselookup import DEFAULT, case_key
from dialectic.frontends.plan.loopbuild import ref, when
from dialectic.frontends.plan.loopcheck import NEVER
from dialectic.frontends.plan.switch import literal_cases, switch_head
from dialectic.frontends.plan.tokenscan import OPEN

if TYPE_CHECKING:
    from dialectic.frontends.plan.loopcheck import Body

__all__ = ["LoopSwitchMixin"]

#: statements whose own `break` ends them, not the case
_LOOPS = frozenset(["for", "while", "do", "switch"])


def either_of(operands: list[Any]) -> Any:
    """``a || b || c || ...``, balanced (``(a || b) || (c || d)``: the same value, the same
    operands run in the same order, each only when those before it are falsy), so a
    ``switch`` of hundreds of cases nests a few levels, not one per case."""
    if len(operands) == 1:
        return operands[0]
    mid = len(operands) // 2
    return {"$op": ["||", either_of(operands[:mid]), either_of(operands[mid:])]}


class LoopSwitchMixin(ParserBase):
    """``switch`` with ``break`` in a loop's body."""

    if TYPE_CHECKING:

        def fresh(self, prefix: str) -> str: ...

        def _branch_end(self, i: int) -> int: ...

        def _put(self, container: Any, key: str | int, first: int, last: int) -> None: ...

        def _block(self, body: Body, reach: str | None, closer: str) -> str | None: ...

        def _otherwise(self, body: Body, reach: str | None, taken: str) -> str: ...

        def _expect(self, kind: str, what: str) -> None: ...

        def ends_in_return(self, i: int) -> bool: ...

        def last_statement(self, first: int, close: int) -> int: ...

    def _switch(self, body: Body, reach: str | None, pos: int) -> str | None:
        """The ``switch`` at token ``pos``; returns the reach after it."""
        value, (first, last), close, labels = switch_head(self, pos)
        body.use(value, first, last)
        hidden = self.fresh("_sw")
        body.lets[hidden] = when(reach, value, None)
        self._put(body.lets, hidden, first, last)
        if literal_cases(self, labels):  # (many cases, each a literal: a lookup)
            parts = self._case_lookup(body, reach, hidden, labels, close)
        else:
            parts = self._case_chain(body, reach, hidden, labels, close)
        self.pos = close + 1
        going = [p for p in parts if p != NEVER]
        if not going:
            return NEVER
        if len(set(going)) == 1:
            return going[0]
        either = self.fresh("_reach")
        body.lets[either] = either_of([ref(p or "") for p in going])
        return either

    def _case_chain(
        self, body: Body, reach: str | None, hidden: str, labels: list[int], close: int
    ) -> list[str | None]:
        """The cases tested one after the other: the reach after each case's statements,
        and the reach when none is taken (or after `default`'s statements)."""
        kinds = self.kinds
        current = reach  # no case taken so far
        parts: list[str | None] = []
        default: tuple[int, int] | None = None
        tests: list[Any] = []
        for n, label in enumerate(labels):
            stop = labels[n + 1] if n + 1 < len(labels) else close
            if self.values[label] == "case":
                self.pos = label + 1
                at = self.pos
                test = self.expr(0)
                body.use(test, at, self.pos - 1)
                tests.append({"$op": ["===", ref(hidden), test]})
                colon = self.pos
            else:
                colon = label + 1
                tests.append(None)
            if kinds[colon] != ":":
                raise self.unexpected(self.tok(colon), "`:` after the case")
            start = colon + 1
            end = self._case_end(start, stop, stop == close)
            if end is None:  # an empty case: falls through to the next
                continue
            if None in tests:  # `default` (alone or with cases): taken when none is
                default = (start, end)
            else:
                taken = self.fresh("_if")
                test = either_of(tests)
                body.lets[taken] = when(current, {"$if": [test, True, False]}, False)
                self._put(body.lets, taken, label, colon)
                parts.append(self._case(body, taken, start, end))
                current = self._otherwise(body, current, taken)
            tests = []
        if default is not None:
            parts.append(self._case(body, current, *default))
        else:
            parts.append(current)
        return parts

    def _case_lookup(
        self, body: Body, reach: str | None, hidden: str, labels: list[int], close: int
    ) -> list[str | None]:
        """:meth:`_case_chain` for many cases whose values are literals (:mod:`.caselookup`): the
        position of the value among them, read once (``-2`` when the ``switch`` is not
        reached), and each case taken when the position is one of its values'; the labels of
        ``default``'s statements, and a value written twice after its first, are not looked
        up (``default``'s, its first case's)."""
        kinds = self.kinds
        groups: list[tuple[list[Any], int, int]] = []  # (values, statements' first, end)
        values: list[Any] = []
        for n, label in enumerate(labels):
            stop = labels[n + 1] if n + 1 < len(labels) else close
            if self.values[label] == "case":
                self.pos = label + 1
                values.append(self.expr(0))
                colon = self.pos
            else:
                values.append(DEFAULT)
                colon = label + 1
            if kinds[colon] != ":":
                raise self.unexpected(self.tok(colon), "`:` after the case")
            end = self._case_end(colon + 1, stop, stop == close)
            if end is not None:
                groups.append((values, colon + 1, end))
                values = []
        seen: set[Any] = set()
        looked: list[Any] = []
        ranges: list[tuple[int, int] | None] = []  # (None: `default`'s statements)
        for tested, _, _ in groups:
            first = len(looked)
            for v in tested:
                key = DEFAULT if v is DEFAULT else case_key(v)
                if key is not DEFAULT and key not in seen:
                    seen.add(key)
                    looked.append(v)
            if DEFAULT in tested:
                del looked[first:]  # (equal to none looked up: `default`'s)
                ranges.append(None)
            else:
                ranges.append((first, len(looked)))
        at = self.fresh("_sw")
        found = {"$method": [looked, "indexOf", ref(hidden)]}
        body.lets[at] = when(reach, found, -2)
        self._put(body.lets, at, labels[0], close)
        none = self.fresh("_if")
        body.lets[none] = {"$op": ["===", ref(at), -1]}
        parts: list[str | None] = []
        default: tuple[int, int] | None = None
        for (_, start, end), span in zip(groups, ranges, strict=True):
            if span is None:
                default = (start, end)
                continue
            taken = self.fresh("_if")
            inside = {"$op": ["<", ref(at), span[1]]}
            body.lets[taken] = {"$if": [{"$op": ["<", ref(at), span[0]]}, False, inside]}
            self._put(body.lets, taken, start, end)
            parts.append(self._case(body, taken, start, end))
        parts.append(none if default is None else self._case(body, none, *default))
        return parts

    def _case_end(self, start: int, stop: int, last: bool) -> int | None:
        """The token after a case's statements (its ``break;`` left out), None for an empty
        case. A case that falls into the next one's statements, or with a ``break`` of its own
        before its end, is refused."""
        kinds, values = self.kinds, self.values
        i = start
        while i < stop and kinds[i] == ";":
            i += 1
        if i == stop:
            if last and stop > start:
                return stop
            return None if not last else stop
        end = stop
        while end > start and kinds[end - 1] == ";":
            end -= 1
        ended = False
        if kinds[i] == "{" and closing(kinds, i) == end - 1:  # `case 1: { ...; break; }`
            inner = end - 1
            while inner > i and kinds[inner - 1] == ";":
                inner -= 1
            if kinds[inner - 1] == "name" and values[inner - 1] == "break":
                end = inner - 1  # (the `break` stands for the block's `}`: :meth:`_case`)
                ended = True
        if ended:
            pass
        elif kinds[end - 1] == "name" and values[end - 1] == "break":
            end -= 1
        elif kinds[end - 1] == "name" and values[end - 1] == "continue":
            end = stop  # (the loop's next item: the case ends there too)
        elif self.ends_in_return(self.last_statement(i, end)):
            end = stop  # (a loop's `return`, with its `;`: :mod:`.loopreturn`)
        elif not last:
            raise self.fail(
                "a case of `switch` falls into the next case's statements",
                self.starts[stop],
                "end each case with `break;` (or write the statements in each case); a case "
                "with no `break` in it falls through when the cases it falls into declare "
                "nothing outside braces and end in `break;` as their last statement",
            )
        else:
            end = stop  # (the last case's statements, with their `;`, up to the `}`)
        j = start
        while j < end:  # a `break` of the case before its end: refused
            kind = kinds[j]
            if kind == "name" and values[j] in _LOOPS:
                j = self._skip_loop_tokens(j)
                continue
            if kind == "name" and values[j] == "break":
                raise self.fail(
                    "a `break` inside a case of `switch`, before its end",
                    self.starts[j],
                    "end the case with its one `break;`; choose with `if` inside the case",
                )
            j += 1
        return end

    def _skip_loop_tokens(self, j: int) -> int:
        """The token after the loop statement at token ``j`` (its own `break`s are its)."""
        kinds = self.kinds
        i = j + 1
        while kinds[i] not in ("{", ";", "eof"):
            i = closing(kinds, i) + 1 if kinds[i] in OPEN else i + 1
        return closing(kinds, i) + 1 if kinds[i] == "{" else i + 1

    def _case(self, body: Body, reach: str | None, start: int, end: int) -> str | None:
        """A case's statements, tokens ``start`` up to ``end``, run when ``reach``."""
        kinds = self.kinds
        saved = kinds[end]
        kinds[end] = "}"
        self.pos = start
        try:
            return self._block(body, reach, "}")
        finally:
            kinds[end] = saved
