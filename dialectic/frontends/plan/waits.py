"""``new Promise(r => setTimeout(r, ms))``: the wait programs write between two polls (SPEC 17,
"Waiting").

JavaScript has no sleep; models write the timer promise, in a few spellings:

    await new Promise(r => setTimeout(r, 500));
    await new Promise((resolve) => { setTimeout(resolve, 500); });
    await new Promise(res => setTimeout(() => res(), 500));
    await new Promise(function (resolve) { setTimeout(resolve, 500); });
    const sleep = ms => new Promise(r => setTimeout(r, ms));   // a helper, then sleep(500)

Each is read as a call of the built-in ``sleep`` with the delay: ``{"sleep": [ms]}``, which the
effect plan (:mod:`dialectic.resolve.effects`) runs as a barrier in program order. The executor
(an arrow function or a ``function`` expression) must be exactly that: one or two parameters,
its body the one ``setTimeout`` whose callback is the first parameter (``r``, ``() => r()``,
``() => { r(); }``, ``function () { r(); }``); anything else is refused with the spellings that
work (Plan has no other promise to make).
"""

from __future__ import annotations

from typing import Any

from dialectic.frontends.plan.base import ParseFailure, ParserBase

__all__ = ["WaitsMixin"]

#: the built-in function a wait calls (registry/waiting.py)
SLEEP = "sleep"

_ONLY = (
    "`new Promise(...)` is read only as a wait: `new Promise(r => setTimeout(r, ms))`, "
    "the executor's body the one `setTimeout` whose callback is its first parameter"
)
_HINT = (
    "write `await new Promise(r => setTimeout(r, 500));` or `await sleep(500);`; for any "
    "other promise call the function itself: its value is awaited where it is used"
)


class WaitsMixin(ParserBase):
    """``new Promise(...)`` as a wait (:meth:`new_promise`)."""

    def new_promise(self, pos: int, depth: int) -> Any:
        """``new Promise(`` at token ``pos`` (``new``): the executor, read as a wait."""
        kinds, values = self.kinds, self.values
        i = pos + 3
        names: list[str] = []
        function = values[i] == "function" and kinds[i + 1] == "("  # `function (r) {...}`
        i += function
        if kinds[i] == "name" and values[i + 1] == "=>":
            names.append(values[i])
            i += 1
        elif kinds[i] == "(":
            i += 1
            while kinds[i] == "name" and len(names) < 2:
                names.append(values[i])
                i += 1 + (kinds[i + 1] == ",")
            if not names or kinds[i] != ")":
                raise self._not_a_wait(i)
            i += 1
        if not names or (values[i] != "=>" and not function) or (function and kinds[i] != "{"):
            raise self._not_a_wait(i)
        i += not function  # (the arrow)
        braced = kinds[i] == "{"
        i += braced
        if values[i] != "setTimeout" or kinds[i + 1] != "(":
            raise self._not_a_wait(i)
        i = self._resolver(i + 2, names[0])
        ms: Any = 0
        if kinds[i] == ",":
            first = i + 1
            self.pos = first
            ms = self.expr(depth + 1)
            i = self.pos
            args = [ms]
            self._record(args, [(first, i - 1)])
            if kinds[i] == "," and kinds[i + 1] == ")":
                i += 1  # (a trailing comma)
        else:
            args = []
        if kinds[i] != ")":
            raise self._not_a_wait(i)
        i += 1
        if braced:
            i += kinds[i] == ";"
            if kinds[i] != "}":
                raise self._not_a_wait(i)
            i += 1
        if kinds[i] != ")":
            raise self._not_a_wait(i)
        self.pos = i + 1
        return {SLEEP: args}

    def _resolver(self, i: int, name: str) -> int:
        """The token after ``setTimeout``'s callback at token ``i``, which must call ``name``:
        ``r``, ``() => r()``, ``() => { r(); }`` or ``function () { r(); }``."""
        kinds, values = self.kinds, self.values
        if kinds[i] == "name" and values[i] == name:
            return i + 1
        function = values[i] == "function" and kinds[i + 3] == "{"  # `function () { r(); }`
        if (
            kinds[i + function] == "("
            and kinds[i + function + 1] == ")"
            and (function or values[i + 2] == "=>")
        ):
            i += 3
            braced = kinds[i] == "{"
            i += braced
            if values[i] == name and kinds[i + 1] == "(" and kinds[i + 2] == ")":
                i += 3
                if not braced:
                    return i
                i += kinds[i] == ";"
                if kinds[i] == "}":
                    return i + 1
        raise self._not_a_wait(i)

    def _not_a_wait(self, i: int) -> ParseFailure:
        return self.fail(_ONLY, self.starts[min(i, len(self.kinds) - 1)], _HINT)
