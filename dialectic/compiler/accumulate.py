"""A ``reduce`` whose steps change its own accumulator in place (SPEC 1.8, "``reduce``").

The resolver (:mod:`dialectic.resolve.accumulate`) marks the ``reduce`` arrows whose
accumulator nothing but the step can hold, and the merge (``{...acc, [k]: v}``) or array
(``[...acc, x]``) that makes each step's result. Such a ``reduce`` applies its arrow in an
:class:`Owner` frame, which carries from step to step the accumulator the reduce made itself;
the marked merge evaluates its parts as before, then, when its base is that accumulator,
changes it in place (the cost of the change, not of the accumulator), else copies the base
once and owns the copy. The initial value, or an item of the array, is never changed; the keys
keep the places the copy would give them; every check (a part that is no object, the
10,000,000-item limit) is the copy's own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from dialectic.compiler.arrows import (
    FRAME,
    Arrow,
    Frame,
    Steps,
    merge,
    proto_merged,
    refused,
    spread_args,
)
from dialectic.outcome.errors import JSONPath
from dialectic.resolve.foldinner import INNER
from dialectic.run.evaluator import Compiled, State
from dialectic.tree.nodes import Cond, Node
from dialectic.tree.resolved import AliasRef, Block
from dialectic.values.arraysets import item_index, set_item
from dialectic.values.jsnumber import JsRefusal

__all__ = [
    "ACC",
    "COPY_STEP",
    "concat_owned",
    "Owner",
    "counted",
    "step_results",
    "merge_owned",
    "owned_step",
    "pop_owned",
    "push_owned",
    "set_owned",
    "reduce_owned",
    "reduce_owned_async",
    "spread_owned",
]


#: the ``field`` of a ``reduce`` step's own accumulator (not a fold's field)
ACC = "\x00acc"
#: items a step may copy per step it counts against ``max_steps`` (SPEC 7)
COPY_STEP = 256


class Owner(Frame):
    """A ``reduce`` step's frame; ``owned``: the accumulator this reduce made (a copy nothing
    else holds), which its step may change in place, or None; ``fields``: for a fold, each
    field's array or object it made (:mod:`dialectic.resolve.foldstate`); ``copied``: the
    items and keys the step's marked changes copied (counted against ``max_steps``)."""

    __slots__ = ("owned", "fields", "copied")

    def __init__(
        self, args: tuple[Any, ...], size: int, owned: Any, fields: dict[str, Any]
    ) -> None:
        Frame.__init__(self, args, size)
        self.owned = owned
        self.fields = fields
        self.copied = 0


def merge_owned(frame: int, field: str | None, path: JSONPath, parts: list[Any]) -> dict[str, Any]:
    """``{...acc, ...parts}`` (``parts[0]`` is ``acc``) in the step of the reduce at nesting
    level ``frame``: ``acc`` changed in place when that reduce owns it (else a new object,
    which it owns from then on). ``field``: :data:`ACC` for the reduce's accumulator, a fold's
    field, or None (a fold's change that copies)."""
    owner = FRAME.get()[frame]
    base = parts[0]
    if type(owner) is not Owner:  # (not applied by a reduce that owns: as written)
        return merge(parts, path)
    if field == INNER:
        return _merge_inner(owner, path, parts)
    if type(base) is dict:
        if field is None:
            owner.copied += len(base)
            return merge(parts, path)
        if base is not _owned(owner, field):
            if "__proto__" in base:  # (the initial value: each part merged is checked)
                raise proto_merged(path)
            owner.copied += len(base)
            base = _own(owner, field, dict(base))
        return merge(parts[1:], path, base) if len(parts) > 1 else base
    out = merge(parts, path)  # ({...null, k: v}, or a failure)
    return _own(owner, field, out) if field is not None else out


