"""Member accesses, indexes and calls after an expression (``a.b[c].f(x)``, ``a?.b``)."""

from __future__ import annotations

from typing import Any

from dialectic.frontends.plan.accumulator import fresh_initial
from dialectic.frontends.plan.applyform import PARAMS_HINT, math_apply, search_params_change
from dialectic.frontends.plan.base import ParseFailure
from dialectic.frontends.plan.keywords import LITERAL_WORDS
from dialectic.frontends.plan.promises import PROMISE_METHODS, PromisesMixin
from dialectic.values.jsmethods import ALL_METHODS, ARRAY_HIGHER, GLOBALS, RUN_VALUE_METHODS

__all__ = ["PostfixMixin"]


_PROMISE = {"$ref": "Promise"}


class PostfixMixin(PromisesMixin):
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
            if kind == "op" and values[pos] == "?.":
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
            rec[(id(keys), 0)] = (self.starts[first], self.ends[pos - 1])
        node = {"$get?": keys}
        if nxt == "name":
            if rec is not None:
                rec[(id(keys), 1)] = (self.starts[pos + 1], self.ends[pos + 1])
            keys.append(self.values[pos + 1])
            self.pos = pos + 2
        else:
            self.pos = pos + 2
            key = self.expr(depth + 1)
            if rec is not None:
                rec[(id(keys), 1)] = (self.starts[pos + 2], self.ends[self.pos - 1])
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
            rec[(id(keys), len(keys))] = (self.starts[pos + 1], self.ends[pos + 1])
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
            rec[(id(keys), len(keys))] = (self.starts[pos + 1], self.ends[self.pos - 1])
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
                    rec[(id(args), 0)] = rec[(id(keys), 0)]
                self.keep.append(keys)
            else:
                receiver = node
                if rec is not None:
                    rec[(id(args), 0)] = (self.starts[first], self.ends[method_last])
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
                rec[(id(out), 0)] = rec[(id(args), 0)]
            return {"$method?": out}
        if callee is None and fn not in ALL_METHODS and _optional_chain(args[0]):
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

    def call_form(self, fn: str, args: list[Any], plain: bool) -> Any:
        """The tree of a call: ``f(a)`` is ``{"f": [a]}``; ``x.m(a)`` is a JavaScript method
        (``$method``) when ``m`` is one, else the call ``m(x, a)``; ``Math.max(a)``,
        ``Number(x)`` and their kin are ``$global``; ``Promise.all(xs)`` is ``xs``. (``x?.m(a)``
        is always ``$method?``: the resolver refuses it for a registered function.)"""
        if self.changing:
            self._accept_changes(fn, args, plain)
        if plain:
            if fn in GLOBALS and "." not in fn and fn not in _CONSTRUCTORS:
                if fn == "isNaN":
                    _of_time(args)
                return {"$global": self._moved(args, [fn], 0)}
            return {fn: args}
        receiver = args[0]
        if type(receiver) is dict and len(receiver) == 1 and "$ref" in receiver:
            space = receiver["$ref"]
            if space == "Promise" and fn == "all" and len(args) == 2:
                # calls run concurrently anyway; the result is the list (a promise: `.then`)
                return self.note_promise(args[1])
            if space == "Promise" and fn == "allSettled" and len(args) == 2:
                return self.all_settled(args[1])  # (:mod:`.promises`)

            taken = space == "Array" and fn == "from" and len(args) >= 2 and self.take_set(args[1])
            if taken and len(args) == 2:
                return args[1]  # `Array.from(new Set(xs))`: the items (SPEC 10)
            if space == "Array" and fn == "from" and len(args) == 3:
                # `Array.from(v, f)` is `Array.from(v).map(f)` (f gets the item and its index)
                made = {"$global": self._moved(args[:2], ["Array.from"], 1)}
                mapped = self._moved(args, [made, "map"], 2)
                rec = self.rec
                if rec is not None and (id(args), 1) in rec:
                    rec[(id(mapped), 0)] = rec[(id(args), 1)]
                mapped[2] = fn_arg = _as_arrow(mapped[2])
                if type(fn_arg) is dict and "$fn" in fn_arg and len(fn_arg["$fn"][0]) > 2:
                    raise self.fail(
                        "Array.from's function gets an item and its index, not a third argument",
                        self.starts[self.pos - 1],
                        "take (item, i) only, or name the array: xs.map((x, i, all) => ...)",
                    )
                return {"$method": mapped}
            if space == "Object" and fn == "assign":
                return self._assign(args[1:])
            if space == "Number" and fn == "isNaN" and _of_time(rest := args[1:]):
                return {"$global": ["isNaN", *rest]}
            if f"{space}.{fn}" in GLOBALS:
                return {"$global": self._moved(args, [f"{space}.{fn}"], 1)}

            if space == "Number" and fn in ("parseInt", "parseFloat"):  # the same functions
                return {"$global": self._moved(args, [fn], 1)}
        if fn == "apply" and (applied := math_apply(receiver, args)) is not None:
            return applied  # `Math.max.apply(null, xs)` is `Math.max(...xs)`
        changed = search_params_change(fn, receiver)
        if changed is not None:
            raise self.fail(changed, self.starts[self.pos - 1], PARAMS_HINT)
        if fn == "hasOwnProperty" or (fn == "call" and receiver == _HAS_OWN):
            # `o.hasOwnProperty(k)`, `Object.prototype.hasOwnProperty.call(o, k)`
            return {"$global": self._moved(args, ["Object.hasOwn"], 1 if fn == "call" else 0)}
        if fn in ARRAY_HIGHER and len(args) > 1:
            args[1] = _as_arrow(args[1])
        if fn in ALL_METHODS or (fn in RUN_VALUE_METHODS and self._number_format(receiver)):
            out = self._moved(args, [receiver, fn], 1)
            rec = self.rec
            if rec is not None and (id(args), 0) in rec:
                rec[(id(out), 0)] = rec[(id(args), 0)]
            return {"$method": out}
        if self._function_calls is not None:
            self.method_of_function(fn, self.starts[self.pos - 1])
        return {fn: args}

    #: the names a `const` binds to `new Intl.NumberFormat(...)` or `new Intl.DateTimeFormat(...)`
    #: (found on first need)
    _formats: frozenset[str] | None = None

    def _number_format(self, receiver: Any) -> bool:
        """Whether ``receiver`` is an ``Intl.NumberFormat`` as written: made where it stands,
        or a name bound to one (``fmt.format(x)`` is then its method; ``format`` of anything
        else stays a call of a registered function)."""
        if type(receiver) is not dict or len(receiver) != 1:
            return False
        made = receiver.get("$global")
        if type(made) is list:
            return bool(made) and made[0] in ("Intl.NumberFormat", "Intl.DateTimeFormat")
        name = receiver.get("$ref")
        formats = self._formats
        if name is None or (formats is None and "Format" not in self.source):
            return False
        if formats is None:
            kinds, values = self.kinds, self.values
            formats = self._formats = frozenset(
                values[i]
                for i in range(len(kinds) - 4)
                if kinds[i] == "name"
                and kinds[i + 1] == "="
                and values[i + 2 + (values[i + 2] == "new")] == "Intl"
                and values[i + 4 + (values[i + 2] == "new")] in ("NumberFormat", "DateTimeFormat")
            )
        return name in formats

    def _assign(self, args: list[Any]) -> Any:
        """``Object.assign(target, ...sources)``: ``{...target, ...sources}`` when the target is
        a new object literal (JavaScript changes the target and returns it: a new one is not
        held by anything else); else refused, values never change in a Plan."""
        at = self.starts[self.pos - 1]
        if not args or not new_object(args[0]):
            raise self.fail(
                "`Object.assign` changes its first argument; values never change in a Plan",
                at,
                "make a new object: {...target, ...source}, or Object.assign({}, target, source)",
            )
        if any(type(a) is dict and len(a) == 1 and "$spread" in a for a in args):
            raise self.fail(
                "a spread argument of `Object.assign`",
                at,
                "pass the objects one by one, or merge a list: "
                "Object.fromEntries(xs.flatMap(o => Object.entries(o)))",
            )
        parts = args if args[0] != {} else args[1:]
        return {"$merge": parts} if parts else {"$object": {}}

    def _accept_changes(self, fn: str, args: list[Any], plain: bool) -> None:
        """An arrow that changes its accumulator (:mod:`.accumulator`) may only be ``reduce``'s,
        from a fresh literal of its kind: else nothing could tell its changes from a new value."""
        for i, arg in enumerate(args):
            changes = self.changing.pop(id(arg), None) if type(arg) is dict else None
            if changes is None:
                continue
            acc, kind = changes.acc, changes.kind or "object"
            if changes.original is not None and (
                plain
                or fn not in ("reduce", "reduceRight")
                or i != 1
                or len(args) != 3
                or not fresh_initial(args[2], kind)
            ):  # `(acc, x) => acc.add(x)` elsewhere: the registered `add`, as written
                arg["$fn"][1] = changes.original
                continue
            if plain or fn not in ("reduce", "reduceRight") or i != 1:
                raise self.fail(
                    f"only `reduce` may change its accumulator `{acc}`; values never change "
                    "in a Plan",
                    changes.at,
                    "return a new value instead: " + _NEW_VALUE[kind],
                )
            if len(args) != 3 or not fresh_initial(args[2], kind):
                start = {"object": "{}", "array": "[]"}.get(kind, "new Map()")
                raise self.fail(
                    f"`{acc}` is changed in place, so `reduce` must start it from a new "
                    + {"object": "object literal", "array": "array literal"}.get(kind, "Map")
                    + f" (`{start}`)",
                    changes.at,
                    f"pass `{start}` as the initial value, or return a new value instead: "
                    + _NEW_VALUE[kind],
                )

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
            value = (
                self.spread_or_expr(depth)
                if kind == "op" and self.values[pos] == "..."
                else self.expr(depth)
            )
            if rec is not None:
                rec[(id(args), len(args))] = (self.starts[pos], self.ends[self.pos - 1])
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

