"""Which programs run as a static call graph (:mod:`dialectic.run.dagrun`), and its plan.

The program's top-level block qualifies when the result is an asynchronous call, an alias, or
an array of aliases, and every alias the result reads, transitively, is an asynchronous call
(:class:`~dialectic.compiler.invoke_async.AsyncCall`: not an effect, a wait or a blocking
function) whose arguments are each a literal scalar, a context value or such an alias. Then
every one of those aliases is surely evaluated (no condition, operator or arrow decides
whether), and nothing but a call can fail or wait. Aliases the result does not read are not
part of the graph (never evaluated, as in the lazy run); synchronous aliases are left to their
readers. Anything else, or a program with effects (SPEC 17), runs the lazy way.
"""

from __future__ import annotations

from typing import Any

from dialectic.compiler.invoke_async import AsyncCall
from dialectic.run.compiled import Compiled
from dialectic.run.dagrun import CONST, SYNC, TASK, DagRun
from dialectic.run.state import MISSING
from dialectic.tree.nodes import Arr, Invoke, Lit, Node
from dialectic.tree.resolved import AliasRef, Block, ContextRef
from dialectic.values.data import UNDEFINED

#: programs that qualify run as a static call graph (a test turns this off to run them the
#: lazy way, and compares the two)
STATIC_DAGS = True


def _async_call(compiled: Compiled) -> AsyncCall | None:
    """The call site behind ``compiled`` if it is an asynchronous call's own coroutine."""
    aio = compiled.aio
    owner = getattr(aio, "__self__", None)
    if type(owner) is AsyncCall and getattr(aio, "__func__", None) is AsyncCall.call_async:
        return owner
    return None


#: an argument of a call of the graph, by alias slot until the tasks are numbered
_Args = tuple[tuple[int, Any], ...]


def _call_plan(
    node: Invoke, compiled: Compiled, readers: dict[int, Any], fits: dict[int, Any]
) -> tuple[AsyncCall, _Args] | None:
    """The call site of ``node`` and its argument plan (an alias argument by its slot), if
    every argument is a literal, a context value or a plain read of an alias in ``fits``."""
    call = _async_call(compiled)
    if call is None or call.site.blocking or len(call.site.args) != len(node.args):
        return None
    plan: list[tuple[int, Any]] = []
    for spec, arg in zip(call.site.args, node.args, strict=True):
        a: Node = arg.node
        if spec.name != arg.param.name:
            return None
        if type(a) is Lit and spec.const is not MISSING and spec.const is not UNDEFINED:
            plan.append((CONST, spec.const))
        elif type(a) is ContextRef and spec.fn is not None:
            plan.append((SYNC, spec.fn))
        elif type(a) is AliasRef and a.frame == -1 and a.slot in fits:
            if spec.compiled is not readers.get(a.slot):  # (wrapped: not a plain read)
                return None
            plan.append((TASK, a.slot))
        else:
            return None
    return call, tuple(plan)


def static_dag(
    block: Block,
    targets: dict[int, Compiled],
    readers: dict[int, Any],
    body: Compiled,
) -> Compiled | None:
    """The program's top-level ``block`` as a static call graph (see the module's docstring),
    falling back on ``body`` (its lazy evaluation); None if it does not qualify.
    ``targets``: each alias's compiled value by slot; ``readers``: each alias's reader."""
    if body.aio is None or not STATIC_DAGS:
        return None
    # the aliases that fit, in dependency order (each reads only earlier ones): no recursion,
    # whatever the length of a chain
    fits: dict[int, tuple[AsyncCall, _Args]] = {}
    for b in block.bindings:
        target = targets.get(b.slot)
        if b.frame == -1 and type(b.node) is Invoke and target is not None:
            found = _call_plan(b.node, target, readers, fits)
            if found is not None:
                fits[b.slot] = found
    node = block.body
    root: tuple[AsyncCall, _Args] | None = None
    wanted: list[int] = []  # the result's aliases, by slot
    if type(node) is Invoke:
        root = _call_plan(node, body, readers, fits)
        if root is None:
            return None
        wanted = [x for kind, x in root[1] if kind == TASK]
    elif type(node) is AliasRef and node.frame == -1:
        wanted = [node.slot]
    elif type(node) is Arr and node.items:
        for item in node.items:
            if type(item) is not AliasRef or item.frame != -1:
                return None
            wanted.append(item.slot)
    else:
        return None
    # the aliases the result reads, transitively: all must fit
    reached: set[int] = set()
    stack = list(wanted)
    while stack:
        slot = stack.pop()
        if slot in reached:
            continue
        if slot not in fits:
            return None
        reached.add(slot)
        stack.extend(x for kind, x in fits[slot][1] if kind == TASK)
    if not reached:
        return None
    # numbered in dependency order; each argument plan now names its alias's task
    index: dict[int, int] = {}
    calls: list[AsyncCall] = []
    slots: list[int] = []
    for b in block.bindings:
        if b.frame == -1 and b.slot in reached and b.slot not in index:
            index[b.slot] = len(calls)
            calls.append(fits[b.slot][0])
            slots.append(b.slot)
    every = [fits[slot] for slot in slots] + ([root] if root is not None else [])
    for call, args in every:
        call.dag_args = tuple((kind, index[x] if kind == TASK else x) for kind, x in args)
    items = [index[slot] for slot in wanted] if root is None else []
    array = type(node) is Arr
    fallback = body.aio
    return Compiled(aio=DagRun(calls, slots, root[0] if root else None, items, array, fallback).run)
