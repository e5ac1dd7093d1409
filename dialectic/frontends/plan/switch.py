"""``switch`` whose cases end in ``return`` (SPEC 10, "Switch"), as helpers write it:

    switch (p.kind) {
      case 'a':
      case 'b': return 'letter';
      case 1: { const x = p.n * 2; return x; }
      default: return 'other';
    }

is the choice ``_sw1 === 'a' || _sw1 === 'b' ? 'letter' : _sw1 === 1 ? {...} : 'other'`` over a
hidden alias holding the value (read once, as JavaScript reads it): a block
``{"$let": {"_sw1": V}, "$return": {"$if": [...]}}``. Cases are tested in order with ``===``;
empty cases fall through to the next; ``default`` is taken when no case is equal, wherever it
stands; without it, the statements after the ``switch`` are the value when no case is, as after
an ``if`` without ``else``. A case whose statements do not end in ``return`` (``break``,
falling through into another case's statements) is refused with what to write instead."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dialectic.frontends.plan.base import ParseFailure, ParserBase, closing
from dialectic.frontends.plan.caselookup import CHAIN_CASES, DEFAULT, case_key, lookup_tree
from dialectic.frontends.plan.tokenscan import CLOSE, OPEN

__all__ = ["SwitchMixin", "case_labels", "literal_cases", "switch_head"]


def literal_cases(p: ParserBase, labels: list[int]) -> bool:
    """Whether the ``switch`` of the case labels at tokens ``labels`` has more than
    :data:`.CHAIN_CASES` cases, each testing a literal a lookup can compare
    (:mod:`.caselookup`: a string, a number, `true`, `false`, `null`)."""
    kinds, values = p.kinds, p.values
    if sum(values[i] == "case" for i in labels) <= CHAIN_CASES:
        return False
    for label in labels:
        if values[label] == "default":
            continue
        i = label + 1
        if kinds[i] == "op" and values[i] == "-" and kinds[i + 1] == "num":
            i += 1
        word = values[i] if kinds[i] == "name" else None
        if kinds[i] not in ("str", "num") and word not in ("true", "false", "null"):
            return False
        if kinds[i + 1] != ":":
            return False
    return True


def declared_twice(p: ParserBase, labels: list[int], close: int) -> None:
    """Refuse a name declared with ``const`` or ``let`` in two cases of one ``switch`` (not
    inside braces of their own): JavaScript's cases share one scope (a SyntaxError)."""
    kinds, values = p.kinds, p.values
    seen: set[str] = set()
    depth = 0
    for i in range(labels[0], close):
        kind = kinds[i]
        if kind in OPEN:
            depth += 1
        elif kind in CLOSE:
            depth -= 1
        elif (
            depth == 0
            and kind == "name"
            and values[i] in ("const", "let")
            and kinds[i + 1] == "name"
        ):
            name = values[i + 1]
            if name in seen:
                raise p.fail(
                    f"`{name}` is declared again in another case of this `switch`: its cases "
                    "share one scope (JavaScript's SyntaxError)",
                    p.starts[i + 1],
                    "give each case's names their own, or write each case's statements "
                    "in braces: `case 1: { const y = ...; return y; }`",
                )
            seen.add(name)


def after_default(
    p: ParserBase, cases: list[tuple[list[Any], Any]], pos: int
) -> list[tuple[list[Any], Any]]:
    """The cases tested one after the other: without ``default``'s place (DEFAULT), and
    without a later case's literal that a case falling into ``default`` tests first (its
    value takes ``default``'s statements, as in JavaScript). A case falling into ``default``
    with a value that is no literal, and cases after it, are refused: which of them is equal
    first is known only when it runs."""
    out: list[tuple[list[Any], Any]] = []
    taken: set[tuple[str, Any]] = set()
    opaque = False
    for tested, body in cases:
        if body is DEFAULT:
            for t in tested:
                key = case_key(t)
                if key is None:
                    opaque = True
                else:
                    taken.add(key)
            continue
        if opaque:
            raise p.fail(
                "a case whose value is no literal falls into `default`, and cases follow it",
                p.starts[pos],
                "move `default` (and the cases falling into it) to the end of the `switch`",
            )
        if taken:
            tested = [t for t in tested if case_key(t) not in taken]
            if not tested:
                continue
        out.append((tested, body))
    return out


def case_labels(p: ParserBase, opened: int, close: int) -> list[int]:
    """The tokens of the ``case`` and ``default`` labels of a ``switch`` whose braces are at
    ``opened`` and ``close`` (not those of a ``switch`` inside)."""
    kinds, values = p.kinds, p.values
    labels: list[int] = []
    depth = 0
    i = opened + 1
    while i < close:
        kind = kinds[i]
        if kind in OPEN:
            depth += 1
        elif kind in CLOSE:
            depth -= 1
        elif depth == 0 and kind == "name":
            word = values[i]
            if word == "case" or (word == "default" and kinds[i + 1] == ":"):
                labels.append(i)
        i += 1
    first = opened + 1
    while first < close and kinds[first] == ";":
        first += 1
    if not labels or labels[0] != first:
        at = first if first < close else opened
        raise p.fail(
            "statements in `switch` before its first `case`",
            p.starts[at],
            "start the body with `case value:`",
        )
    return labels


