"""A promise's methods and ``Promise``'s other functions (SPEC 10, "Mapping to the call tree").

Every call of a registered function (and of the program's own ``async`` functions) is a
promise in JavaScript, which Plan awaits where its value is used; so is ``Promise.all(...)``.
On such a value:

- ``p.then(v => body)`` is the arrow applied to the value: ``[p].map(v => body)[0]``;
- ``p.catch(h)`` runs as ``try``/``catch`` does (lenient mode: ``p`` itself, with a warning
  that a failure ends the program; strict mode: refused), ``p.finally(h)`` and
  ``p.then(f, onRejected)`` are refused;
- ``Promise.resolve(v)`` is ``v``; ``Promise.race``, ``Promise.any`` and ``Promise.reject``
  are refused with what to write (the first call to end is not a value a program can count on;
  Plan has no ``throw``).

On anything else (data, an awaited value: ``(await f()).then(...)``) ``then`` is not a method,
as in JavaScript.
"""

from __future__ import annotations

from typing import Any

from dialectic.frontends.plan.base import ParserBase

__all__ = ["PromisesMixin"]

#: the methods a promise has
PROMISE_METHODS = frozenset(["then", "catch", "finally"])


def is_call(tree: Any) -> bool:
    """Whether ``tree`` is a call of a registered function or of the program's own: a promise
    in JavaScript."""
    if type(tree) is not dict or len(tree) != 1:
        return False
    key = next(iter(tree))
    return type(key) is str and key[:1] != "$"


class PromisesMixin(ParserBase):
    """``p.then(f)`` and its kin, ``Promise.resolve(v)`` and the refused ``Promise`` functions."""

    #: ids of trees that are promises in JavaScript (``Promise.all(...)``), not calls
    _promises: set[int] | None = None
    #: ids of trees an `await` gave (their value is no promise any more)
    _settled: set[int] | None = None

    def note_promise(self, tree: Any) -> Any:
        if self._promises is None:
            self._promises = set()
        self._promises.add(id(tree))
        return tree

    def note_awaited(self, tree: Any) -> Any:
        if self._settled is None:
            self._settled = set()
        self._settled.add(id(tree))
        return tree

    def is_promise(self, tree: Any) -> bool:
        settled = self._settled
        if settled is not None and id(tree) in settled:
            return False
        promises = self._promises
        return is_call(tree) or (promises is not None and id(tree) in promises)

    def promise_method(self, fn: str, args: list[Any], at: int) -> Any:
        """``args[0].fn(args[1:])`` for a promise ``args[0]`` (``at``: the token of ``fn``)."""
        offset = self.starts[at]
        if fn == "then" and len(args) == 2:
            arrow = args[1]
            if type(arrow) is not dict or "$fn" not in arrow or len(arrow["$fn"][0]) > 1:
                raise self.fail(
                    "`then` takes an arrow function of the value here: p.then(v => ...)",
                    offset,
                    "or await it: const v = await p; ...",
                )
            # (a promise too: `f(x).then(...).then(...)`)
            return self.note_promise({"$get": [{"$method": [[args[0]], "map", arrow]}, 0]})
        if fn == "catch" and len(args) == 2 and not self.strict:
            self.warn(
                offset,
                "ran the promise without its `catch`: Plan runs no handler, a failure ends "
                "the program with that failure",
            )
            return args[0]
        raise self.fail(
            _refused(fn),
            offset,
            "a failed call ends the program with its failure; drop the handler "
            "(the value is the call's): const v = await f(x);",
        )

    def promise_function(self, fn: str, args: list[Any], at: int) -> Any:
        """``Promise.fn(args[1:])`` other than ``all`` and ``allSettled``."""
        if fn == "resolve" and len(args) <= 2:
            return args[1] if len(args) == 2 else {"$undefined": None}
        hints = {
            "race": "the first call to end is no value a program can count on: call one "
            "function, or take all: const [first] = await Promise.all([f(), g()]);",
            "any": "the first call to succeed is no value a program can count on: call one "
            "function, or take all: await Promise.all([f(), g()])",
            "reject": "Plan has no throw: return a value that says what went wrong",
        }
        raise self.fail(
            f"`Promise.{fn}` is not supported",
            self.starts[at],
            hints.get(fn, "Promise.all([...]) runs calls side by side and gives their values"),
        )


def _refused(fn: str) -> str:
    if fn == "then":
        return "`then` with a handler of failures is not supported (Plan runs no handler)"
    if fn == "finally":
        return "Plan has no `finally`"
    return f"`{fn}` is not supported in strict mode (Plan runs no handler)"
