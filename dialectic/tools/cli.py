"""The ``dialectic`` command line.

Exit codes of ``dialectic run``: 0 success, 1 failure, 3 ambiguous, 2 usage error (bad option,
missing file, broken plugin).
"""

from __future__ import annotations

import importlib
import sys
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import click
import orjson

from dialectic.frontends import EXTENSIONS, normalize_lang, to_tree
from dialectic.frontends.base import SourceError
from dialectic.limits import Limits
from dialectic.outcome.errors import DialecticError, PluginError, clip
from dialectic.outcome.outcome import AMBIGUOUS, SUCCESS, Outcome
from dialectic.runtime import Runtime
from dialectic.tools.commands.mcp import attach_mcp, mcp_config_option
from dialectic.tools.preview import effects_options, print_preview, terminal_approver
from dialectic.tools.timeline import observe_options, open_journal, show_observed

EXIT_SUCCESS, EXIT_FAILURE, EXIT_USAGE, EXIT_AMBIGUOUS = 0, 1, 2, 3

#: Conventional context keys with their own options (read by the datetime and ide extensions).
CONTEXT_OPTIONS = {
    "now": "Pin the clock: ISO 8601 text with an offset, or without one together with "
    "--timezone (context key `now`).",
    "timezone": "IANA time zone of the run, e.g. Europe/Paris (context key `timezone`).",
    "workspace": "Workspace root for code intelligence (context key `workspace`); the ide "
    "extension reads no file without it.",
    "selection": "Current selection, path:line:col-line:col (context key `selection`).",
}


def _dump(value: Any, pretty: bool = True) -> str:
    option = orjson.OPT_INDENT_2 if pretty else 0
    return orjson.dumps(value, option=option | orjson.OPT_NON_STR_KEYS).decode()


def read_stdin() -> str:
    """Standard input as text; bytes that are not UTF-8 become lone surrogates, which the
    front end reports at their line and column (``sys.stdin``'s own decoding may be strict,
    as with ``PYTHONIOENCODING=utf-8``: a traceback)."""
    return sys.stdin.buffer.read().decode("utf-8", "surrogateescape")


def _read_program(path: str) -> tuple[str, str | None]:
    if path == "-":
        return read_stdin(), None
    p = Path(path)
    if not p.is_file():
        raise click.BadParameter(f"no such file: {path}", param_hint="FILE")
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise click.BadParameter(f"cannot read {path}: {exc}", param_hint="FILE") from None
    return text, EXTENSIONS.get(p.suffix.lower())


def _lang(option: str | None, guessed: str | None) -> str | None:
    if option:
        try:
            return normalize_lang(option)
        except DialecticError as exc:
            raise click.BadParameter(exc.message, param_hint="--lang") from None
    return guessed


def _make_runtime(
    plugins: tuple[str, ...], entry_points: bool, limits: Limits | None = None, debug: bool = False
) -> Runtime:
    try:
        return Runtime(plugins=plugins, load_entry_points=entry_points, limits=limits, debug=debug)
    except PluginError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_USAGE)


def _check_clock_options(now: str | None, timezone: str | None) -> None:
    """``--now`` must be ISO 8601 date-time text and ``--timezone`` an IANA zone name: a typo is
    a usage error (exit 2) here, not a failure of the program's first date function."""
    if now is not None:
        try:
            pinned = datetime.fromisoformat(now.strip())
        except ValueError:
            raise click.BadParameter(
                f"expected ISO 8601 date-time text such as 2023-10-10T08:00:00-07:00, got "
                f"{clip(now, 60)!r}",
                param_hint="--now",
            ) from None
        if pinned.utcoffset() is None and timezone is None:
            # a clock time with no zone would silently be read as UTC
            raise click.BadParameter(
                f"{clip(now, 60)!r} has no UTC offset: add one (2023-10-10T08:00:00-07:00, or Z "
                "for UTC), or give --timezone to read it as that zone's wall-clock time",
                param_hint="--now",
            )
    if timezone is not None:
        name = timezone.strip()
        ok = name.upper() in ("UTC", "Z", "GMT")
        if not ok and 0 < len(name) <= 100:
            try:
                ZoneInfo(name)
                ok = True
            except (ZoneInfoNotFoundError, ValueError, OSError):  # OSError: a name too long
                pass
        if not ok:
            raise click.BadParameter(
                f"not a known IANA time zone name: {clip(timezone, 60)!r} (e.g. Europe/Paris, "
                "America/Los_Angeles, UTC)",
                param_hint="--timezone",
            )


