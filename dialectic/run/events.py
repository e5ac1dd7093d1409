"""A run's observers (SPEC 18): its journal, its event hook and its OpenTelemetry tracer.

A run has observers only when it was given a journal or an ``on_event`` hook, or the
application configured an OpenTelemetry tracer provider; otherwise ``State.observers`` is None
and a call pays one ``if`` for all of this. With observers, each logged call goes through
:meth:`Observers.before` (journal look-up and replay, the ``call_started`` event, a span, the
journal's write-ahead entry) and :meth:`Observers.after` (its end, the same way back).

Event hook: ``on_event(event)`` is called synchronously with a dict: ``{"event": "run_started"
| "call_started" | "call_finished" | "run_finished", "time": seconds since the run started,
...}``; call events add ``function`` and ``path``, ``call_finished`` adds ``status``,
``duration`` (and ``replayed: true`` for a call answered by the journal), ``run_finished``
adds ``status``. An exception in the hook does not break the run: the event is dropped and the
outcome gets one warning.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from dialectic.outcome.errors import DialecticError
from dialectic.run import telemetry
from dialectic.run.calllog import (
    DONE,
    END,
    FAILED,
    IN_FLIGHT,
    REPLAYED,
    SITE,
    START,
    STATUS,
    CallLog,
    arguments,
    begin,
    call_path,
    completed_aliases,
    element_indices,
)
from dialectic.run.dagrun import keep_completed
from dialectic.run.journal import Journal, canonical_json, program_identity
from dialectic.run.state import MISSING

if TYPE_CHECKING:
    from dialectic.outcome.outcome import Outcome
    from dialectic.run.state import State

EventHook = Callable[[dict[str, Any]], None]

# the fields observers add to a record (after calllog's)
KEY, SPAN, PATH = 7, 8, 9


class Observers:
    """The journal, event hook and tracer of one run."""

    __slots__ = ("journal", "program", "on_event", "tracer", "run_span", "to_json", "t0", "hurt")

    def __init__(
        self,
        state: State,
        journal: Journal | None,
        program: str,
        on_event: EventHook | None,
        tracer: Any,
        to_json: Callable[[Any], Any],
    ) -> None:
        self.journal = journal
        self.program = program
        self.on_event = on_event
        self.tracer = tracer
        self.run_span = telemetry.start_run_span(tracer) if tracer is not None else None
        self.to_json = to_json
        self.t0 = state.deadline_at - state.limits.deadline
        self.hurt = False
        self.emit(state, {"event": "run_started", "time": 0.0})

    # -- calls ----------------------------------------------------------------------------
    def before(self, s: State, site: Any, kw: dict[str, Any], frames: Any) -> tuple[list[Any], Any]:
        """A call about to start: its record, and the journal's result to replay (or MISSING)."""
        path = call_path(site, frames)
        journal = self.journal
        key = found = None
        if journal is not None:
            where = canonical_json([list(site.path), element_indices(site.path, frames or ())])
            key = (self.program, where, canonical_json(self.to_json(arguments(site, kw))))
            found = _journal(site, lambda: journal.get(key))
            if found is not None and found[0] != DONE:
                self.may_repeat(s, site, kw, path)  # raises unless it may run again
        rec = begin(s, site, kw, frames)
        rec.extend((key, None, path))
        if found is not None and found[0] == DONE:
            rec[END], rec[STATUS], rec[REPLAYED] = rec[START], DONE, True
            self.started(s, rec)
            self.after(s, rec)
            return rec, found[1]
        if journal is not None:
            _journal(site, lambda: journal.started(key, site.name))  # type: ignore[arg-type]
        self.started(s, rec)
        return rec, MISSING

    def journalled(self, site: Any, kw: dict[str, Any], frames: Any) -> bool:
        """Whether the journal already has this call: done (it is replayed, nothing runs) or in
        flight (:meth:`may_repeat` asks the approver): an effectful call's approver is then not
        asked again before it (SPEC 17, 18)."""
        journal = self.journal
        if journal is None:
            return False
        where = canonical_json([list(site.path), element_indices(site.path, frames or ())])
        key = (self.program, where, canonical_json(self.to_json(arguments(site, kw))))
        return _journal(site, lambda: journal.get(key)) is not None

    def started(self, s: State, rec: list[Any]) -> None:
        site = rec[SITE]
        if self.tracer is not None:
            rec[SPAN] = telemetry.start_call_span(self.tracer, self.run_span, site.name, rec[PATH])
        if self.on_event is not None:
            self.emit(
                s,
                {
                    "event": "call_started",
                    "function": site.name,
                    "path": rec[PATH],
                    "time": round(rec[START] - self.t0, 6),
                },
            )

    def after(self, s: State, rec: list[Any], result: Any = MISSING) -> None:
        """A call has ended (its record says how): the journal, its span, its event."""
        site, status = rec[SITE], rec[STATUS]
        key = rec[KEY]
        journal = self.journal
        if key is not None and journal is not None and not rec[REPLAYED]:
            if status == DONE:
                _journal(site, lambda: journal.done(key, site.name, result))
            elif status == FAILED:
                _journal(site, lambda: journal.failed(key))
            # in flight: the entry written before the call stays, so a rerun asks first
        end = rec[END]
        duration = None if end is None else round(end - rec[START], 6)
        if rec[SPAN] is not None:
            telemetry.end_call_span(rec[SPAN], status, duration, rec[REPLAYED])
        if self.on_event is not None:
            event: dict[str, Any] = {
                "event": "call_finished",
                "function": site.name,
                "path": rec[PATH],
                "status": status,
                "time": round((end if end is not None else rec[START]) - self.t0, 6),
                "duration": duration,
            }
            if rec[REPLAYED]:
                event["replayed"] = True
            self.emit(s, event)

    def may_repeat(self, s: State, site: Any, kw: dict[str, Any], path: str) -> None:
        """A call the journal has in flight: it may have taken effect. A call with no effect
        (``effects`` pure or read, SPEC 17) or an idempotent one runs again; an effectful one
        only if the run's approver allows it; else the run fails, saying what to do."""
        fn = site.fn
        if not getattr(fn, "changes_things", True) or getattr(fn, "idempotent", False):
            return
        approver = getattr(s, "approver", None)
        refused = ""
        if approver is not None:
            try:
                approver.check(site, kw)
                return
            except DialecticError as exc:
                refused = f" (the approver refused: {exc.details.get('reason', exc.message)})"
        raise DialecticError(
            "in_flight",
            f"`{site.name}` at {path} was running when an earlier run with this journal ended: "
            f"it may have taken effect, so it is not repeated silently{refused}",
            site.path,
            hint="Check whether it took effect. To run it again, remove its entry from the "
            "journal (or use a new journal), declare the function idempotent=True, or run "
            "with an approver that allows it.",
            details={"function": site.name, "path": path},
        )

    # -- the run --------------------------------------------------------------------------
    def emit(self, s: State, event: dict[str, Any]) -> None:
        hook = self.on_event
        if hook is None:
            return
        try:
            hook(event)
        except Exception as exc:
            if not self.hurt:
                self.hurt = True
                s.warn(
                    f"the on_event hook raised {type(exc).__name__}: {exc}; "
                    "its events were dropped and the run went on"
                )

    def finish(self, s: State, out: Outcome) -> None:
        for rec in s.calls:  # calls cancelled while running end with the run
            if rec[STATUS] == IN_FLIGHT and len(rec) > SPAN and rec[SPAN] is not None:
                telemetry.end_call_span(rec[SPAN], IN_FLIGHT, None, False)
                rec[SPAN] = None
        if self.run_span is not None:
            telemetry.end_run_span(self.run_span, out.status, len(s.calls))
        self.emit(
            s,
            {"event": "run_finished", "status": out.status, "time": round(_now() - self.t0, 6)},
        )


