"""Tools of real MCP servers as dialectic functions ``NAME.TOOL`` (SPEC 15): the npm servers
memory, filesystem and everything, and ``pyserver.py`` for the error cases."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest
import trio

from dialectic import Runtime
from dialectic.connectors.mcp_client import MCPConnectError

from .conftest import PYSERVER, children, gone, node_config, py_config, wait_until


def run(rt: Runtime, program: str, **context: Any) -> Any:
    out = rt.run(program, lang="plan", context=context)
    assert out.status == "success", out.message
    return out.value


def test_every_tool_is_a_namespaced_function(rt: Runtime) -> None:
    names = set(rt.registry.functions)
    assert {"memory.create_entities", "memory.read_graph", "fs.read_text_file"} <= names
    assert {"everything.echo", "everything.get_sum", "py.add", "py.fail"} <= names
    # a tool name that is not an identifier is called by its identifier form
    assert "everything.get-sum" not in names


def test_results_structured_json_text_and_plain_text(rt: Runtime) -> None:
    assert run(rt, "return py.add({a: 2, b: 40});") == {"sum": 42}  # structuredContent
    assert run(rt, "return py.as_json({value: 'v'});") == {"value": "v", "n": 1}  # JSON text
    assert run(rt, "return py.echo({text: 'not json'});") == "not json"  # text
    assert run(rt, "return everything.echo({message: 'hi'});") == "Echo: hi"
    assert run(rt, "return everything.get_sum({a: 1, b: 2});") == "The sum of 1 and 2 is 3."
    weather = run(rt, "return everything.get_structured_content({location: 'Chicago'});")
    assert set(weather) >= {"temperature", "conditions"}  # structuredContent
    said, image, _ = run(rt, "return everything.get_tiny_image({});")  # several blocks: a list
    assert said == "Here's the image you requested:"
    assert image["type"] == "image" and image["mimeType"] == "image/png" and image["data"]
    out = rt.run('{"py.add": {"a": 1, "b": 1}}')  # Dialect JSON names it the same way
    assert out.status == "success" and out.value == {"sum": 2}


def test_bare_name_when_unique_and_a_question_when_not(rt: Runtime) -> None:
    assert run(rt, "return get_sum({a: 2, b: 2});") == "The sum of 2 and 2 is 4."
    out = rt.run("return echo({message: 'm'});", lang="plan")
    assert out.status == "failure"
    assert "everything.echo" in str(out.message) and "py.echo" in str(out.message)


def test_sessions_are_reused_across_runs(rt: Runtime, workdir: Path) -> None:
    before = children()
    run(
        rt,
        "return memory.create_entities({entities: [{name: 'Ada', entityType: 'person', "
        "observations: ['wrote the first program']}]});",
    )
    graph = run(rt, "return memory.open_nodes({names: ['Ada']});")
    assert graph["entities"][0]["observations"] == ["wrote the first program"]
    assert children() == before  # no server was started for these runs


def test_one_program_composes_two_servers(rt: Runtime, workdir: Path) -> None:
    program = """
    const text = fs.read_text_file({path: file});
    const saved = memory.create_entities({entities: [
      {name: 'hello.txt', entityType: 'file', observations: [text.content.trim()]}]});
    return {saved: saved.entities.length, found: memory.search_nodes({query: 'hello'})};
    """
    value = run(rt, program, file=str(workdir / "hello.txt"))
    assert value["saved"] == 1
    assert value["found"]["entities"][0]["observations"] == ["hello from a file"]


def test_is_error_is_a_failure_with_the_tools_message(rt: Runtime) -> None:
    out = rt.run("return py.fail({reason: 'no such thing'});", lang="plan")
    assert out.status == "failure"
    assert out.error is not None and out.error.code == "mcp_tool_error"
    assert "cannot do that: no such thing" in str(out.message)
    assert "py.fail" in str(out.message)


def test_calls_to_one_server_run_concurrently(rt: Runtime) -> None:
    value = run(rt, "return ['a', 'b', 'c', 'd'].map(t => py.slow({seconds: 0.5, tag: t}));")
    assert [v["tag"] for v in value] == ["a", "b", "c", "d"]
    assert max(v["peak"] for v in value) >= 2  # the server saw overlapping calls


def test_a_hanging_call_times_out_and_is_cancelled_on_the_server(
    rt: Runtime, tmp_path: Path
) -> None:
    marker = tmp_path / "hang-marker"
    out = rt.run("return py.hang({marker: m});", lang="plan", context={"m": str(marker)})
    assert out.status == "failure"
    assert out.error is not None and out.error.code == "timeout"  # the server's timeout: 2 s
    assert "py.hang" in str(out.message)
    # the SDK sent notifications/cancelled: the server's handler was cancelled
    assert wait_until(lambda: marker.exists() and marker.read_text() == "cancelled")
    assert run(rt, "return py.add({a: 1, b: 2});") == {"sum": 3}  # the session is fine


def test_deadline_and_a_server_that_dies_mid_call(tmp_path: Path) -> None:
    """The run's deadline cancels its calls (the server sees the cancellation); a server that
    dies mid-call is a failure naming it; the next call starts it again."""
    marker = tmp_path / "deadline-marker"
    before = children()
    with Runtime(load_entry_points=False, limits={"deadline": 1}) as rt:
        rt.add_mcp_servers({"mcpServers": {"fragile": py_config()}})
        first = children() - before
        assert first
        out = rt.run("return fragile.hang({marker: m});", lang="plan", context={"m": str(marker)})
        assert out.status == "failure" and out.error is not None
        assert out.error.code == "limit_exceeded" and "deadline" in str(out.message)
        assert wait_until(lambda: marker.exists())
    # (the server's death and restart under the default deadline: starting a process again
    # can take more than a second on a loaded machine)
    with Runtime(load_entry_points=False) as rt:
        rt.add_mcp_servers({"mcpServers": {"fragile": py_config()}})
        started = children() - before - first
        assert started
        out = rt.run("return fragile.die({});", lang="plan")
        assert out.status == "failure" and out.error is not None
        assert out.error.code == "mcp_server_error"
        assert "'fragile'" in str(out.message)
        # its last words on standard error are quoted (and kept off the terminal)
        assert "out of disk space, giving up" in str(out.message)
        # the next call starts the server again (a new process), once
        again = rt.run("return fragile.add({a: 1, b: 1});", lang="plan")
        assert again.status == "success", again.message
        restarted = children() - before - first - started
        assert restarted
    assert wait_until(lambda: gone(first | started | restarted))


def test_close_ends_every_server_process(workdir: Path) -> None:
    before = children()
    rt = Runtime(load_entry_points=False)
    rt.add_mcp_servers(
        {
            "mcpServers": {
                "files": node_config("server-filesystem", str(workdir)),
                "every": node_config("server-everything", "stdio"),
            }
        }
    )
    started = children() - before
    assert len(started) >= 2  # one process per server (npm servers may start more)
    assert run(rt, "return every.get_sum({a: 1, b: 1});") == "The sum of 1 and 1 is 2."
    rt.close()
    assert gone(started)  # close waits for the processes to end: no zombie, no orphan
    rt.close()  # idempotent


def test_run_async_under_asyncio_and_trio(rt: Runtime) -> None:
    async def main() -> Any:
        return await rt.run_async("return py.add({a: 3, b: 4});", lang="plan")

    assert asyncio.run(main()).value == {"sum": 7}
    assert trio.run(main).value == {"sum": 7}


def test_sessions_on_the_callers_loop() -> None:
    before = children()
    config = {"mcpServers": {"every": node_config("server-everything", "stdio")}}

    async def main() -> tuple[Any, Any, set[int]]:
        async with Runtime(load_entry_points=False) as rt:
            await rt.add_mcp_servers_async(config)
            started = children() - before
            here = await rt.run_async(
                "return ['x', 'y'].map(t => every.echo({message: t}));", lang="plan"
            )
            # a synchronous run inside that loop runs on another thread: a clear failure,
            # not a deadlock
            elsewhere = rt.run("return every.echo({message: 'z'});", lang="plan")
        return here, elsewhere, started

    here, elsewhere, started = asyncio.run(main())
    assert here.status == "success" and here.value == ["Echo: x", "Echo: y"]
    assert elsewhere.status == "failure" and "event loop" in str(elsewhere.message)
    assert started and wait_until(lambda: gone(started))


def test_a_server_that_does_not_start_names_itself() -> None:
    rt = Runtime(load_entry_points=False)
    with pytest.raises(MCPConnectError) as err:
        rt.add_mcp_servers(
            {
                "mcpServers": {
                    "ok": node_config("server-everything", "stdio"),
                    "broken": {"command": "/nonexistent/dialectic-test-server"},
                }
            }
        )
    assert "'broken'" in str(err.value) and "not found" in str(err.value)
    assert not any(n.startswith(("ok.", "broken.")) for n in rt.registry.functions)
    rt.close()


def test_a_server_that_exits_at_start_names_itself() -> None:
    with Runtime(load_entry_points=False) as rt, pytest.raises(MCPConnectError) as err:
        rt.add_mcp_servers(
            {"mcpServers": {"quitter": {"command": sys.executable, "args": ["-c", QUITTER]}}}
        )
    assert "'quitter'" in str(err.value)
    assert "its standard error ended: quitter: set QUITTER_TOKEN first" in str(err.value)


QUITTER = "import sys; print('quitter: set QUITTER_TOKEN first', file=sys.stderr); sys.exit(2)"


def test_a_servers_standard_error_is_kept_not_printed(capfd: pytest.CaptureFixture[str]) -> None:
    """A chatty server (server-everything logs on stderr) writes nothing on ours; its tail is
    kept, bounded."""
    from dialectic.connectors.mcp_stderr import KEEP_BYTES

    with Runtime(load_entry_points=False) as rt:
        rt.add_mcp_servers({"mcpServers": {"ev": node_config("server-everything", "stdio")}})
        assert run(rt, "return ev.echo({message: 'hi'});") is not None
        session = rt._mcp.sessions["ev"]
        assert session.stderr is not None and len(session.stderr.buffer) <= KEEP_BYTES
        assert "Starting" in session.stderr.text()  # its banner, kept here
    assert capfd.readouterr().err == ""


def test_streamable_http_server(tmp_path: Path) -> None:
    import subprocess

    from .conftest import free_port

    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, str(PYSERVER), "--http", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        url = f"http://127.0.0.1:{port}/mcp"
        config = {"mcpServers": {"remote": {"url": url, "headers": {"X-Test": "1"}}}}
        with Runtime(load_entry_points=False) as rt:
            assert wait_until(lambda: _listening(port))
            rt.add_mcp_servers(config)
            assert run(rt, "return remote.add({a: 20, b: 22});") == {"sum": 42}
            out = rt.run("return remote.fail({reason: 'over http'});", lang="plan")
            assert out.status == "failure" and "over http" in str(out.message)
    finally:
        proc.terminate()
        proc.wait(30)


def _listening(port: int) -> bool:
    import socket

    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def test_a_flood_on_standard_error_is_kept_to_its_end() -> None:
    flood = (
        "import sys\n"
        "for i in range(20000): print('noise', i, file=sys.stderr)\n"
        "print('the real reason', file=sys.stderr); sys.exit(1)"
    )
    with Runtime(load_entry_points=False) as rt, pytest.raises(MCPConnectError) as err:
        rt.add_mcp_servers(
            {"mcpServers": {"flood": {"command": sys.executable, "args": ["-c", flood]}}}
        )
    message = str(err.value)
    assert message.endswith("the real reason") and "noise 19999" in message
    assert len(message) < 1000


def test_a_server_that_keeps_dying_is_not_restarted_in_a_loop(tmp_path: Path) -> None:
    """A restart that fails is reported with the server's last words, and the next calls
    fail at once (for REVIVE_INTERVAL seconds) instead of starting it again and again."""
    flag = tmp_path / "broken"
    with Runtime(load_entry_points=False) as rt:
        config = py_config()
        config["env"] = {**config.get("env", {}), "PYSERVER_REFUSE_IF": str(flag)}
        rt.add_mcp_servers({"mcpServers": {"frail": config}})
        flag.write_text("yes")  # from now on the server refuses to start
        died = rt.run("return frail.die({});", lang="plan")
        assert died.error is not None and died.error.code == "mcp_server_error"
        first = rt.run("return frail.add({a: 1, b: 1});", lang="plan")
        assert first.error is not None and "restarting it failed" in str(first.message)
        assert "pyserver: refusing to start" in str(first.message)
        before = children()
        second = rt.run("return frail.add({a: 1, b: 1});", lang="plan")
        assert second.error is not None and "restarting it failed" in str(second.message)
        assert children() == before  # no new process


def test_calls_waiting_on_a_restart_share_it() -> None:
    with Runtime(load_entry_points=False) as rt:
        before = children()
        rt.add_mcp_servers({"mcpServers": {"twice": py_config()}})
        first = children() - before
        assert rt.run("return twice.die({});", lang="plan").status == "failure"
        program = "return [1, 2, 3, 4, 5].map(n => twice.add({a: n, b: 1}).sum);"
        out = rt.run(program, lang="plan")
        assert out.status == "success" and out.value == [2, 3, 4, 5, 6], out.message
        assert len(children() - before - first) == 1  # one new process for the five calls
