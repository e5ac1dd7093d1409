"""``return`` inside a loop (SPEC 10, "Loops"): ``for (const x of xs) { if (ok(x)) return x; }``.

A loop of a block that holds a `return` of its own (in its body, in a loop inside it, in a
`switch` case; not in an arrow function's body) is read as if the program had written::

    let _returned1 = false, _result1;          // hidden: no name of the program
    for (const x of xs) { if (ok(x)) { _result1 = x; _returned1 = true; break; } }
    if (_returned1) return _result1;
    ...the rest of the block...

so every rule of the loops holds: the loop is a fold whose state says it is done (as after a
`break`, nothing of a later iteration runs), a loop inside breaks too once it returned, and the
statements after the loop are the `else` of the `if`, as they are after an `if` that returns.
The rest of the block may be empty: the block's value is then `undefined` when no iteration
returned, as a JavaScript function's is. Used by :mod:`.loops` and :mod:`.statements`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dialectic.frontends.plan.base import ParserBase
from dialectic.frontends.plan.loopbuild import ref, when
from dialectic.frontends.plan.loopcheck import NEVER, Body

if TYPE_CHECKING:
    from dialectic.frontends.plan.loopforms import Each

__all__ = ["LoopReturnMixin"]

_UNDEFINED: dict[str, Any] = {"$undefined": None}


class LoopReturnMixin(ParserBase):
    """The loops that `return`: their hidden result, and the block after them."""

    #: the hidden (result, returned) names for the next loop statement of a block (taken by
    #: :meth:`.loops.LoopsMixin.for_statement` as it starts)
    _loop_return: tuple[str, str] | None = None
    #: whether the text holds `return` (None: not looked yet)
    _returns_in_text: bool | None = None
    #: the token kind that ends the block being read (`}`; `eof` at the top of the program)
    _block_end = "eof"
    #: whether the block being read may end without `return` (its value `undefined`): a
    #: function's body and the program's may, a branch of `if` or a case of `switch` may not
    _ends_undefined = True
    #: hidden `let` names the parser made (they have no token of their own)
    hidden_lets: frozenset[str] = frozenset()

    if TYPE_CHECKING:  # defined by the other mixins

        def fresh(self, prefix: str) -> str: ...

        def _branch_end(self, i: int) -> int: ...

        def _end(self, what: str) -> None: ...

        def _put(self, container: Any, key: str | int, first: int, last: int) -> None: ...

        def _change(
            self,
            body: Body,
            reach: str | None,
            name: str,
            tok: int,
            kind: str,
            value: Any,
            first: int,
            claim: str | None = None,
        ) -> None: ...

        def for_statement(
            self,
            pos: int,
            aliases: dict[str, Any],
            alias_at: dict[str, int],
            alias_rec: list[tuple[str, int, int, int, int]],
            parent: tuple[Body, str | None] | None = None,
            each: Each | None = None,
        ) -> None: ...

    # -- finding them ----------------------------------------------------------------------

    def loop_end(self, pos: int) -> int:
        """The last token of the loop statement at token ``pos`` (``for``, ``while`` or
        ``do``; a loop whose body is a loop too)."""
        kinds, values = self.kinds, self.values
        closes = self.brackets().closes
        i = pos
        while kinds[i] == "name" and values[i] in ("for", "while") and kinds[i + 1] == "(":
            close = closes[i + 1]
            if kinds[close] == "eof":
                return close
            i = close + 1
        if kinds[i] == "name" and values[i] == "do":
            end = self._branch_end(i + 1)
            if kinds[end] == "eof":
                return end
            test = end + 1
            if kinds[test] == "name" and values[test] == "while" and kinds[test + 1] == "(":
                close = closes[test + 1]
                return close + (kinds[close] != "eof" and kinds[close + 1] == ";")
            return end
        return self._branch_end(i)

    def loop_returns(self, pos: int) -> bool:
        """Whether the loop statement at token ``pos`` holds a `return` of its own."""
        returns = self._returns_in_text
        if returns is None:  # (looked up once: a search of the text for each loop of a
            # megabyte-long program cost as much as reading it, for each)
            returns = self._returns_in_text = "return" in self.source
        if not returns:
            return False
        return self.brackets().returns_between(pos, self.loop_end(pos))

    # -- a loop of a block -----------------------------------------------------------------

    def loop_with_return(
        self,
        pos: int,
        aliases: dict[str, Any],
        alias_at: dict[str, int],
        alias_rec: list[tuple[str, int, int, int, int]],
        each: Each | None = None,
    ) -> tuple[str, Any, int, int]:
        """The loop statement at token ``pos``, which returns, and the rest of its block:
        the block's final ``("$return", value, first, last)`` (``each``: the one-item loop of
        an `if` or `switch` statement that returns in some branches, :mod:`.ifreturn`)."""
        result, returned = self.fresh("_result"), self.fresh("_returned")
        for name, value in ((returned, False), (result, _UNDEFINED)):
            aliases[name] = value
            alias_at[name] = pos
            alias_rec.append((name, pos, pos, pos, pos))
        self.hidden_lets = self.hidden_lets | {result, returned}
        self._loop_return = (result, returned)
        self.for_statement(pos, aliases, alias_at, alias_rec, each=each)
        end = self._block_end
        first = self.pos
        if self.kinds[first] == end or self.kinds[first] == "eof":
            if not self._ends_undefined:  # (the statements after the `if` would run)
                what = "loop" if each is None else "statement"
                raise self.fail(
                    f"the {what} may end without `return`, and so may this branch",
                    self.starts[pos],
                    "end the branch with `return value;` after the loop, or put the `if` "
                    "inside the loop",
                )
            rest: Any = dict(_UNDEFINED)  # (a function's end: `undefined`)
        else:
            rest = self.block_until(end, "the block after the loop", rest=True)
        last = max(self.pos - 1, first)
        items: list[Any] = [ref(returned), ref(result), rest]
        self._put(items, 0, pos, pos)
        self._put(items, 1, pos, pos)
        self._put(items, 2, first, last)
        return ("$return", {"$if": items}, pos, last)

    # -- inside the loop's body ------------------------------------------------------------

    def loop_return(self, body: Body, reach: str | None, pos: int) -> str:
        """``return value;`` at token ``pos`` of a loop's body: the hidden result and
        `returned` set, then a `break`."""
        assert body.ret is not None
        result, returned = body.ret
        kinds = self.kinds
        self.pos = pos + 1
        if kinds[self.pos] == ";" or kinds[self.pos] == "}":
            value: Any = dict(_UNDEFINED)
            first = pos
        else:
            first = self.pos
            value = self.expr(0)
            held = len(body.whole)
            body.use(value, first, self.pos - 1)
            # (a value the loop changes may be returned whole: nothing changes it after)
            for names, _, _ in body.whole[held:]:
                body.returned_whole |= names
            del body.whole[held:]
            body.state.returned.add(id(value))
            self.keep.append(value)  # (its id stays its own)
        self._end("`return`")
        self._change(body, reach, result, pos, "=", value, first)
        self._change(body, reach, returned, pos, "=", True, pos)
        body.breaks.append(reach)
        body.fold = True
        return NEVER

    def after_inner_return(self, body: Body, reach: str | None, pos: int) -> str:
        """After a loop inside ``body`` (at token ``pos``) that may have returned: a `break`
        of this loop too when it did. Returns the reach of what follows."""
        assert body.ret is not None
        test: dict[str, Any] = {"$ref": body.ret[1]}
        body.use(test, pos, pos)  # (its version after the inner loop)
        stop = self.fresh("_stop")
        body.lets[stop] = when(reach, {"$if": [test, True, False]}, False)
        body.breaks.append(stop)
        body.fold = True
        going = self.fresh("_reach")
        body.lets[going] = {"$if": [ref(stop), False, ref(reach) if reach else True]}
        return going
