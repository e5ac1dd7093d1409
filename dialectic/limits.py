"""Resource limits. Every limit has a sane default and can be overridden per Runtime."""

from __future__ import annotations

import math
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
    max_steps: int = 1_000_000
    """Arrow-function applications and array/text method steps one run may take (each element
    a method visits counts, and sorting counts n*log2(n))."""
    max_recursion: int = 1000
    """How deep applications of the program's recursive functions may nest (SPEC 10,
    "Recursive functions")."""
    max_call_log: int = 1_000
    """Calls an outcome's call log lists (the others are counted, SPEC 18)."""
    max_log_bytes: int = 2_000
    """JSON size of one call's arguments in the call log (longer ones are clipped)."""
    max_partial_bytes: int = 4_000
    """JSON size of the completed aliases' values a failure returns (``partial``)."""

    def __post_init__(self) -> None:
        """Every limit is checked by type and range: a host's typo (``deadline="abc"``,
        ``max_concurrency=0.5``, ``per_function_concurrency=5``) is a ``ValueError`` naming
        the limit, never a crash later in a run."""
        for f in fields(self):
            name = f.name
            value = getattr(self, name)
            if name == "per_function_concurrency":
                _check_per_function(value)
            elif name in _SECONDS:
                if (
                    isinstance(value, bool)
                    or not isinstance(value, int | float)
                    or not math.isfinite(value)
                    or value <= 0
                ):
                    raise ValueError(
                        f"limit {name} must be a positive number of seconds, got {_show(value)}"
                    )
            elif isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise ValueError(f"limit {name} must be a positive integer, got {_show(value)}")
        if self.max_depth > HARD_MAX_DEPTH:
            raise ValueError(f"max_depth may be at most {HARD_MAX_DEPTH}, got {self.max_depth}")

    def with_(self, **changes: Any) -> Limits:
        return replace(self, **changes)

    @classmethod
    def coerce(cls, value: Limits | Mapping[str, Any] | None) -> Limits:
        if value is None:
            return cls()
        if isinstance(value, Limits):
            return value
        if not isinstance(value, Mapping):
            raise ValueError(f"limits must be a mapping of names to values, got {_show(value)}")
        known = {f.name for f in fields(cls)}
        unknown = {k for k in value if k not in known}
        if unknown:
            shown = sorted(_show(k) for k in unknown)
            raise ValueError(
                f"unknown limits {', '.join(shown)}; known: {', '.join(sorted(known))}"
            )
        return cls(**dict(value))


_SECONDS = frozenset({"call_timeout", "deadline"})


def _show(value: object) -> str:
    """A host's value for an error message, clipped (no 10,000-character echo)."""
    text = repr(value) if not isinstance(value, int) or abs(value) < 10**30 else "(a huge number)"
    return text if len(text) <= 60 else text[:40] + "..." + text[-10:]


def _check_per_function(value: object) -> None:
    if not isinstance(value, Mapping):
        raise ValueError(
            "limit per_function_concurrency must map function names to positive integers "
            f'(e.g. {{"flights": 4}}), got {_show(value)}'
        )
    for k, v in value.items():
        if not isinstance(k, str) or isinstance(v, bool) or not isinstance(v, int) or v <= 0:
            raise ValueError(
                "limit per_function_concurrency must map function names to positive integers, "
                f"got {_show(k)}: {_show(v)}"
            )
