"""The statements of a loop's body that change an accumulator (SPEC 10, "Loops"):
``acc.push(...)``, ``acc[k] = v``, ``acc.k = v``, ``acc += v``, ``acc -= v``, ``acc++``,
``acc--``, ``acc = v``, ``acc = acc + v``, ``acc ||= v``, ``acc[k] ??= v``; and the helpers
of :mod:`.loops`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dialectic.frontends.plan.arrayloops import array_accumulator
from dialectic.frontends.plan.base import ParseFailure, ParserBase, closing
from dialectic.frontends.plan.logicalset import LOGICAL_SETS, logical_member
from dialectic.frontends.plan.loopbuild import Contribution, free_names, when
from dialectic.frontends.plan.loopcheck import Body
from dialectic.frontends.plan.loopscope import resolve
from dialectic.frontends.plan.matrixloops import matrix_change

__all__ = ["LoopChangesMixin"]

_CHANGES = frozenset(["+=", "-="])
#: `t *= v` is `t = t * v`: a change that reads the accumulator (a fold); also `t |= 0`...
_READING = frozenset(["*=", "/=", "%=", "|=", "&=", "^=", "<<=", ">>=", ">>>="])
_STEPS = frozenset(["++", "--"])
#: the statements that make an array's next version of the array itself (:meth:`_reshape`)
_RESHAPES = frozenset(["shift", "unshift", "splice"])


class LoopChangesMixin(ParserBase):
    """Changes to accumulators, and the helpers every part of a loop uses."""

    #: the names written in the program (shared with the arrows' hidden parameters)
    _source_names: set[str] | None = None
    _fresh_counts: dict[str, int] | None = None

    if TYPE_CHECKING:  # defined by the other mixins

        def arguments(self, args: list[Any], depth: int) -> None: ...

        def collection_change(self, body: Body, pos: int) -> Any: ...

    # -- helpers -------------------------------------------------------------------------------

    def written(self) -> set[str]:
        """The names written in the program (and the hidden names made so far)."""
        names = self._source_names
        if names is None:
            names = self._source_names = {
                v for k, v in zip(self.kinds, self.values, strict=True) if k == "name"
            }
        return names

    def fresh(self, prefix: str) -> str:
        """A hidden name ``prefixN`` written nowhere in the program (the same in every parse
        of one text, so that the source map's paths match)."""
        names = self._source_names
        if names is None:
            names = self.written()
        counts = self._fresh_counts
        if counts is None:
            counts = self._fresh_counts = {}
        n = counts.get(prefix, 0) + 1
        name = prefix + str(n)
        while name in names:
            n += 1
            name = prefix + str(n)
        names.add(name)
        counts[prefix] = n
        return name

    def _span(self, first: int, last: int) -> tuple[int, int]:
        return (self.starts[first], self.ends[last])

    def _put(self, container: Any, key: str | int, first: int, last: int) -> None:
        if self.rec is not None:
            self.rec[(self.rec.pin(container), key)] = (self.starts[first], self.ends[last])

    def _when(self, reach: str | None, value: Any, otherwise: Any, first: int, last: int) -> Any:
        out = when(reach, value, otherwise)
        if out is not value:
            self._put(out["$if"], 1, first, last)
        return out

    def _end(self, what: str) -> None:
        """The `;` after a statement of the body (lenient: also before `}`)."""
        if self.kinds[self.pos] == "}" and not self.strict:
            self.warn(self.ends[self.pos - 1], f"added the missing `;` after the {what}")
            return
        self.end_statement(what)

    def _expect(self, kind: str, what: str) -> None:
        if self.kinds[self.pos] != kind:
            raise self.unexpected(self.tok(self.pos), what)
        self.pos += 1

    # -- changes to accumulators -------------------------------------------------------------

    def _changes(self, body: Body, reach: str | None, pos: int) -> bool:
        """``acc.push(...)``, ``acc[k] = v``, ``acc.k = v``, ``acc += v``, ``acc++``,
        ``acc = v`` at token ``pos``; False for anything else (an expression statement)."""
        kinds, values = self.kinds, self.values
        name = values[pos]
        nxt = kinds[pos + 1]
        op = values[pos + 1] if nxt == "op" else None
        if nxt in (".", "[") and logical_member(self, body, reach, pos):  # `o[k] ??= v`
            return True
        if nxt == "." and values[pos + 2] == "searchParams" and kinds[pos + 3] == ".":
            change = self.collection_change(body, pos)  # `u.searchParams.set(k, v);`
            if change is None:
                return False
            self._change(body, reach, name, pos, "=", change, pos, claim="collection")
            return True
        if nxt == "." and kinds[pos + 2] == "name" and kinds[pos + 3] == "(":
            if values[pos + 2] == "pop" and self._pop(body, reach, pos):
                return True
            if values[pos + 2] in _RESHAPES and self._reshape(body, reach, pos):
                return True
            if values[pos + 2] != "push":
                change = self.collection_change(body, pos)  # `m.set(k, v);`: `m = m.set(k, v)`
                if change is None:
                    return False
                self._change(body, reach, name, pos, "=", change, pos, claim="collection")
                return True
            self.pos = pos + 4
            args: list[Any] = []
            self.arguments(args, 0)
            last = self.pos - 1
            self._end("`push(...)`")
            body.use(args, pos + 4, last)
            self._change(body, reach, name, pos, "push", args, pos)
            return True
        if nxt == "." and kinds[pos + 2] == "name" and kinds[pos + 3] == "=":
            key: Any = values[pos + 2]
            self.pos = pos + 4
            return self._entry(body, reach, name, pos, key, (pos + 2, pos + 2))
        if nxt == "." and kinds[pos + 2] == "name" and self._updates(pos + 3):
            return self._entry_update(body, reach, pos, values[pos + 2], (pos + 2, pos + 2))
        if nxt == "[" and matrix_change(self, body, reach, pos):  # `g[i][j] = v`
            return True
        if nxt == "[":
            close = self._closing(pos + 1)
            if kinds[close] != "eof" and self._updates(close + 1):
                self.pos = pos + 2
                key = self._key(close)
                body.use(key, pos + 2, close - 1)
                return self._entry_update(body, reach, pos, key, (pos + 2, close - 1))
            if kinds[close] == "eof" or kinds[close + 1] != "=":
                return False
            self.pos = pos + 2
            key = self._key(close)
            body.use(key, pos + 2, close - 1)
            self.pos = close + 2
            return self._entry(body, reach, name, pos, key, (pos + 2, close - 1))
        if op in _STEPS:
            self.pos = pos + 2
            self._end(f"`{op}`")
            self._change(body, reach, name, pos, op, None, pos)
            return True
        if op in _CHANGES or op in _READING or op in LOGICAL_SETS or nxt == "=":
            self.pos = pos + 2
            first = self.pos
            value = self.expr(0)
            kind = op[0] if op is not None else "="
            if op is None:
                kind, value = self._assignment(name, value, pos)
            elif op in LOGICAL_SETS or op in _READING:
                # `t ||= v` is `t || v` (assigned or not, the same); `t *= v` is `t * v`
                kind, value = "=", {"$op": [op[:-1], {"$ref": name}, value]}
                self._put(value["$op"], 1, pos, pos)
            body.use(value, first, self.pos - 1)
            self._end("assignment")
            self._change(body, reach, name, pos, kind, value, first)
            return True
        if op is not None and (op.endswith("=") and op not in ("==", "===", "!=", "!==")):
            raise self.fail(
                f"Plan's loops change a number or a text only with `=`, `+=`, `-=`, `*=`, "
                f"`/=`, `%=`, `|=`, `&=`, `^=`, `<<=`, `>>=`, `>>>=`, `++`, `--`, `||=`, `&&=`, "
                f"`??=` (not `{op}`)",
                self.starts[pos + 1],
                f"write {name} = {name} + value; or collect the values and compute after the loop",
            )
        return False

    def _pop(self, body: Body, reach: str | None, pos: int) -> bool:
        """``stack.pop();`` (also ``stack.pop(x);``, which :mod:`.worklist` writes after
        ``const x = stack.at(-1);``: the change reads ``x``, so ``x`` is read before it): the
        array without its last item, a change that reads the array (a fold), in place."""
        kinds, values = self.kinds, self.values
        arg = kinds[pos + 4] == "name" and kinds[pos + 5] == ")"
        if not (kinds[pos + 4] == ")" or arg):
            return False
        item: Any = {"$ref": values[pos + 4]} if arg else None
        self.pos = pos + (6 if arg else 5)
        if item is not None:
            body.use(item, pos + 4, pos + 4)
        self._end("`pop()`")
        body.fold = True
        hidden: str | None = None
        if item is not None:
            hidden = self.fresh("_item")
            body.lets[hidden] = item
            self._put(body.lets, hidden, pos + 4, pos + 4)
        body.claim(str(values[pos]), pos, "push")
        body.add_change(
            str(values[pos]), Contribution("pop", hidden, reach, self._span(pos, self.pos - 1))
        )
        return True

    def _reshape(self, body: Body, reach: str | None, pos: int) -> bool:
        """``xs.shift();``, ``xs.unshift(a, b);``, ``xs.splice(s, n, ...items);`` as
        statements: the array's next version ``xs.slice(1)``, ``[a, b, ...xs]``,
        ``xs.toSpliced(s, n, ...items)`` (the array JavaScript's change leaves, its arguments
        read first), a change in the family of ``push`` that reads the array (a fold), as
        ``stack.pop();`` is; under an ``if`` too. (A queue's ``shift`` the program keeps
        reading is :mod:`.worklist`'s.)"""
        kinds, values = self.kinds, self.values
        close = closing(kinds, pos + 3)
        if kinds[close] == "eof" or kinds[close + 1] not in (";", "}", "eof"):
            return False  # (`xs.shift().k`: a value, not the statement)
        method = str(values[pos + 2])
        if method == "shift" and close != pos + 4:
            return False
        name = str(values[pos])
        self.pos = pos + 4
        args: list[Any] = []
        self.arguments(args, 0)
        last = self.pos - 1
        self._end(f"`{method}(...)`")
        body.claim(name, pos, "push")
        body.fold = True
        current: Any = {"$ref": name}
        value: Any = (
            {"$method": [current, "slice", 1]}
            if method == "shift"
            else [*args, {"$spread": current}]
            if method == "unshift"
            else {"$method": [current, "toSpliced", *args]}
        )
        self._put(value if type(value) is list else value["$method"], 0, pos, last)
        body.use(value, pos, last)
        self._change(body, reach, name, pos, "=", value, pos, claim="push")
        return True

    def _assignment(self, name: str, value: Any, pos: int) -> tuple[str, Any]:
        """``acc = e``: ``+``/``-`` for ``acc = acc + e``, else ``=`` (when ``e`` reads
        ``acc``, the loop is a fold: :mod:`.loopfold`)."""
        if name not in free_names(value):
            return "=", value
        if type(value) is dict and "$op" in value:
            op, *operands = value["$op"]
            if (
                op in ("+", "-")
                and len(operands) == 2
                and operands[0] == {"$ref": name}
                and name not in free_names(operands[1])
            ):
                return op, operands[1]
        return "=", value

    def _key(self, close: int) -> Any:
        """The key of ``acc[k] = v`` up to its ``]`` at token ``close``: the whole of it, so a
        ``++`` left after the key (``xs[i++] = i;``, which no earlier pass read) is refused at
        its place, never dropped."""
        key = self.expr(0)
        if self.pos != close:
            raise self.unexpected(self.tok(self.pos), "`]`")
        return key

    def _closing(self, i: int) -> int:
        """The token closing the bracket at token ``i``."""
        return closing(self.kinds, i)

    def _updates(self, i: int) -> bool:
        """Whether token ``i`` updates the member before it: ``+=``, ``-=``, ``*=``, ``/=``,
        ``%=``, ``++``, ``--``."""
        return self.kinds[i] == "op" and (
            self.values[i] in _CHANGES or self.values[i] in _READING or self.values[i] in _STEPS
        )

    def _entry_update(
        self, body: Body, reach: str | None, pos: int, key: Any, key_at: tuple[int, int]
    ) -> bool:
        """``acc[k] += v``, ``acc.k++``...: the entry ``[k, acc[k] + v]`` (the key computed
        once), which reads the accumulator (a fold)."""
        name = self.values[pos]
        at = key_at[1] + 1 + (self.kinds[key_at[1] + 1] == "]")
        op = self.values[at]
        if type(key) is not str:  # computed once, as JavaScript does
            hidden = self.fresh("_key")
            body.lets[hidden] = self._when(reach, key, None, *key_at)
            self._put(body.lets, hidden, *key_at)
            key = {"$ref": hidden}
        current = {"$get": [{"$ref": name}, key]}
        self._put(current["$get"], 0, pos, pos)
        self._put(current, "$get", pos, at - 1)
        self.pos = at + 1
        if op in _STEPS:  # JavaScript's x++: ToNumeric(x) + 1
            value: Any = {"$op": [op[0], {"$op": ["+", current]}, 1]}
            first = pos
        else:
            first = self.pos
            value = {"$op": [op[:-1], current, self.expr(0)]}
        last = self.pos - 1
        self._put(value, "$op", pos, last)
        return self._set_entry(body, reach, pos, [key, value], key_at, (first, last), pos)

    def _entry(
        self, body: Body, reach: str | None, name: str, pos: int, key: Any, key_at: tuple[int, int]
    ) -> bool:
        first = self.pos
        value = self.expr(0)
        return self._set_entry(body, reach, pos, [key, value], key_at, (first, self.pos - 1), first)

    def _set_entry(
        self,
        body: Body,
        reach: str | None,
        pos: int,
        pair: list[Any],
        key_at: tuple[int, int],
        value_at: tuple[int, int],
        start: int,
    ) -> bool:
        """The change ``acc[k] = v`` (``pair``: ``[k, v]``, the value read at ``value_at``; the
        statement's span from token ``start``)."""
        body.use(pair[1], *value_at)
        self._end("assignment")
        self._put(pair, 0, *key_at)
        self._put(pair, 1, start, value_at[1])
        name = str(self.values[pos])
        if array_accumulator(body, resolve(body, name)):  # `xs[i] = v` (:mod:`.arrayloops`)
            body.fold = True
            self._change(body, reach, name, pos, "item", pair, pos, claim="push")
            return True
        self._change(body, reach, name, pos, "entry", [pair], pos)
        return True

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
    ) -> None:
        """Record ``kind`` of change to the accumulator ``name`` (token ``tok``; ``claim``: the
        accumulator's family when it is not ``kind``'s: a Map's change is ``m = m.set(k, v)``)."""
        shown, name = (
            name,
            resolve(body, name),
        )  # (a name a block declared again: :mod:`.loopscope`)
        try:
            body.claim(name, tok, claim or kind)
        except ParseFailure as failure:
            if shown != name:  # (the message names what the program wrote)
                message, offset, hint = failure.problem
                hint = None if hint is None else hint.replace(name, shown)
                failure.problem = (message.replace(name, shown), offset, hint)
            raise
        last = self.pos - 1
        hidden: str | None = None
        if value is not None:
            hidden = self.fresh("_add" if kind != "push" else "_push")
            empty: Any = [] if kind in ("push", "entry") else None  # (`item`: a pair)
            body.lets[hidden] = self._when(reach, value, empty, first, last)
            self._put(body.lets, hidden, first, last)
        span = self._span(tok, last)
        body.add_change(name, Contribution(kind, hidden, reach, span))
