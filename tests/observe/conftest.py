"""Functions that count their calls, for the call log, journal and trace tests."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import pytest

from dialectic import FunctionDescription, Optional, Runtime
from dialectic.outcome.errors import Failure


class Tools:
    """Real functions (sync and async) that count how often each was called."""

    def __init__(self) -> None:
        self.calls: Counter[str] = Counter()
        #: `lookup` waits an hour while this is set (a run's deadline cuts it short)
        self.slow = False

    def functions(self) -> list[FunctionDescription]:
        calls = self.calls

        def book(city: str, nights: int = 1) -> dict[str, Any]:
            calls["book"] += 1
            return {"city": city, "nights": nights, "ref": f"B-{city}-{nights}"}

        def fail(reason: str) -> Any:
            calls["fail"] += 1
            raise Failure(reason)

        async def fetch(key: str, seconds: float = 0.0) -> dict[str, Any]:
            calls["fetch"] += 1
            await asyncio.sleep(seconds)
            return {"key": key, "value": len(key)}

        async def hang(key: str) -> str:
            calls["hang"] += 1
            await asyncio.sleep(3600)
            return key

        async def afail(key: str) -> Any:
            calls["afail"] += 1
            await asyncio.sleep(0)
            raise Failure(f"no {key}")

        async def lookup(key: str) -> str:
            calls["lookup"] += 1
            await asyncio.sleep(3600 if self.slow else 0)
            return key.lower()

        async def reserve(key: str) -> str:
            calls["reserve"] += 1
            await asyncio.sleep(3600 if self.slow else 0)
            return f"R-{key}"

        def blob(n: int) -> str:
            calls["blob"] += 1
            return "x" * n

        return [
            FunctionDescription(
                "book",
                "book a stay",
                book,
                {"city": "string", "nights": Optional("integer")},
                "object",
                effects="write",
            ),
            FunctionDescription("lookup", "read a key", lookup, {"key": "string"}, "string"),
            FunctionDescription(
                "reserve", "reserve, async", reserve, {"key": "string"}, "string", effects="write"
            ),
            FunctionDescription(
                "reserveAgain",
                "reserve, idempotent",
                reserve,
                {"key": "string"},
                "string",
                effects="write",
                idempotent=True,
            ),
            FunctionDescription("fail", "always fails", fail, {"reason": "string"}, "any"),
            FunctionDescription(
                "fetch",
                "fetch a key",
                fetch,
                {"key": "string", "seconds": Optional("number")},
                "object",
            ),
            FunctionDescription("hang", "never returns", hang, {"key": "string"}, "string"),
            FunctionDescription("afail", "fails, async", afail, {"key": "string"}, "any"),
            FunctionDescription("blob", "n characters", blob, {"n": "integer"}, "string"),
        ]


@pytest.fixture
def tools() -> Tools:
    return Tools()


def make_runtime(tools: Tools, **kwargs: Any) -> Runtime:
    rt = Runtime(load_entry_points=False, **kwargs)
    rt.register(*tools.functions())
    return rt


def by_path(calls: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {c["path"]: c for c in calls}
