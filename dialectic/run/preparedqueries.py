"""What a prepared program tells without running (SPEC 1.6, 17): the names it could mean,
its tree, its compile errors and the problems a context would meet before any call
(:meth:`~PreparedQueries.problems`, :meth:`~PreparedQueries.check`), its canonical call tree and
the preview of its effectful calls, as the mixin :class:`PreparedQueries` of
:class:`dialectic.run.prepared.Prepared`; and :class:`CompileFailed`, what asking for the
canonical tree or the preview of a program that cannot run raises. Moved out of
:mod:`dialectic.run.prepared`, which keeps preparing and the runs (their per-run code is as
before).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from dialectic.frontends.base import FrontEndResult
from dialectic.outcome.errors import DialecticError
from dialectic.outcome.outcome import Outcome
from dialectic.outcome.report import failure
from dialectic.resolve.resolver import Resolved
from dialectic.run.context_errors import unknown_identifier

if TYPE_CHECKING:
    from dialectic.runtime import Runtime

__all__ = ["CompileFailed", "PreparedQueries"]


class CompileFailed(DialecticError):
    """``Runtime.compile`` of a program that cannot run: the first problem, and all of them."""

    def __init__(self, errors: list[DialecticError]) -> None:
        first = errors[0]
        super().__init__(
            first.code, first.message, first.path, hint=first.hint, details=first.details
        )
        self.errors = errors


class PreparedQueries:
    """The queries of a :class:`~dialectic.run.prepared.Prepared` program (see the module)."""

    # (set by ``Prepared``)
    runtime: Runtime
    front: FrontEndResult | None
    resolved: Resolved | None
    errors: list[DialecticError]
    warnings: list[str]
    context_refs: dict[str, Any]

    @property
    def known_names(self) -> list[str]:
        """The aliases and constants a name could mean (for error messages: worked out when
        one needs them, not for every program)."""
        if self.resolved is None:
            return []
        return sorted(self.resolved.alias_names | set(self.runtime.registry.constants))

    @property
    def tree(self) -> Any:
        return self.front.tree if self.front is not None else None

    @property
    def error(self) -> DialecticError | None:
        """The first compile error, or None if the program compiled."""
        return self.errors[0] if self.errors else None

    def problems(self, context: Mapping[str, Any] | None = None) -> list[DialecticError]:
        """What stops a run before any call: compile errors, and with a ``context``, the names
        the program reads that are neither aliases, constants nor in it."""
        if self.errors:
            return list(self.errors)
        if context is None:
            return []
        missing = [n for n in self.context_refs if n not in context]
        return [self._unknown_identifier(n, context) for n in missing]

    def check(self, context: Mapping[str, Any] | None = None) -> Outcome | None:
        """The failure a run with ``context`` would end in before any call, or None."""
        problems = self.problems(context)
        if not problems:
            return None
        return failure(problems, self.front, list(self.warnings))

    def canonical(self, context: Mapping[str, Any] | None = None) -> Any:
        """The canonical call tree (SPEC 1.6); raises the first of :meth:`problems`."""
        from dialectic.resolve.canonical import canonical

        problems = self.problems(context)
        if problems:
            raise CompileFailed(problems)
        assert self.resolved is not None
        return canonical(self.resolved.root)

    def _unknown_identifier(self, name: str, values: Mapping[str, Any]) -> DialecticError:
        return unknown_identifier(name, self.context_refs[name], self.known_names, values)

    def preview(self) -> Any:
        """The effectful calls this program will make, in order (SPEC 17)."""
        from dialectic.tools.preview import preview

        if self.errors:
            raise CompileFailed(self.errors)
        assert self.resolved is not None
        return preview(self.resolved.root)
