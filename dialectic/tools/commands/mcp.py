"""``dialectic mcp``: serve a runtime as an MCP server; and ``--mcp-config`` for any command."""

from __future__ import annotations

import sys
from typing import Any

import click

from dialectic.limits import Limits
from dialectic.outcome.errors import PluginError
from dialectic.runtime import Runtime

EXIT_USAGE = 2

mcp_config_option = click.option(
    "--mcp-config",
    "mcp_configs",
    multiple=True,
    metavar="FILE",
    type=click.Path(exists=True, dir_okay=False),
    help='An MCP hosts\' configuration ({"mcpServers": {...}}): each tool of server NAME '
    "becomes the function NAME.TOOL (repeatable).",
)


def read_configs(paths: tuple[str, ...]) -> list[Any]:
    """The servers of each configuration file; a bad file is a usage error naming the place."""
    from dialectic.connectors.mcp_config import MCPConfigError, load_mcp_config

    configs = []
    for path in paths:
        try:
            configs.append(load_mcp_config(path))
        except MCPConfigError as exc:
            message = str(exc) if path in str(exc) else f"{path}: {exc}"
            raise click.BadParameter(message, param_hint="--mcp-config") from None
    return configs


def attach_mcp(rt: Runtime, paths: tuple[str, ...]) -> None:
    """Connect the MCP servers of each configuration file; a bad file or a server that does
    not start is a usage error (exit 2) naming it."""
    configs = read_configs(paths)  # every file is checked before any server starts
    for servers in configs:
        try:
            rt.add_mcp_servers(servers)
        except PluginError as exc:
            rt.close()
            click.echo(f"error: {exc}", err=True)
            sys.exit(EXIT_USAGE)


@click.command("mcp")
@click.option(
    "--plugin", "plugins", multiple=True, metavar="MODULE", help="Import MODULE as a plugin."
)
@click.option(
    "--entry-points/--no-entry-points",
    default=True,
    show_default=True,
    help="Load plugins installed under the `dialectic` entry point.",
)
@mcp_config_option
@click.option(
    "--http",
    "http_port",
    type=click.IntRange(0, 65535),
    default=None,
    metavar="PORT",
    help="Serve streamable HTTP at http://127.0.0.1:PORT/mcp instead of stdio.",
)
@click.option(
    "--limit",
    "limit_pairs",
    multiple=True,
    metavar="NAME=VALUE",
    help="Override a limit of every run, e.g. --limit deadline=5 (repeatable).",
)
def _mcp_command(
    plugins: tuple[str, ...],
    entry_points: bool,
    mcp_configs: tuple[str, ...],
    http_port: int | None,
    limit_pairs: tuple[str, ...],
    **openapi: tuple[str, ...],
) -> None:
    """Serve dialectic as an MCP server: the tools run_program, search_functions and
    check_program over the plugins' functions, the tools of the --mcp-config servers and the
    operations of the --openapi services."""
    from dialectic.tools.cli import _parse_pairs
    from dialectic.tools.mcp_server import run_server

    limits: Any = None
    if limit_pairs:
        try:
            limits = Limits.coerce(_parse_pairs(limit_pairs, "--limit"))
        except (ValueError, TypeError) as exc:
            raise click.BadParameter(str(exc), param_hint="--limit") from None
    configs = read_configs(mcp_configs)  # checked here; connected on the server's loop
    try:
        rt = Runtime(plugins=plugins, load_entry_points=entry_points, limits=limits)
    except PluginError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_USAGE)
    if any(openapi.values()):  # --openapi, --openapi-header, ... (the CLI's openapi_options)
        from dialectic.connectors.openapi import attach_openapi

        attach_openapi(rt, **openapi)
    try:
        run_server(rt, configs, http_port)
    except PluginError as exc:  # a server that did not start
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_USAGE)


def __getattr__(name: str) -> Any:
    """``command``: the ``mcp`` command with the CLI's ``--openapi`` options, made when the CLI
    adds it (the CLI module imports this one before it defines those options)."""
    if name != "command":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from dialectic.tools.cli import openapi_options

    # `python -m dialectic.tools.cli` runs the CLI as __main__ and imports it again here, which
    # comes back to this function: the options are added once
    if not any(p.name == "openapi" for p in _mcp_command.params):
        openapi_options(_mcp_command)
    globals()["command"] = _mcp_command
    return _mcp_command
