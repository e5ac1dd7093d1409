"""Which programs run as a static call graph (:mod:`dialectic.run.dagrun`), and its plan.

The program's top-level block qualifies when the result is an asynchronous call, an alias, or
an expression over them (an array or object of aliases, ``return {user, orders};``, or any
expression :mod:`dialectic.compiler.dagexprs` takes: ``{name: u.name, n: o.length}``), and
every alias the result reads, transitively, is an asynchronous call (:class:`~dialectic.
compiler.invoke_async.AsyncCall`: not an effect, a wait or a blocking function) or such an
expression, and every argument of those calls is a literal scalar, a context value, an array
or object of those, such an alias, a member of one, a nested call that fits, or such an
expression. Then every one of those aliases is surely evaluated (no condition, operator or
arrow decides whether), and nothing but a call or an expression can fail or wait. Aliases the
result does not read are not part of the graph (never evaluated, as in the lazy run);
synchronous aliases are left to their readers. Anything else, or a program with effects
(SPEC 17), runs the lazy way. A call or expression read by one reader may run in that
reader's task (:func:`~dialectic.compiler.dagexprs.inlined`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dialectic.compiler.dagexprs import ExprPlanner, Segment, inert, inlined, is_compound
from dialectic.compiler.invoke_async import AsyncCall
from dialectic.compiler.membergets import _computed_get, _values
from dialectic.run.compiled import Compiled
from dialectic.run.dagexpr import ExprRead, inline_reader, leaf_reader
from dialectic.run.dagrun import CONST, INLINE, LEAVE, SYNC, TASK, DagRun, MemberRead
from dialectic.run.state import MISSING
from dialectic.tree.nodes import Arr, Get, Invoke, Lit, Node, Obj
from dialectic.tree.resolved import AliasRef, Block, ContextRef
from dialectic.values.data import UNDEFINED

if TYPE_CHECKING:
    from dialectic.compiler.closures import Compiler

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


#: a call of the graph before its task is numbered: an alias by its slot, a nested call by
#: its node (its id)
_Key = tuple[str, int]
#: its arguments, an alias or nested call by key until the tasks are numbered
_Args = tuple[tuple[int, Any], ...]
_Found = tuple[AsyncCall | MemberRead | ExprRead, _Args]


class _Planner(ExprPlanner):
    """Finds the calls of the graph: the aliases that fit (``fits``), the nested calls found in
    their arguments (``nested``) and the member reads of aliases given as arguments
    (``members``), each with its argument plan."""

    def __init__(
        self, readers: dict[int, tuple[Compiled, Any]], member: Any, sites: dict[int, Compiled]
    ) -> None:
        self.readers = readers
        self.member = member
        self.sites = sites
        self.fits: dict[int, _Found] = {}
        self.nested: dict[int, _Found] = {}
        self.members: dict[int, _Found] = {}
        self.exprs: dict[int, Segment] = {}

    def call(self, node: Invoke, compiled: Compiled) -> _Found | None:
        """The call site of ``node`` and its argument plan, if every argument is a literal, a
        context value, or a read of an alias that fits, of a member of one (literal keys), or
        a nested call that fits."""
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
                continue
            if (type(a) is ContextRef or inert(a)) and spec.fn is not None:
                plan.append((SYNC, spec.fn))
                continue
            key = self._task(a, spec.given)
            if key is None:
                return None
            if spec.compiled is spec.given:
                plan.append((TASK, key))
            else:  # (checked as it leaves the run, as the lazy way's wrapper does)
                plan.append((LEAVE, (key, f"argument `{spec.name}`", a.path)))
        return call, tuple(plan)

    def _task(self, a: Node, given: Compiled | None) -> _Key | None:
        """The key of the task whose value argument ``a`` is, if it is one."""
        if given is None:
            return None
        if type(a) is AliasRef:
            # the read must be the alias's own reader
            if a.frame != -1 or a.slot not in self.fits or given is not self.readers[a.slot][0]:
                return None
            return ("alias", a.slot)
        if type(a) is Invoke:
            found = self.call(a, given)
            if found is None:
                return None
            self.nested[id(a)] = found
            return ("call", id(a))
        if type(a) is Get and not (
            a.optional
            or a.soft
            or type(a.target) is not AliasRef
            or a.target.frame != -1
            or a.target.slot not in self.fits
            or any(type(k) is not Lit for k in a.keys)
        ):
            target = a.target
            read = _computed_get(self.member, a.path, 0, 0)
            step = MemberRead(read, _values(a.keys))
            self.members[id(a)] = (step, ((TASK, ("alias", target.slot)),))
            return ("member", id(a))
        if is_compound(a):  # (an expression over the graph's calls: dagexprs)
            return self.segment(a)
        return None

    def found(self, key: _Key) -> _Found | None:
        kind = key[0]
        if kind == "expr":
            seg = self.exprs.get(key[1])
            return None if seg is None else seg[:2]
        table = self.fits if kind == "alias" else self.nested if kind == "call" else self.members
        return table.get(key[1])


def static_dag(
    block: Block,
    targets: dict[int, Compiled],
    readers: dict[int, tuple[Compiled, Any]],
    body: Compiled,
    member: Any,
    compiler: Compiler,
) -> Compiled | None:
    """The program's top-level ``block`` as a static call graph (see the module's docstring),
    falling back on ``body`` (its lazy evaluation); None if it does not qualify.
    ``targets``: each alias's compiled value by slot; ``readers``: each alias's reader and
    binding by slot (the compiler's own table); ``compiler`` compiles the graph's expressions
    (:mod:`dialectic.compiler.dagexprs`)."""
    if body.aio is None or not STATIC_DAGS:
        return None
    # the aliases that fit, in dependency order (each reads only earlier ones): no recursion
    # over a chain of aliases, whatever its length
    planner = _Planner(readers, member, compiler._async_sites)
    for b in block.bindings:
        if b.frame != -1:
            continue
        target = targets.get(b.slot)
        if type(b.node) is Invoke and target is not None:
            found = planner.call(b.node, target)
            if found is not None:
                planner.fits[b.slot] = found
        elif is_compound(b.node):
            planner.segment(b.node, b.slot)
    node = block.body
    root: _Found | None = None
    wanted: list[_Key] = []  # the result's calls
    if type(node) is Invoke:
        root = planner.call(node, body)
    elif type(node) is AliasRef and node.frame == -1:
        wanted = [("alias", node.slot)]
    elif _of_aliases(node):
        parts = node.items if type(node) is Arr else tuple(node.fields.values())  # type: ignore[attr-defined]
        wanted = [("alias", item.slot) for item in parts]  # type: ignore[union-attr]
    elif is_compound(node) and planner.segment(node) is not None:
        root = planner.exprs[id(node)][:2]
    if root is not None:
        wanted = [_key(kind, x) for kind, x in root[1] if kind >= TASK]
    if not wanted:
        return None
    order = _numbered(planner, wanted)
    if not order:
        return None
    inline = inlined(planner.found, order, root, wanted if root is None else [])
    # the tasks, then the expressions their readers evaluate (DagTasks.inline)
    numbered = [key for key in order if key not in inline] + [k for k in order if k in inline]
    index = {key: k for k, key in enumerate(numbered)}
    n_tasks = len(order) - len(inline)
    calls: list[AsyncCall | MemberRead | ExprRead] = []
    slots: list[int] = []
    every: list[_Found] = [root] if root is not None else []
    inline_calls: list[AsyncCall] = []  # (their limiters: see DagRun)
    for key in numbered:
        found = planner.found(key)
        assert found is not None
        if key in inline:
            if type(found[0]) is AsyncCall:
                inline_calls.append(found[0])
        else:
            calls.append(found[0])
            slots.append(key[1] if key[0] == "alias" else -1)  # (a failed run's partial result)
        every.append(found)
    exprs = _compiled_exprs(planner, every, index, n_tasks, compiler)
    if exprs is None:
        return None
    for call, args in every:
        dag_args = tuple(_numbered_arg(kind, x, index, n_tasks, planner) for kind, x in args)
        call.dag_args = dag_args
        if type(call) is ExprRead:
            call.inline_first = any(kind == INLINE for kind, _ in dag_args)
        if type(call) is AsyncCall:
            kinds = {kind for kind, _ in dag_args}
            call.dag_ready = kinds <= {CONST, SYNC}
            if kinds == {TASK} and len(dag_args) <= 3:
                call.dag_tasks = tuple(x for _, x in dag_args)
    items = [index[key] for key in wanted] if root is None else []
    array = type(node) is Arr
    fallback = body.aio
    root_call = root[0] if root is not None else None
    assert not isinstance(root_call, MemberRead)  # (a call or an expression, never a member read)
    keys = tuple(node.fields) if type(node) is Obj and root is None else None
    first = _made_first(root_call, len(calls))
    made_first = {("alias", first[1])} if first is not None else set()
    memo_first = exprs or any(key[0] == "alias" and key not in made_first for key in inline)
    chains, own = _chained(calls, first[0] if first is not None else root_call, items)
    run = DagRun(
        calls,
        slots,
        root_call,
        items,
        array,
        fallback,
        keys,
        memo_first,
        len(inline),
        first,
        chains,
        own,
    )
    run.add_shared(inline_calls)
    return Compiled(aio=run.run)


def _made_first(root: AsyncCall | ExprRead | None, n_tasks: int) -> tuple[AsyncCall, int] | None:
    """The call the result's call reads that the run's task makes first, before the result's
    call (``DagRun.pre``), and its memo slot: when the result is a call and that is the one
    argument it evaluates in the run's task (INLINE), unchecked as it leaves. Its place among
    the result's arguments becomes the done future the run puts after the graph's tasks
    (``n_tasks``), read as a task is."""
    if type(root) is not AsyncCall or root.dag_args is None:
        return None
    inline = [x for kind, x in root.dag_args if kind == INLINE]
    if len(inline) != 1 or type(inline[0][0]) is not AsyncCall or inline[0][1] is not None:
        return None
    args = tuple((TASK, n_tasks) if kind == INLINE else (kind, x) for kind, x in root.dag_args)
    root.dag_args = args
    kinds = {kind for kind, _ in args}
    root.dag_tasks = tuple(x for _, x in args) if kinds == {TASK} and len(args) <= 3 else None
    return inline[0][0], inline[0][4]


def _chained(
    calls: list[AsyncCall | MemberRead | ExprRead],
    reader: AsyncCall | ExprRead | None,
    items: list[int],
) -> tuple[list[list[int]], list[int]]:
    """The graph's tasks joined into chains that one task makes in turn (``DagRun.starts``):
    each call after one it reads, whose first reader it is (in the graph's order), unless it
    evaluates arguments in its own task first (INLINE: those would start late). Each call of a
    chain then starts when it would in a task of its own (it waits for the one before anyway);
    a task is the costliest part of a call here. ``own``: the chain the run's own task makes
    first, one whose last call ``reader`` (the call the run's task makes first, else the
    result's call) reads, or one of the result's aliases ``items``; none when ``reader``
    evaluates arguments in its own task (they would start late)."""
    n = len(calls)
    after = [-1] * n  # (the call each one's chain makes next)
    before = [-1] * n
    for k, call in enumerate(calls):
        args = call.dag_args or ()
        if any(kind == INLINE for kind, _ in args):
            continue
        for kind, x in args:
            p = x if kind == TASK else x[0] if kind == LEAVE else -1
            if 0 <= p < n and after[p] < 0:
                after[p], before[k] = k, p
                break
    tails: list[int] = []
    if reader is not None:
        args = reader.dag_args or ()
        if not any(kind == INLINE for kind, _ in args):
            for kind, x in args:
                p = x if kind == TASK else x[0] if kind == LEAVE else -1
                if 0 <= p < n:
                    tails.append(p)
    else:
        tails = list(items)
    own: list[int] = []
    for p in tails:
        if after[p] < 0:
            while p >= 0:
                own.append(p)
                p = before[p]
            own.reverse()
            break
    mine = set(own)
    chains: list[list[int]] = []
    for k in range(n):
        if before[k] < 0 and after[k] >= 0 and k not in mine:
            chain = [k]
            while after[chain[-1]] >= 0:
                chain.append(after[chain[-1]])
            chains.append(chain)
    return chains, own


def _of_aliases(node: Node) -> bool:
    """Whether ``node`` is an array or object of the program's aliases (``{user, orders}``)."""
    if type(node) is Arr and node.items:
        parts: Any = node.items
    elif type(node) is Obj and node.fields:
        parts = node.fields.values()
    else:
        return False
    return all(type(item) is AliasRef and item.frame == -1 for item in parts)


def _compiled_exprs(
    planner: _Planner,
    every: list[_Found],
    index: dict[_Key, int],
    n_tasks: int,
    compiler: Compiler,
) -> bool | None:
    """Compiles each expression of the graph with its calls read from their tasks; whether there
    is one (a run then makes its memo first: an expression may count steps there); None if one
    does not compile so (the program runs the lazy way)."""
    segments = {id(seg[0]): seg for seg in planner.exprs.values()}
    any_expr = False
    for call, _ in every:
        if type(call) is not ExprRead:
            continue
        seg = segments[id(call)]
        leaves = {nid: _reader(index[key], n_tasks) for nid, key in seg[3].items()}
        compiled = compiler.twin(seg[2], leaves)
        if compiled is None:
            return None
        assert compiled.sync is not None
        call.fn = compiled.sync
        any_expr = True
    return any_expr


def _numbered(planner: _Planner, wanted: list[_Key]) -> list[_Key] | None:
    """The calls the result reads, transitively, each after the calls it reads (an explicit
    stack: no recursion); None if one of them does not fit."""
    order: list[_Key] = []
    state: dict[_Key, bool] = {}  # False: its arguments are being visited; True: numbered
    stack: list[tuple[_Key, bool]] = [(key, False) for key in reversed(wanted)]
    while stack:
        key, ready = stack.pop()
        if ready:
            if not state[key]:
                state[key] = True
                order.append(key)
            continue
        if key in state:
            continue
        found = planner.found(key)
        if found is None:
            return None
        state[key] = False
        stack.append((key, True))
        stack.extend((_key(kind, x), False) for kind, x in reversed(found[1]) if kind >= TASK)
    return order


def _key(kind: int, x: Any) -> _Key:
    """The task key of an argument of kind TASK or LEAVE."""
    return x if kind == TASK else x[0]  # type: ignore[no-any-return]


def _numbered_arg(
    kind: int, x: Any, index: dict[_Key, int], n_tasks: int, planner: _Planner
) -> tuple[int, Any]:
    """An argument's plan with its task's number in place of its key (an expression its
    reader evaluates: INLINE, with the place of its value in ``DagTasks.inline``)."""
    if kind in (TASK, LEAVE):
        key = x if kind == TASK else x[0]
        k = index[key]
        if k >= n_tasks:
            found = planner.found(key)
            assert found is not None
            what, path = (None, None) if kind == TASK else (x[1], x[2])
            slot = key[1] if key[0] == "alias" else -1  # (its value to the memo)
            return INLINE, (found[0], what, path, k - n_tasks, slot)
        return (kind, k) if kind == TASK else (kind, (k, x[1], x[2]))
    return kind, x


def _reader(k: int, n_tasks: int) -> Compiled:
    """Reads the value of the graph's task ``k``, or of its expression ``k`` evaluated by its
    reader."""
    return leaf_reader(k) if k < n_tasks else inline_reader(k - n_tasks)
