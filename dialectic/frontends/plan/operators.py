"""Expressions with operators: conditionals, binary and unary operators, arrow functions."""

from __future__ import annotations

from typing import Any

from dialectic.frontends.plan.base import CLOSE, DECLARATORS, OPEN, ParserBase
from dialectic.frontends.plan.keywords import LITERAL_WORDS, RESERVED

__all__ = ["OperatorsMixin"]

#: JavaScript's binary operators and their precedence (higher binds tighter)
_PRECEDENCE = {
    "??": 1,
    "||": 2,
    "&&": 3,
    "==": 4,
    "!=": 4,
    "===": 4,
    "!==": 4,
    "<": 5,
    "<=": 5,
    ">": 5,
    ">=": 5,
    "+": 6,
    "-": 6,
    "*": 7,
    "/": 7,
    "%": 7,
    "**": 8,
}
_MIXING = frozenset(["??", "||", "&&"])


class OperatorsMixin(ParserBase):
    """``expr`` and the operator levels below it, down to :meth:`primary`."""

    def expr(self, depth: int) -> Any:
        """An expression: an arrow function, a conditional, or an operator expression."""
        pos = self.pos
        kinds = self.kinds
        params = self.arrow_params(pos)
        if params is not None:
            return self.arrow(params, depth)
        test = self.binary(depth, 0)
        q = self.pos
        if kinds[q] != "op" or self.values[q] != "?":
            return test
        self.pos = q + 1
        items: list[Any] = [test]
        spans = [(pos, q - 1)]
        start = self.pos
        items.append(self.expr(depth + 1))
        spans.append((start, self.pos - 1))
        if kinds[self.pos] != ":":
            raise self.unexpected(self.tok(self.pos), "`:` of the conditional `test ? a : b`")
        self.pos += 1
        start = self.pos
        items.append(self.expr(depth + 1))
        spans.append((start, self.pos - 1))
        self._record(items, spans)
        return {"$if": items}

    def arrow_params(self, pos: int) -> list[str] | None:
        """The parameters if an arrow function starts at token ``pos`` (``x =>``,
        ``(a, b) =>``, ``async x =>``), else None."""
        kinds, values = self.kinds, self.values
        if kinds[pos] == "name" and values[pos] == "async" and kinds[pos + 1] in ("name", "("):
            inner = self.arrow_params(pos + 1)
            if inner is not None:
                self.pos = pos + 1
            return inner
        if kinds[pos] == "name" and kinds[pos + 1] == "op" and values[pos + 1] == "=>":
            return [values[pos]]
        if kinds[pos] != "(":
            return None
        names: list[str] = []
        i = pos + 1
        while kinds[i] == "name":
            names.append(values[i])
            i += 1
            if kinds[i] == ",":
                i += 1
            elif kinds[i] != ")":
                return None
        if kinds[i] == ")" and kinds[i + 1] == "op" and values[i + 1] == "=>":
            return names
        if kinds[i] in ("{", "[") and self._closes_params(i):
            raise self.fail(
                "destructuring parameters are not supported",
                self.starts[i],
                "take the whole value and read its fields: x => x.price",
            )
        return None

    def _closes_params(self, i: int) -> bool:
        depth = 0
        kinds = self.kinds
        while kinds[i] != "eof":
            if kinds[i] in OPEN:
                depth += 1
            elif kinds[i] in CLOSE:
                depth -= 1
                if depth < 0:
                    return kinds[i] == ")" and kinds[i + 1] == "op" and self.values[i + 1] == "=>"
            i += 1
        return False

    def arrow(self, params: list[str], depth: int) -> Any:
        kinds, values = self.kinds, self.values
        pos = self.pos
        if kinds[pos] == "name" and values[pos] == "async":
            pos += 1
        first = pos
        # skip to after `=>`
        while not (kinds[pos] == "op" and values[pos] == "=>"):
            pos += 1
        for name in params:
            if name in RESERVED or name in LITERAL_WORDS:
                raise self.fail(f"`{name}` cannot be a parameter name", self.starts[first])
        if len(set(params)) != len(params):
            raise self.fail("an arrow function's parameters must differ", self.starts[first])
        self.pos = pos + 1
        start = self.pos
        body = self.block_body(depth + 1) if kinds[start] == "{" else self.expr(depth + 1)
        items: list[Any] = [params, body]
        self._record(items, [(first, pos - 1), (start, self.pos - 1)])
        return {"$fn": items}

    def block_body(self, depth: int) -> Any:
        """``{ const a = ...; return expr; }`` as ``{"$let": ..., "$return": expr}``."""
        kinds, values = self.kinds, self.values
        self.pos += 1  # `{`
        bindings: dict[str, Any] = {}
        result: Any = None
        done = False
        while True:
            pos = self.pos
            kind = kinds[pos]
            if kind == ";":
                self.pos += 1
                continue
            if kind == "}":
                self.pos += 1
                break
            if done:
                raise self.fail(
                    "statements after `return` in an arrow function's body",
                    self.starts[pos],
                    "end the body with `return expr;`",
                )
            word = values[pos] if kind == "name" else None
            if word in DECLARATORS and kinds[pos + 1] == "name" and kinds[pos + 2] == "=":
                name = values[pos + 1]
                if name in bindings:
                    raise self.fail(f"`{name}` is defined twice", self.starts[pos + 1])
                self.pos = pos + 3
                start = self.pos
                bindings[name] = self.expr(depth + 1)
                rec = self.rec
                if rec is not None:
                    rec[(id(bindings), name)] = (self.starts[start], self.ends[self.pos - 1])
                self.end_statement(f"definition of `{name}`")
            elif word == "return":
                self.pos = pos + 1
                result = self.expr(depth + 1)
                self.end_statement("`return` statement")
                done = True
            else:
                raise self.fail(
                    "an arrow function's body holds `const name = expr;` lines and one "
                    "`return expr;`",
                    self.starts[pos],
                    "compute values with expressions: x => { const p = x.price; return p * 2; }",
                )
        if not done:
            raise self.fail(
                "the arrow function's body has no `return`",
                self.starts[self.pos - 1],
                "end the body with `return expr;`",
            )
        if not bindings:
            return result
        return {"$let": bindings, "$return": result}

    def binary(self, depth: int, min_prec: int) -> Any:
        """Operators by precedence climbing (JavaScript's precedences)."""
        kinds, values = self.kinds, self.values
        first = self.pos
        left = self.unary(depth)
        while True:
            pos = self.pos
            kind = kinds[pos]
            op = values[pos] if kind == "op" else kind if kind in ("+", "-") else None
            prec = _PRECEDENCE.get(op) if op is not None else None
            if prec is None or prec < min_prec:
                return left
            assert op is not None
            if op == "**" and self._starts_unary(first, left):
                raise self.fail(
                    "a unary operator before `**` needs parentheses",
                    self.starts[first],
                    "write (-x) ** 2 or -(x ** 2)",
                )
            self.pos = pos + 1
            start = self.pos
            right = self.binary(depth + 1, prec if op == "**" else prec + 1)
            if op in _MIXING:
                for side in (left, right):
                    if type(side) is dict and "$op" in side and id(side) not in self.parened:
                        other = side["$op"][0]
                        if other in _MIXING and (other == "??") != (op == "??"):
                            raise self.fail(
                                f"`??` cannot be mixed with `{other if op == '??' else op}` "
                                "without parentheses",
                                self.starts[pos],
                                "add parentheses: (a || b) ?? c",
                            )
            items: list[Any] = [op, left, right]
            self._record(items, [(first, pos - 1), (start, self.pos - 1)], 1)
            left = {"$op": items}
            depth += 1

    def _starts_unary(self, first: int, node: Any) -> bool:
        if id(node) in self.parened:
            return False
        kind = self.kinds[first]
        return (
            kind in ("-", "+")
            or (kind == "op" and self.values[first] == "!")
            or (kind == "name" and self.values[first] == "await")
        )

    def unary(self, depth: int) -> Any:
        kinds, values = self.kinds, self.values
        pos = self.pos
        kind = kinds[pos]
        if kind == "name" and values[pos] == "await":
            self.pos = pos + 1  # a Plan awaits implicitly: `await` changes nothing
            return self.unary(depth + 1)
        op = values[pos] if kind == "op" and values[pos] == "!" else None
        if kind in ("-", "+") and kinds[pos + 1] != "num":
            op = kind
        if op is None:
            if kind == "name" and values[pos] in ("typeof", "void", "delete"):
                raise self.fail(
                    f"Plan has no `{values[pos]}`",
                    self.starts[pos],
                    "Array.isArray(x), x === null and x === undefined test a value's kind",
                )
            return self.primary(depth)
        self.pos = pos + 1
        start = self.pos
        operand = self.unary(depth + 1)
        items: list[Any] = [op, operand]
        self._record(items, [(start, self.pos - 1)], 1)
        return {"$op": items}
