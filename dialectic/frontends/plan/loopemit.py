"""The trees a ``for...of`` loop's statement leaves (SPEC 10, "Loops"): the hidden alias of the
loop's ``.map``, the statement that runs it and each accumulator's value after it, in the block
or, for a loop inside a loop, in the enclosing loop's body. Used by :mod:`.loops`."""

from __future__ import annotations

from typing import Any

from dialectic.frontends.plan.loopbuild import Contribution, final_value, record, ref
from dialectic.frontends.plan.loopchanges import LoopChangesMixin
from dialectic.frontends.plan.loopcheck import Body, name_at

__all__ = ["LoopEmitMixin"]


class LoopEmitMixin(LoopChangesMixin):
    """The trees of one loop, once its body is read."""

    def _emit(
        self,
        body: Body,
        header: tuple[str | None, int, Any, tuple[int, int]],
        pos: int,
        body_first: int,
    ) -> None:
        """The loop's hidden alias, the statement that runs it, and each accumulator's value."""
        end = self.pos - 1
        last = header[3][1]
        field: dict[str, str] = {}
        method = self._map_tree(body, header, body_first, end, field)
        loop = self.fresh("_loop")
        state = body.state
        inits = {name: state.rename(self, body.aliases, name) for name in body.accs}
        body.aliases[loop] = {"$method": method}
        body.alias_rec.append((loop, pos, pos, end, end))
        key = f"#expr{len(body.alias_rec)}"
        body.aliases[key] = ref(loop)
        body.alias_rec.append((key, pos, pos, last + 1, end))
        for name, changes in body.accs.items():
            kind = changes[0].kind if changes[0].kind in ("push", "entry") else "number"
            body.aliases[name] = final_value(
                kind, inits[name], loop, field[name], changes, self.fresh, self.rec
            )
            state.finals[name] = (changes[0].kind if kind != "number" else kind, body.acc_let[name])
            body.alias_rec.append((name, body.acc_tok[name], pos, last + 1, end))

    def _map_tree(
        self,
        body: Body,
        header: tuple[str | None, int, Any, tuple[int, int]],
        body_first: int,
        end: int,
        field: dict[str, str],
    ) -> list[Any]:
        """``[...xs].map(x => { ...; return record; })``: the loop's method call; ``field``
        receives each accumulator's field of the record."""
        _, _, iterable, (first, last) = header
        result = record(body.accs, body.runs, field)
        fn_body: Any = {"$let": body.lets, "$return": result} if body.lets else result
        fn: list[Any] = [[body.param], fn_body]
        self._put(fn, 1, body_first, end)
        spread = {"$spread": iterable}
        self._put(spread, "$spread", first, last)
        items = [spread]
        self._put(items, 0, first, last)
        method: list[Any] = [items, "map", {"$fn": fn}]
        self._put(method, 0, first, last)
        return method

    def _emit_nested(
        self,
        body: Body,
        header: tuple[str | None, int, Any, tuple[int, int]],
        pos: int,
        body_first: int,
        outer: Body,
        reach: str | None,
    ) -> None:
        """A loop inside a loop: its hidden alias runs in the enclosing body (when the
        statement is reached); a local of that body it changes takes the loop's result there,
        and its changes to the enclosing loop's accumulators become changes of that loop."""
        end = self.pos - 1
        field: dict[str, str] = {}
        tree = {"$method": self._map_tree(body, header, body_first, end, field)}
        loop = self.fresh("_loop")
        outer.lets[loop] = self._when(reach, tree, [], pos, end)
        self._put(outer.lets, loop, pos, end)
        outer.runs.append(loop)
        span = self._span(pos, end)
        for name, changes in body.accs.items():
            family = body.acc_kind[name]
            if name in outer.declared:
                self._local_result(outer, name, family, loop, field[name], changes, (pos, end))
            elif family == "number":
                contribution = Contribution("loop", loop, None, span, (field[name], changes))
                outer.accs.setdefault(name, []).append(contribution)
            else:
                hidden = self.fresh("_add" if family == "entry" else "_push")
                r = self.fresh("_r")
                get = {"$fn": [[r], {"$get": [ref(r), field[name]]}]}
                outer.lets[hidden] = {"$method": [ref(loop), "flatMap", get]}
                self._put(outer.lets, hidden, pos, end)
                outer.accs.setdefault(name, []).append(Contribution(family, hidden, None, span))
        outer.use(tree, pos, end)

    def _local_result(
        self,
        outer: Body,
        name: str,
        family: str,
        loop: str,
        key: str,
        changes: list[Contribution],
        at: tuple[int, int],
    ) -> None:
        """The local ``name`` of ``outer`` after the loop inside it: its definition renamed to
        a hidden local, the name the value the loop leaves (read before the loop: refused)."""
        read = outer.read_before(name)
        if read is not None:
            raise self.fail(
                f"`{name}` is read before the loop changes it",
                name_at(self, name, *read),
                f"read `{name}` only after the loop (in JavaScript a read before it may see "
                "the changes)",
            )
        hidden = self.fresh(f"_{name}")
        lets = outer.lets
        lets[hidden] = lets.pop(name)
        if self.rec is not None and (id(lets), name) in self.rec:
            self.rec[(id(lets), hidden)] = self.rec[(id(lets), name)]
        lets[name] = final_value(family, hidden, loop, key, changes, self.fresh, self.rec)
        self._put(lets, name, *at)
        outer.local_finals[name] = family