def spread_owned(
    frame: int, field: str | None, spreads: Sequence[bool], path: JSONPath, items: list[Any]
) -> list[Any]:
    """``[...acc, ...items]`` (``items[0]`` is ``acc``, spread) as :func:`merge_owned`."""
    owner = FRAME.get()[frame]
    base = items[0]
    if type(owner) is not Owner:
        return spread_args(items, spreads, path)
    if field == INNER:
        return _spread_inner(owner, spreads, path, items)
    if type(base) is list:
        if field is None:
            owner.copied += len(base)
            return spread_args(items, spreads, path)
        if base is not _owned(owner, field):
            owner.copied += len(base)
            base = _own(owner, field, list(base))
        return spread_args(items[1:], spreads[1:], path, base)
    out = spread_args(items, spreads, path)  # ([..."ab", x], or a failure)
    return _own(owner, field, out) if field is not None else out


def pop_owned(frame: int, field: str | None, path: JSONPath, parts: list[Any]) -> Any:
    """``stack.slice(0, -1)`` (a stack's ``pop()``) in the step of the fold at nesting level
    ``frame``: the last item removed in place when the fold owns the array (O(1)), else a copy
    without it, which the fold owns from then on."""
    owner = FRAME.get()[frame]
    base = parts[0]
    if type(base) is not list:  # (a stack is an array the program made: never so)
        raise refused(JsRefusal("pop() of a value that is not an array"), "pop", path)
    if type(owner) is not Owner or field is None:
        if type(owner) is Owner:
            owner.copied += len(base)
        return base[:-1]
    if base is not _owned(owner, field):
        owner.copied += len(base)
        return _own(owner, field, base[:-1])
    if base:
        del base[-1]
    return base


def set_owned(frame: int, field: str | None, path: JSONPath, parts: list[Any]) -> Any:
    """``xs.[]=(i, v)`` (``xs[i] = v;``, SPEC 10) in the step of the fold at nesting level
    ``frame``: the item set in place when the fold owns the array (O(1)), else in a copy,
    which the fold owns from then on; the index checked as :func:`.set_item` checks it."""
    owner = FRAME.get()[frame]
    base, key, value = parts
    if field == INNER and type(owner) is Owner:
        return _set_inner(owner, path, base, key, value)
    if type(base) is not list:
        return _set_copy(base, key, value, path)
    if type(owner) is not Owner or field is None or base is not _owned(owner, field):
        if type(owner) is Owner:
            owner.copied += len(base)
        out = _set_copy(base, key, value, path)
        return _own(owner, field, out) if type(owner) is Owner and field is not None else out
    return _set_in_place(base, key, value, path)


def _set_in_place(items: list[Any], key: Any, value: Any, path: JSONPath) -> list[Any]:
    """``items[key] = value`` on the array itself (the index checked as :func:`.set_item`
    checks it: one past the end appends)."""
    try:
        k = item_index(key, len(items))
    except JsRefusal as exc:
        raise refused(exc, "[]=", path) from None
    if k == len(items):
        items.append(value)
    else:
        items[k] = value
    return items


def _set_copy(base: Any, key: Any, value: Any, path: JSONPath) -> Any:
    """``base[key] = value`` in a copy (:func:`.set_item`), a refusal told at ``path``."""
    try:
        return set_item(base, key, value)
    except JsRefusal as exc:
        raise refused(exc, "[]=", path) from None


