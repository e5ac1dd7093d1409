"""Running a program from ``Runtime.run`` (``backend`` None) or on an event loop of its own,
asyncio's or trio's: what the effects tests compare (SPEC 17: every way gives the same order)."""

from __future__ import annotations

from typing import Any

import anyio

from dialectic import Outcome, Runtime


def run(rt: Runtime, backend: str | None, program: Any, **kw: Any) -> Outcome:
    if backend is None:
        return rt.run(program, **kw)

    async def main() -> Outcome:
        return await rt.run_async(program, **kw)

    return anyio.run(main, backend=backend)