def switch_head(p: ParserBase, pos: int) -> tuple[Any, tuple[int, int], int, list[int]]:
    """``switch (value) {`` at token ``pos``: the value's tree and tokens, the `}` closing
    the cases and the cases' labels."""
    kinds = p.kinds
    if kinds[pos + 1] != "(":
        raise p.unexpected(p.tok(pos + 1), "`(` after `switch`")
    p.pos = pos + 2
    value = p.expr(0)
    span = (pos + 2, p.pos - 1)
    if kinds[p.pos] != ")":
        raise p.unexpected(p.tok(p.pos), "`)` after the value of `switch`")
    opened = p.pos + 1
    if kinds[opened] != "{":
        raise p.unexpected(p.tok(opened), "`{` opening the cases")
    close = closing(kinds, opened)
    if kinds[close] == "eof":
        raise p.unexpected(p.tok(close), "`}` closing the cases")
    return value, span, close, case_labels(p, opened, close)


class SwitchMixin(ParserBase):
    """``switch`` statements of cases that return."""

    if TYPE_CHECKING:

        def fresh(self, prefix: str) -> str: ...

    def switch_statement(self, pos: int, end: str) -> tuple[Any, int]:
        """The ``switch`` at token ``pos``: its value (the statements after it, up to the token
        kind ``end``, are the value when no case matches and there is no ``default``) and its
        last token."""
        kinds = self.kinds
        value, _, close, labels = switch_head(self, pos)
        literal = literal_cases(self, labels)
        if len(labels) > self.max_depth and not literal:  # each case a test inside the last
            raise ParseFailure(
                f"this `switch` has {len(labels)} cases; each is a test inside the one before, "
                f"so it nests more than {self.max_depth} levels deep",
                self.starts[pos],
                "look the value up in an object (`const table = {a: 1, b: 2}; return "
                "table[v] ?? fallback;`), or raise the `max_depth` limit",
                fatal=True,
                limit="max_depth",
            )
        declared_twice(self, labels, close)
        hidden = self.fresh("_sw")
        # (the values tested, the statements; DEFAULT: those of `default`, where it stands)
        cases: list[tuple[list[Any], Any]] = []
        default: Any = None
        tests: list[Any] = []
        in_default = False
        for n, label in enumerate(labels):
            stop = labels[n + 1] if n + 1 < len(labels) else close
            if self.values[label] == "case":
                self.pos = label + 1
                tests.append(self.expr(0))
                if kinds[self.pos] != ":":
                    raise self.unexpected(self.tok(self.pos), "`:` after the case's value")
            else:
                self.pos = label + 1
                in_default = True
            start = self.pos + 1
            while start < stop and kinds[start] == ";":
                start += 1
            if start == stop:  # an empty case: falls through to the next
                if stop == close:
                    raise self.fail(
                        "the last case of `switch` has no statements",
                        self.starts[label],
                        "end every case with `return expr;`",
                    )
                continue
            body = self._case_body(start, stop)
            if in_default:
                default = body
            cases.append((tests, DEFAULT if in_default else body))
            tests = []
            in_default = False
        self.pos = close + 1
        if default is None:  # no case equal: the statements after the `switch`
            default = self.block_until(end, rest=True)
        last = max(self.pos - 1, close)
        if literal and all(case_key(t) is not None for tested, _ in cases for t in tested):
            return lookup_tree(hidden, value, cases, default), last  # (:mod:`.caselookup`)
        for tested, body in reversed(after_default(self, cases, pos)):
            test: Any = None
            for t in tested:
                equal = {"$op": ["===", {"$ref": hidden}, t]}
                test = equal if test is None else {"$op": ["||", test, equal]}
            default = {"$if": [test, body, default]}
        return {"$let": {hidden: value}, "$return": default}, last

    def _case_body(self, start: int, stop: int) -> Any:
        """The statements of a case, tokens ``start`` up to ``stop`` (the next label or the
        closing brace): a block ending in ``return``."""
        kinds = self.kinds
        saved = kinds[stop]
        kinds[stop] = "}"
        self.pos = start
        try:
            if kinds[start] == "{" and closing(kinds, start) == stop - 1:
                self.pos = start + 1  # `case 1: { ...; return x; }`
            body = self.block_until("}", "this case of `switch`", bring=True, close=stop)
        except ParseFailure as failure:
            raise self._case_hint(failure, start, stop) from None
        finally:
            kinds[stop] = saved
        if self.pos < stop and kinds[self.pos] != "}":
            raise self.fail(
                "statements after `return` in a case of `switch`",
                self.starts[self.pos],
                "end the case with its `return expr;`",
            )
        return body

    def _case_hint(self, failure: ParseFailure, start: int, stop: int) -> ParseFailure:
        """A case that `break`s or falls through gets what to write instead."""
        kinds, values = self.kinds, self.values
        for i in range(start, stop):
            if kinds[i] == "name" and values[i] == "break":
                return self.fail(
                    "a case of `switch` that ends in `break`: Plan reads a `switch` whose "
                    "cases end in `return`",
                    self.starts[i],
                    "return the value in each case (inside a function when the program goes "
                    "on after it), or write `if (v === a) { ... } else if (v === b) { ... }`",
                )
        return failure
