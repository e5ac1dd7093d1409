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
        "suggestions",
        "error",
        "warnings",
        "mode",
        "_to_json_value",
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
        self.suggestions = suggestions or []
        self.error = error
        self.warnings = warnings or []
        self.mode = mode
        self._to_json_value = to_json_value

    @classmethod
    def success(
        cls, value: Any, warnings: list[str], mode: str, to_json_value: Callable[[Any], Any]
    ) -> Outcome:
        """The fast constructor the runtime uses for a successful run."""
        out = cls.__new__(cls)
        out.status = SUCCESS
        out.value = value
        out.message = None
        out.suggestions = []
        out.error = None
        out.warnings = warnings
        out.mode = mode
        out._to_json_value = to_json_value
        return out

    @property
    def ok(self) -> bool:
        return self.status == SUCCESS

    def to_json(self) -> dict[str, Any]:
        """A JSON-serializable dict; values of registered types appear as executable programs."""
        out: dict[str, Any] = {"status": self.status}
        if self.status == SUCCESS:
            conv = self._to_json_value
            out["value"] = conv(self.value) if conv is not None else self.value
            out["mode"] = self.mode
        else:
            out["message"] = self.message
        if self.error is not None:
            out["error"] = self.error.to_json()
        if self.suggestions:
            out["suggestions"] = [s.to_json() for s in self.suggestions]
        if self.warnings:
            out["warnings"] = list(self.warnings)
        return out

    def __repr__(self) -> str:
        if self.status == SUCCESS:
            return f"Outcome(success, value={self.value!r})"
        return f"Outcome({self.status}, message={self.message!r})"
