"""Resource limits. Every limit has a sane default and can be overridden per Runtime."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

#: The evaluator recurses once per nesting level; this keeps every depth far from Python's own
#: recursion limit, so no setting of ``max_depth`` can produce a RecursionError.
HARD_MAX_DEPTH = 250


@dataclass(frozen=True)
class Limits:
    """Bounds on a program and its run; a breach is a ``limit_exceeded`` failure naming it."""

    max_program_bytes: int = 1_000_000
    """Size of a program's source text."""
    max_depth: int = 100
    """Nesting depth of the call tree (at most 250)."""
    max_nodes: int = 20_000
    """Number of nodes in the call tree."""
    max_calls: int = 2_000
    """Function calls a program may make (counted statically: there are no loops)."""
    max_concurrency: int = 128
    """Calls running at the same time in one run."""
    per_function_concurrency: Mapping[str, int] = field(default_factory=dict)
    """Per-function caps on concurrent calls, e.g. ``{"flights": 4}``."""
    call_timeout: float = 30.0
    """Seconds one call may take (async and blocking functions)."""
    deadline: float = 120.0
    """Seconds a whole run may take."""
    max_output_bytes: int = 5_000_000
    """Size of the result serialized as JSON."""
    max_string_length: int = 1_000_000
    """Length of any string the program builds (templates, conversions, literals)."""

    def __post_init__(self) -> None:
        if self.max_depth > HARD_MAX_DEPTH:
            raise ValueError(f"max_depth may be at most {HARD_MAX_DEPTH}, got {self.max_depth}")
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, int | float) and not isinstance(value, bool) and value <= 0:
                raise ValueError(f"limit {f.name} must be positive, got {value}")

    def with_(self, **changes: Any) -> Limits:
        return replace(self, **changes)

    @classmethod
    def coerce(cls, value: Limits | Mapping[str, Any] | None) -> Limits:
        if value is None:
            return cls()
        if isinstance(value, Limits):
            return value
        known = {f.name for f in fields(cls)}
        unknown = set(value) - known
        if unknown:
            raise ValueError(f"unknown limits {sorted(unknown)}; known: {sorted(known)}")
        return cls(**dict(value))
