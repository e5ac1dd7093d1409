"""The trees a ``for...of`` loop's statement leaves (SPEC 10, "Loops"): the hidden alias of the
loop's ``.map``, the statement that runs it and each accumulator's value after it, in the block
or, for a loop inside a loop, in the enclosing loop's body. Used by :mod:`.loops`."""

from __future__ import annotations

from typing import Any

from dialectic.frontends.plan.base import ParseFailure
from dialectic.frontends.plan.loopbuild import (
    Contribution,
    final_value,
    literal,
    record,
    ref,
    scan_reads,
)
from dialectic.frontends.plan.loopchanges import LoopChangesMixin
from dialectic.frontends.plan.loopcheck import Body
from dialectic.frontends.plan.loopreads import name_at
from dialectic.frontends.plan.loopwhile import while_tree
from dialectic.frontends.plan.straight import STRAIGHT_NODES, emit_straight, straight

__all__ = ["LOOP_NODES", "LoopEmitMixin"]

#: the fewest nodes a loop's trees have (`for (const x of xs) {}` makes 16; `t += 1;` outside a
#: loop 46), halved: a loop read and then dropped (a function never called, a reading tried
#: again) counts too, so the bound on :attr:`max_nodes` stays below what the tree would hold
LOOP_NODES = 8


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
        is_straight = straight(body)  # a change outside a loop (:mod:`.straight`)
        if self.max_nodes is not None:
            self.loop_nodes += STRAIGHT_NODES if is_straight else LOOP_NODES
            if self.loop_nodes > self.max_nodes:
                raise ParseFailure(
                    f"the program has more than {self.max_nodes} nodes: each loop makes at "
                    f"least {LOOP_NODES}, each change statement outside one (`t += x;`, "
                    f"`xs.push(x);`, `if (c) v = w;`) at least {STRAIGHT_NODES}",
                    self.starts[pos],
                    "Simplify the program or raise the `max_nodes` limit.",
                    fatal=True,
                    limit="max_nodes",
                )
        end = self.pos - 1
        last = header[3][1]
        field: dict[str, str] = {}
        state = body.state
        inits = {name: state.rename(self, body.aliases, name) for name in body.accs}
        listed: list[dict[str, Any]] = []  # (`i < xs.length` of a loop setting `xs[i]`:
        if header[2] is not None:  # the length before, :func:`.loopreads.check_body`)
            scan_reads(header[2], listed)
        for node in listed:
            if node.get("$ref") in inits:
                node["$ref"] = inits[node["$ref"]]
        rec = state.alias_rec
        for name in body.old_reads:  # `const before = t; for (...) t += x;`
            found: list[dict[str, Any]] = []
            # only the statements after the definition can read it (a read before it is
            # refused): scanning every statement made n loops of a block cost n * n
            start = state.index_of(inits[name])
            assert start is not None
            for entry in rec[start + 1 :]:
                tree = body.aliases.get(entry[0])
                if tree is not None:
                    scan_reads(tree, found)
            for node in found:
                if node.get("$ref") == name:
                    node["$ref"] = inits[name]
        if is_straight:
            emit_straight(self, body, inits, pos, last, end)
            return
        starts = {name: ref(init) for name, init in inits.items()} if body.fold else None
        tree = self._loop_tree(body, header, body_first, end, field, starts)
        loop = self.fresh("_loop")
        body.aliases[loop] = tree
        body.alias_rec.append((loop, pos, pos, end, end))
        key = f"#expr{len(body.alias_rec)}"
        body.aliases[key] = ref(loop)
        body.alias_rec.append((key, pos, pos, last + 1, end))
        for name, changes in body.accs.items():
            kind = changes[0].kind if changes[0].kind in ("push", "entry") else "number"
            if body.fold:
                body.aliases[name] = {"$get": [ref(loop), field[name]]}
            else:
                body.aliases[name] = final_value(
                    kind, inits[name], loop, field[name], changes, self.fresh, self.rec
                )
            state.finals[name] = (body.acc_kind[name], body.acc_let[name])
            body.alias_rec.append((name, body.acc_tok[name], pos, last + 1, end))

    def _items(self, header: tuple[str | None, int, Any, tuple[int, int]]) -> list[Any]:
        """``[...xs]``: the loop's list, iterated as JavaScript does."""
        _, _, iterable, (first, last) = header
        spread = {"$spread": iterable}
        self._put(spread, "$spread", first, last)
        items = [spread]
        self._put(items, 0, first, last)
        return items

    def _loop_tree(
        self,
        body: Body,
        header: tuple[str | None, int, Any, tuple[int, int]],
        body_first: int,
        end: int,
        field: dict[str, str],
        starts: dict[str, Any] | None,
    ) -> dict[str, Any]:
        """The loop's method call: ``[...xs].map(x => { ...; return record; })``, or, for a
        loop that reads what it changes (``starts``: each accumulator's value before it),
        ``[...xs].reduce((_s, x) => { ...; return state; }, initial)`` (:mod:`.loopfold`).
        ``field`` receives each accumulator's field of the record or the state."""
        if starts is None:
            result = record(body.accs, body.runs, field)
            fn_body: Any = {"$let": body.lets, "$return": result} if body.lets else result
            fn: list[Any] = [[body.param], fn_body]
            rest: list[Any] = []
        else:
            fn, initial = self._fold_fn(body, field, starts)
            rest = [initial]
        self._put(fn, 1, body_first, end)
        if body.loop is not None:  # `while`: `{"$while": [state, test, step]}` (loopwhile)
            made = while_tree(fn, rest[0], self.fresh("_t"))
            self._put(made["$while"], 0, *header[3])
            self._put(made["$while"], 2, body_first, end)
            return made
        method: list[Any] = [self._items(header), "reduce" if rest else "map", {"$fn": fn}, *rest]
        self._put(method, 0, *header[3])
        return {"$method": method}

    def _fold_fn(
        self, body: Body, field: dict[str, str], starts: dict[str, Any]
    ) -> tuple[list[Any], Any]:
        """The fold's step and its initial state. The state holds each accumulator; in the
        body, an accumulator's name is its value as the iteration starts."""
        s = body.state_param or self.fresh("_s")
        lets = body.lets
        initial: dict[str, Any] = {}
        for n, name in enumerate(body.accs):
            key = field[name] = f"a{n}"
            lets[name] = {"$get": [ref(s), key]}
            initial[key] = starts[name]
        result: dict[str, Any] = {field[name]: ref(body.version(name)) for name in body.accs}
        if body.runs:
            result["run"] = [ref(r) for r in body.runs]
        state: Any = literal(result)
        if body.breaks:  # `break`: the state says so, and the later items leave it as it is
            initial["done"] = False
            done: Any = True
            if None not in body.breaks:
                done = ref(body.breaks[0] or "")
                for reach in body.breaks[1:]:
                    done = {"$op": ["||", done, ref(reach or "")]}
            result["done"] = done
            state = {"$if": [{"$get": [ref(s), "done"]}, ref(s), literal(result)]}
        return [[s, body.param], {"$let": lets, "$return": state} if lets else state], literal(
            initial
        )

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
        and its changes to the enclosing loop's accumulators become changes of that loop (a
        fold inside: the fold's result, which makes the enclosing loop a fold too)."""
        end = self.pos - 1
        field: dict[str, str] = {}
        local = {name for name in body.accs if name in outer.declared}
        starts = {
            name: ref(self._rename_local(outer, name) if name in local else name)
            for name in (body.accs if body.fold else ())
        }
        tree = self._loop_tree(body, header, body_first, end, field, starts if body.fold else None)
        loop = self.fresh("_loop")
        outer.lets[loop] = self._when(reach, tree, None if body.fold else [], pos, end)
        self._put(outer.lets, loop, pos, end)
        outer.runs.append(loop)
        passed = frozenset(starts) - local
        held = len(outer.whole)
        outer.use(tree, pos, end, passed)  # (before its changes: it reads the values before)
        if body.returned_whole and len(outer.whole) > held:  # (read whole only to return)
            kept = set().union(*(names for names, _, _ in body.whole))
            dropped = body.returned_whole - kept
            names, first, last = outer.whole[held]
            outer.whole[held] = (names - dropped, first, last)
            outer.returned_whole |= dropped
        span = self._span(pos, end)
        for name, changes in body.accs.items():
            family = body.acc_kind[name]
            if name in local and body.fold:
                outer.lets[name] = {"$get": [ref(loop), field[name]]}
                self._put(outer.lets, name, pos, end)
                outer.local_finals[name] = family
            elif name in local:
                hidden = self._rename_local(outer, name)
                lets = outer.lets
                lets[name] = final_value(
                    family, hidden, loop, field[name], changes, self.fresh, self.rec
                )
                self._put(lets, name, pos, end)
                outer.local_finals[name] = family
            elif body.fold:
                hidden = self.fresh("_set")
                outer.lets[hidden] = {"$get": [ref(loop), field[name]]}
                self._put(outer.lets, hidden, pos, end)
                outer.add_change(name, Contribution("set", hidden, reach, span))
                outer.fold = True
            elif family == "number":
                outer.add_change(
                    name, Contribution("loop", loop, None, span, (field[name], changes))
                )
            else:
                hidden = self.fresh("_add" if family == "entry" else "_push")
                r = self.fresh("_r")
                get = {"$fn": [[r], {"$get": [ref(r), field[name]]}]}
                outer.lets[hidden] = {"$method": [ref(loop), "flatMap", get]}
                self._put(outer.lets, hidden, pos, end)
                outer.add_change(name, Contribution(family, hidden, None, span))

    def _rename_local(self, outer: Body, name: str) -> str:
        """The definition of ``outer``'s local ``name``, which a loop inside changes, renamed
        to a hidden local (a read of it before the loop: refused)."""
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
            self.rec[(self.rec.pin(lets), hidden)] = self.rec[(self.rec.pin(lets), name)]
        return hidden
