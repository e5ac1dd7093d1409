"""``dialectic batch IN [--out OUT]``: run every program of a JSON Lines file, a folder or a
NESTFUL/BFCL file, one outcome record per line, resumable; locally or on Dask (SPEC 19)."""

from __future__ import annotations

import sys
from typing import Any

import click
import orjson

from dialectic.outcome.errors import PluginError

EXIT_USAGE = 2


def _limits(pairs: tuple[str, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"expected NAME=VALUE, got {pair!r}", param_hint="--limit")
        try:
            out[key] = orjson.loads(raw)
        except orjson.JSONDecodeError:
            out[key] = raw
    return out


@click.command(name="batch")
@click.argument("source", type=click.Path(exists=True))
@click.option(
    "--out",
    "out",
    type=click.Path(dir_okay=False),
    default=None,
    help="Append one outcome record per line here; ids already in it are skipped (resume). "
    "Default: standard output (the summary then goes to stderr).",
)
@click.option(
    "--concurrency",
    type=click.IntRange(1, 100_000),
    default=64,
    show_default=True,
    help="Programs running at once (per worker with --dask).",
)
@click.option(
    "--dask",
    "dask",
    default=None,
    metavar="ADDRESS|local[:WORKERS]",
    help="Run on a Dask cluster: a scheduler address (tcp://host:8786), or `local` for a new "
    "LocalCluster of worker processes on this machine.",
)
@click.option(
    "--dask-timeout",
    type=click.FloatRange(0.1, 3600),
    default=10.0,
    show_default=True,
    metavar="SECONDS",
    help="With --dask ADDRESS: how long to try reaching the scheduler.",
)
@click.option(
    "--partition-size",
    type=click.IntRange(1, 1_000_000),
    default=None,
    help="With --dask: programs per task (default 200).",
)
@click.option(
    "--plugin",
    "plugins",
    multiple=True,
    metavar="MODULE",
    help="Import MODULE as a plugin (repeatable; importable on every worker).",
)
@click.option(
    "--entry-points/--no-entry-points",
    default=True,
    show_default=True,
    help="Load plugins installed under the `dialectic` entry point.",
)
@click.option(
    "--mcp-config",
    "mcp_configs",
    multiple=True,
    metavar="FILE",
    type=click.Path(exists=True, dir_okay=False),
    help="An MCP hosts' configuration: its servers' tools become functions (repeatable; the "
    "path must be valid on every worker).",
)
@click.option(
    "--openapi",
    "openapi",
    multiple=True,
    metavar="NAME=URL|FILE",
    help="An OpenAPI 3 document: each operation becomes the function NAME.operationId "
    "(repeatable; reachable from every worker).",
)
@click.option(
    "--openapi-header",
    "openapi_headers",
    multiple=True,
    metavar="NAME:Header=Value",
    help="A header sent with every request to the OpenAPI service NAME (${ENV_VAR} expanded "
    "where the runtime is built).",
)
@click.option(
    "--openapi-base-url",
    "openapi_base_urls",
    multiple=True,
    metavar="NAME=URL",
    help="The base URL of the OpenAPI service NAME.",
)
@click.option(
    "--limit",
    "limit_pairs",
    multiple=True,
    metavar="NAME=VALUE",
    help="A limit of every program, e.g. --limit deadline=5 (repeatable).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["table", "json"]),
    default="table",
    show_default=True,
    help="The summary at the end: a table, or one JSON object.",
)
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Progress bar on stderr (default: only when stderr is a terminal).",
)
@click.option(
    "--calls/--no-calls",
    default=True,
    show_default=True,
    help="Records carry the call log (the calls each program made, SPEC 18).",
)
@click.option("--debug", is_flag=True, help="Include tracebacks of failing functions.")
def command(
    source: str,
    out: str | None,
    concurrency: int,
    dask: str | None,
    dask_timeout: float,
    partition_size: int | None,
    plugins: tuple[str, ...],
    entry_points: bool,
    mcp_configs: tuple[str, ...],
    openapi: tuple[str, ...],
    openapi_headers: tuple[str, ...],
    openapi_base_urls: tuple[str, ...],
    limit_pairs: tuple[str, ...],
    fmt: str,
    progress: bool | None,
    calls: bool,
    debug: bool,
) -> None:
    """Run every program of SOURCE and write one outcome record per line.

    SOURCE is JSON Lines ({"id", "program", "lang"?, "context"?, "functions"?, "expected"?}
    per line), a folder of program files, or a NESTFUL or BFCL corpus file (their gold calls
    run against stubs of their function documents). Re-running with the same --out continues
    an interrupted batch. Exit status: 0 when every program has a record (whatever its
    outcome), 2 on usage errors.
    """
    from dialectic.batch.driver import run_batch
    from dialectic.batch.items import RuntimeSpec
    from dialectic.batch.jsonl import BatchInputError
    from dialectic.batch.progress import summary_table

    try:
        spec = RuntimeSpec.make(
            plugins,
            entry_points,
            _limits(limit_pairs),
            debug=debug,
            mcp_configs=mcp_configs,
            openapi=openapi,
            openapi_headers=openapi_headers,
            openapi_base_urls=openapi_base_urls,
        )
    except (ValueError, TypeError) as exc:
        raise click.BadParameter(str(exc), param_hint="--limit") from None
    runtime = None
    try:
        runtime = spec.build()  # a broken plugin or MCP server stops here, before any program
    except PluginError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_USAGE)
    except Exception as exc:  # an MCP configuration or OpenAPI document that does not load
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_USAGE)
    try:
        if dask is not None:
            runtime.close()  # the workers build their own
            runtime = None
        summary = run_batch(
            source,
            out,
            spec=spec,
            runtime=runtime,
            concurrency=concurrency,
            dask=dask,
            partition_size=partition_size,
            dask_timeout=dask_timeout,
            progress=progress,
            calls=calls,
        )
    except (BatchInputError, ValueError) as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_USAGE)
    except RuntimeError as exc:  # Dask is not installed, or the scheduler is unreachable
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_USAGE)
    except OSError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_USAGE)
    finally:
        if runtime is not None:
            runtime.close()
    text = (
        orjson.dumps(summary, option=orjson.OPT_INDENT_2).decode() + "\n"
        if fmt == "json"
        else summary_table(summary)
    )
    click.echo(text, nl=False, err=out is None)