def concat_owned(
    gathered: Compiled,
    frame: int,
    field: str | None,
    spreads: Sequence[bool],
    path: JSONPath,
    steps: Steps,
    plain: Callable[[Any, list[Any], State], Any],
) -> Compiled:
    """``acc.concat(...)`` (``gathered``: the receiver's and the arguments' values) in the step
    of the fold or reduce at nesting level ``frame``: the arguments appended to ``acc`` in
    place when that fold owns it (an array argument's items, any other value as one item, as
    ``concat`` does), else to a copy of it, which the fold owns from then on (``field`` None:
    a change that copies). One step, and one per :data:`COPY_STEP` items copied or appended;
    a receiver that is no array is ``plain``'s (a text's ``concat``, a refusal)."""

    def finish(s: State, vs: list[Any]) -> Any:
        base = vs[0]
        rest = spread_args(vs[1:], spreads, path)
        if type(base) is not list:
            return plain(base, rest, s)
        owner = FRAME.get()[frame]
        copied = 0
        if type(owner) is not Owner or field is None:
            copied = len(base)
            base = list(base)
        elif field == INNER:  # (a list inside the accumulator: grown if its inner arrays made it)
            lists = _made_inner(owner)
            if lists.get(id(base)) is not base:
                copied = len(base)
                base = list(base)
                lists[id(base)] = base
        elif base is not _owned(owner, field):
            copied = len(base)
            base = _own(owner, field, list(base))
        before = len(base)
        spread_args(rest, [type(v) is list for v in rest], path, base)
        steps.take(s, 1 + (copied + len(base) - before) // COPY_STEP)
        return base

    sync = gathered.sync
    if sync is not None:
        return Compiled(sync=lambda s: finish(s, sync(s)))
    aio = gathered.aio
    assert aio is not None

    async def arun(s: State) -> Any:
        return finish(s, await aio(s))

    return Compiled(aio=arun)


def _spread_inner(
    owner: Owner, spreads: Sequence[bool], path: JSONPath, items: list[Any]
) -> list[Any]:
    """``[...(acc[k] ?? []), x]`` inside an accumulator (:mod:`dialectic.resolve.foldinner`):
    the list grown in place when this reduce's inner arrays made it, else a new one."""
    base = items[0]
    lists = _made_inner(owner)
    if type(base) is list and lists.get(id(base)) is base:
        return spread_args(items[1:], spreads[1:], path, base)
    out = spread_args(items, spreads, path)
    if type(base) is list:
        owner.copied += len(base)
    lists[id(out)] = out  # (kept: no other list can take its id while the reduce runs)
    return out


def push_owned(frame: int, field: str | None, path: JSONPath, parts: list[Any]) -> Any:
    """``row.toSpliced(row.length, 0, x, ...)``, a push onto a row inside an accumulator
    (:mod:`dialectic.resolve.matrixinner`, ``g[i].push(x)``): the items appended in place when
    this fold's inner changes made the row, else to a copy (the row copied once), kept as
    made; a row that is no array is refused, as JavaScript's ``push`` throws."""
    owner = FRAME.get()[frame]
    base = parts[0]
    if type(base) is not list:
        raise refused(JsRefusal("push() onto a value that is not an array"), "push", path)
    if type(owner) is not Owner or field != INNER:
        return [*base, *parts[3:]]
    made = _made_inner(owner)
    if made.get(id(base)) is base:
        row: list[Any] = made[id(base)]
        row.extend(parts[3:])
        return row
    owner.copied += len(base)
    out = [*base, *parts[3:]]
    made[id(out)] = out  # (kept: no other list can take its id while the fold runs)
    return out


def _set_inner(owner: Owner, path: JSONPath, base: Any, key: Any, value: Any) -> Any:
    """``row.[]=(j, v)``, a row inside an accumulator (:mod:`dialectic.resolve.matrixinner`,
    ``g[i][j] = v``): the item set in place when this fold's inner sets made the row, else in
    a copy (the row copied once), kept as made."""
    made = _made_inner(owner)
    if type(base) is list and made.get(id(base)) is base:
        return _set_in_place(made[id(base)], key, value, path)
    out = _set_copy(base, key, value, path)
    if type(base) is list:
        owner.copied += len(base)
        made[id(out)] = out  # (kept: no other list can take its id while the fold runs)
    return out


def _merge_inner(owner: Owner, path: JSONPath, parts: list[Any]) -> dict[str, Any]:
    """``{...acc[k], ...Object.fromEntries([[j, v]])}``, a record inside an accumulator
    (:mod:`dialectic.resolve.recordinner`, ``t[k][j] = v``): the record changed in place when
    this fold's inner merges made it, else a new one (the record copied once), kept as made."""
    base = parts[0]
    made = _made_inner(owner)
    if type(base) is dict and made.get(id(base)) is base:
        return merge(parts[1:], path, base)
    out = merge(parts, path)
    if type(base) is dict:
        owner.copied += len(base)
    made[id(out)] = out  # (kept: no other object can take its id while the fold runs)
    return out


def _made_inner(owner: Owner) -> dict[int, Any]:
    """What this fold's inner changes made (arrays and records inside the accumulator), by
    their ids: grown or changed in place, never copied again."""
    made: dict[int, Any] | None = owner.fields.get(INNER)
    if made is None:
        made = owner.fields[INNER] = {}
    return made


def _owned(owner: Owner, field: str) -> Any:
    return owner.owned if field == ACC else owner.fields.get(field)


def _own(owner: Owner, field: str, value: Any) -> Any:
    if field == ACC:
        owner.owned = value
    else:
        owner.fields[field] = value
    return value


def counted(made: Compiled, steps: Steps) -> Compiled:
    """``made``, an array a spread makes or an object a merge makes, with what it copied
    counted against ``max_steps``: one step per :data:`COPY_STEP` items or keys (SPEC 7), so a
    loop or a ``reduce`` that copies a growing array or object (``acc = {...acc, k: [...acc.k,
    x]}``, where no change is made in place) stops at the limit, not at the deadline."""
    sync = made.sync
    if sync is not None:

        def run(s: State) -> Any:
            out = sync(s)
            if len(out) >= COPY_STEP:
                steps.take(s, len(out) // COPY_STEP)
            return out

        return Compiled(sync=run)
    aio = made.aio
    assert aio is not None

    async def arun(s: State) -> Any:
        out = await aio(s)
        if len(out) >= COPY_STEP:
            steps.take(s, len(out) // COPY_STEP)
        return out

    return Compiled(aio=arun)


def step_results(body: Node) -> list[Node]:
    """The nodes whose value may be a ``reduce`` step's result (its body, a block's result or
    the alias it gives, the branches of ``? :``): ``reduce`` counts a new accumulator's copy
    itself."""
    out: list[Node] = []
    bound: dict[int, Node] = {}
    seen: set[int] = set()
    stack = [body]
    while stack:
        n = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        if type(n) is Block:
            bound.update((b.slot, b.node) for b in n.bindings)
            stack.append(n.body)
        elif type(n) is Cond:
            stack.append(n.then)
            stack.append(n.otherwise)
        elif type(n) is AliasRef and n.slot in bound:
            stack.append(bound[n.slot])
        else:
            out.append(n)
    return out


def owned_step(
    body: Callable[[State], Any],
    s: State,
    args: tuple[Any, ...],
    size: int,
    owned: Any,
    fields: dict[str, Any],
    steps: Steps,
) -> tuple[Any, Any]:
    """One application of a step (a ``reduce``'s, a ``$while``'s) that changes in place what
    it made: its value, and the accumulator it owns after it; what it copied is counted."""
    frame = Owner(args, size, owned, fields)
    token = FRAME.set((*FRAME.get(), frame))
    try:
        out = body(s)
    finally:
        FRAME.reset(token)
    if frame.copied >= COPY_STEP:
        steps.take(s, frame.copied // COPY_STEP)
    return out, frame.owned


def reduce_owned(
    arrow: Arrow, s: State, xs: list[Any], acc: Any, order: range, steps: Steps
) -> Any:
    """The loop of ``reduce_sync`` for an arrow that changes its accumulator in place."""
    body = arrow.body.sync
    assert body is not None
    size = arrow.locals
    owned = None
    fields: dict[str, Any] = {}
    for i in order:
        steps.take(s, 1)
        acc, owned = owned_step(body, s, (acc, xs[i], i, xs), size, owned, fields, steps)
    return acc


async def reduce_owned_async(
    arrow: Arrow, s: State, xs: list[Any], acc: Any, order: range, steps: Steps
) -> Any:
    """:func:`reduce_owned` for an arrow that awaits."""
    body = arrow.body
    size = arrow.locals
    owned = None
    fields: dict[str, Any] = {}
    for i in order:
        steps.take(s, 1)
        frame = Owner((acc, xs[i], i, xs), size, owned, fields)
        token = FRAME.set((*FRAME.get(), frame))
        try:
            acc = body.sync(s) if body.sync is not None else await body.aio(s)  # type: ignore[misc]
        finally:
            FRAME.reset(token)
        owned = frame.owned
        if frame.copied >= COPY_STEP:
            steps.take(s, frame.copied // COPY_STEP)
    return acc
