"""Recursive functions compiled (``$letrec``, ``$apply``: SPEC 1.2, SPEC 7 ``max_recursion``).

Each function of a ``$letrec`` is compiled once, as an arrow function; an ``$apply`` evaluates
its arguments, then runs the body in a fresh stack of frames holding one frame: the
application's arguments and alias slots (:class:`RecFrame`, which also knows how deep the
recursion is). A group whose bodies call registered functions is compiled as asynchronous (an
application awaits its body); one whose bodies call none, as synchronous, unless a body comes
out asynchronous all the same: then it and the functions applying it are asynchronous, and
the group is compiled once more.

Bounds: each application is a method step (``max_steps``: an exponential ``fib(40)`` stops
there, and at the deadline, which the steps check); applications nested more than
``max_recursion`` deep are ``limit_exceeded``. Python's own stack never overflows: an
application that finds the stack deep (:data:`STACK_ROOM` frames from Python's recursion
limit) goes on in a fresh stack, a thread of its own (synchronous) or a task of its own
(asynchronous, on asyncio), or else stops with ``limit_exceeded``.
"""

from __future__ import annotations

import asyncio
import sys
import threading
from contextvars import copy_context
from typing import TYPE_CHECKING, Any

from dialectic.compiler.lambdas import FRAME, Arrow, Frame, Steps
from dialectic.limits import Limits
from dialectic.outcome.errors import DialecticError, JSONPath, LimitExceeded
from dialectic.run.evaluator import Compiled, State
from dialectic.run.gather import async_many, sync_many
from dialectic.tree.nodes import Invoke, Lambda, Node
from dialectic.tree.recursion import Apply, LetRec
from dialectic.tree.walking import walk

__all__ = ["RecursionMixin"]

#: the Python frames an application leaves free below Python's recursion limit: deeper, it
#: goes on in a fresh stack (a body nested as deep as ``max_depth`` allows fits in it)
STACK_ROOM = 600


class RecFrame(Frame):
    """The frame of an application of a recursive function: ``depth`` applications deep."""

    __slots__ = ("depth",)

    def __init__(self, args: tuple[Any, ...], size: int, depth: int) -> None:
        super().__init__(args, size)
        self.depth = depth


class _Fn:
    """A function of a ``$letrec`` while it is compiled: its arrow, once made, and whether it
    is taken to be asynchronous."""

    __slots__ = ("name", "arrow", "is_async")

    def __init__(self, name: str) -> None:
        self.name = name
        self.arrow: Arrow | None = None
        self.is_async = False


def _deep() -> bool:
    """Whether Python's stack is within :data:`STACK_ROOM` frames of its recursion limit."""
    try:
        sys._getframe(max(sys.getrecursionlimit() - STACK_ROOM, 100))
    except ValueError:
        return False
    return True


class _Application:
    """What every application of one ``$apply`` shares."""

    __slots__ = ("fn", "steps", "limit", "path")

    def __init__(self, fn: _Fn, steps: Steps, limits: Limits, path: JSONPath) -> None:
        self.fn = fn
        self.steps = steps
        self.limit = limits.max_recursion
        self.path = path

    def frame(self, s: State, args: tuple[Any, ...]) -> RecFrame:
        frames = FRAME.get()
        outer = frames[0] if frames else None
        depth = outer.depth + 1 if type(outer) is RecFrame else 1
        if depth > self.limit:
            raise LimitExceeded(
                "max_recursion",
                f"the function `{self.fn.name}` was applied more than {self.limit} deep "
                "(recursion that does not reach its base case, or data nested deeper)",
                self.path,
            )
        self.steps.take(s, 1)
        arrow = self.fn.arrow
        assert arrow is not None
        return RecFrame(args, arrow.locals, depth)

    def run(self, s: State, args: tuple[Any, ...]) -> Any:
        frame = self.frame(s, args)
        body = self.fn.arrow.body.sync  # type: ignore[union-attr]
        assert body is not None
        if _deep():
            return _in_thread(body, s, frame)
        token = FRAME.set((frame,))
        try:
            return body(s)
        finally:
            FRAME.reset(token)

    async def arun(self, s: State, args: tuple[Any, ...]) -> Any:
        frame = self.frame(s, args)
        body = self.fn.arrow.body  # type: ignore[union-attr]
        if _deep():
            if body.sync is not None:
                return _in_thread(body.sync, s, frame)
            if not s.native:
                raise LimitExceeded(
                    "max_recursion",
                    f"the function `{self.fn.name}` is applied too deep for the stack here",
                    self.path,
                )
            return await asyncio.ensure_future(self._fresh(s, frame))
        return await self._fresh(s, frame)

    async def _fresh(self, s: State, frame: RecFrame) -> Any:
        token = FRAME.set((frame,))
        try:
            body = self.fn.arrow.body  # type: ignore[union-attr]
            if body.sync is not None:
                return body.sync(s)
            return await body.aio(s)  # type: ignore[misc]
        finally:
            FRAME.reset(token)


