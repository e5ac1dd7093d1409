"""Member accesses, indexes and calls after an expression (``a.b[c].f(x)``, ``a?.b``); the
tree of one call is built by :mod:`.callforms`."""

from __future__ import annotations

from typing import Any

from dialectic.frontends.plan.base import ParseFailure
from dialectic.frontends.plan.callforms import CallFormsMixin
from dialectic.frontends.plan.keywords import LITERAL_WORDS
from dialectic.frontends.plan.optionalcall import optional_call
from dialectic.frontends.plan.promises import PROMISE_METHODS
from dialectic.values.jsmethods import ALL_METHODS, GLOBALS
from dialectic.values.lookalikes import FOREIGN_METHODS, METHOD_LOOKALIKES

__all__ = ["PostfixMixin"]


_PROMISE = {"$ref": "Promise"}


class PostfixMixin(CallFormsMixin):
    """The postfix chain of an expression and the trees of calls."""

    def postfix(self, node: Any, first: int, callee: str | None, depth: int) -> Any:
        """Member accesses, indexes and calls after the expression that starts at token
        ``first`` (``node``; ``callee`` is its name if it is a plain name)."""
        kinds = self.kinds
        values = self.values
        keys: list[Any] | None = None  # the list of the `$get` being extended
        method_last = -1  # last token of the target before the last `.name` (a method call)
        optional = False  # the last `.name` was `?.name` (an optional call if `(` follows)
        if kinds[self.pos] in (".", "[") and _optional_chain(node):
            raise self.fail(
                "parentheses end an optional chain: `(a?.b).c` fails in JavaScript when `a` is "
                "null or undefined",
                self.starts[self.pos],
                "continue the chain without parentheses, a?.b.c (undefined when a is), or give "
                "a default: (a?.b ?? {}).c",
            )
        while True:
            pos = self.pos
            kind = kinds[pos]
            if kind == "op" and values[pos] == "?." and kinds[pos + 1] == "(":
                depth += 1  # `f?.(x)`, `obj.m?.(x)` (:mod:`.optionalcall`)
                node = optional_call(self, node, keys, first, pos, callee, method_last, depth)
                keys = None
                callee = None
                method_last = -1
                optional = False
            elif kind == "op" and values[pos] == "?.":
                # each `?.` wraps the chain before it, as a call does: counted here, a long
                # chain is refused before its source map (a path per level) grows quadratic
                depth += 1
                if depth > self.max_depth:
                    raise ParseFailure(
                        f"the program is nested more than {self.max_depth} levels deep (a "
                        "chain of `?.` counts one level per `?.`)",
                        self.starts[pos],
                        "bind parts of the chain to aliases (`part = a?.b?.c;`) to flatten it",
                        fatal=True,
                        limit="max_depth",
                    )
                node, keys = self._optional(node, first, pos, depth)
                optional = kinds[pos + 1] == "name"
                method_last = pos - 1 if optional else -1
                callee = None
            elif kind == ".":
                if keys is None and type(node) is dict and node.get("$ref") in _SPACES:
                    constant = CONSTANTS.get(f"{node['$ref']}.{values[pos + 1]}")
                    if constant is not None and kinds[pos + 2] != "(":  # `Math.PI`
                        node = constant if type(constant) is not str else _infinity(constant)
                        self.pos = pos + 2
                        continue
                node, keys = self._member(node, keys, first, pos)
                method_last = pos - 1
                optional = False
                callee = None
            elif kind == "[":
                node, keys = self._index(node, keys, first, pos, depth)
                method_last = -1
                optional = False
                callee = None
            elif kind == "(":
                # a call wraps the expression before it: a method chain nests as deeply as
                # calls written inside each other (`a.f().g()` is `g(f(a))`)
                depth += 1
                node = self._call(node, keys, first, pos, callee, method_last, depth, optional)
                keys = None
                callee = None
                method_last = -1
                optional = False
            else:
                return node

    def _optional(self, node: Any, first: int, pos: int, depth: int) -> tuple[Any, list[Any]]:
        """``a?.b`` / ``a?.[k]`` at token ``pos``: the chain so far is the target of a
        ``$get?``. Returns the new node and its key list."""
        kinds = self.kinds
        rec = self.rec
        nxt = kinds[pos + 1]
        if nxt != "name" and nxt != "[":
            raise self.fail(
                "only `?.name`, `?.[key]` and `?.method(...)` are supported",
                self.starts[pos],
                "functions are not values in Plan: call a method, x?.trim(), or a function, f(x)",
            )
        target = node
        keys = [target]
        if rec is not None:
            rec[(rec.pin(keys), 0)] = (self.starts[first], self.ends[pos - 1])
        node = {"$get?": keys}
        if nxt == "name":
            if rec is not None:
                rec[(rec.pin(keys), 1)] = (self.starts[pos + 1], self.ends[pos + 1])
            keys.append(self.values[pos + 1])
            self.pos = pos + 2
        else:
            self.pos = pos + 2
            key = self.expr(depth + 1)
            if rec is not None:
                rec[(rec.pin(keys), 1)] = (self.starts[pos + 2], self.ends[self.pos - 1])
            keys.append(key)
            if kinds[self.pos] != "]":
                raise self.unexpected(self.tok(self.pos), "`]`")
            self.pos += 1
        return node, keys

    def _member(
        self, node: Any, keys: list[Any] | None, first: int, pos: int
    ) -> tuple[Any, list[Any]]:
        """``.name`` at token ``pos``, extending ``keys`` (or starting a ``$get``)."""
        if self.kinds[pos + 1] != "name":
            raise self.unexpected(self.tok(pos + 1), "a property name after `.`")
        if keys is None:
            keys = self.start_get(node, first, pos - 1)
            node = {"$get": keys} if keys[0] is node else node
        rec = self.rec
        if rec is not None:
            rec[(rec.pin(keys), len(keys))] = (self.starts[pos + 1], self.ends[pos + 1])
        keys.append(self.values[pos + 1])
        self.pos = pos + 2
        return node, keys

    def _index(
        self, node: Any, keys: list[Any] | None, first: int, pos: int, depth: int
    ) -> tuple[Any, list[Any]]:
        """``[key]`` at token ``pos``, extending ``keys`` (or starting a ``$get``)."""
        self.pos = pos + 1
        if keys is None:
            keys = self.start_get(node, first, pos - 1)
            node = {"$get": keys} if keys[0] is node else node
        key = self.expr(depth + 1)
        rec = self.rec
        if rec is not None:
            rec[(rec.pin(keys), len(keys))] = (self.starts[pos + 1], self.ends[self.pos - 1])
        keys.append(key)
        if self.kinds[self.pos] != "]":
            raise self.unexpected(self.tok(self.pos), "`]`")
        self.pos += 1
        return node, keys

    def _call(
        self,
        node: Any,
        keys: list[Any] | None,
        first: int,
        pos: int,
        callee: str | None,
        method_last: int,
        depth: int,
        optional: bool = False,
    ) -> Any:
        """The call whose `(` is token ``pos``: of the function ``callee``, or of the method
        that ends ``keys`` (the receiver's last token is ``method_last``; ``optional``: it was
        written ``?.name``); ``depth`` counts the call."""
        rec = self.rec
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
                if fn == "groupBy" and receiver in _NO_GROUP_BY:
                    raise self.fail(
                        f"{receiver['$ref']}.groupBy is not a function in Node.js 20 (a "
                        "TypeError: it came in Node.js 21)",
                        self.starts[first],
                        "group with reduce: xs.reduce((groups, x) => { const k = key(x); "
                        "(groups[k] ??= []).push(x); return groups; }, {}), or "
                        "xs.reduce((g, x) => ({...g, [x.k]: [...(g[x.k] ?? []), x]}), {})",
                    )
                if rec is not None:
                    rec[(rec.pin(args), 0)] = rec[(rec.pin(keys), 0)]
                self.keep.append(keys)
            else:
                receiver = node
                if rec is not None:
                    rec[(rec.pin(args), 0)] = (self.starts[first], self.ends[method_last])
            args.append(receiver)
        elif keys is None and type(node) is dict and len(node) == 1 and "$fn" in node:
            return self._called_at_once(node["$fn"], pos)
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
        if depth > self.max_depth:
            raise ParseFailure(
                f"the program is nested more than {self.max_depth} levels deep (a "
                "chain of method calls counts one level per call)",
                self.starts[pos],
                "bind parts of the chain to aliases (`part = x.f().g();`) to flatten it",
                fatal=True,
                limit="max_depth",
            )
        self.pos = pos + 1
        self.arguments(args, depth)
        if optional:  # `x?.m(a)`: undefined when x is null or undefined (SPEC 1.2)
            out = self._moved(args, [args[0], fn], 1)
            rec = self.rec
            if rec is not None and (id(args), 0) in rec:
                rec[(rec.pin(out), 0)] = rec[(rec.pin(args), 0)]
            return {"$method?": out}
        if (
            callee is None
            and fn not in ALL_METHODS
            and fn not in METHOD_LOOKALIKES  # (`a?.b.length()`: refused with its hint)
            and fn not in FOREIGN_METHODS
            and _optional_chain(args[0])
        ):
            raise self.fail(
                f"`{fn}` is not one of JavaScript's methods, so it cannot continue an optional "
                "chain (JavaScript would not call it when the chain is undefined)",
                self.starts[pos],
                f"test the value first: v == null ? undefined : {fn}(v) with v = the chain",
            )
        if callee is not None and fn not in GLOBALS:
            made = {fn: args}  # (call_form's first case, without the call)
            if self._function_calls is not None:
                self.is_function_call(fn, made)  # `f(x)` of the program's own `f`
            return made
        if (
            callee is None
            and fn in PROMISE_METHODS
            and (held := self.held_promise(args[0], pos - 1))
        ):
            args[0] = held  # `const p = f(x); ... p.catch(h)` (:mod:`.promises`)
        if callee is None and fn in PROMISE_METHODS and self.is_promise(args[0]):
            return self.promise_method(fn, args, pos - 1)  # `f(x).then(v => ...)`
        if callee is None and args[0] == _PROMISE and fn not in ("all", "allSettled"):
            return self.promise_function(fn, args, pos - 1)  # `Promise.resolve(v)`
        return self.call_form(fn, args, callee is not None)

    def _called_at_once(self, fn: list[Any], pos: int) -> Any:
        """``(() => { ...; return e; })()`` (also ``async``, or ``function () {...}``), the
        arrow function of no parameters called where it stands (`(` is token ``pos``): its
        body, a block in expression position (SPEC 10)."""
        params, body = fn
        if params:
            raise self.fail(
                "an arrow function with parameters called where it is written",
                self.starts[pos],
                "define the values as `const` aliases inside its body and call it with no "
                "arguments, (() => { const x = ...; return ...; })(), or define a function "
                "at the top of the program and call it by name",
            )
        if self.kinds[pos + 1] != ")":
            raise self.fail(
                "arguments in a call of an arrow function of no parameters",
                self.starts[pos + 1],
                "call it with no arguments: (() => { ...; return ...; })()",
            )
        self.pos = pos + 2
        return body

    def start_get(self, node: Any, first: int, last: int) -> list[Any]:
        """The key list to extend: that of ``node`` if it is a ``$get`` (``(a.b).c``); else a new
        one for ``node``, which spans tokens ``first`` to ``last``."""
        if type(node) is dict and "$get" in node:
            keys: list[Any] = node["$get"]
            return keys
        keys = [node]
        rec = self.rec
        if rec is not None:
            rec[(rec.pin(keys), 0)] = (self.starts[first], self.ends[last])
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
            value = (
                self.spread_or_expr(depth)
                if kind == "op" and self.values[pos] == "..."
                else self.expr(depth)
            )
            if rec is not None:
                rec[(rec.pin(args), len(args))] = (self.starts[pos], self.ends[self.pos - 1])
            args.append(value)
            kind = kinds[self.pos]
            if kind == ",":
                self.pos += 1
            elif kind != ")":
                raise self.unexpected(self.tok(self.pos), "`,` or `)` in the argument list")


