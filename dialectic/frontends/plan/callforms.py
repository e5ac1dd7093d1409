"""The tree of one call (:mod:`.postfix`): a function's call with its arguments checked
(``Object.assign``, number and date formats, a callback's changes to its accumulator), and the
refusals of calls that would change a value."""

from __future__ import annotations

from typing import Any

from dialectic.frontends.plan.accumulator import fresh_initial
from dialectic.frontends.plan.applyform import PARAMS_HINT, math_apply, search_params_change
from dialectic.frontends.plan.promises import PromisesMixin
from dialectic.frontends.plan.tokenscan import CLOSE, OPEN, expression_end
from dialectic.values.jsmethods import ALL_METHODS, ARRAY_HIGHER, GLOBALS, RUN_VALUE_METHODS
from dialectic.values.lookalikes import FOREIGN_METHODS, METHOD_LOOKALIKES

__all__ = ["CallFormsMixin", "fresh_copy", "new_object"]


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
    """Whether ``node`` is ``JSON.parse(text)`` (``JSON.parse(JSON.stringify(v))`` among them)
    or ``structuredClone(v)``: a new value nothing else holds (JSON.parse without a reviver
    builds each object and array it returns)."""
    if type(node) is not dict or len(node) != 1:
        return False
    outer = node.get("$global")
    return type(outer) is list and len(outer) == 2 and outer[0] in ("structuredClone", "JSON.parse")


#: what the function argument of `JSON.parse` and `JSON.stringify` is called
_JSON_FUNCTIONS = {"parse": "reviver", "stringify": "replacer"}
_JSON = {"$ref": "JSON"}


def _is_fn(node: Any) -> bool:
    return type(node) is dict and "$fn" in node


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


#: `Object.prototype.hasOwnProperty` (called: `.call(o, k)`)
_HAS_OWN = {"$get": [{"$ref": "Object"}, "prototype", "hasOwnProperty"]}
#: what to write instead of changing an accumulator, by its kind
_NEW_VALUE = {
    "object": "(acc, x) => ({...acc, [x.key]: (acc[x.key] ?? 0) + 1})",
    "array": "(acc, x) => [...acc, x]",
    "collection": "new Map(xs.map(x => [x.id, x]))",
}


class CallFormsMixin(PromisesMixin):
    """The trees of calls; :class:`.postfix.PostfixMixin` builds on it."""

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
        self._json_function(fn, args)
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
                    rec[(rec.pin(mapped), 0)] = rec[(rec.pin(args), 1)]
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
        if fn == "call" and receiver == _HAS_OWN:  # `Object.prototype.hasOwnProperty.call(o, k)`
            return {"$global": self._moved(args, ["Object.hasOwn"], 1)}
        if fn in ARRAY_HIGHER and len(args) > 1:
            args[1] = _as_arrow(args[1])
        if fn in ALL_METHODS or (fn in RUN_VALUE_METHODS and self._number_format(receiver)):
            out = self._moved(args, [receiver, fn], 1)
            rec = self.rec
            if rec is not None and (id(args), 0) in rec:
                rec[(rec.pin(out), 0)] = rec[(rec.pin(args), 0)]
            return {"$method": out}
        if self._function_calls is not None:
            self.method_of_function(fn, self.starts[self.pos - 1])
        if fn in METHOD_LOOKALIKES or fn in FOREIGN_METHODS:
            # `s.length()`: a method as written, which the resolver refuses (a namespace's
            # function of the name is called: `memory.size()`, SPEC 2.2); `xs.count()`: a
            # registered function's call, or refused with what JavaScript writes
            out = self._moved(args, [receiver, fn], 1)
            rec = self.rec
            if rec is not None and (id(args), 0) in rec:
                rec[(rec.pin(out), 0)] = rec[(rec.pin(args), 0)]
            return {"$method": out}
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
        if name is None:
            return False
        formats = self._formats
        if formats is None and "Format" not in self.source:
            # (searched once: a program of many `.format(` calls would search it for each)
            formats = self._formats = frozenset()
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

    def _json_function(self, fn: str, args: list[Any]) -> None:
        """Refuse a reviver of ``JSON.parse`` or a replacer function of ``JSON.stringify``
        (else "an arrow function can only be the argument of an array method")."""
        if fn in _JSON_FUNCTIONS and args[0] == _JSON and any(_is_fn(a) for a in args[2:]):
            which = next(i for i, a in enumerate(args[2:], 1) if _is_fn(a))
            if fn == "stringify" and which == 2:  # (the indentation, which ignores a function)
                raise self.fail(
                    "JSON.stringify's third argument is the indentation (a number or a text): "
                    "a function there, which JavaScript ignores, is refused in Plan (functions "
                    "are not values)",
                    self.starts[self._argument_at(self.pos - 1, which)],
                    "leave it out, or indent by a number of spaces: JSON.stringify(v, null, 2)",
                )
            raise self.fail(
                f"JSON.{fn} takes no {_JSON_FUNCTIONS[fn]} function in Plan (functions are "
                "not values)",
                self.starts[self._argument_at(self.pos - 1, which)],
                "parse first, then change the value with expressions: const data = "
                "JSON.parse(text); data.items.map(x => ({...x, price: x.price * 10}))"
                if fn == "parse"
                else "build the value to write first, then stringify it: "
                "JSON.stringify({id: v.id, name: v.name}, null, 2)",
            )

    def _argument_at(self, close: int, which: int) -> int:
        """The first token of argument ``which`` (from 0) of the call whose ``)`` is token
        ``close`` (the ``)`` itself when there is no such argument)."""
        kinds = self.kinds
        depth = 0
        i = close - 1
        while i > 0 and not (depth == 0 and kinds[i] in OPEN):
            depth += kinds[i] in CLOSE
            depth -= kinds[i] in OPEN
            i -= 1
        start = i + 1
        for _ in range(which):
            end = expression_end(kinds, start, (",",))
            if kinds[end] != ",":
                return close
            start = end + 1
        return start

    def _assign(self, args: list[Any]) -> Any:
        """``Object.assign(target, ...sources)``: ``{...target, ...sources}`` when the target is
        a new object literal (JavaScript changes the target and returns it: a new one is not
        held by anything else); else refused: another name could hold the target."""
        at = self.starts[self.pos - 1]
        if not args or not new_object(args[0]):
            raise self.fail(
                "`Object.assign` changes its first argument, which Plan reads only for a new "
                "object literal (another name could hold the target)",
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
                    f"only `reduce` may change its accumulator `{acc}` (Plan follows that "
                    "change only there)",
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
                    rec[(rec.pin(out), i + shift)] = span
            self.keep.append(args)
        return out