def _now() -> float:
    from dialectic.run.calllog import now

    return now()


def _journal(site: Any, op: Callable[[], Any]) -> Any:
    """A journal operation; its failure (a broken file) fails the run clearly."""
    try:
        return op()
    except Exception as exc:
        raise DialecticError(
            "journal_error",
            f"the journal failed at the call of `{site.name}`: {type(exc).__name__}: {exc}",
            site.path,
            hint="Check the journal file (path, permissions, disk space) and run again.",
            details={"function": site.name},
        ) from None


# -- wiring a run -----------------------------------------------------------------------------
def observe(
    prepared: Any, state: State, journal: Journal | None, on_event: EventHook | None
) -> None:
    """Give the run observers if anything observes it (else nothing: no cost)."""
    tracer = telemetry.tracer()
    if journal is None and on_event is None and tracer is None:
        return
    program = ""
    if journal is not None:
        program = getattr(prepared, "_journal_identity", "")
        if not program:
            program = program_identity(prepared.canonical())
            prepared._journal_identity = program
    state.observers = Observers(state, journal, program, on_event, tracer, prepared._data)


def ended(prepared: Any, out: Outcome, state: State) -> Outcome:
    """An outcome gets the run's call log and, for a failure, the completed aliases' values;
    the observers see the run end."""
    root = prepared.resolved.root if prepared.resolved is not None else None
    serializer = prepared.runtime.serializer
    if prepared._logged:
        out._log = CallLog(state, root, serializer)
    if out.status == "failure":
        keep_completed(state)  # (a static graph's run whose value could not leave it)
        partial, left_out = completed_aliases(state, root, serializer)
        if partial or left_out:
            out._partial = (partial, left_out)
    if state.observers is not None:
        state.observers.finish(state, out)
    return out