#: JavaScript's constants of `Math` and `Number` that JSON can hold, as Node writes them (the
#: program reads them as the numbers: `Math.PI * r ** 2`, `Number.MAX_SAFE_INTEGER`)
CONSTANTS: dict[str, int | float | str] = {
    "Math.E": 2.718281828459045,
    "Math.LN10": 2.302585092994046,
    "Math.LN2": 0.6931471805599453,
    "Math.LOG10E": 0.4342944819032518,
    "Math.LOG2E": 1.4426950408889634,
    "Math.PI": 3.141592653589793,
    "Math.SQRT1_2": 0.7071067811865476,
    "Math.SQRT2": 1.4142135623730951,
    "Number.EPSILON": 2.220446049250313e-16,
    "Number.MAX_SAFE_INTEGER": 9007199254740991,
    "Number.MIN_SAFE_INTEGER": -9007199254740991,
    "Number.MAX_VALUE": 1.7976931348623157e308,
    "Number.MIN_VALUE": 5e-324,
    "Number.POSITIVE_INFINITY": "Infinity",
    "Number.NEGATIVE_INFINITY": "-Infinity",
}


def _infinity(sign: str) -> Any:
    """The tree of ``Infinity`` (a name the resolver reads as the number) or ``-Infinity``."""
    ref = {"$ref": "Infinity"}
    return ref if sign == "Infinity" else {"$op": ["-", ref]}


_SPACES = frozenset(name.split(".")[0] for name in CONSTANTS)

_CHAIN_FORMS = ("$get", "$get?", "$method", "$method?")
#: the receivers of `groupBy` Node.js 20 has not (`Object.groupBy`, `Map.groupBy`)
_NO_GROUP_BY = ({"$ref": "Object"}, {"$ref": "Map"})


def _optional_chain(node: Any) -> bool:
    """Whether ``node`` is a chain of accesses and method calls with an optional link (``a?.b``,
    ``x?.trim().length``): one continued after parentheses would short-circuit differently."""
    while type(node) is dict and len(node) == 1:
        ((form, items),) = node.items()
        if form not in _CHAIN_FORMS or type(items) is not list or not items:
            return False
        if form[-1] == "?":
            return True
        node = items[0]
    return False
