"""Recursive-descent parser: Plan tokens -> the canonical call tree (SPEC.md section 1).

:class:`Parser` is put together from mixins: :mod:`.base` (state and helpers), :mod:`.operators`
(expressions with operators, arrow functions), :mod:`.postfix` (member access, calls) and
:mod:`.statements` (the program), :mod:`.objectliterals` (object literals); the other literals
and primary expressions are here. See :mod:`.base`
for how spans are recorded.
"""

from __future__ import annotations

from typing import Any

from dialectic.frontends.plan.base import (
    DECLARATORS,
    POSTFIX,
    ParseFailure,
    Problem,
    op_hint,
)
from dialectic.frontends.plan.functions import FunctionsMixin
from dialectic.frontends.plan.keywords import LITERAL_WORDS, RESERVED, keyword_hint
from dialectic.frontends.plan.newarray import NewArrayMixin
from dialectic.frontends.plan.objectliterals import ObjectLiteralsMixin
from dialectic.frontends.plan.operators import ENDS, NOT_CALLEE, OperatorsMixin
from dialectic.frontends.plan.postfix import PostfixMixin
from dialectic.frontends.plan.sets import SetsMixin, is_set_spread
from dialectic.frontends.plan.statements import StatementsMixin
from dialectic.frontends.plan.waits import WaitsMixin

__all__ = ["Parser", "ParseFailure", "Problem", "op_hint"]


#: what Plan makes with `new` (:meth:`Parser.new_value`)
_NEW = frozenset(["Set", "Map", "Array", "RegExp", "Date", "Promise", "URL", "URLSearchParams"])
#: the `Intl` formats a program makes (`new Intl.NumberFormat(...)`: values of the run)
_FORMATS = frozenset(["NumberFormat", "DateTimeFormat"])
#: the errors `throw new Error(message)` may make (SPEC 10)
#: the hidden calls :mod:`.trywrite` writes
_TRY_FORMS = frozenset(["%try", "%throw"])
_ERRORS = frozenset(["Error", "TypeError", "RangeError", "SyntaxError", "ReferenceError"])