def _parse_pairs(pairs: tuple[str, ...], what: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"expected KEY=VALUE, got {pair!r}", param_hint=what)
        try:
            out[key] = orjson.loads(raw)
        except orjson.JSONDecodeError:
            out[key] = raw
    return out


plugin_option = click.option(
    "--plugin",
    "plugins",
    multiple=True,
    metavar="MODULE",
    help="Import MODULE as a plugin (repeatable).",
)
entry_points_option = click.option(
    "--entry-points/--no-entry-points",
    default=True,
    show_default=True,
    help="Load plugins installed under the `dialectic` entry point.",
)


def openapi_options(command: Any) -> Any:
    """``--openapi NAME=URL|FILE``, ``--openapi-header NAME:Header=Value``,
    ``--openapi-base-url NAME=URL`` and ``--openapi-timeout NAME=SECONDS`` (SPEC 16;
    ``dialectic.connectors.openapi.attach_openapi`` registers them)."""
    command = click.option(
        "--openapi-timeout",
        "openapi_timeouts",
        multiple=True,
        metavar="NAME=SECONDS",
        help="Bound each request to the OpenAPI service NAME (default: the call_timeout limit).",
    )(command)
    command = click.option(
        "--openapi-base-url",
        "openapi_base_urls",
        multiple=True,
        metavar="NAME=URL",
        help="The base URL of the OpenAPI service NAME (default: its document's servers[0]).",
    )(command)
    command = click.option(
        "--openapi-header",
        "openapi_headers",
        multiple=True,
        metavar="NAME:Header=Value",
        help="A header sent with every request to the OpenAPI service NAME; ${ENV_VAR} is the "
        "environment variable, e.g. 'pets:Authorization=Bearer ${PETS_TOKEN}' (repeatable).",
    )(command)
    return click.option(
        "--openapi",
        "openapi",
        multiple=True,
        metavar="NAME=URL|FILE",
        help="An OpenAPI 3 document (URL, JSON or YAML file): each operation becomes the "
        "function NAME.operationId (repeatable).",
    )(command)


lang_option = click.option(
    "--lang",
    default=None,
    metavar="LANG",
    help="json, plan or plan2 (default: from the file extension, else detected).",
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="dialectic")
def main() -> None:
    """dialectic: run programs written by LLMs that compose calls to tools and services."""


