"""MCP overhead: a tool of a real MCP server called through dialectic vs the SDK called directly.

The server is the npm package ``@modelcontextprotocol/server-everything`` (stdio), its tool
``get-sum``. Peers, side by side in one process, each with its own session to its own copy of
the server:

- ``sdk``: ``await client.call_tool(...)`` on an ``mcp.Client`` in the caller's loop;
- ``dialectic async``: ``await prepared.run_async()`` of ``everything.get_sum({a, b})`` in the same
  loop, the servers connected by ``await rt.add_mcp_servers_async`` (sessions on this loop);
- ``dialectic hop``: the same with the servers connected by the synchronous ``add_mcp_servers``
  (sessions on dialectic's own loop thread: one hop there and back per call);
- ``dialectic sync``: ``prepared.run()`` from plain code (a fresh event loop per run; sessions on
  the thread);
- fan-out: 50 calls in one program (they run concurrently) vs ``asyncio.gather`` of 50 SDK calls.

Rounds of each kind alternate, so drift in the machine's load hits all of them alike; the
results are checked equal. Target: dialectic async within 1.1x of the SDK per call.
Run: python benchmarks/mcp_overhead.py [--quick]
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from mcp import Client
from mcp.client.stdio import StdioServerParameters

from dialectic import Runtime

ROOT = Path(__file__).resolve().parent.parent
SERVER = ROOT / ".node/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
TARGET = 1.1
FANOUT = 50


async def _time(fn: Callable[[], Awaitable[Any]], calls: int) -> tuple[float, Any]:
    start = time.perf_counter()
    value = None
    for _ in range(calls):
        value = await fn()
    return (time.perf_counter() - start) / calls, value


CONFIG = {"mcpServers": {"everything": {"command": "node", "args": [str(SERVER), "stdio"]}}}
PROGRAM = "return everything.get_sum({a: 1, b: 2});"


async def measure(threaded: Runtime, quick: bool) -> int:
    params = StdioServerParameters(command="node", args=[str(SERVER), "stdio"])
    async with Runtime(load_entry_points=False) as rt:
        await rt.add_mcp_servers_async(CONFIG)
        return await _measure(rt, threaded, params, quick)


async def _measure(
    rt: Runtime, threaded: Runtime, params: StdioServerParameters, quick: bool
) -> int:
    one = rt.prepare(PROGRAM, lang="plan")
    hop = threaded.prepare(PROGRAM, lang="plan")
    many = rt.prepare(
        f"return Array.from({{length: {FANOUT}}}, (_, i) => i)"
        ".map(i => everything.get_sum({a: i, b: 2}));",
        lang="plan",
    )
    if many.error is not None:  # Array.from may be outside the subset: a literal list then
        items = ", ".join(str(i) for i in range(FANOUT))
        many = rt.prepare(
            f"return [{items}].map(i => everything.get_sum({{a: i, b: 2}}));", lang="plan"
        )
    rounds, calls = (4, 20) if quick else (12, 50)
    async with Client(params) as client:

        async def sdk() -> Any:
            result = await client.call_tool("get-sum", {"a": 1, "b": 2})
            return result.content[0].text  # type: ignore[union-attr]

        async def via_async() -> Any:
            out = await one.run_async()
            assert out.status == "success", out.message
            return out.value

        async def via_hop() -> Any:
            out = await hop.run_async()
            assert out.status == "success", out.message
            return out.value

        async def via_sync() -> Any:
            out = await asyncio.to_thread(hop.run)  # sync run; the thread is the "caller"
            assert out.status == "success", out.message
            return out.value

        async def sdk_fanout() -> Any:
            got = await asyncio.gather(
                *(client.call_tool("get-sum", {"a": i, "b": 2}) for i in range(FANOUT))
            )
            return [r.content[0].text for r in got]  # type: ignore[union-attr]

        async def via_fanout() -> Any:
            out = await many.run_async()
            assert out.status == "success", out.message
            return out.value

        peers = {
            "sdk": sdk,
            "dialectic async": via_async,
            "dialectic hop": via_hop,
            "dialectic sync": via_sync,
            f"sdk gather x{FANOUT}": sdk_fanout,
            f"dialectic x{FANOUT}": via_fanout,
        }
        times: dict[str, list[float]] = {k: [] for k in peers}
        values: dict[str, Any] = {}
        for fn in peers.values():  # warm up: connections, caches, JIT-free but lazy imports
            await fn()
        for _ in range(rounds):
            for name, fn in peers.items():
                n = calls if "x" not in name else max(2, calls // 10)
                per, values[name] = await _time(fn, n)
                times[name].append(per)
    assert values["sdk"] == values["dialectic async"] == values["dialectic hop"], values
    assert values["sdk"] == values["dialectic sync"], values
    assert values[f"sdk gather x{FANOUT}"] == values[f"dialectic x{FANOUT}"]
    med = {k: statistics.median(v) for k, v in times.items()}
    print(
        f"MCP tool call through dialectic vs the SDK directly (server-everything get-sum, "
        f"{rounds} rounds)"
    )
    print(f"{'peer':<22}{'per call':>12}{'vs sdk':>10}")
    for name, value in med.items():
        base = med["sdk"] if "x" not in name else med[f"sdk gather x{FANOUT}"]
        per_call = value if "x" not in name else value / FANOUT
        print(f"{name:<22}{per_call * 1e6:>10.0f}us{value / base:>9.2f}x")
    ratio = med["dialectic async"] / med["sdk"]
    print(f"dialectic async / sdk = {ratio:.2f}x (target <= {TARGET}x)")
    print("target: met" if ratio <= TARGET else "target: NOT met")
    return 0


def main() -> int:
    if not SERVER.is_file():
        print(f"skipped: {SERVER} is missing (python3 tasks.py setup installs it)")
        return 0
    quick = "--quick" in sys.argv
    with Runtime(load_entry_points=False) as threaded:
        threaded.add_mcp_servers(CONFIG)
        return asyncio.run(measure(threaded, quick))


if __name__ == "__main__":
    sys.exit(main())
