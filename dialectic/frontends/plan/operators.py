"""Expressions with operators: conditionals, binary and unary operators, arrow functions."""

from __future__ import annotations

from typing import Any

from dialectic.frontends.plan.base import CLOSE, DECLARATORS, OPEN, POSTFIX, ParserBase
from dialectic.frontends.plan.keywords import LITERAL_WORDS, RESERVED
from dialectic.values.jsmethods import GLOBALS

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
#: tokens that make an expression by themselves, and the tokens that end an expression
_PLAIN = frozenset(["num", "str", "tpl", "name"])
_ENDS = frozenset([",", ")", "]", "}", ";", ":", "tplm", "tplt", "eof"])
#: names that start something else than a plain name (an arrow function, an operator)
_PREFIX_WORDS = frozenset(["async", "await", "typeof", "void", "delete"])
#: names that are not a plain reference when alone, or not a plain function call before `(`
_NOT_REF = _PREFIX_WORDS | LITERAL_WORDS | RESERVED
NOT_CALLEE = _NOT_REF | GLOBALS
_ARGUMENT_ENDS = frozenset([",", ")"])
#: tokens that start a primary expression that is not an arrow function
_OPENERS = frozenset(["{", "[", "tplh"])


class _Pattern:
    """A flat destructuring parameter: its tokens (``[`` / ``{`` to the closer) and, per name,
    the index or key it reads and its token."""

    __slots__ = ("start", "end", "parts")

    def __init__(self, start: int, end: int, parts: list[tuple[str, Any, int]]) -> None:
        self.start = start
        self.end = end
        self.parts = parts