@main.command()
@click.argument("file")
@plugin_option
@entry_points_option
@lang_option
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="text: the value or message; json: Outcome.to_json().",
)
@click.option("--strict", is_flag=True, help="Plan: accept only the strict subset (no repairs).")
@click.option(
    "--context",
    "context_pairs",
    multiple=True,
    metavar="KEY=VALUE",
    help="A context value (JSON, else text; repeatable).",
)
@click.option(
    "--context-file",
    type=click.Path(exists=True, dir_okay=False),
    help="A JSON object of context values.",
)
@click.option("--now", help=CONTEXT_OPTIONS["now"])
@click.option("--timezone", help=CONTEXT_OPTIONS["timezone"])
@click.option("--workspace", help=CONTEXT_OPTIONS["workspace"])
@click.option("--selection", help=CONTEXT_OPTIONS["selection"])
@click.option(
    "--limit",
    "limit_pairs",
    multiple=True,
    metavar="NAME=VALUE",
    help="Override a limit, e.g. --limit deadline=5 (repeatable).",
)
@click.option("--debug", is_flag=True, help="Include tracebacks of failing functions.")
@mcp_config_option
@openapi_options
@observe_options
@effects_options
def run(
    file: str,
    plugins: tuple[str, ...],
    entry_points: bool,
    lang: str | None,
    fmt: str,
    strict: bool,
    context_pairs: tuple[str, ...],
    context_file: str | None,
    now: str | None,
    timezone: str | None,
    workspace: str | None,
    selection: str | None,
    limit_pairs: tuple[str, ...],
    debug: bool,
    mcp_configs: tuple[str, ...] = (),
    openapi: tuple[str, ...] = (),
    openapi_headers: tuple[str, ...] = (),
    openapi_base_urls: tuple[str, ...] = (),
    openapi_timeouts: tuple[str, ...] = (),
    trace: bool = False,
    timeline: str | None = None,
    journal: str | None = None,
    dry_run: bool = False,
    approve: bool = False,
) -> None:
    """Run a program FILE (or - for standard input) and print its outcome.

    Exit status: 0 success, 1 failure, 3 ambiguous, 2 usage error.
    """
    _check_clock_options(now, timezone)
    text, guessed = _read_program(file)
    context: dict[str, Any] = {}
    if context_file:
        try:
            loaded = orjson.loads(Path(context_file).read_bytes())
        except orjson.JSONDecodeError as exc:
            raise click.BadParameter(f"not JSON: {exc}", param_hint="--context-file") from None
        if not isinstance(loaded, dict):
            raise click.BadParameter("must hold a JSON object", param_hint="--context-file")
        context.update(loaded)
    context.update(_parse_pairs(context_pairs, "--context"))
    for key, value in (
        ("now", now),
        ("timezone", timezone),
        ("workspace", workspace),
        ("selection", selection),
    ):
        if value is not None:
            context[key] = value
    limits = None
    if limit_pairs:
        try:
            limits = Limits.coerce(_parse_pairs(limit_pairs, "--limit"))
        except (ValueError, TypeError) as exc:
            raise click.BadParameter(str(exc), param_hint="--limit") from None
    rt = _make_runtime(plugins, entry_points, limits, debug)
    attach_mcp(rt, mcp_configs)
    if openapi or openapi_headers or openapi_base_urls or openapi_timeouts:
        from dialectic.connectors.openapi import attach_openapi

        attach_openapi(rt, openapi, openapi_headers, openapi_base_urls, openapi_timeouts)
    log = open_journal(journal)
    with rt:  # ends the MCP sessions and server processes
        if dry_run:  # SPEC 17: nothing runs
            sys.exit(print_preview(rt, text, _lang(lang, guessed), strict, fmt))
        outcome = rt.run(
            text,
            context=context,
            lang=_lang(lang, guessed),
            strict=strict,
            journal=log,
            approve=terminal_approver(file == "-") if approve else None,
        )
    _print_outcome(outcome, fmt, calls=trace)
    show_observed(outcome, trace, timeline, fmt)
    sys.exit(_exit_code(outcome))


def _exit_code(outcome: Outcome) -> int:
    if outcome.status == SUCCESS:
        return EXIT_SUCCESS
    if outcome.status == AMBIGUOUS:
        return EXIT_AMBIGUOUS
    return EXIT_FAILURE


def _print_outcome(outcome: Outcome, fmt: str, calls: bool = False) -> None:
    if fmt == "json":
        click.echo(_dump(outcome.to_json(calls=calls)))
        return
    for w in outcome.warnings:
        click.echo(f"warning: {w}", err=True)
    if outcome.status == SUCCESS:
        value = outcome.to_json()["value"]
        click.echo(value if isinstance(value, str) else _dump(value))
    else:
        click.echo(outcome.message)


