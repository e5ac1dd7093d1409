"""``Prepared``: a program compiled once (by ``Runtime.prepare``), run many times.

Preparing runs the pipeline once (front end, syntax nodes, resolver, closures) with the cyclic
garbage collector paused; ``run`` and ``run_async`` evaluate the closures with a context into an
``Outcome``, never raising for a bad program (how a run ends, its success or failure, is built
by :mod:`dialectic.run.finish`). Re-exported by :mod:`dialectic.runtime`.
"""

from __future__ import annotations

import asyncio
import gc
import sys
import threading
import time
from collections.abc import Awaitable, Mapping
from typing import TYPE_CHECKING, Any

import anyio

from dialectic.compiler.closures import CompileErrors, Compiler
from dialectic.frontends import to_tree
from dialectic.frontends.base import FrontEndResult
from dialectic.outcome.errors import DialecticError, LimitExceeded
from dialectic.outcome.outcome import SUCCESS, Outcome, success
from dialectic.outcome.report import bounded_warnings, failure
from dialectic.resolve.resolver import Resolved, ResolveErrors, resolve
from dialectic.run.approval import attach
from dialectic.run.calllog import CallLog
from dialectic.run.context_errors import bad_context
from dialectic.run.dagrun import DagRun
from dialectic.run.evaluator import MISSING, Compiled, State, deadline_error, new_state
from dialectic.run.events import EventHook, ended, observe
from dialectic.run.finish import failed, succeeded, untangle
from dialectic.run.journal import Journal
from dialectic.run.preparedqueries import PreparedQueries
from dialectic.run.preparing import promote_if_large, utf8_length
from dialectic.run.state import NO_MEMO, NO_WARNINGS, RunDeadline, current_of
from dialectic.run.telemetry import TRACING
from dialectic.tree.nodes import Let
from dialectic.tree.parse import parse_tree

if TYPE_CHECKING:
    from dialectic.runtime import Runtime


_new = object.__new__
_monotonic = time.monotonic
_get_running_loop = asyncio._get_running_loop