class OperatorsMixin(ParserBase):
    """``expr`` and the operator levels below it, down to :meth:`primary`."""

    #: the destructured parameters of the arrow function whose parameters were just read
    _arrow_patterns: dict[str, _Pattern] = {}  # noqa: RUF012 (replaced, never changed)
    #: the names written in the program (made on first need: a hidden parameter avoids them)
    _source_names: set[str] | None = None

    def expr(self, depth: int) -> Any:
        """An expression: an arrow function, a conditional, or an operator expression."""
        pos = self.pos
        kinds = self.kinds
        kind = kinds[pos]
        # the fast paths: what `general_expr` makes of the most frequent expressions
        if kind in _PLAIN:
            nxt = kinds[pos + 1]
            raw = self.values[pos]
            fast = depth < self.max_depth  # (deeper: `primary` reports the depth)
            if fast and nxt in _ENDS:  # one token: `primary`'s cases
                if kind == "num":
                    if raw.isdigit() and len(raw) < 16 and (raw[0] != "0" or len(raw) == 1):
                        self.pos = pos + 1
                        return int(raw)
                elif kind == "str":
                    if "\\" not in raw:
                        self.pos = pos + 1
                        return raw[1:-1]
                elif kind == "tpl":
                    self.pos = pos + 1
                    return raw
                elif raw not in _NOT_REF:
                    self.pos = pos + 1
                    return {"$ref": raw}
            elif (
                fast and nxt == "(" and kind == "name" and raw not in NOT_CALLEE and raw[:1] != "$"
            ):
                return self._plain_call(raw, pos, depth)
            elif fast and nxt == "." and kind == "name" and raw not in _NOT_REF:
                node = self._plain_get(raw, pos)
                if node is not None:
                    return node
            if kind != "name" or (
                raw not in _PREFIX_WORDS and (nxt != "op" or self.values[pos + 1] != "=>")
            ):
                left = self.primary(depth)
                if kinds[self.pos] in _ENDS:
                    return left
                return self._operators(left, pos, depth)
        elif kind in _OPENERS:  # `binary` and `unary` would come to `primary`
            left = self.primary(depth)
            if kinds[self.pos] in _ENDS:
                return left
            return self._operators(left, pos, depth)
        return self.general_expr(depth)

    def general_expr(self, depth: int) -> Any:
        """:meth:`expr` without its fast paths (tests check that both make the same)."""
        pos = self.pos
        kinds = self.kinds
        kind = kinds[pos]
        if kind in _PLAIN:
            # a literal or a name (no arrow function, no prefix operator): its primary
            # expression (with calls and members after it) is the first operand, maybe all
            nxt = kinds[pos + 1]
            raw = self.values[pos]
            if kind != "name" or (
                raw not in _PREFIX_WORDS and (nxt != "op" or self.values[pos + 1] != "=>")
            ):
                left = self.primary(depth)
                if kinds[self.pos] in _ENDS:
                    return left
                return self._operators(left, pos, depth)
        params = self.arrow_params(pos)
        if params is not None:
            return self.arrow(params, depth)
        test = self.binary(depth, 0)
        q = self.pos
        if kinds[q] != "op" or self.values[q] != "?":
            return test
        return self._conditional(test, pos, depth)

    def _plain_get(self, name: str, pos: int) -> Any:
        """The expression ``name.a.b`` (from token ``pos``) when nothing follows it: what
        :meth:`primary` and :meth:`postfix` make of it (a ``$get``); else None."""
        kinds = self.kinds
        values = self.values
        end = pos + 1
        while kinds[end] == "." and kinds[end + 1] == "name":
            end += 2
        if kinds[end] not in _ENDS:
            return None
        keys: list[Any] = [{"$ref": name}, *values[pos + 2 : end : 2]]
        rec = self.rec
        if rec is not None:
            starts, ends = self.starts, self.ends
            rec[(id(keys), 0)] = (starts[pos], ends[pos])
            for i, at in enumerate(range(pos + 2, end, 2), 1):
                rec[(id(keys), i)] = (starts[at], ends[at])
        self.pos = end
        return {"$get": keys}

    def _plain_call(self, fn: str, pos: int, depth: int) -> Any:
        """The expression that starts with the call ``fn(...)`` of a plain function name
        (token ``pos``): what :meth:`primary`, :meth:`postfix` and :meth:`_call` make of it,
        without their general cases."""
        kinds = self.kinds
        values = self.values
        rec = self.rec
        args: list[Any] = []
        inner = depth + 2  # the depth of an argument (`arguments`)
        literals = inner < self.max_depth
        first = pos
        pos += 2
        while True:  # `arguments`, with literal arguments (number, string) read here
            kind = kinds[pos]
            if kind == ")":
                break
            raw = values[pos]
            start = pos
            if (
                literals
                and (
                    (
                        kind == "num"
                        and raw.isdigit()
                        and len(raw) < 16
                        and (raw[0] != "0" or len(raw) == 1)
                    )
                    or (kind == "str" and "\\" not in raw)
                )
                and kinds[pos + 1] in _ARGUMENT_ENDS
            ):
                args.append(int(raw) if kind == "num" else raw[1:-1])
                pos += 1
            else:
                self.pos = pos
                args.append(
                    self.spread_or_expr(inner)
                    if kind == "op" and raw == "..."
                    else self.expr(inner)
                )
                pos = self.pos
            if rec is not None:
                rec[(id(args), len(args) - 1)] = (self.starts[start], self.ends[pos - 1])
            kind = kinds[pos]
            if kind == ",":
                pos += 1
            elif kind != ")":
                self.pos = pos
                raise self.unexpected(self.tok(pos), "`,` or `)` in the argument list")
        self.pos = pos = pos + 1
        left: Any = {fn: args}
        nxt = kinds[pos]
        if nxt in _ENDS:
            return left
        if nxt in POSTFIX or (nxt == "op" and values[pos] == "?."):
            left = self.postfix(left, first, None, depth + 1)
            if kinds[self.pos] in _ENDS:
                return left
        return self._operators(left, first, depth)

    def _operators(self, left: Any, pos: int, depth: int) -> Any:
        """The rest of an expression whose first operand ``left`` (from token ``pos``) is
        parsed: binary operators, then a conditional."""
        test = self.binary(depth, 0, pos, left)
        q = self.pos
        kinds = self.kinds
        if kinds[q] != "op" or self.values[q] != "?":
            return test
        return self._conditional(test, pos, depth)

    def _conditional(self, test: Any, pos: int, depth: int) -> Any:
        """The conditional ``test ? a : b`` whose ``test`` starts at token ``pos`` (the
        current token is the ``?``)."""
        kinds = self.kinds
        q = self.pos
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
        patterns: dict[str, _Pattern] = {}
        i = pos + 1
        while kinds[i] == "name" or kinds[i] in ("[", "{"):
            if kinds[i] == "name":
                names.append(values[i])
                i += 1
            else:
                found = self._flat_pattern(i)
                if found is None:
                    break
                hidden = self._hidden_param(len(patterns))
                names.append(hidden)
                patterns[hidden] = found
                i = found.end + 1
            if kinds[i] == ",":
                i += 1
            elif kinds[i] != ")":
                break
        if kinds[i] == ")" and kinds[i + 1] == "op" and values[i + 1] == "=>":
            self._arrow_patterns = patterns
            return names
        if kinds[i] in ("{", "[") and self._closes_params(i):
            raise self.fail(
                "only flat destructuring parameters are supported: ([k, v]) => ..., "
                "({name, price: p}) => ...",
                self.starts[i],
                "no nesting, defaults or rest in a parameter: take the whole value and read "
                "its parts: x => x.a.b",
            )
        return None

    def _flat_pattern(self, i: int) -> _Pattern | None:
        """``[a, b]`` or ``{a, b: c}`` at token ``i`` (names only; a trailing comma allowed):
        its names with the index or key each reads, or None."""
        kinds, values = self.kinds, self.values
        closer = "]" if kinds[i] == "[" else "}"
        parts: list[tuple[str, Any, int]] = []
        j = i + 1
        while kinds[j] == "name":
            key: Any = len(parts) if closer == "]" else values[j]
            at = j
            if closer == "}" and kinds[j + 1] == ":":
                if kinds[j + 2] != "name":
                    return None
                at = j + 2
                j += 2
            parts.append((values[at], key, at))
            j += 1
            if kinds[j] == ",":
                j += 1
            elif kinds[j] != closer:
                return None
        if kinds[j] != closer or not parts:
            return None
        return _Pattern(i, j, parts)

    def _hidden_param(self, n: int) -> str:
        """A parameter name for a destructured one: written nowhere in the program."""
        names = self._source_names
        if names is None:
            names = self._source_names = {
                v for k, v in zip(self.kinds, self.values, strict=True) if k == "name"
            }
        while True:
            n += 1
            name = f"_arg{n}"
            if name not in names:
                names.add(name)
                return name

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
        patterns, self._arrow_patterns = self._arrow_patterns, {}
        written = [p for p in params if p not in patterns]
        written += [name for pat in patterns.values() for name, _, _ in pat.parts]
        for name in written:
            if name in RESERVED or name in LITERAL_WORDS:
                raise self.fail(f"`{name}` cannot be a parameter name", self.starts[first])
        if len(set(written)) != len(written):
            raise self.fail("an arrow function's parameters must differ", self.starts[first])
        self.pos = pos + 1
        start = self.pos
        body = self.block_body(depth + 1) if kinds[start] == "{" else self.expr(depth + 1)
        if patterns:
            body = self._destructured(patterns, body)
        items: list[Any] = [params, body]
        self._record(items, [(first, pos - 1), (start, self.pos - 1)])
        return {"$fn": items}

    def _destructured(self, patterns: dict[str, _Pattern], body: Any) -> Any:
        """The body with an alias per destructured name, reading its part of the argument
        (``([k, v]) => e`` is ``(p) => { const k = p[0]; const v = p[1]; return e; }``)."""
        bindings: dict[str, Any] = {}
        rec = self.rec
        for hidden, pat in patterns.items():
            for name, key, at in pat.parts:
                read = {"$get": [{"$ref": hidden}, key]}
                if rec is not None:
                    rec[(id(read["$get"]), 0)] = (self.starts[pat.start], self.ends[pat.end])
                    rec[(id(read["$get"]), 1)] = (self.starts[at], self.ends[at])
                bindings[name] = read
        if type(body) is dict and set(body) == {"$let", "$return"}:
            inner = body["$let"]
            for name in inner:
                if name in bindings:
                    raise self.fail(
                        f"`{name}` is a parameter and a `const` of the arrow function's body",
                        self.starts[patterns[next(iter(patterns))].start],
                        "give the `const` another name",
                    )
            bindings.update(inner)
            return {"$let": bindings, "$return": body["$return"]}
        return {"$let": bindings, "$return": body}

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

    def binary(self, depth: int, min_prec: int, first: int = -1, left: Any = None) -> Any:
        """Operators by precedence climbing (JavaScript's precedences). ``first``, ``left``:
        the first operand when it is already parsed (from token ``first``)."""
        kinds, values = self.kinds, self.values
        if first < 0:
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
            or (kind == "name" and self.values[first] in ("await", "typeof"))
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
        if kind == "name" and values[pos] == "typeof":
            op = "typeof"
        if op is None:
            if kind == "name" and values[pos] in ("void", "delete"):
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