def _in_thread(body: Any, s: State, frame: RecFrame) -> Any:
    """``body`` applied in ``frame`` on a thread of its own: a fresh Python stack."""
    out: list[Any] = []
    failed: list[BaseException] = []

    def go() -> None:
        FRAME.set((frame,))
        try:
            out.append(body(s))
        except BaseException as exc:  # (raised again in the caller's thread)
            failed.append(exc)

    context = copy_context()
    thread = threading.Thread(target=context.run, args=(go,), name="dialectic-recursion")
    thread.start()
    thread.join()
    if failed:
        raise failed[0]
    return out[0]


def _asynchronous(group: dict[str, _Fn], node: LetRec, arrows: list[Arrow]) -> None:
    """Mark the functions of ``group`` that are asynchronous: those whose body compiled as
    asynchronous (``arrows``), and those that apply one of them (one walk of each body, then
    through the callers: linear)."""
    callers: dict[str, set[str]] = {name: set() for name in group}
    todo: list[str] = []
    for name, fn, arrow in zip(node.names, node.fns, arrows, strict=True):
        if arrow.is_async:
            group[name].is_async = True
            todo.append(name)
        for n in walk(fn.body):
            if type(n) is Apply and n.name in callers:
                callers[n.name].add(name)
    while todo:
        for caller in callers[todo.pop()]:
            if not group[caller].is_async:
                group[caller].is_async = True
                todo.append(caller)


class RecursionMixin:
    """``$letrec`` and ``$apply`` (a mixin of the compiler)."""

    #: the functions of the enclosing ``$letrec`` groups, innermost last
    _rec_groups: tuple[dict[str, _Fn], ...] = ()
    #: the functions of each ``$letrec`` (by id) found asynchronous, once one was compiled
    #: again: compiled again inside an enclosing group's second compile, it starts from them
    #: (so each ``$letrec`` is compiled at most once more than its enclosing ones)
    _rec_known: dict[int, frozenset[str]] | None = None

    if TYPE_CHECKING:
        limits: Limits
        _locals: dict[tuple[int, int], Compiled]

        def compile(self, node: Node) -> Compiled: ...

        def _steps(self, path: JSONPath) -> Steps: ...

    def _LetRec(self, node: LetRec) -> Compiled:
        group = {name: _Fn(name) for name in node.names}
        outer = self._rec_groups
        self._rec_groups = (*outer, group)
        known = self._rec_known
        if known is None:
            known = self._rec_known = {}
        taken = known.get(id(node))
        if taken is None:  # (a body that calls a registered function: the group is async)
            calls = any(type(n) is Invoke for fn in node.fns for n in walk(fn.body))
            taken = frozenset(node.names) if calls else frozenset()
        for name, fn in group.items():
            fn.is_async = name in taken
        try:
            arrows = [self._recursive(fn) for fn in node.fns]
            if any(
                a.is_async and not f.is_async for a, f in zip(arrows, group.values(), strict=True)
            ):
                _asynchronous(group, node, arrows)  # (and their callers: compiled once more)
                known[id(node)] = frozenset(n for n, f in group.items() if f.is_async)
                arrows = [self._recursive(fn) for fn in node.fns]
            for fn, arrow in zip(group.values(), arrows, strict=True):
                fn.arrow = arrow
            return self.compile(node.body)
        finally:
            self._rec_groups = outer

    def _recursive(self, fn: Lambda) -> Arrow:
        """A function's body compiled with the frames of its own applications."""
        saved = self._locals
        self._locals = {}  # (no alias of an arrow around it is read inside)
        try:
            return Arrow(self.compile(fn.body), len(fn.params), fn.locals)
        finally:
            self._locals = saved

    def _Apply(self, node: Apply) -> Compiled:
        fn = None
        for group in reversed(self._rec_groups):
            fn = group.get(node.name)
            if fn is not None:
                break
        if fn is None:  # (the resolver refused it)
            raise DialecticError("invalid_program", f"no function `{node.name}`", node.path)
        app = _Application(fn, self._steps(node.path), self.limits, node.path)
        args = [self.compile(a) for a in node.args]
        syncs = [a.sync for a in args]
        if all(f is not None for f in syncs):
            many = sync_many(syncs)  # type: ignore[arg-type]
            if not fn.is_async:
                run = app.run
                return Compiled(sync=lambda s: run(s, tuple(many(s))))

            async def arun_sync_args(s: State) -> Any:
                return await app.arun(s, tuple(many(s)))

            return Compiled(aio=arun_sync_args)
        amany = async_many(args)

        async def arun(s: State) -> Any:
            values = tuple(await amany(s))
            if fn.is_async:
                return await app.arun(s, values)
            return app.run(s, values)

        return Compiled(aio=arun)
