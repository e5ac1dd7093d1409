"""Expressions with operators: conditionals, binary and unary operators (arrow functions:
:mod:`dialectic.frontends.plan.arrows`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dialectic.frontends.plan.arrows import ArrowsMixin
from dialectic.frontends.plan.base import POSTFIX
from dialectic.frontends.plan.keywords import LITERAL_WORDS, RESERVED
from dialectic.frontends.plan.setforms import read_set
from dialectic.values.jsmethods import GLOBALS
from dialectic.values.jsrelations import CONSTRUCTORS

__all__ = ["OperatorsMixin"]

#: JavaScript's binary operators and their precedence (higher binds tighter)
_PRECEDENCE = {
    "??": 1,
    "||": 2,
    "&&": 3,
    "|": 4,
    "^": 5,
    "&": 6,
    "==": 7,
    "!=": 7,
    "===": 7,
    "!==": 7,
    "<": 8,
    "<=": 8,
    ">": 8,
    ">=": 8,
    "in": 8,
    "instanceof": 8,
    "<<": 9,
    ">>": 9,
    ">>>": 9,
    "+": 10,
    "-": 10,
    "*": 11,
    "/": 11,
    "%": 11,
    "**": 12,
}
_MIXING = frozenset(["??", "||", "&&"])
#: the tokens whose kind is an operator (the others are "op", their value the operator; and
#: the words `in` and `instanceof`, names: `_WORDS`)
_SIGNS = {"+": "+", "-": "-"}
_WORDS = {"in": "in", "instanceof": "instanceof"}
#: tokens that make an expression by themselves, and the tokens that end an expression
_PLAIN = frozenset(["num", "str", "tpl", "name"])
#: the first characters of names that are never a call's: `$` (a form), `%` (:mod:`.trywrite`)
_HIDDEN = frozenset(["$", "%"])
_ENDS = ENDS = frozenset([",", ")", "]", "}", ";", ":", "tplm", "tplt", "eof"])
#: names that start something else than a plain name (an arrow function, an operator)
_PREFIX_WORDS = frozenset(["async", "await", "typeof", "void", "delete"])
#: names that are not a plain reference when alone, or not a plain function call before `(`
_NOT_REF = _PREFIX_WORDS | LITERAL_WORDS | RESERVED
NOT_CALLEE = _NOT_REF | GLOBALS | {"Array"}  # (`Array(n).fill(v)`: :mod:`.newarray`)
_ARGUMENT_ENDS = frozenset([",", ")"])
#: tokens that start a primary expression that is not an arrow function
_OPENERS = frozenset(["{", "[", "tplh"])
#: what `_lone` gives for a token that `primary` must read
_PRIMARY: Any = object()


class OperatorsMixin(ArrowsMixin):
    """``expr`` and the operator levels below it, down to :meth:`primary`."""

    #: whether the fast paths outside `expr` are taken (tests turn them off to compare)
    fast_paths = True

    if TYPE_CHECKING:

        def note_awaited(self, tree: Any) -> Any: ...  # (:class:`.promises.PromisesMixin`)

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
                node = self._lone(kind, raw, pos)
                if node is not _PRIMARY:
                    return node
            elif (
                fast
                and nxt == "("
                and kind == "name"
                and raw not in NOT_CALLEE
                and raw[:1] not in _HIDDEN
            ):  # (`_plain_call`, without a call)
                left = self._call_of(raw, pos, depth)
                if kinds[self.pos] in _ENDS:
                    return left
                return self._after_call(left, pos, depth)
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
        elif kind == "tplh" and depth <= self.max_depth:  # `primary`'s case, without it
            self.pos = pos + 1
            left = self.template(pos, depth)
            nxt = kinds[self.pos]
            if nxt in _ENDS:
                return left
            if nxt in POSTFIX or (nxt == "op" and self.values[self.pos] == "?."):
                left = self.postfix(left, pos, None, depth)
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
            self.refuse_param_extras(pos)
            return self.arrow(params, depth)
        test = self.binary(depth, 0)
        q = self.pos
        if kinds[q] != "op" or self.values[q] != "?":
            return test
        return self._conditional(test, pos, depth)

    def _plain_get(self, name: str, pos: int, operand: bool = False) -> Any:
        """The expression ``name.a.b`` (from token ``pos``) when nothing follows it (an
        ``operand``: when no other member access, index or call follows it): what
        :meth:`primary` and :meth:`postfix` make of it (a ``$get``); else None."""
        if name == "Math" or name == "Number":  # (`Math.PI`: a constant, see postfix)
            return None
        kinds = self.kinds
        values = self.values
        end = pos + 1
        while kinds[end] == "." and kinds[end + 1] == "name":
            end += 2
        nxt = kinds[end]
        if operand:
            if nxt in POSTFIX or (nxt == "op" and values[end] == "?."):
                return None
        elif nxt not in _ENDS:
            return None
        keys: list[Any] = [{"$ref": name}, *values[pos + 2 : end : 2]]
        rec = self.rec
        if rec is not None:
            starts, ends = self.starts, self.ends
            rec[(rec.pin(keys), 0)] = (starts[pos], ends[pos])
            for i, at in enumerate(range(pos + 2, end, 2), 1):
                rec[(rec.pin(keys), i)] = (starts[at], ends[at])
        self.pos = end
        return {"$get": keys}

    def _plain_call(self, fn: str, pos: int, depth: int) -> Any:
        """The expression that starts with the call ``fn(...)`` of a plain function name
        (token ``pos``): what :meth:`primary`, :meth:`postfix` and :meth:`_call` make of it,
        without their general cases."""
        left = self._call_of(fn, pos, depth)
        if self.kinds[self.pos] in _ENDS:
            return left
        return self._after_call(left, pos, depth)

    def _after_call(self, left: Any, pos: int, depth: int) -> Any:
        """The rest of :meth:`_plain_call` when something follows the call ``left`` (from
        token ``pos``): members, calls, operators."""
        kinds = self.kinds
        nxt = kinds[self.pos]
        if nxt in POSTFIX or (nxt == "op" and self.values[self.pos] == "?."):
            left = self.postfix(left, pos, None, depth + 1)
            if kinds[self.pos] in _ENDS:
                return left
        return self._operators(left, pos, depth)

    def _call_of(self, fn: str, pos: int, depth: int) -> Any:
        """The call ``fn(...)`` of a plain function name (token ``pos``, at ``depth``): its
        tree, ``self.pos`` after the ``)``."""
        bound = self.arrow_bound
        if bound and bound.get(fn):  # `xs.map((x, echo) => echo(x))`: JavaScript's TypeError
            raise self.fail(
                f"`{fn}` is a parameter of the arrow function here, so `{fn}(...)` calls the "
                "parameter's value, not the function of that name; a run's values are data, "
                "never functions (calling data is JavaScript's TypeError)",
                self.starts[pos],
                f"give the parameter another name to call the function `{fn}`; to choose a "
                "function by data, call each by its name: `x.kind === 'a' ? fa(x) : fb(x)`",
            )
        kinds = self.kinds
        values = self.values
        rec = self.rec
        args: list[Any] = []
        inner = depth + 2  # the depth of an argument (`arguments`)
        literals = inner < self.max_depth
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
            elif (
                literals
                and kind == "name"
                and kinds[pos + 1] == "."
                and raw not in _NOT_REF
                and (node := self._plain_get(raw, pos)) is not None
            ):  # `a.b.c` (what `expr` would make of it, without going through `expr`)
                args.append(node)
                pos = self.pos
            elif (
                literals
                and kind == "name"
                and kinds[pos + 1] == "("
                and raw not in NOT_CALLEE
                and raw[:1] not in _HIDDEN
            ):  # `g(...)`, likewise
                args.append(self._plain_call(raw, pos, inner))
                pos = self.pos
            else:
                self.pos = pos
                args.append(
                    self.spread_or_expr(inner)
                    if kind == "op" and raw == "..."
                    else self.expr(inner)
                )
                pos = self.pos
            if rec is not None:
                rec[(rec.pin(args), len(args) - 1)] = (self.starts[start], self.ends[pos - 1])
            kind = kinds[pos]
            if kind == ",":
                pos += 1
            elif kind != ")":
                self.pos = pos
                raise self.unexpected(self.tok(pos), "`,` or `)` in the argument list")
        self.pos = pos + 1
        made = {fn: args}
        if self._function_calls is not None:
            self.is_function_call(fn, made)  # `f(x)` of the program's own `f`
        return made

    def operand(self, depth: int) -> Any:
        """An operand of a binary operator (from ``self.pos``): what :meth:`unary` makes of
        it. Its fast paths take a literal, a name, a member chain (``a.b.c``) or a call of a
        plain function name (``f(x)``, maybe followed by members and calls)."""
        pos = self.pos
        kinds = self.kinds
        kind = kinds[pos]
        if kind in _PLAIN and depth < self.max_depth:
            nxt = kinds[pos + 1]
            raw = self.values[pos]
            if nxt not in POSTFIX and (nxt != "op" or self.values[pos + 1] != "?."):
                node = self._lone(kind, raw, pos)
                if node is not _PRIMARY:
                    return node
            elif kind == "name" and raw not in _NOT_REF:
                if nxt == ".":
                    node = self._plain_get(raw, pos, True)
                    if node is not None:
                        return node
                elif nxt == "(" and raw not in NOT_CALLEE and raw[:1] not in _HIDDEN:
                    left = self._call_of(raw, pos, depth)
                    nxt = kinds[self.pos]
                    if nxt in POSTFIX or (nxt == "op" and self.values[self.pos] == "?."):
                        return self.postfix(left, pos, None, depth + 1)
                    return left
        return self.unary(depth)

    def _lone(self, kind: str, raw: str, pos: int) -> Any:
        """The value of token ``pos`` (of ``kind``, text ``raw``) as an expression by itself:
        a short integer, a text without escapes, a template without holes or a reference;
        ``_PRIMARY`` where :meth:`primary` must read it (and then nothing is consumed)."""
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
        return _PRIMARY

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
        made = read_set(items)  # (the text `dialectic decompile` writes of `xs[i] = v;`)
        return {"$if": items} if made is None else made

    def binary(self, depth: int, min_prec: int, first: int = -1, left: Any = None) -> Any:
        """Operators by precedence climbing (JavaScript's precedences). ``first``, ``left``:
        the first operand when it is already parsed (from token ``first``)."""
        kinds, values = self.kinds, self.values
        if first < 0:
            first = self.pos
            left = self.unary(depth)
        pos = self.pos
        kind = kinds[pos]
        op = (
            values[pos]
            if kind == "op"
            else _WORDS.get(values[pos])
            if kind == "name"
            else _SIGNS.get(kind)
        )
        while True:
            # `op` (None if none) is token `pos`, the one after `left`
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
            self.pos = start = pos + 1
            # the right operand, then (as `binary(depth + 1, ...)` would) the operators that
            # bind more tightly than this one
            least = prec if op == "**" else prec + 1
            right = self.operand(depth + 1) if op != "instanceof" else self._constructor(start)
            after = self.pos
            kind = kinds[after]
            nxt = values[after] if kind == "op" else _SIGNS.get(kind)
            if kind == "name":
                nxt = _WORDS.get(values[after])
            if nxt is not None and _PRECEDENCE.get(nxt, -1) >= least:
                right = self.binary(depth + 1, least, start, right)
                after = self.pos
                kind = kinds[after]
                nxt = values[after] if kind == "op" else _SIGNS.get(kind)
                if kind == "name":
                    nxt = _WORDS.get(values[after])
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
            if self.rec is not None:
                self._record(items, [(first, pos - 1), (start, after - 1)], 1)
            left = {"$op": items}
            depth += 1
            pos = after
            op = nxt

    def _constructor(self, pos: int) -> str:
        """The right side of ``x instanceof C`` at token ``pos``: the name of one of
        JavaScript's global constructors, as a text (the operator's operand)."""
        name = self.values[pos]
        if self.kinds[pos] != "name" or name not in CONSTRUCTORS or self.kinds[pos + 1] in POSTFIX:
            raise self.fail(
                "the right side of `instanceof` must be one of JavaScript's constructors "
                f"{', '.join(sorted(CONSTRUCTORS))} (Plan has no classes)",
                self.starts[pos],
                "write x instanceof Array, or test the kind: Array.isArray(x), typeof x === "
                "'object' && x !== null",
            )
        self.pos = pos + 1
        return name  # type: ignore[no-any-return]

    def _void(self, pos: int) -> Any:
        """``void 0`` at token ``pos``: undefined (of a literal, which nothing runs for)."""
        kind, word = self.kinds[pos + 1], self.values[pos + 1]
        if (kind == "num" or kind == "str" or word in LITERAL_WORDS) and (
            self.kinds[pos + 2] not in POSTFIX and self.values[pos + 2] != "?."
        ):
            self.pos = pos + 2
            return {"$undefined": None}
        raise self.fail(
            "`void` takes a literal here (`void 0`): of anything else, JavaScript would run it "
            "for its effects and Plan runs only what the result needs",
            self.starts[pos],
            "write undefined, or void 0",
        )

    def _starts_unary(self, first: int, node: Any) -> bool:
        if id(node) in self.parened:
            return False
        kind = self.kinds[first]
        return (
            kind in ("-", "+")
            or (kind == "op" and (self.values[first] == "!" or self.values[first] == "~"))
            or (kind == "name" and self.values[first] in ("await", "typeof"))
        )

    def unary(self, depth: int) -> Any:
        kinds, values = self.kinds, self.values
        pos = self.pos
        kind = kinds[pos]
        if kind == "name" and values[pos] == "await":
            self.pos = pos + 1  # a Plan awaits implicitly: `await` changes nothing
            awaited = self.awaited_promise(self.unary(depth + 1))  # (:mod:`.promises`)
            return self.note_awaited(awaited)  # (`(await p).then` is no promise's)
        op = values[pos] if kind == "op" and (values[pos] == "!" or values[pos] == "~") else None
        if kind in ("-", "+") and kinds[pos + 1] != "num":
            op = kind
        if kind == "name" and values[pos] == "typeof":
            op = "typeof"
        if op is None:
            if kind == "name" and values[pos] == "void":
                return self._void(pos)
            if kind == "name" and values[pos] == "delete":
                raise self.fail(
                    "`delete` runs here only as the statement `delete o.key;` at the top of "
                    "a block, on an object the block made (not in a loop or an `if`, not in an "
                    "expression, not on data the program was given)",
                    self.starts[pos],
                    "make a new object without the key: const {key, ...rest} = o;",
                )
            return self.primary(depth)
        self.pos = pos + 1
        start = self.pos
        operand = self.unary(depth + 1)
        items: list[Any] = [op, operand]
        self._record(items, [(start, self.pos - 1)], 1)
        return {"$op": items}
