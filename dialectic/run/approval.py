"""Approving write and destructive calls (SPEC 17).

An approver is a callable (sync or async) given an :class:`ApprovalRequest` before each write or
destructive call, once its arguments are known; it answers with an :class:`Approval`:
``Approval.ALLOW``, ``Approval.ALLOW_ALL`` (this call and every later one of the run), or
``Approval.deny("reason")`` (the run fails with ``denied`` at the call's path; no later effectful
call runs). ``True``/``False`` are read as allow/deny. ``approve_plan`` is asked once, before
anything runs, with the run's preview (:mod:`dialectic.tools.preview`).

The run's approver is ``state.approver`` (an :class:`Approver`); the journal (SPEC 18) may ask it
about an effectful call that was in flight when a run stopped.
"""

from __future__ import annotations

import asyncio
import inspect
import threading
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from dialectic.outcome.errors import DialecticError, JSONPath, clip, format_path

__all__ = ["Approval", "ApprovalRequest", "Approver", "denied"]


class Approval:
    """An approver's answer: ``kind`` is "allow", "allow_all" or "deny" (with ``reason``)."""

    __slots__ = ("kind", "reason")

    ALLOW: ClassVar[Approval]
    ALLOW_ALL: ClassVar[Approval]

    def __init__(self, kind: str, reason: str = "") -> None:
        if kind not in ("allow", "allow_all", "deny"):
            raise ValueError(f"an approval is allow, allow_all or deny, not {kind!r}")
        self.kind = kind
        self.reason = reason

    @classmethod
    def deny(cls, reason: str = "the approver said no") -> Approval:
        return cls("deny", reason)

    def __repr__(self) -> str:
        return f"Approval({self.kind!r}" + (f", {self.reason!r})" if self.reason else ")")

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Approval) and other.kind == self.kind and other.reason == self.reason
        )

    def __hash__(self) -> int:
        return hash((self.kind, self.reason))


Approval.ALLOW = Approval("allow")
Approval.ALLOW_ALL = Approval("allow_all")


class ApprovalRequest:
    """What the approver is asked about: the function, its effect (``write`` or
    ``destructive``) and scope, whether it is idempotent, the call's JSON path and its
    arguments as the function will receive them."""

    __slots__ = ("function", "effects", "scope", "idempotent", "path", "args")

    def __init__(
        self,
        function: str,
        effects: str,
        scope: str,
        idempotent: bool,
        path: JSONPath,
        args: Mapping[str, Any],
    ) -> None:
        self.function = function
        self.effects = effects
        self.scope = scope
        self.idempotent = idempotent
        self.path = path
        self.args = dict(args)

    @property
    def where(self) -> str:
        return format_path(self.path)

    def __repr__(self) -> str:
        return f"ApprovalRequest({self.function}, {self.args!r} at {self.where})"


def denied(request: ApprovalRequest, reason: str) -> DialecticError:
    """The failure of a call the approver refused."""
    return DialecticError(
        "denied",
        f"the approver refused the {request.effects} call `{clip(request.function)}` at "
        f"{request.where}: {clip(reason, 500)}",
        request.path,
        hint="Nothing after it in its scope ran. Ask the user, or change the program so it "
        "does not need this call.",
        details={"function": request.function, "reason": reason, "scope": request.scope},
    )


class Approver:
    """A run's approver: the host's callable, and whether it already allowed the rest."""

    __slots__ = ("ask", "allow_rest")

    def __init__(self, ask: Callable[[ApprovalRequest], Any]) -> None:
        self.ask = ask
        self.allow_rest = False

    def request(self, site: Any, kwargs: Mapping[str, Any]) -> ApprovalRequest:
        fn = site.fn
        args = {k: v for k, v in kwargs.items() if k != "ctx"}
        return ApprovalRequest(fn.name, fn.effects, fn.effect_scope, fn.idempotent, site.path, args)

    def check(self, site: Any, kwargs: Mapping[str, Any]) -> None:
        """Ask synchronously (an async approver runs on a helper thread's own event loop);
        raises the ``denied`` failure."""
        if self.allow_rest:
            return
        request = self.request(site, kwargs)
        answer = self._call(request)
        if inspect.isawaitable(answer):
            answer = _wait(answer)
        self._settle(request, answer)

    async def acheck(self, site: Any, kwargs: Mapping[str, Any]) -> None:
        """Ask from an asynchronous call (an async approver is awaited)."""
        if self.allow_rest:
            return
        request = self.request(site, kwargs)
        answer = self._call(request)
        if inspect.isawaitable(answer):
            answer = await answer
        self._settle(request, answer)

    def _call(self, request: ApprovalRequest) -> Any:
        try:
            return self.ask(request)
        except DialecticError:
            raise
        except Exception as exc:  # the host's approver failed: refuse, never run unapproved
            return Approval.deny(f"the approver failed: {type(exc).__name__}: {exc}")

    def _settle(self, request: ApprovalRequest, answer: Any) -> None:
        if answer is True or answer == Approval.ALLOW:
            return
        if answer == Approval.ALLOW_ALL:
            self.allow_rest = True
            return
        if isinstance(answer, Approval):
            raise denied(request, answer.reason)
        if answer is False or answer is None:
            raise denied(request, "the approver said no")
        raise denied(request, f"the approver answered {clip(repr(answer))}, not an Approval")


def _wait(awaitable: Any) -> Any:
    """The result of an async approver asked from a synchronous call: on a helper thread with
    its own event loop (the calling thread may be running one)."""
    box: dict[str, Any] = {}

    async def main() -> Any:
        return await awaitable

    def target() -> None:
        try:
            box["value"] = asyncio.run(main())
        except BaseException as exc:
            box["error"] = exc

    thread = threading.Thread(target=target, name="dialectic-approver", daemon=True)
    thread.start()
    thread.join()
    if "error" in box:
        err = box["error"]
        return Approval.deny(f"the approver failed: {type(err).__name__}: {err}")
    return box.get("value")


def attach(
    state: Any,
    approve: Callable[[ApprovalRequest], Any] | None,
    approve_plan: Callable[[Any], Any] | None,
    preview: Callable[[], Any],
) -> DialecticError | None:
    """Give a run its approver (``state.approver``) and ask ``approve_plan`` about the whole
    preview first; the ``denied`` failure if it says no (nothing has run)."""
    from dialectic.run.effects import effects_of

    if approve is not None:
        effects_of(state).approver = Approver(approve)
    if approve_plan is None:
        return None
    plan = preview()
    if not plan.calls:
        return None  # nothing to approve
    try:
        answer = approve_plan(plan)
        if inspect.isawaitable(answer):
            answer = _wait(answer)
    except Exception as exc:
        answer = Approval.deny(f"the approver failed: {type(exc).__name__}: {exc}")
    if answer is True or answer == Approval.ALLOW or answer == Approval.ALLOW_ALL:
        return None  # (a per-call approver, if any, is still asked at each call)
    reason = answer.reason if isinstance(answer, Approval) else "the approver said no"
    return DialecticError(
        "denied",
        f"the approver refused the program's {len(plan.calls)} effectful calls: "
        f"{clip(reason, 500)}",
        (),
        hint="Nothing ran. Ask the user, or change the program.",
        details={"reason": reason},
    )