class Parser(
    OperatorsMixin,
    PostfixMixin,
    StatementsMixin,
    SetsMixin,
    FunctionsMixin,
    NewArrayMixin,
    WaitsMixin,
    ObjectLiteralsMixin,
):
    """Parses one token list; see :func:`parse_program` and :func:`parse_expression`.

    The token offsets (``starts``, ``ends``) are only read when recording spans or reporting a
    problem; when not recording, the lexer works them out on first use.
    """

    def primary(self, depth: int) -> Any:
        pos = self.pos
        if depth > self.max_depth:
            raise ParseFailure(
                f"the program is nested more than {self.max_depth} levels deep",
                self.starts[pos],
                "bind inner parts to aliases (`part = f(x);`) to flatten it",
                fatal=True,
                limit="max_depth",
            )
        kinds = self.kinds
        kind = kinds[pos]
        self.pos = pos + 1
        callee: str | None = None
        node: Any
        if kind == "name":
            word = self.values[pos]
            if word in LITERAL_WORDS:
                node = (
                    {"$undefined": None}
                    if word == "undefined"
                    else (True if word == "true" else False if word == "false" else None)
                )
                callee = word  # only to say that it is not a function
            elif word == "Promise" and kinds[pos + 1] == "." and self.values[pos + 2] == "reject":
                self.pos = pos + 3  # `Promise.reject(x)`: a promise that fails with `x`
                node = self.note_promise(self.try_form("%throw", depth))
            elif (
                (word == "function" and kinds[pos + 1] in ("(", "name"))
                or (word == "async" and self.values[pos + 1] == "function")
                or word in _TRY_FORMS
            ):  # `xs.map(function (x) { return x.a; })`; `%try(...)` (:mod:`.trywrite`)
                return self.function_or_try(pos, depth, word)
            elif word == "new" and (made := self.new_form(pos, depth)) is not None:
                node, callee = made
            elif word == "Array" and kinds[pos + 1] == "(":
                node = self.new_array(pos, depth)  # `Array(n).fill(v)` (SPEC 10)
                callee = None
            elif word in RESERVED:
                self.pos = pos
                raise self.fail(
                    (
                        "Plan has no generator functions (`function*`)"
                        if word == "function" and self.values[pos + 1] == "*"
                        else f"Plan has no `{word}`"
                    )
                    if word not in DECLARATORS
                    else f"`{word}` can only start an alias definition",
                    self.starts[pos],
                    keyword_hint(word, self.values[pos + 1]),
                )
            else:
                node = {"$ref": word}
                callee = word
        elif kind == "str":
            raw = self.values[pos]
            node = raw[1:-1] if "\\" not in raw else self.string(pos)
        elif kind == "num":
            raw = self.values[pos]
            if raw.isdigit() and len(raw) < 16 and (raw[0] != "0" or len(raw) == 1):
                node = int(raw)
            else:
                node = self.number(pos)
        elif kind == "tpl" or kind == "re":  # (a regular expression: SPEC 10)
            node = self.values[pos] if kind == "tpl" else self.regex(pos)
        elif kind == "[":
            node = self.array(depth)
        elif kind == "{":
            node = self.obj(depth)
        elif kind == "tplh":
            node = self.template(pos, depth)
        elif kind == "-" or kind == "+":
            if kinds[pos + 1] != "num":
                self.pos = pos
                raise self.fail(
                    f"Plan has no operator `{kind}`",
                    self.starts[pos],
                    "a sign is only allowed directly before a number, as in -3; "
                    "Plan has no arithmetic",
                )
            self.pos = pos + 2
            node = self.number(pos + 1)
            if kind == "-":
                node = -node
            nxt = kinds[pos + 2]
            if nxt == "." or nxt == "[" or nxt == "(":
                signed = self.source[self.starts[pos] : self.ends[pos + 1]]
                raise self.fail(
                    "a signed number cannot be followed by `.`, `[` or `(`",
                    self.starts[pos + 2],
                    f"wrap it in parentheses: ({signed})",
                )
            return node
        elif kind == "(":
            node = self.expr(depth + 1)
            if kinds[self.pos] != ")":
                raise self.unexpected(self.tok(self.pos), "`)`")
            self.pos += 1
            if type(node) is dict:
                self.parened.add(id(node))
                self.keep.append(node)  # (its id stays its own: a mark of this node only)
        elif kind == "err":
            self.pos = pos
            message, hint = self.values[pos]
            raise self.fail(message, self.starts[pos], hint)
        else:
            self.pos = pos
            raise self.unexpected(self.tok(pos), "an expression")
        # postfix: member access, index, call
        nxt = kinds[self.pos]
        if nxt not in POSTFIX and not (nxt == "op" and self.values[self.pos] == "?."):
            return node
        return self.postfix(node, pos, callee, depth)

    def new_form(self, pos: int, depth: int) -> tuple[Any, str | None] | None:
        """``new Set(xs)``, ``new Map(...)`` (SPEC 10) and ``new Intl.NumberFormat(...)``,
        ``new Intl.DateTimeFormat(...)`` (as without `new`, values/jslocale.py,
        jsdateformat.py) at token ``pos`` (``new``): the tree and the callee name; None for
        anything else."""
        values, kinds = self.values, self.kinds
        if values[pos + 1] in _NEW and kinds[pos + 2] == "(":
            return self.new_value(pos, depth), None
        if (
            values[pos + 1] == "Intl"
            and kinds[pos + 2] == "."
            and values[pos + 3] in _FORMATS
            and kinds[pos + 4] == "("
        ):
            self.pos = pos + 2
            return {"$ref": "Intl"}, "Intl"
        return None

    def function_or_try(self, pos: int, depth: int, word: str) -> Any:
        if word in _TRY_FORMS:
            return self.try_form(word, depth)
        return self.function_expression(pos, depth)

    def try_form(self, word: str, depth: int) -> Any:
        """``%try(async () => {block}, async (e) => {handler})`` as ``$try``, ``%throw(x)`` as
        ``$throw`` (an ``Error`` made with ``new Error(message)``, ``TypeError(...)``, ... as
        the object ``{name, message}``), the hidden calls :mod:`.trywrite` writes; also
        ``Promise.reject(x)`` (``self.pos`` at its ``(``)."""
        self.pos += 1  # (the `(` the writer put)
        if word == "%try":
            first = self.pos
            self.in_try += 1  # (:meth:`.PromisesMixin.awaited_promise`)
            try:
                body = self.expr(depth + 1)
            finally:
                self.in_try -= 1
            last = self.pos - 1
            self.pos += 1  # `,`
            handler_first = self.pos
            handler = self.expr(depth + 1)
            self.pos += 1  # `)`
            assert type(body) is dict and "$fn" in body, body
            self._error_reads(handler, handler_first)
            items = [body["$fn"][1], handler]
            self._record(items, [(first, last), (handler_first, self.pos - 2)])
            rec = self.rec
            if rec is not None and (id(body["$fn"]), 1) in rec:  # (the body's own place)
                rec[(rec.pin(items), 0)] = rec[(rec.pin(body["$fn"]), 1)]
            return {"$try": items}
        kinds, values = self.kinds, self.values
        if kinds[self.pos - 1] != "(" or kinds[self.pos] == ")":
            raise self.fail(
                "`Promise.reject` needs a value",
                self.starts[self.pos - 1],
                "write `Promise.reject(new Error('what went wrong'))`",
            )
        at = self.pos + (values[self.pos] == "new")
        made = values[at]
        if kinds[at] == "name" and made in _ERRORS and kinds[at + 1] == "(":
            self.pos = at + 2
            message: Any = ""
            if kinds[self.pos] != ")":
                message = self.expr(depth + 1)
                if kinds[self.pos] == ",":  # `new Error(message, {cause})`: the message only
                    self.pos += 1
                    self.expr(depth + 1)
                if not (type(message) is str or (type(message) is dict and "$template" in message)):
                    message = {"$global": ["String", message]}
            if kinds[self.pos] != ")":
                raise self.unexpected(self.tok(self.pos), "`)`")
            self.pos += 1
            value: Any = {"$object": {"name": made, "message": message}}
        else:
            value = self.expr(depth + 1)
        if kinds[self.pos] != ")":
            raise self.unexpected(self.tok(self.pos), "the end of the `throw` statement")
        self.pos += 1
        return {"$throw": value}

    def new_value(self, pos: int, depth: int) -> Any:
        """``new Set(...)``, ``new Map(...)``, ``new RegExp(...)``, ``new Array(n)`` at token
        ``pos`` (``new``)."""
        made = self.values[pos + 1]
        if made == "Set":
            return self.new_set(pos, depth)  # (SPEC 10: its items, count or membership)
        if made == "Map":
            return self.new_map(pos, depth)  # (SPEC 10: Maps and Sets)
        if made == "RegExp":
            return self.new_regexp(pos, depth)  # (SPEC 1.8: Regular expressions)
        if made == "Date":
            return self.new_date(pos, depth)  # (SPEC 1.8: Dates)
        if made == "Promise":
            return self.new_promise(pos, depth)  # (SPEC 17: Waiting)
        if made == "URL" or made == "URLSearchParams":
            return self.new_web(pos, depth)  # (SPEC 1.8: URLs and query strings)
        return self.new_array(pos + 1, depth)

    def spread_or_expr(self, depth: int) -> Any:
        """An element or argument: ``...xs`` (``$spread``) or an expression."""
        pos = self.pos
        if self.kinds[pos] == "op" and self.values[pos] == "...":
            self.pos = pos + 1
            value = self.expr(depth + 1)
            if self._loose_sets:
                self.take_set(value)  # `...new Set(xs)`: its items
            rec = self.rec
            out = {"$spread": value}
            if rec is not None:
                rec[(rec.pin(out), "$spread")] = (self.starts[pos + 1], self.ends[self.pos - 1])
            return out
        return self.expr(depth)

    def array(self, depth: int) -> Any:
        kinds = self.kinds
        values = self.values
        max_depth = self.max_depth
        rec = self.rec
        items: list[Any] = []
        depth += 1
        calls = depth < max_depth and self.fast_paths  # `expr`'s fast path for calls, here
        pos = self.pos
        while True:
            kind = kinds[pos]
            if kind == "]":
                self.pos = pos + 1
                if len(items) == 1 and is_set_spread(items[0]):
                    return items[0]["$spread"]  # `[...new Set(xs)]`: the items
                return items
            if kind == ",":
                self.pos = pos
                raise self.fail(
                    "empty array element",
                    self.starts[pos],
                    "write null for a missing value, or remove the extra comma",
                )
            start = pos
            if (
                calls
                and kind == "name"
                and kinds[pos + 1] == "("
                and (fn := values[pos]) not in NOT_CALLEE
                and fn[:1] not in ("$", "%")  # (`%throw(...)`: :mod:`.trywrite`)
            ):
                node = self._call_of(fn, pos, depth)  # (`_plain_call`, without a call)
                if kinds[self.pos] not in ENDS:
                    node = self._after_call(node, pos, depth)
                items.append(node)
            else:
                self.pos = pos
                items.append(
                    self.spread_or_expr(depth)
                    if kind == "op" and values[pos] == "..."
                    else self.expr(depth)
                )
            pos = self.pos
            if rec is not None:
                rec[(rec.pin(items), len(items) - 1)] = (self.starts[start], self.ends[pos - 1])
            if not len(items) & 255:  # (each item is a node at least)
                self.many_items(len(items), start)
            kind = kinds[pos]
            if kind == ",":
                pos += 1
            elif kind != "]":
                raise self.unexpected(self.tok(pos), "`,` or `]` in the array")

    def template(self, head: int, depth: int) -> Any:
        """A template with substitutions (head token ``head``); string literals inside ``${}``
        merge into the text."""
        kinds = self.kinds
        values = self.values
        rec = self.rec
        parts: list[Any] = []
        text: str = values[head]
        # the span of ``text`` (only when recording)
        text_start: int | None = self.starts[head] + 1 if rec is not None else 0
        text_end = self.ends[head] - 2 if rec is not None else 0
        depth += 1
        fast = depth < self.max_depth
        while True:
            pos = self.pos
            kind = kinds[pos]
            if kind == "tplm" or kind == "tplt":
                raise self.fail(
                    "empty substitution ${}", self.starts[pos], "put an expression in ${...}"
                )
            # (a member chain or a call: what `expr` makes of it, without going through it)
            value: Any = None
            chain = False
            if fast and kind == "name":
                raw = values[pos]
                nxt = kinds[pos + 1]
                if nxt == "." and raw not in NOT_CALLEE:
                    value = self._plain_get(raw, pos)  # (None: not a plain chain)
                    chain = value is not None
                elif nxt == "(" and raw not in NOT_CALLEE and raw[:1] != "$":
                    value = self._plain_call(raw, pos, depth)
                    chain = True
            if not chain:
                value = self.expr(depth)
            if type(value) is str:
                if rec is not None:
                    if text_start is None:
                        text_start = self.starts[pos]
                    text_end = self.ends[self.pos - 1]
                text += value
            else:
                if text:
                    if rec is not None:
                        rec[(rec.pin(parts), len(parts))] = (text_start or 0, text_end)
                    parts.append(text)
                if rec is not None:
                    rec[(rec.pin(parts), len(parts))] = (self.starts[pos], self.ends[self.pos - 1])
                parts.append(value)
                text = ""
                text_start = None
            pos = self.pos
            kind = kinds[pos]
            if kind != "tplm" and kind != "tplt":
                raise self.unexpected(self.tok(pos), "`}` to close the ${ substitution")
            self.pos = pos + 1
            if rec is not None:
                if text_start is None:
                    text_start = self.starts[pos] + 1
                text_end = self.ends[pos] - (1 if kind == "tplt" else 2)
            text += values[pos]
            if kind == "tplt":
                break
        if text:
            if rec is not None:
                rec[(rec.pin(parts), len(parts))] = (text_start or 0, text_end)
            parts.append(text)
        if not parts:
            return ""
        if len(parts) == 1 and type(parts[0]) is str:
            return parts[0]
        return {"$template": parts}