@main.command("compile")
@click.argument("file")
@plugin_option
@entry_points_option
@lang_option
@click.option("--strict", is_flag=True, help="Plan: accept only the strict subset.")
@click.option(
    "--context",
    "context_pairs",
    multiple=True,
    metavar="KEY=VALUE",
    help="A context value the program may read (JSON, else text; repeatable).",
)
@click.option(
    "--raw",
    is_flag=True,
    help="Print the front end's call tree as written (no registry, no binding).",
)
def compile_command(
    file: str,
    plugins: tuple[str, ...],
    entry_points: bool,
    lang: str | None,
    strict: bool,
    context_pairs: tuple[str, ...],
    raw: bool,
) -> None:
    """Print the canonical call tree of FILE (names resolved, arguments by name).

    Fails (exit 1, with the message `run` would print) exactly where `run` with the same
    context would fail before calling anything.
    """
    text, guessed = _read_program(file)
    chosen = _lang(lang, guessed)
    if raw:
        try:
            tree = to_tree(text, chosen, strict=strict).tree
        except SourceError as exc:
            click.echo(exc.render())
            sys.exit(EXIT_FAILURE)
        except DialecticError as exc:
            click.echo(str(exc))
            sys.exit(EXIT_FAILURE)
        click.echo(_dump(tree))
        return
    context = _parse_pairs(context_pairs, "--context")
    rt = _make_runtime(plugins, entry_points)
    prepared = rt.prepare(text, lang=chosen, strict=strict)
    blocked = prepared.check(context)
    if blocked is not None:
        _print_outcome(blocked, "text")
        sys.exit(EXIT_FAILURE)
    click.echo(_dump(prepared.canonical(context)))


@main.command()
@click.argument("file")
@lang_option
def decompile(file: str, lang: str | None) -> None:
    """Print a program (a JSON call tree, or any notation) as Plan text."""
    from dialectic.frontends.plan import DecompileError
    from dialectic.frontends.plan import decompile as to_plan

    text, guessed = _read_program(file)
    try:
        tree = to_tree(text, _lang(lang, guessed) or "json").tree
        click.echo(to_plan(tree), nl=False)
    except DecompileError as exc:  # (not a call tree, or one Plan cannot write)
        click.echo(f"cannot write {file} as Plan: {exc}")
        sys.exit(EXIT_FAILURE)
    except SourceError as exc:
        click.echo(exc.render())
        sys.exit(EXIT_FAILURE)
    except DialecticError as exc:
        click.echo(str(exc))
        sys.exit(EXIT_FAILURE)


@main.command()
@plugin_option
@entry_points_option
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["markdown", "compact", "json-schema", "openai", "anthropic", "mcp"]),
    default="markdown",
    show_default=True,
    help="markdown: the full catalog; compact: the catalog for a prompt; json-schema: a JSON "
    "Schema of programs; openai|anthropic|mcp: tool specs (one run_program tool).",
)
@click.option(
    "--per-function",
    is_flag=True,
    help="With openai|anthropic|mcp: one tool per function instead of run_program.",
)
@openapi_options
def describe(
    plugins: tuple[str, ...],
    entry_points: bool,
    fmt: str,
    per_function: bool,
    openapi: tuple[str, ...] = (),
    openapi_headers: tuple[str, ...] = (),
    openapi_base_urls: tuple[str, ...] = (),
    openapi_timeouts: tuple[str, ...] = (),
) -> None:
    """Print the catalog for a model's prompt, a JSON Schema of valid programs, or tool specs."""
    rt = _make_runtime(plugins, entry_points)
    if openapi or openapi_headers or openapi_base_urls or openapi_timeouts:  # SPEC 16
        from dialectic.connectors.openapi import attach_openapi

        attach_openapi(rt, openapi, openapi_headers, openapi_base_urls, openapi_timeouts)
    try:
        out = rt.describe(fmt, per_function=per_function)
    except ValueError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_USAGE)
    click.echo(out if isinstance(out, str) else _dump(out), nl=not isinstance(out, str))


def _add_optional_commands() -> None:
    for name in ("convert", "analyze", "mcp", "batch"):
        try:
            module = importlib.import_module(f"dialectic.tools.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name and exc.name.startswith("dialectic.tools.commands"):
                continue
            raise
        main.add_command(module.command, name)


_add_optional_commands()

if __name__ == "__main__":
    main()
