"""``dialectic convert --to plan2|plan|json FILE``: rewrite a program in another notation."""

from __future__ import annotations

import sys
from typing import BinaryIO, TextIO

import click

from dialectic.frontends.base import SourceError
from dialectic.outcome.errors import DialecticError
from dialectic.tools.convert import LANGS, convert


@click.command(name="convert")
@click.argument("file", type=click.File("rb"), default="-")
@click.option(
    "--to", "target", type=click.Choice(LANGS), required=True, help="The notation to write."
)
@click.option(
    "--from",
    "source_lang",
    type=click.Choice(LANGS),
    default=None,
    help="The notation of FILE (default: from its extension, else detected).",
)
@click.option(
    "--lift/--no-lift",
    default=True,
    show_default=True,
    help="Plan2 single-domain lifting, when reading and when writing Plan2.",
)
@click.option(
    "--exact",
    is_flag=True,
    help="Plan2 output: keep calls whose lifted value could differ (a call returning "
    "a one-element array) as templates instead of DomainSets.",
)
@click.option(
    "--slots",
    type=click.Choice(["as-written", "list", "scalar"]),
    default="as-written",
    show_default=True,
    help="How Plan2 input reads slot values.",
)
@click.option(
    "-o", "--output", type=click.File("w"), default="-", help="Write here (default: stdout)."
)
def command(
    file: BinaryIO,
    target: str,
    source_lang: str | None,
    lift: bool,
    exact: bool,
    slots: str,
    output: TextIO,
) -> None:
    """Convert the program in FILE (or stdin) to another notation. Comments are not kept."""
    from dialectic.tools.analysis.corpus import EXTENSIONS, detect_lang

    # (bytes that are not UTF-8 become lone surrogates: reported at their line and column)
    text = file.read().decode("utf-8", "surrogateescape")
    name = getattr(file, "name", "-")
    if source_lang is None:
        suffix = name[name.rfind(".") :].lower() if "." in name else ""
        guess = EXTENSIONS.get(suffix)
        source_lang = guess if guess in LANGS else detect_lang(text)
    warnings: list[str] = []
    try:
        result = convert(
            text, source_lang, target, lift=lift, exact=exact, slots=slots, warnings=warnings
        )
    except SourceError as exc:
        click.echo(exc.render(), err=True)
        sys.exit(1)
    except DialecticError as exc:
        click.echo(str(exc), err=True)
        sys.exit(1)
    except Exception as exc:  # e.g. a program the Plan decompiler cannot write
        click.echo(f"cannot convert {name} to {target}: {exc}", err=True)
        sys.exit(1)
    for warning in warnings:  # e.g. what an OpenAI tool call was read as
        click.echo(f"warning: {warning}", err=True)
    output.write(result)