class Prepared(PreparedQueries):
    """A compiled program. ``run``/``run_async`` evaluate it with a context."""

    # (what a program that did not compile keeps: the class's values, not a store each per
    # program, which the compiled ones make again)
    front: FrontEndResult | None = None
    root: Compiled | None = None
    _sync: Any = None
    _result_path: tuple[str, ...] = ()
    mode = "return"
    memo_size = 0
    resolved: Resolved | None = None
    #: call sites that go into the call log (SPEC 18)
    _logged = 0

    def __init__(
        self,
        runtime: Runtime,
        program: Any,
        lang: str | None,
        strict: bool,
        options: Mapping[str, Any],
    ) -> None:
        self.runtime = runtime
        self.errors: list[DialecticError] = []
        self.warnings: list[str] = []
        self.context_refs: dict[str, Any] = {}
        # Compiling allocates many objects and frees almost none, which the cyclic garbage
        # collector would scan again and again (more than half of preparing a 10k-node program,
        # and the more so the larger the application's heap): it is paused while a program is
        # prepared and resumed after, whatever happens (unless the host had paused it).
        collecting = gc.isenabled()
        if collecting:
            gc.disable()
        try:
            self._prepare(program, lang, strict, options)
        finally:
            if collecting:
                promote_if_large()
                gc.enable()

    def _prepare(
        self, program: Any, lang: str | None, strict: bool, options: Mapping[str, Any]
    ) -> None:
        runtime = self.runtime
        limits = runtime.limits
        try:
            if (
                isinstance(program, str)
                and len(program) * 4 > limits.max_program_bytes  # (4 bytes a character at most)
                and utf8_length(program) > limits.max_program_bytes
            ):
                raise LimitExceeded(
                    "max_program_bytes",
                    f"the program is larger than {limits.max_program_bytes} bytes",
                )
            try:
                self.front = (
                    to_tree(
                        program,
                        lang,
                        strict=strict,
                        limits=limits,
                        functions=runtime.registry.functions,
                        **options,
                    )
                    if options
                    else to_tree(
                        program,
                        lang,
                        strict=strict,
                        limits=limits,
                        functions=runtime.registry.functions,
                    )
                )
            except (TypeError, ValueError) as exc:  # a bad host argument (lang, options)
                if isinstance(exc, DialecticError):
                    raise
                raise DialecticError("invalid_option", f"invalid option: {exc}") from None
            self.warnings = list(self.front.warnings)
            node = parse_tree(self.front.tree, limits)
            #: where the result comes from: output errors point there
            self._result_path = (f"${node.mode}",) if isinstance(node, Let) else ()
            resolved = resolve(runtime.registry, limits, node)
            self.resolved = resolved
            self.warnings.extend(resolved.warnings)
            self.mode = resolved.mode
            self.context_refs = resolved.context_refs
            self.memo_size = resolved.memo_size
            compiler = Compiler(
                runtime.registry,
                runtime.types,
                runtime.serializer,
                limits,
                self.front.tree,
                resolved,
            )
            compiler.now = runtime.now
            self.root = compiler.compile_root()
            dag = getattr(self.root.aio, "__self__", None)
            if type(dag) is DagRun:  # (its memo is made only when the run needs one)
                dag.memo_size, self.memo_size = self.memo_size, 0
            self._logged = compiler.async_calls.get("$logged", 0)
            self._data = runtime.serializer.data
            self._sync = self.root.sync
            self._limits = limits
            self._hooks = runtime.hooks
            self._debug = runtime.debug
            self._str_fast = limits.max_output_bytes // 4  # 4 bytes per char at most in UTF-8
        except (ResolveErrors, CompileErrors) as exc:
            self.errors = exc.errors
        except DialecticError as exc:
            self.errors = [exc]
        except RecursionError:
            self.errors = [
                LimitExceeded("max_depth", "the program is nested too deeply to compile")
            ]

    def _start(self, context: Mapping[str, Any] | None) -> State | Outcome:
        if self.errors:
            return failure(self.errors, self.front, list(self.warnings))
        if context is not None and type(context) is not dict and not isinstance(context, Mapping):
            return failure([bad_context(context)], self.front, list(self.warnings))
        values: Any = context if context is not None else {}
        for name in self.context_refs:
            if name not in values:
                missing = [n for n in self.context_refs if n not in values]
                return failure(
                    [self._unknown_identifier(n, values) for n in missing],
                    self.front,
                    list(self.warnings),
                )
        rt = self.runtime
        # (the hooks made once, as the program was prepared: not a tuple and two bound
        # methods per run)
        return new_state(values, self.memo_size, rt.limits, self._hooks, rt.debug)

    def _observe(self, state: State, journal: Journal | None, on_event: EventHook | None) -> None:
        """The run's journal, event hook and tracer, if any (SPEC 18)."""
        rt = self.runtime
        j = journal if journal is not None else rt.journal
        e = on_event if on_event is not None else rt.on_event
        if j is not None or e is not None or TRACING in sys.modules:
            observe(self, state, j, e)

    def _approvals(self, state: State, approve: Any, approve_plan: Any) -> Outcome | None:
        """The run's approvers (SPEC 17); the failure if the whole preview is refused."""
        rt = self.runtime
        approve = approve if approve is not None else rt.approve
        approve_plan = approve_plan if approve_plan is not None else rt.approve_plan
        if approve is None and approve_plan is None:
            return None
        refused = attach(state, approve, approve_plan, self.preview)
        return None if refused is None else self._fail(refused, state)

    #: what a run of a synchronous program with no logged call reads (see :meth:`_fast_parts`),
    #: built by its first run; empty for a program that takes the general path
    _fast: tuple[Any, ...] | None = None

    def _fast_parts(self) -> tuple[Any, ...]:
        if self.errors or self._sync is None or self._logged:
            return ()
        limits = self._limits
        warned = bounded_warnings([*self.warnings]) if self.warnings else None
        return (
            self._sync,
            tuple(self.context_refs),
            self.memo_size,
            limits,
            limits.deadline,
            self._hooks,
            self._debug,
            self._str_fast,
            warned,
            self.mode,
            self._data,
        )

    def run(
        self,
        context: Mapping[str, Any] | None = None,
        *,
        journal: Journal | None = None,
        on_event: EventHook | None = None,
        approve: Any = None,
        approve_plan: Any = None,
    ) -> Outcome:
        fast = self._fast
        if fast is None:
            fast = self._fast = self._fast_parts()
        if fast:  # a synchronous program with no logged call: its parts read in one load
            sync, refs, memo_size, limits, deadline, hooks, debug, str_fast, warned, mode, data = (
                fast
            )
            values: Any = context if context is not None else {}
            if type(values) is not dict and not isinstance(values, Mapping):
                return self._start(context)  # type: ignore[return-value]
            for name in refs:
                if name not in values:
                    return self._start(context)  # type: ignore[return-value]
            # new_state(...) inline (tests/core/test_run_envelope.py checks they agree)
            state = State()
            state.context = values
            state.memo = [MISSING] * memo_size if memo_size else NO_MEMO
            state.warnings = NO_WARNINGS
            state.limits = limits
            state.deadline_at = _monotonic() + deadline
            state.debug = debug
            state._convert = hooks
            state.native = False
            state.dag = None
            try:
                value = sync(state)
            except BaseException as exc:
                return self._fail(exc, state)
            if _monotonic() > state.deadline_at:
                return self._fail(deadline_error(limits), state)
            if (
                type(value) is str
                and len(value) <= str_fast
                and value.isascii()
                and not state.warnings
            ):
                # outcome.success(...) inline (test_run_envelope.py checks they agree)
                out = _new(Outcome)
                out.status = SUCCESS
                out.value = value
                out.message = None
                out._suggestions = None
                out.error = None
                out._warnings = [*warned] if warned else None
                out.mode = mode
                out._to_json_value = data
                out._log = None
                out._partial = None
                return out
            return self._success(value, state)
        sync = self._sync
        if sync is not None:  # a synchronous program with logged calls
            started = self._start(context)
            if isinstance(started, Outcome):
                return started
            state = started
            state.calls = []
            self._observe(state, journal, on_event)
            refused = self._approvals(state, approve, approve_plan)
            if refused is not None:
                return refused
            try:
                value = sync(state)
            except BaseException as exc:
                return self._fail(exc, state)
            if time.monotonic() > state.deadline_at:
                return self._fail(deadline_error(state.limits), state)
            return self._success(value, state)
        if self.errors:
            return self._start(context)  # type: ignore[return-value]  # (the failure)

        # an asynchronous program: run_async on an event loop of its own
        def main() -> Awaitable[Outcome]:
            return self.run_async(
                context,
                journal=journal,
                on_event=on_event,
                approve=approve,
                approve_plan=approve_plan,
            )

        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return anyio.run(main)
        # Called from inside an event loop: run in a fresh thread with its own loop.
        result: list[Outcome] = []
        errors: list[BaseException] = []

        def target() -> None:
            try:
                result.append(anyio.run(main))
            except BaseException as exc:  # re-raised in the caller's thread
                errors.append(exc)

        thread = threading.Thread(target=target)
        thread.start()
        thread.join()
        if errors:
            raise errors[0]
        return result[0]

    async def run_async(
        self,
        context: Mapping[str, Any] | None = None,
        *,
        journal: Journal | None = None,
        on_event: EventHook | None = None,
        approve: Any = None,
        approve_plan: Any = None,
    ) -> Outcome:
        state = self._start(context)
        if isinstance(state, Outcome):
            return state
        if self._logged:
            state.calls = []
            rt = self.runtime
            if not (  # (nothing observes or approves the run: the usual case, no call)
                journal is None
                and on_event is None
                and approve is None
                and approve_plan is None
                and rt.journal is None
                and rt.on_event is None
                and rt.approve is None
                and rt.approve_plan is None
                and TRACING not in sys.modules
            ):
                self._observe(state, journal, on_event)
                refused = self._approvals(state, approve, approve_plan)
                if refused is not None:
                    return refused
        root = self.root
        assert root is not None
        if root.sync is not None:
            try:
                value = root.sync(state)
            except BaseException as exc:
                return self._fail(exc, state)
            return self._success(value, state)
        assert root.aio is not None
        loop = _get_running_loop()
        if loop is None:  # trio: an anyio cancel scope
            return await self._run_anyio(state)
        # asyncio, in this coroutine (a run is one coroutine, not two): children run as native
        # tasks, and the deadline is a timer (shared with the runs whose deadlines fall in the
        # same slice of time) that cancels this task (a cancel scope costs more than the rest
        # of a small fan-out)
        state.native = True
        state.bind(loop)
        if loop.get_task_factory() is not None:
            state.direct = False
        task = current_of(loop)
        assert task is not None
        deadline = RunDeadline(task)
        timer = state.deadline_bucket()
        timers = timer.tasks
        timers.add(deadline)
        try:
            value = await root.aio(state)
        except asyncio.CancelledError:
            if deadline.expired and task.uncancel() == 0:
                return self._fail(deadline_error(state.limits), state)
            raise
        except Exception as exc:
            if deadline.expired:  # the cancellation turned into an error on its way up
                task.uncancel()
                return self._fail(deadline_error(state.limits), state)
            return self._fail(exc, state)
        finally:
            # the last run of the slice to end cancels the timer (timer.release, inline)
            timers.discard(deadline)
            if not timers and timer.handle is not None:
                timer.cancel()
            state.close()  # no timer of the run stays scheduled
        if deadline.expired:  # the deadline passed, and the cancellation was swallowed
            task.uncancel()
            return self._fail(deadline_error(state.limits), state)
        if _monotonic() > state.deadline_at:  # or nothing awaited after it
            return self._fail(deadline_error(state.limits), state)
        t = type(value)
        if (
            (
                (t is int and -(2**63) <= value < 2**63)
                or (t is float and value - value == 0.0)  # (finite: an infinity or NaN is refused)
                or t is bool
                or value is None
            )
            and state.observers is None
            and not state.warnings
            and not self.warnings
        ):
            # a number, a boolean or null: _success(...) in one call (its output size is 0,
            # there are no warnings; test_run_envelope.py checks they agree)
            out = success(value, [], self.mode, self._data)
            if self._logged:  # (events.ended: the call log, nothing else for a success)
                resolved = self.resolved
                root_node = resolved.root if resolved is not None else None
                out._log = CallLog(state, root_node, self.runtime.serializer)
            return out
        return self._success(value, state)

    async def _run_anyio(self, state: State) -> Outcome:
        """The run on trio (any backend but asyncio's native tasks): under a cancel scope."""
        root = self.root
        assert root is not None and root.aio is not None
        try:
            with anyio.fail_after(state.limits.deadline):
                value = await root.aio(state)
        except TimeoutError:
            return self._fail(deadline_error(state.limits), state)
        except Exception as exc:
            return self._fail(exc, state)
        if time.monotonic() > state.deadline_at:  # a synchronous step ran past it
            return self._fail(deadline_error(state.limits), state)
        return self._success(value, state)

    def _warnings(self, state: State) -> list[str]:
        if not self.warnings and not state.warnings:
            return []
        return bounded_warnings([*self.warnings, *state.warnings])

    def _success(self, value: Any, state: State) -> Outcome:
        out = self._succeeded(value, state)
        return ended(self, out, state) if self._logged and out.status == "success" else out

    def _fail(self, exc: BaseException, state: State) -> Outcome:
        """The outcome of a run that raised, with the call log and completed aliases; then the
        run's exceptions let go of their tracebacks (no cycle keeps the run's state alive)."""
        out = ended(self, self._failed(exc, state), state)
        untangle(exc, state)
        return out

    def _succeeded(self, value: Any, state: State) -> Outcome:
        return succeeded(self, value, state)

    def _failed(self, exc: BaseException, state: State) -> Outcome:
        return failed(self, exc, state)
