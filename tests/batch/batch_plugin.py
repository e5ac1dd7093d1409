"""The functions of the batch tests (a plugin module: ``--plugin batch_plugin`` with this folder
on ``sys.path``, in the test process, CLI subprocesses and Dask workers alike)."""

from __future__ import annotations

from typing import Any

import anyio

from dialectic import Ambiguous, Candidate, Failure, FunctionDescription, hookimpl


async def double(x: int) -> int:
    await anyio.sleep(0.001)
    return x * 2


async def nap(seconds: float, tag: str) -> str:
    await anyio.sleep(seconds)
    return tag


def account(name: str) -> dict[str, Any]:
    if name == "nobody":
        raise Failure("no account named nobody", hint="Use an existing account name.")
    if name == "sam":
        raise Ambiguous(
            "Two accounts are named sam. Which did you mean?",
            [
                Candidate("sam (sales)", {"account": {"name": "sam.sales"}}),
                Candidate("sam (ops)", {"account": {"name": "sam.ops"}}),
            ],
        )
    return {"name": name, "balance": len(name) * 10}


@hookimpl
def dialectic_register_functions(register: Any) -> None:
    register(
        FunctionDescription("double", "Twice x", double, {"x": "integer"}, "integer"),
        FunctionDescription(
            "nap", "Sleep, then return tag", nap, {"seconds": "number", "tag": "string"}, "string"
        ),
        FunctionDescription("account", "An account by name", account, {"name": "string"}, "object"),
    )
