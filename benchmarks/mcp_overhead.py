"""MCP overhead: a tool of a real MCP server called through dialectic vs the SDK called directly.

The server is the npm package ``@modelcontextprotocol/server-everything`` (stdio), its tool
``get-sum``. Peers, side by side in one process:

- ``sdk``: ``await client.call_tool(...)`` on the SDK's ``Client`` of the session dialectic uses
  (the same server process), in the caller's loop;
- ``connector only``: ``await connections.call(...)``: dialectic's MCP layer without a program
  (the result conversion included);
- ``dialectic async``: ``await prepared.run_async()`` of ``everything.get_sum({a, b})`` in the same
  loop, the server connected as ``await rt.add_mcp_servers_async`` does (sessions on this loop);
- ``dialectic hop``: the same with the servers connected by the synchronous ``add_mcp_servers``
  (sessions on dialectic's own loop thread: one hop there and back per call);
- ``dialectic sync``: ``prepared.run()`` from plain code (a fresh event loop per run; sessions on
  the thread);
- fan-out: 50 calls in one program (they run concurrently) vs ``asyncio.gather`` of 50 SDK calls.

Single calls of the peers alternate (the order rotating), so drift in the machine's load hits
all of them alike; the medians of wall time are compared, and the results checked equal.
``client CPU``: this process's CPU time per call (every thread), the work dialectic adds
whatever the machine's load. Target: dialectic async within 1.1x of the SDK per call.
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

from dialectic import Runtime
from dialectic.connectors.mcp_client import MCPConnections
from dialectic.connectors.mcp_runtime import add_mcp_servers_async

ROOT = Path(__file__).resolve().parent.parent
SERVER = ROOT / ".node/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
TARGET = 1.1
FANOUT = 50


async def _time(fn: Callable[[], Awaitable[Any]], calls: int) -> tuple[float, float, Any]:
    """Wall time and this process's CPU time (all its threads) per call, and the value."""
    start, cpu = time.perf_counter(), time.process_time()
    value = None
    for _ in range(calls):
        value = await fn()
    return (time.perf_counter() - start) / calls, (time.process_time() - cpu) / calls, value


CONFIG = {"mcpServers": {"everything": {"command": "node", "args": [str(SERVER), "stdio"]}}}
PROGRAM = "return everything.get_sum({a: 1, b: 2});"


async def measure(threaded: Runtime, quick: bool) -> int:
    connections = MCPConnections()
    rt = Runtime(load_entry_points=False)
    try:
        await add_mcp_servers_async(rt, CONFIG, connections)
        return await _measure(rt, connections, threaded, quick)
    finally:
        await connections.aclose()


async def _measure(rt: Runtime, connections: MCPConnections, threaded: Runtime, quick: bool) -> int:
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
    client = connections.sessions["everything"].client  # the same session dialectic uses
    assert client is not None

    async def sdk() -> Any:
        result = await client.call_tool("get-sum", {"a": 1, "b": 2})
        return result.content[0].text  # type: ignore[union-attr]

    async def via_connector() -> Any:
        return await connections.call("everything", "get-sum", {"a": 1, "b": 2})

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
        "connector only": via_connector,
        "dialectic async": via_async,
        "dialectic hop": via_hop,
        "dialectic sync": via_sync,
        f"sdk gather x{FANOUT}": sdk_fanout,
        f"dialectic x{FANOUT}": via_fanout,
    }
    times: dict[str, list[float]] = {k: [] for k in peers}
    cpus: dict[str, list[float]] = {k: [] for k in peers}
    values: dict[str, Any] = {}
    for fn in peers.values():  # warm up: connections, caches, JIT-free but lazy imports
        await fn()
    singles = [name for name in peers if "x" not in name]
    for r in range(rounds):
        for i in range(calls):  # one call of each peer in turn, the order rotating
            k = (r + i) % len(singles)
            for name in singles[k:] + singles[:k]:
                per, used, values[name] = await _time(peers[name], 1)
                times[name].append(per)
                cpus[name].append(used)
        for name in peers:
            if name not in singles:
                per, used, values[name] = await _time(peers[name], 2)
                times[name].append(per)
                cpus[name].append(used)
    assert values["sdk"] == values["connector only"] == values["dialectic async"], values
    assert values["sdk"] == values["dialectic hop"], values
    assert values["sdk"] == values["dialectic sync"], values
    assert values[f"sdk gather x{FANOUT}"] == values[f"dialectic x{FANOUT}"]
    med = {k: statistics.median(v) for k, v in times.items()}
    print(
        f"MCP tool call through dialectic vs the SDK directly (server-everything get-sum, "
        f"{rounds} rounds)"
    )
    cpu = {k: statistics.mean(v) for k, v in cpus.items()}
    print(f"{'peer':<22}{'per call':>12}{'vs sdk':>10}{'client CPU':>14}")
    for name, value in med.items():
        base = med["sdk"] if "x" not in name else med[f"sdk gather x{FANOUT}"]
        n = 1 if "x" not in name else FANOUT
        print(
            f"{name:<22}{value / n * 1e6:>10.0f}us{value / base:>9.2f}x"
            f"{cpu[name] / n * 1e6:>12.0f}us"
        )
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
