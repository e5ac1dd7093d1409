"""The three outcomes of a run: success, failure, ambiguous (SPEC.md section 4)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

SUCCESS = "success"
FAILURE = "failure"
AMBIGUOUS = "ambiguous"


class ErrorInfo:
    """What went wrong: a stable ``code``, a ``message``, the JSON ``path`` and, for text
    notations, the ``line``/``column``; ``hint`` says what to do."""

    __slots__ = ("code", "message", "path", "hint", "line", "column", "details")

    def __init__(
        self,
        code: str,
        message: str,
        path: str = "program",
        *,
        hint: str | None = None,
        line: int | None = None,
        column: int | None = None,
        details: dict[str, Any] | None = None,
    ) -> None:
        self.code = code
        self.message = message
        self.path = path
        self.hint = hint
        self.line = line
        self.column = column
        self.details = details or {}

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message, "path": self.path}
        if self.hint:
            out["hint"] = self.hint
        if self.line is not None:
            out["line"] = self.line
            out["column"] = self.column
        if self.details:
            out["details"] = self.details
        return out

    def __repr__(self) -> str:
        return f"ErrorInfo({self.code!r}, {self.message!r}, {self.path!r})"


class Suggestion:
    """A refinement the model can send back as it is: ``program`` is the whole program (in the
    notation it was written in) with the ambiguous call replaced."""

    __slots__ = ("description", "program", "replacement", "path")

    def __init__(self, description: str, program: Any, replacement: Any, path: str) -> None:
        self.description = description
        self.program = program
        self.replacement = replacement
        self.path = path

    def to_json(self) -> dict[str, Any]:
        return {
            "description": self.description,
            "program": self.program,
            "replacement": self.replacement,
            "path": self.path,
        }

    def __repr__(self) -> str:
        return f"Suggestion({self.description!r})"


class Outcome:
    """The result of a run. ``status`` is "success", "failure" or "ambiguous"."""

    __slots__ = (
        "status",
        "value",
        "message",
        "_suggestions",
        "error",
        "_warnings",
        "mode",
        "_to_json_value",
        "_log",
        "_partial",
    )

    def __init__(
        self,
        status: str,
        *,
        value: Any = None,
        message: str | None = None,
        suggestions: list[Suggestion] | None = None,
        error: ErrorInfo | None = None,
        warnings: list[str] | None = None,
        mode: str = "return",
        to_json_value: Callable[[Any], Any] | None = None,
    ) -> None:
        self.status = status
        self.value = value
        self.message = message
        self._suggestions = suggestions or None
        self.error = error
        self._warnings = warnings or None
        self.mode = mode
        self._to_json_value = to_json_value
        #: the run's call log (dialectic.run.calllog.CallLog) and, for a failure, the values
        #: of the aliases that completed (JSON) and the names left out for size (SPEC 18)
        self._log: Any = None
        self._partial: tuple[dict[str, Any], list[str]] | None = None

    @staticmethod
    def success(
        value: Any, warnings: list[str], mode: str, to_json_value: Callable[[Any], Any]
    ) -> Outcome:
        """The fast constructor the runtime uses for a successful run (see :func:`success`)."""
        return success(value, warnings, mode, to_json_value)

    # (an outcome's lists are made when first read: most runs have neither, and two empty
    # lists per outcome kept alive were a tenth of what a batch of runs left to the collector)
    @property
    def suggestions(self) -> list[Suggestion]:
        """For an ambiguous run: the programs to send back instead, each whole."""
        found = self._suggestions
        if found is None:
            found = self._suggestions = []
        return found

    @suggestions.setter
    def suggestions(self, value: list[Suggestion]) -> None:
        self._suggestions = value

    @property
    def warnings(self) -> list[str]:
        """What the run noticed and went on with (a removed code fence, ``console.log``)."""
        found = self._warnings
        if found is None:
            found = self._warnings = []
        return found

    @warnings.setter
    def warnings(self, value: list[str]) -> None:
        self._warnings = value

    @property
    def ok(self) -> bool:
        return self.status == SUCCESS

    @property
    def calls(self) -> list[dict[str, Any]]:
        """The call log (SPEC 18): one dict per call of a registered function outside the
        built-in library, in the order they started, then the calls that never started."""
        return self._log.entries() if self._log is not None else []

    @property
    def calls_omitted(self) -> int:
        """Calls left out of :attr:`calls` (beyond ``Limits.max_call_log``)."""
        return self._log.omitted() if self._log is not None else 0

    @property
    def partial(self) -> dict[str, Any]:
        """For a failure: the values (as JSON) of the aliases that completed, by name."""
        return self._partial[0] if self._partial is not None else {}

    def to_json(self, *, calls: bool = False) -> dict[str, Any]:
        """A JSON-serializable dict; values of registered types appear as executable programs.
        A failure lists the completed aliases' values (``partial``); ``calls=True`` adds the
        call log (``calls``, and ``calls_omitted`` when some did not fit; SPEC 18)."""
        out: dict[str, Any] = {"status": self.status}
        if self.status == SUCCESS:
            conv = self._to_json_value
            out["value"] = conv(self.value) if conv is not None else self.value
            out["mode"] = self.mode
        else:
            out["message"] = self.message
        if self.error is not None:
            out["error"] = self.error.to_json()
        if self._suggestions:
            out["suggestions"] = [s.to_json() for s in self._suggestions]
        if self._warnings:
            out["warnings"] = list(self._warnings)
        if self._partial is not None:
            if self._partial[0]:
                out["partial"] = self._partial[0]
            if self._partial[1]:
                out["partial_omitted"] = self._partial[1]
        if calls:
            out["calls"] = self.calls
            if self.calls_omitted:
                out["calls_omitted"] = self.calls_omitted
        return out

    def __repr__(self) -> str:
        if self.status == SUCCESS:
            return f"Outcome(success, value={self.value!r})"
        return f"Outcome({self.status}, message={self.message!r})"


def success(
    value: Any,
    warnings: list[str],
    mode: str,
    to_json_value: Callable[[Any], Any],
    _new: Callable[[type[Outcome]], Outcome] = object.__new__,
) -> Outcome:
    """A successful run's outcome, built without ``__init__`` (a function, not a classmethod:
    a small run costs a few microseconds, and the bound method was a tenth of its envelope)."""
    out = _new(Outcome)
    out.status = SUCCESS
    out.value = value
    out.message = None
    out._suggestions = None
    out.error = None
    out._warnings = warnings or None
    out.mode = mode
    out._to_json_value = to_json_value
    out._log = None
    out._partial = None
    return out