#: the globals JavaScript calls only with `new` (`URL(x)` is a TypeError); `Date()` is a text
_CONSTRUCTORS = frozenset(["Map", "Set", "Date", "URL", "URLSearchParams"])

#: global functions of one argument that may be passed by name to an array method
#: (`xs.filter(Boolean)`, `xs.map(String)`): JavaScript ignores the index and array they are
#: also given. `parseInt` (which reads the index as its radix) and `Math.max` are not.
_BY_NAME = frozenset(
    {
        "Boolean",
        "String",
        "Number",
        "parseFloat",
        "Number.isInteger",
        "Number.isSafeInteger",
        "Number.isFinite",
        "Number.isNaN",
        "isFinite",
        "isNaN",
        "Array.isArray",
        "Math.abs",
        "Math.round",
        "Math.floor",
        "Math.ceil",
        "Math.trunc",
        "Math.sign",
        "Math.sqrt",
        "encodeURIComponent",
        "encodeURI",
        "decodeURIComponent",
        "decodeURI",
    }
)


def new_object(node: Any) -> bool:
    """Whether ``node`` is an object literal (``{}``, ``{a: 1}``, ``{...o, b}``): a new object
    nothing else holds."""
    if type(node) is not dict:
        return False
    if len(node) != 1:
        return not any(type(k) is str and k[:1] == "$" for k in node)
    key = next(iter(node))
    return bool(key == "$object" or key == "$merge")


