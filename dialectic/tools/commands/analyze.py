"""``dialectic analyze PATH...``: statistics over a corpus of plans (any notation)."""

from __future__ import annotations

import sys
from typing import TextIO

import click

from dialectic.tools.analysis import (
    analyze,
    read_nestful,
    records_csv,
    summarize,
    summary_csv,
    to_json,
    to_table,
)
from dialectic.tools.analysis.corpus import LANGS, Program


@click.command(name="analyze")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, allow_dash=False))
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["table", "json", "csv"]),
    default="table",
    show_default=True,
    help="table: readable summary; json: summary and one record per plan; csv: one row per "
    "plan (for pandas).",
)
@click.option(
    "--lang",
    type=click.Choice(LANGS),
    default=None,
    help="Notation of source files without a known extension (default: detect).",
)
@click.option(
    "--summary-only",
    is_flag=True,
    help="json: omit the records; csv: print the summary (section,key,subkey,value).",
)
@click.option(
    "--nestful",
    is_flag=True,
    help="Read each PATH as a NESTFUL JSON file (rows of call sequences).",
)
@click.option(
    "--progress/--no-progress",
    default=None,
    help="Progress bar on stderr (default: only when stderr is a terminal).",
)
@click.option(
    "--exclude",
    multiple=True,
    metavar="GLOB",
    help="Skip files in folders whose name matches (e.g. '*.expected.json').",
)
@click.option(
    "--lift/--no-lift", default=True, show_default=True, help="Plan2 single-domain lifting."
)
@click.option(
    "--slots",
    type=click.Choice(["as-written", "list", "scalar"]),
    default="as-written",
    show_default=True,
    help="How Plan2 reads slot values.",
)
@click.option(
    "-p",
    "--plugin",
    "plugins",
    multiple=True,
    metavar="MODULE",
    help="Also compile every plan against a registry with this plugin module "
    "(repeatable): unknown functions and parameters count as compile errors.",
)
@click.option(
    "--entry-points",
    is_flag=True,
    help="Also compile against a registry with every installed plugin.",
)
@click.option("--top", type=int, default=20, show_default=True, help="Rows per table section.")
@click.option(
    "--dask",
    "dask",
    default=None,
    metavar="ADDRESS|local[:WORKERS]",
    help="Analyse on a Dask cluster: a scheduler address (tcp://host:8786), or `local` for a "
    "new LocalCluster of worker processes (for very large corpora).",
)
@click.option(
    "-o", "--output", type=click.File("w"), default="-", help="Write here (default: stdout)."
)
def command(
    paths: tuple[str, ...],
    fmt: str,
    lang: str | None,
    summary_only: bool,
    nestful: bool,
    progress: bool | None,
    exclude: tuple[str, ...],
    lift: bool,
    slots: str,
    plugins: tuple[str, ...],
    entry_points: bool,
    top: int,
    output: TextIO,
    dask: str | None = None,
) -> None:
    """Analyse the plans in PATH... (files, folders, JSON Lines): domains and slots used,
    argument types, parse/compile failure rates and common errors, size and concurrency."""
    inputs: list[object] = []
    if nestful:
        for p in paths:
            programs: list[Program] = list(read_nestful(p))
            inputs.extend(programs)
    else:
        from pathlib import Path

        inputs.extend(Path(p) for p in paths)
    runtime = None
    if plugins or entry_points:
        from dialectic import Runtime

        runtime = Runtime(plugins=plugins, load_entry_points=entry_points)
    if dask is not None:
        from dialectic.batch.cluster import analyze_with_dask

        records = analyze_with_dask(
            dask, inputs, lang, exclude, progress, plugins, entry_points, lift=lift, slots=slots
        )
    else:
        records = analyze(
            inputs,
            lang=lang,
            progress=progress,
            exclude=exclude,
            lift=lift,
            slots=slots,
            runtime=runtime,
        )
    summary = summarize(records, top=top)
    if fmt == "json":
        text = to_json(records, summary, records_too=not summary_only)
        output.write(text + "\n")
    elif fmt == "csv":
        output.write(summary_csv(summary) if summary_only else records_csv(records))
    else:
        output.write(to_table(summary, top=top))
    if not records:
        click.echo(
            "no plans found (known extensions: .json .jsonl .ndjson .yaml .yml .plan2 "
            ".plan .js .ts)",
            err=True,
        )
        sys.exit(1)
