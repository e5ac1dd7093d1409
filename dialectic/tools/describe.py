"""What a model needs to write programs: the catalog and machine-readable specs of it.

Formats (``Runtime.describe(format)``, ``dialectic describe --format ...``):

- ``markdown`` (default): the primer (the language as it is today, in all three notations, and
  what it does not have) and every function, type, conversion and constant, for reference;
- ``compact``: the same in a few kilobytes, for a prompt (the shipped extensions' catalog fits
  in :data:`COMPACT_BUDGET` bytes; a test checks it);
- ``json-schema``: a JSON Schema (2020-12) of Dialect JSON programs over the registry: every
  program as a model may write it (all argument shorthands of SPEC 1.5), hence also its
  canonical form;
- ``openai``, ``anthropic``, ``mcp``: tool specs in each vendor's format: one ``run_program``
  tool (``program`` text and optional ``notation``; its description is the compact catalog),
  or with ``per_function=True`` one tool per registered function (the built-in library, which
  only makes sense inside a program, is left out). A per-function tool call ``(name,
  arguments)`` runs as the program :func:`tool_call_program` builds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dialectic.tools.catalog import (
    ParamInfo,
    catalog_compact,
    catalog_markdown,
    compact_signature,
    parameters,
    schema_text,
    short,
    signature,
    type_schema,
)
from dialectic.tools.primer import COMPACT_PRIMER, PRIMER, primer
from dialectic.tools.schema import (
    NOTATIONS,
    RUN_PROGRAM,
    TOOL_FORMATS,
    function_parameters,
    program_schema,
    run_program_parameters,
    tool_call_program,
    tool_specs,
)

if TYPE_CHECKING:
    from dialectic.runtime import Runtime

__all__ = [
    "COMPACT_BUDGET",
    "COMPACT_PRIMER",
    "FORMATS",
    "NOTATIONS",
    "PRIMER",
    "RUN_PROGRAM",
    "TOOL_FORMATS",
    "ParamInfo",
    "catalog_compact",
    "catalog_markdown",
    "compact_signature",
    "describe",
    "function_parameters",
    "parameters",
    "primer",
    "program_schema",
    "run_program_parameters",
    "schema_text",
    "short",
    "signature",
    "tool_call_program",
    "tool_specs",
    "type_schema",
]

FORMATS = ("markdown", "compact", "json-schema", "openai", "anthropic", "mcp")
#: the compact catalog of the shipped extensions fits in this many bytes (UTF-8): about 1,600
#: tokens, well under the 16 KB the MCP server inlines. It was 6 KiB, which the catalog met
#: exactly (no room for the next built-in); with its redundancy removed, the rest is what a
#: model reads to write a call, and 6,400 leaves 8% for the language and built-ins to grow
COMPACT_BUDGET = 6_400


def describe(rt: Runtime, format: str = "markdown", *, per_function: bool = False) -> Any:
    """The catalog in ``format`` (one of :data:`FORMATS`): text, or JSON data."""
    if per_function and format not in TOOL_FORMATS:
        raise ValueError(f"per_function applies to the tool formats {', '.join(TOOL_FORMATS)}")
    if format == "markdown":
        return catalog_markdown(rt)
    if format == "compact":
        return catalog_compact(rt)
    if format in ("json-schema", "schema"):
        return program_schema(rt)
    if format in TOOL_FORMATS:
        return tool_specs(rt, format, per_function=per_function)
    raise ValueError(f"unknown format {format!r}; use one of {', '.join(FORMATS)}")