def fresh_copy(node: Any) -> bool:
    """Whether ``node`` is ``JSON.parse(JSON.stringify(v))`` or ``structuredClone(v)``: a copy
    nothing else holds."""
    if type(node) is not dict or len(node) != 1:
        return False
    outer = node.get("$global")
    if type(outer) is list and len(outer) == 2 and outer[0] == "structuredClone":
        return True
    if type(outer) is not list or len(outer) != 2 or outer[0] != "JSON.parse":
        return False
    inner = outer[1]
    if type(inner) is not dict or len(inner) != 1:
        return False
    written = inner.get("$global")
    return type(written) is list and len(written) == 2 and written[0] == "JSON.stringify"


def _of_time(args: list[Any]) -> bool:
    """``isNaN(d.getTime())`` (or ``Number.isNaN``): rewritten in place as ``isNaN(d,
    'getTime')``, whether ``d`` is an Invalid Date (``d`` must be a Date: values/jsdate.py),
    since ``getTime()`` of an Invalid Date is NaN, which a run does not hold (SPEC 1.8)."""
    if len(args) != 1 or type(args[0]) is not dict or len(args[0]) != 1:
        return False
    call = args[0].get("$method")
    if type(call) is not list or len(call) != 2 or call[1] not in ("getTime", "valueOf"):
        return False
    args[:] = [call[0], "getTime"]
    return True


def _as_arrow(arg: Any) -> Any:
    """``Boolean`` given to an array method as ``(_v) => Boolean(_v)``; anything else as is."""
    name = None
    if type(arg) is dict and len(arg) == 1:
        if "$ref" in arg and type(arg["$ref"]) is str:
            name = arg["$ref"]
        elif "$get" in arg:
            parts = arg["$get"]
            if (
                len(parts) == 2
                and type(parts[0]) is dict
                and set(parts[0]) == {"$ref"}
                and type(parts[1]) is str
            ):
                name = f"{parts[0]['$ref']}.{parts[1]}"
    if name not in _BY_NAME:
        return arg
    return {"$fn": [["_v"], {"$global": [name, {"$ref": "_v"}]}]}


_CHAIN_FORMS = ("$get", "$get?", "$method", "$method?")
#: `Object.prototype.hasOwnProperty` (called: `.call(o, k)`)
_HAS_OWN = {"$get": [{"$ref": "Object"}, "prototype", "hasOwnProperty"]}
#: the receivers of `groupBy` Node.js 20 has not (`Object.groupBy`, `Map.groupBy`)
_NO_GROUP_BY = ({"$ref": "Object"}, {"$ref": "Map"})
#: what to write instead of changing an accumulator, by its kind
_NEW_VALUE = {
    "object": "(acc, x) => ({...acc, [x.key]: (acc[x.key] ?? 0) + 1})",
    "array": "(acc, x) => [...acc, x]",
    "collection": "new Map(xs.map(x => [x.id, x]))",
}


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
