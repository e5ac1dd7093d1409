"""Recursive-descent parser: Plan tokens -> the canonical call tree (SPEC.md section 1).

Every expression function leaves ``self.pos`` after the expression; the caller knows the span
(start of the first token, end of the last consumed token) and records it against the container
and key where it stores the value (``record[(id(container), key)]``). After parsing, one walk over
the tree turns that record into path-keyed spans (see :mod:`.spans`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, overload

from dialectic.frontends.plan.jsnumber import js_number_to_string
from dialectic.frontends.plan.keywords import LITERAL_WORDS, RESERVED, keyword_hint
from dialectic.frontends.plan.lexer import (
    LINE_TERMINATORS,
    Lexed,
    LexError,
    Token,
    cook,
    number_value,
)
from dialectic.frontends.plan.spans import LineIndex, SpanRecord
from dialectic.outcome.errors import JSONPath
from dialectic.values.jsmethods import ALL_METHODS, GLOBALS

__all__ = ["Parser", "ParseFailure", "Problem", "op_hint"]

Problem = tuple[str, int, str | None]  # message, offset, hint

_OPEN = frozenset(["(", "[", "{", "tplh"])
_CLOSE = frozenset([")", "]", "}", "tplt"])
_DECLARATORS = frozenset(["const", "let", "var"])
_POSTFIX = frozenset([".", "[", "("])
_MAX_PROBLEMS = 20

_OP_HINTS = {
    "=": "aliases are declared one per statement, `name = expr;`, and never change",
    "=>": "an arrow function can only be the argument of an array method: xs.map(x => x.a)",
    "?.": "only `x?.name` and `x?.[key]` are supported",
    "...": "spread is allowed in arrays, objects and arguments: [...xs, 1], {...a}, f(...xs)",
}
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
_CHANGES = frozenset(["++", "--", "+=", "-=", "*=", "/=", "%=", "**=", "&&=", "||=", "??="])
_BITWISE = frozenset(["&", "|", "^", "~", "<<", ">>", ">>>", "&=", "|=", "^=", "<<=", ">>="])


def op_hint(op: str) -> str:
    """The hint for a JavaScript operator that Plan does not have (or not there)."""
    if op in _OP_HINTS:
        return _OP_HINTS[op]
    if op in _CHANGES:
        return "values never change in Plan: compute a new one, e.g. `next = x + 1;`"
    if op in _BITWISE:
        return "Plan has no bitwise operators; use arithmetic (+ - * / %) and comparisons"
    return "Plan has the operators + - * / % ** === !== == != < <= > >= && || ?? ! and `? :`"


class ParseFailure(Exception):
    """A syntax problem at ``offset``; ``fatal`` stops parsing (no resynchronization)."""

    def __init__(self, message: str, offset: int, hint: str | None, fatal: bool = False) -> None:
        super().__init__(message)
        self.problem: Problem = (message, offset, hint)
        self.fatal = fatal


def describe(tok: Token) -> str:
    kind = tok[0]
    if kind == "name":
        return f"`{tok[1]}`"
    if kind == "num":
        return f"the number {tok[1]}"
    if kind == "str":
        return "a string"
    if kind in ("tpl", "tplh"):
        return "a template literal"
    if kind in ("tplm", "tplt"):
        return "`}`"
    if kind == "eof":
        return "the end of the program"
    if kind == "err":
        return "an invalid token"
    return f"`{tok[1]}`"


class _LazyOffsets(Sequence[int]):
    """The token starts (``which=0``) or ends (``1``), worked out by the lexer on first use."""

    __slots__ = ("_tokens", "_which")

    def __init__(self, tokens: Lexed, which: int) -> None:
        self._tokens = tokens
        self._which = which

    @overload
    def __getitem__(self, i: int) -> int: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[int]: ...

    def __getitem__(self, i: int | slice) -> int | Sequence[int]:
        return self._tokens.offsets()[self._which][i]

    def __len__(self) -> int:
        return len(self._tokens.kinds)


class Parser:
    """Parses one token list; see :func:`parse_program` and :func:`parse_expression`.

    The token offsets (``starts``, ``ends``) are only read when recording spans or reporting a
    problem; when not recording, the lexer works them out on first use.
    """

    def __init__(
        self,
        source: str,
        tokens: Lexed,
        index: LineIndex,
        *,
        strict: bool,
        max_depth: int,
        record: bool = True,
    ) -> None:
        self.source = source
        self.tokens = tokens
        self.kinds = tokens.kinds
        self.values = tokens.values
        self.starts: Sequence[int]
        self.ends: Sequence[int]
        if record:
            self.starts, self.ends = tokens.offsets()
        else:
            self.starts, self.ends = _LazyOffsets(tokens, 0), _LazyOffsets(tokens, 1)
        self.index = index
        self.strict = strict
        self.max_depth = max_depth
        self.pos = 0
        self.rec: SpanRecord | None = {} if record else None
        self.extra: dict[JSONPath, tuple[int, int]] = {}
        self.keep: list[Any] = []  # containers dropped while parsing: their ids stay unique
        self.problems: list[Problem] = []
        self.warnings: list[str] = []
        #: ids of operator expressions written in parentheses (`(a || b) ?? c`, `(-x) ** 2`)
        self.parened: set[int] = set()

    # -- helpers -------------------------------------------------------------------------------

    def tok(self, i: int) -> Token:
        """Token ``i`` as a tuple ``(kind, value, start, end)``."""
        return (self.kinds[i], self.values[i], self.starts[i], self.ends[i])

    def fail(self, message: str, offset: int, hint: str | None = None) -> ParseFailure:
        return ParseFailure(message, offset, hint)

    def warn(self, offset: int, message: str) -> None:
        self.warnings.append(f"{self.index.where(offset)}: {message}")

    def unexpected(self, tok: Token, expected: str) -> ParseFailure:
        kind = tok[0]
        if kind == "err":
            message, hint = tok[1]
            return self.fail(message, tok[2], hint)
        if (
            kind == "="
            and self.pos > 0
            and self.kinds[self.pos - 1] == "name"
            and (self.newline_before(self.pos - 1))
        ):
            name = self.tok(self.pos - 1)
            return self.fail(
                f"expected {expected}, found the start of a new statement `{name[1]} = ...`",
                name[2],
                "the statement before this line is unfinished: check for a missing "
                "`)`, `]`, `}` or `;`",
            )
        if kind in ("op", "+", "-", "="):
            return self.fail(
                f"Plan has no operator `{tok[1]}` (expected {expected})", tok[2], op_hint(tok[1])
            )
        if kind == "name" and tok[1] in RESERVED:
            return self.fail(
                f"expected {expected}, found the keyword `{tok[1]}`", tok[2], keyword_hint(tok[1])
            )
        hint = None
        if kind == ",":
            hint = "remove the extra comma"
        elif kind == ")" or kind == "]" or kind == "}":
            if self.pos and self.kinds[self.pos - 1] == ",":
                hint = "remove the extra comma"
            else:
                hint = "check that brackets are balanced"
        elif kind in ("name", "str", "num", "tpl", "tplh"):
            hint = "separate arguments and elements with `,` and end statements with `;`"
        elif kind == "eof":
            hint = "the program ended early: check that brackets, quotes and templates are closed"
        return self.fail(f"expected {expected}, found {describe(tok)}", tok[2], hint)

    def string(self, i: int) -> str:
        """The value of string token ``i``."""
        try:
            return cook(self.values[i][1:-1], False)
        except LexError as e:
            raise self.fail(e.message, self.starts[i] + 1 + e.offset, e.hint)

    def number(self, i: int) -> int | float:
        """The value of number token ``i``."""
        try:
            return number_value(self.values[i])
        except LexError as e:
            raise self.fail(e.message, self.starts[i] + e.offset, e.hint)

    def newline_before(self, i: int) -> bool:
        """Whether a line break separates token ``i`` from the token before it."""
        if i == 0:
            return False
        return LINE_TERMINATORS.search(self.tokens.gap(i)) is not None

    # -- expressions ---------------------------------------------------------------------------

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

    def _record(self, items: list[Any], spans: list[tuple[int, int]], offset: int = 0) -> None:
        rec = self.rec
        if rec is not None:
            for i, (a, b) in enumerate(spans):
                rec[(id(items), i + offset)] = (self.starts[a], self.ends[b])

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
            if kinds[i] in _OPEN:
                depth += 1
            elif kinds[i] in _CLOSE:
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
            if word in _DECLARATORS and kinds[pos + 1] == "name" and kinds[pos + 2] == "=":
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

    def primary(self, depth: int) -> Any:
        pos = self.pos
        if depth > self.max_depth:
            raise ParseFailure(
                f"the program is nested more than {self.max_depth} levels deep",
                self.starts[pos],
                "bind inner parts to aliases (`part = f(x);`) to flatten it",
                fatal=True,
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
            elif word in RESERVED:
                self.pos = pos
                raise self.fail(
                    f"Plan has no `{word}`"
                    if word not in _DECLARATORS
                    else f"`{word}` can only start an alias definition",
                    self.starts[pos],
                    keyword_hint(word),
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
        elif kind == "tpl":
            node = self.values[pos]
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
        elif kind == "err":
            self.pos = pos
            message, hint = self.values[pos]
            raise self.fail(message, self.starts[pos], hint)
        else:
            self.pos = pos
            raise self.unexpected(self.tok(pos), "an expression")
        # postfix: member access, index, call
        nxt = kinds[self.pos]
        if nxt not in _POSTFIX and not (nxt == "op" and self.values[self.pos] == "?."):
            return node
        return self.postfix(node, pos, callee, depth)

    def postfix(self, node: Any, first: int, callee: str | None, depth: int) -> Any:
        """Member accesses, indexes and calls after the expression that starts at token
        ``first`` (``node``; ``callee`` is its name if it is a plain name)."""
        kinds = self.kinds
        values = self.values
        keys: list[Any] | None = None  # the list of the `$get` being extended
        method_last = -1  # last token of the target before the last `.name` (a method call)
        rec = self.rec
        while True:
            pos = self.pos
            kind = kinds[pos]
            if kind == "op" and values[pos] == "?.":
                # `a?.b...`: the chain so far is the target of a `$get?`
                nxt = kinds[pos + 1]
                if nxt != "name" and nxt != "[":
                    raise self.fail(
                        "only `?.name` and `?.[key]` are supported",
                        self.starts[pos],
                        "call methods on a value that is there: (x ?? []).map(...)",
                    )
                target = node
                keys = [target]
                if rec is not None:
                    rec[(id(keys), 0)] = (self.starts[first], self.ends[pos - 1])
                node = {"$get?": keys}
                if nxt == "name":
                    if rec is not None:
                        rec[(id(keys), 1)] = (self.starts[pos + 1], self.ends[pos + 1])
                    keys.append(values[pos + 1])
                    self.pos = pos + 2
                    method_last = pos - 1 if kinds[pos + 2] == "(" else -1
                    if method_last >= 0:
                        raise self.fail(
                            "`?.` before a method call is not supported",
                            self.starts[pos],
                            "give a default first: (x ?? []).map(...)",
                        )
                else:
                    self.pos = pos + 2
                    key = self.expr(depth + 1)
                    if rec is not None:
                        rec[(id(keys), 1)] = (self.starts[pos + 2], self.ends[self.pos - 1])
                    keys.append(key)
                    if kinds[self.pos] != "]":
                        raise self.unexpected(self.tok(self.pos), "`]`")
                    self.pos += 1
                    method_last = -1
                callee = None
                continue
            if kind == ".":
                if kinds[pos + 1] != "name":
                    raise self.unexpected(self.tok(pos + 1), "a property name after `.`")
                if keys is None:
                    keys = self.start_get(node, first, pos - 1)
                    node = {"$get": keys} if keys[0] is node else node
                method_last = pos - 1
                if rec is not None:
                    rec[(id(keys), len(keys))] = (self.starts[pos + 1], self.ends[pos + 1])
                keys.append(values[pos + 1])
                self.pos = pos + 2
                callee = None
            elif kind == "[":
                self.pos = pos + 1
                if keys is None:
                    keys = self.start_get(node, first, pos - 1)
                    node = {"$get": keys} if keys[0] is node else node
                key = self.expr(depth + 1)
                if rec is not None:
                    rec[(id(keys), len(keys))] = (self.starts[pos + 1], self.ends[self.pos - 1])
                keys.append(key)
                if kinds[self.pos] != "]":
                    raise self.unexpected(self.tok(self.pos), "`]`")
                self.pos += 1
                method_last = -1
                callee = None
            elif kind == "(":
                if callee is not None:
                    if callee in LITERAL_WORDS:
                        raise self.fail(f"`{callee}` is not a function", self.starts[first])
                    args: list[Any] = []
                    fn = callee
                elif method_last >= 0 and keys is not None:
                    fn = keys.pop()
                    args = []
                    if len(keys) == 1:
                        receiver = keys[0]
                        if rec is not None:
                            rec[(id(args), 0)] = rec[(id(keys), 0)]
                        self.keep.append(keys)
                    else:
                        receiver = node
                        if rec is not None:
                            rec[(id(args), 0)] = (self.starts[first], self.ends[method_last])
                    args.append(receiver)
                else:
                    raise self.fail(
                        "only a function name or a method can be called",
                        self.starts[pos],
                        "functions are not values in Plan: call a function by its name, "
                        "`f(x)`, or as a method, `x.f()`",
                    )
                if fn[:1] == "$":
                    raise self.fail(
                        f"a function name cannot start with `$` (`{fn}`)",
                        self.starts[pos],
                        "in the call tree, keys starting with `$` are core forms such as $ref",
                    )
                # a call wraps the expression before it: a method chain nests as deeply as
                # calls written inside each other (`a.f().g()` is `g(f(a))`)
                depth += 1
                if depth > self.max_depth:
                    raise ParseFailure(
                        f"the program is nested more than {self.max_depth} levels deep (a "
                        "chain of method calls counts one level per call)",
                        self.starts[pos],
                        "bind parts of the chain to aliases (`part = x.f().g();`) to flatten it",
                        fatal=True,
                    )
                self.pos = pos + 1
                self.arguments(args, depth)
                node = self.call_form(fn, args, callee is not None)
                keys = None
                callee = None
                method_last = -1
            else:
                return node

    def call_form(self, fn: str, args: list[Any], plain: bool) -> Any:
        """The tree of a call: ``f(a)`` is ``{"f": [a]}``; ``x.m(a)`` is a JavaScript method
        (``$method``) when ``m`` is one, else the call ``m(x, a)``; ``Math.max(a)``,
        ``Number(x)`` and their kin are ``$global``; ``Promise.all(xs)`` is ``xs``."""
        if plain:
            if fn in GLOBALS and "." not in fn:
                return {"$global": self._moved(args, [fn], 0)}
            return {fn: args}
        receiver = args[0]
        if type(receiver) is dict and len(receiver) == 1 and "$ref" in receiver:
            space = receiver["$ref"]
            if space == "Promise" and fn in ("all", "allSettled") and len(args) == 2:
                return args[1]  # calls run concurrently anyway; the result is the list
            if f"{space}.{fn}" in GLOBALS:
                return {"$global": self._moved(args, [f"{space}.{fn}"], 1)}
        if fn in ALL_METHODS:
            out = self._moved(args, [receiver, fn], 1)
            rec = self.rec
            if rec is not None and (id(args), 0) in rec:
                rec[(id(out), 0)] = rec[(id(args), 0)]
            return {"$method": out}
        return {fn: args}

    def _moved(self, args: list[Any], head: list[Any], skip: int) -> list[Any]:
        """``head + args[skip:]``, with the spans of the moved arguments."""
        out = [*head, *args[skip:]]
        rec = self.rec
        if rec is not None:
            shift = len(head) - skip
            for i in range(skip, len(args)):
                span = rec.get((id(args), i))
                if span is not None:
                    rec[(id(out), i + shift)] = span
            self.keep.append(args)
        return out

    def start_get(self, node: Any, first: int, last: int) -> list[Any]:
        """The key list to extend: that of ``node`` if it is a ``$get`` (``(a.b).c``); else a new
        one for ``node``, which spans tokens ``first`` to ``last``."""
        if type(node) is dict and "$get" in node:
            keys: list[Any] = node["$get"]
            return keys
        keys = [node]
        rec = self.rec
        if rec is not None:
            rec[(id(keys), 0)] = (self.starts[first], self.ends[last])
        return keys

    def arguments(self, args: list[Any], depth: int) -> None:
        """Parse ``a, b)`` (after the ``(``) into ``args``."""
        kinds = self.kinds
        rec = self.rec
        depth += 1
        while True:
            pos = self.pos
            kind = kinds[pos]
            if kind == ")":
                self.pos = pos + 1
                return
            value = self.spread_or_expr(depth)
            if rec is not None:
                rec[(id(args), len(args))] = (self.starts[pos], self.ends[self.pos - 1])
            args.append(value)
            kind = kinds[self.pos]
            if kind == ",":
                self.pos += 1
            elif kind != ")":
                raise self.unexpected(self.tok(self.pos), "`,` or `)` in the argument list")

    def spread_or_expr(self, depth: int) -> Any:
        """An element or argument: ``...xs`` (``$spread``) or an expression."""
        pos = self.pos
        if self.kinds[pos] == "op" and self.values[pos] == "...":
            self.pos = pos + 1
            value = self.expr(depth + 1)
            rec = self.rec
            out = {"$spread": value}
            if rec is not None:
                rec[(id(out), "$spread")] = (self.starts[pos + 1], self.ends[self.pos - 1])
            return out
        return self.expr(depth)

    def array(self, depth: int) -> list[Any]:
        kinds = self.kinds
        rec = self.rec
        items: list[Any] = []
        depth += 1
        while True:
            pos = self.pos
            kind = kinds[pos]
            if kind == "]":
                self.pos = pos + 1
                return items
            if kind == ",":
                raise self.fail(
                    "empty array element",
                    self.starts[pos],
                    "write null for a missing value, or remove the extra comma",
                )
            value = self.spread_or_expr(depth)
            if rec is not None:
                rec[(id(items), len(items))] = (self.starts[pos], self.ends[self.pos - 1])
            items.append(value)
            kind = kinds[self.pos]
            if kind == ",":
                self.pos += 1
            elif kind != "]":
                raise self.unexpected(self.tok(self.pos), "`,` or `]` in the array")

    def obj(self, depth: int) -> Any:
        kinds = self.kinds
        values = self.values
        rec = self.rec
        out: dict[str, Any] = {}
        first_seen: dict[str, int] = {}  # key -> token index
        dollar = False
        parts: list[Any] = []  # with spreads: objects and spread values, in order
        depth += 1
        while True:
            pos = self.pos
            kind = kinds[pos]
            if kind == "}":
                self.pos = pos + 1
                break
            if kind == "name":
                key = values[pos]
            elif kind == "str":
                key = self.string(pos)
            elif kind == "num":
                key = js_number_to_string(self.number(pos))
            elif kind == "[":
                raise self.fail(
                    "computed keys ([expr]: value) are not supported",
                    self.starts[pos],
                    "write the key literally: {key: value} or {'some key': value}",
                )
            elif kind == "op" and values[pos] == "...":
                self.pos = pos + 1
                spread = self.expr(depth)
                if out:
                    parts.append(self._object_part(out, dollar))
                    out = {}
                    first_seen = {}
                    dollar = False
                if rec is not None:
                    rec[(id(parts), len(parts))] = (self.starts[pos + 1], self.ends[self.pos - 1])
                parts.append(spread)
                kind = kinds[self.pos]
                if kind == ",":
                    self.pos += 1
                elif kind != "}":
                    raise self.unexpected(self.tok(self.pos), "`,` or `}` in the object literal")
                continue
            else:
                raise self.unexpected(self.tok(pos), "a property name or `}`")
            if key in first_seen:
                raise self.fail(
                    f"duplicate key `{key}` in the object literal (first at "
                    f"{self.index.where(self.starts[first_seen[key]])})",
                    self.starts[pos],
                    "each key may appear only once",
                )
            first_seen[key] = pos
            if key[:1] == "$":
                dollar = True
            nxt = kinds[pos + 1]
            if nxt == ":":
                self.pos = pos + 2
                value = self.expr(depth)
                if rec is not None:
                    rec[(id(out), key)] = (self.starts[pos + 2], self.ends[self.pos - 1])
            elif kind == "name" and (nxt == "," or nxt == "}"):
                self.pos = pos + 1
                if key in RESERVED or key == "this":
                    raise self.fail(
                        f"`{key}` cannot be a shorthand property",
                        self.starts[pos],
                        f"write it in full: {{{key}: value}}",
                    )
                value = {"$undefined": None} if key == "undefined" else {"$ref": key}
                if rec is not None:
                    rec[(id(out), key)] = (self.starts[pos], self.ends[pos])
            elif nxt == "(":
                self.pos = pos + 1
                raise self.fail(
                    "Plan has no methods in object literals",
                    self.starts[pos + 1],
                    "write key: value pairs",
                )
            elif nxt == "=":
                self.pos = pos + 1
                raise self.fail(
                    "expected `:` after the property name, found `=`",
                    self.starts[pos + 1],
                    "object literals are written {key: value}",
                )
            else:
                self.pos = pos + 1
                raise self.unexpected(self.tok(pos + 1), "`:` after the property name")
            out[key] = value
            kind = kinds[self.pos]
            if kind == ",":
                self.pos += 1
            elif kind != "}":
                raise self.unexpected(self.tok(self.pos), "`,` or `}` in the object literal")
        if parts:
            if out:
                parts.append(self._object_part(out, dollar))
            return {"$merge": parts}
        return self._object_part(out, dollar)

    def _object_part(self, out: dict[str, Any], dollar: bool) -> Any:
        if len(out) == 1 or dollar:
            return {"$object": out}
        return out

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
        while True:
            pos = self.pos
            kind = kinds[pos]
            if kind == "tplm" or kind == "tplt":
                raise self.fail(
                    "empty substitution ${}", self.starts[pos], "put an expression in ${...}"
                )
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
                        rec[(id(parts), len(parts))] = (text_start or 0, text_end)
                    parts.append(text)
                if rec is not None:
                    rec[(id(parts), len(parts))] = (self.starts[pos], self.ends[self.pos - 1])
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
                rec[(id(parts), len(parts))] = (text_start or 0, text_end)
            parts.append(text)
        if not parts:
            return ""
        if len(parts) == 1 and type(parts[0]) is str:
            return parts[0]
        return {"$template": parts}

    # -- statements ----------------------------------------------------------------------------

    def end_statement(self, what: str) -> None:
        """Consume the `;` ending a statement (lenient: insert it at a line end or the end)."""
        pos = self.pos
        kind = self.kinds[pos]
        if kind == ";":
            self.pos = pos + 1
            return
        if not self.strict and (kind == "eof" or self.newline_before(pos)):
            self.warn(self.ends[pos - 1], f"added the missing `;` after the {what}")
            return
        if kind == "eof" or self.newline_before(pos):
            raise self.fail(
                f"missing `;` after the {what}", self.ends[pos - 1], "end each statement with `;`"
            )
        raise self.unexpected(self.tok(pos), f"`;` after the {what}")

    def at_end(self) -> bool:
        """Whether only empty statements remain."""
        i = self.pos
        while self.kinds[i] == ";":
            i += 1
        return self.kinds[i] == "eof"

    def resync(self, first: int, failed: int) -> None:
        """Skip the rest of the statement that started at token ``first`` (error at ``failed``):
        to just after a `;` outside brackets, or to a line that starts a new statement."""
        depth = 0
        i = first
        while True:
            tok = self.tok(i)
            kind = tok[0]
            if kind == "eof":
                break
            if i > first and self.newline_before(i) and self.starts_statement(i):
                break
            if i >= failed and kind == ";" and depth <= 0:
                i += 1
                break
            if kind in _OPEN:
                depth += 1
            elif kind in _CLOSE:
                depth -= 1
            i += 1
        self.pos = max(i, first + 1) if self.kinds[first] != "eof" else first

    def starts_statement(self, i: int) -> bool:
        tok = self.tok(i)
        if tok[0] != "name":
            return False
        if tok[1] in ("return", "use", "const", "let", "var"):
            return True
        return self.kinds[i + 1] == "="

    def program(self) -> Any:
        kinds = self.kinds
        values = self.values
        aliases: dict[str, Any] = {}
        alias_at: dict[str, int] = {}  # name -> token index
        # name, name token, first and last token of the value, last token of the statement
        alias_rec: list[tuple[str, int, int, int, int]] = []
        final: tuple[str, Any, int, int] | None = None  # key, value, first and last token
        after_final_reported = False
        while True:
            pos = self.pos
            kind = kinds[pos]
            if kind == "eof":
                break
            if kind == ";":
                self.pos = pos + 1
                continue
            first = pos
            try:
                if final is not None and not after_final_reported:
                    after_final_reported = True
                    self.problems.append(
                        (
                            f"statements after `{final[0][1:]}` are not allowed",
                            self.starts[pos],
                            f"`{final[0][1:]} expr;` must be the last statement; move alias "
                            "definitions before it",
                        )
                    )
                word = values[pos] if kind == "name" else None
                if word in _DECLARATORS and kinds[pos + 1] == "name":
                    # `const a = f();` is JavaScript: the alias `a` (declared or not, an alias
                    # is bound once and never changes)
                    pos += 1
                    self.pos = pos
                    word = values[pos]
                    if kinds[pos + 1] != "=":
                        raise self.unexpected(self.tok(pos + 1), f"`=` after `{word}`")
                if word == "return" or (word == "use" and kinds[pos + 1] != "="):
                    assert word is not None
                    pos += 1
                    self.pos = pos
                    if kinds[pos] != ";" and self.newline_before(pos):
                        if self.strict:
                            raise self.fail(
                                f"the value must start on the same line as `{word}`",
                                self.starts[pos],
                                f"JavaScript ends the statement at the line break; write "
                                f"`{word} expr;` on one line",
                            )
                        self.warn(
                            self.starts[pos], f"joined the value on the next line to `{word}`"
                        )
                    value = self.expr(0)
                    last = self.pos - 1
                    self.end_statement(f"`{word}` statement")
                    if final is None:
                        final = ("$" + word, value, pos, last)
                elif word is not None and kinds[pos + 1] == "=":
                    if word in RESERVED or word in ("this", "undefined"):
                        raise self.fail(
                            f"`{word}` cannot be an alias name",
                            self.starts[pos],
                            "choose another name" if word not in RESERVED else keyword_hint(word),
                        )
                    self.pos = pos + 2
                    value = self.expr(0)
                    last = self.pos - 1
                    self.end_statement(f"definition of `{word}`")
                    if word in alias_at:
                        self.problems.append(
                            (
                                f"the alias `{word}` is defined twice ("
                                f"{self.index.where(self.starts[alias_at[word]])} and "
                                f"{self.index.where(self.starts[pos])})",
                                self.starts[pos],
                                "give each alias its own name; aliases are not variables and "
                                "cannot be reassigned",
                            )
                        )
                        continue
                    aliases[word] = value
                    alias_at[word] = pos
                    alias_rec.append((word, pos, pos + 2, last, self.pos - 1))
                else:
                    value = self.expr(0)
                    last = self.pos - 1
                    self.end_statement("expression")
                    if not self.at_end():
                        self.problems.append(
                            (
                                "the value of this expression is not used",
                                self.starts[pos],
                                "bind it to an alias (`name = expr;`) or make it the final "
                                "`return expr;`",
                            )
                        )
                    elif self.strict:
                        self.problems.append(
                            (
                                "missing `return` before the final expression",
                                self.starts[pos],
                                "write `return expr;`",
                            )
                        )
                    elif final is None:
                        self.warn(self.starts[pos], "added `return` before the final expression")
                        final = ("$return", value, pos, last)
            except ParseFailure as failure:
                self.problems.append(failure.problem)
                if failure.fatal or len(self.problems) >= _MAX_PROBLEMS:
                    break
                self.resync(first, self.pos)
        if final is None and not self.problems:
            self.problems.append(
                (
                    "the program has no `return` statement",
                    self.starts[-1],
                    "end the program with `return expr;` (or `use expr;`)",
                )
            )
        if self.problems:
            return None
        assert final is not None
        rec = self.rec
        tree: dict[str, Any] = {}
        if aliases:
            tree["$let"] = aliases
            if rec is not None:
                starts, ends = self.starts, self.ends
                rec[(id(tree), "$let")] = (starts[alias_rec[0][1]], ends[alias_rec[-1][4]])
                for name, at, start, end, _ in alias_rec:
                    self.extra[("$let", name, "$name")] = (starts[at], ends[at])
                    rec[(id(aliases), name)] = (starts[start], ends[end])
        tree[final[0]] = final[1]
        if rec is not None:
            rec[(id(tree), final[0])] = (self.starts[final[2]], self.ends[final[3]])
        return tree
