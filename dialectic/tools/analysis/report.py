"""Rendering analysis results: a readable table, JSON, or CSV (for pandas)."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any

import orjson

from dialectic.tools.analysis.analyze import Summary
from dialectic.tools.analysis.records import PlanRecord

ROW_FIELDS = (
    "id",
    "lang",
    "status",
    "error_code",
    "error",
    "nodes",
    "calls",
    "reachable_calls",
    "aliases",
    "unused_aliases",
    "depth",
    "width",
    "tree_depth",
    "mode",
    "domains",
    "slots",
    "arg_types",
    "identifiers",
)


def to_json(records: Sequence[PlanRecord], summary: Summary, *, records_too: bool = True) -> str:
    """``{"summary": {...}, "records": [...]}`` (records omitted with ``records_too=False``);
    ``pandas.DataFrame(data["records"])`` gives one row per plan."""
    data: dict[str, Any] = {"summary": summary.to_dict()}
    if records_too:
        data["records"] = [r.to_dict() for r in records]
    return orjson.dumps(data, option=orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS).decode()


def records_csv(records: Sequence[PlanRecord]) -> str:
    """One row per plan; nested counts as ``name:count;...`` (see :meth:`PlanRecord.to_row`)."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=ROW_FIELDS, lineterminator="\n")
    writer.writeheader()
    for r in records:
        writer.writerow(r.to_row())
    return out.getvalue()


def summary_csv(summary: Summary) -> str:
    """The summary in long format: ``section,key,subkey,value`` (one number per row)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["section", "key", "subkey", "value"])
    writer.writerow(["plans", "", "", summary.plans])
    for section in (
        "langs",
        "status",
        "domains",
        "domain_plans",
        "arg_types",
        "identifiers",
        "nodes",
        "calls",
        "depth",
        "width",
        "depth_histogram",
        "width_histogram",
    ):
        for key, value in getattr(summary, section).items():
            writer.writerow([section, key, "", value])
    writer.writerow(["parse_failure_rate", "", "", summary.parse_failure_rate])
    writer.writerow(["compile_failure_rate", "", "", summary.compile_failure_rate])
    for domain, per in summary.slots.items():
        for slot, n in per.items():
            writer.writerow(["slots", domain, slot, n])
    for e in summary.top_errors:
        writer.writerow(["top_errors", e["status"], e["error"], e["count"]])
    return out.getvalue()


def _table(title: str, rows: list[tuple[Any, ...]], headers: tuple[str, ...]) -> list[str]:
    if not rows:
        return []
    cells = [tuple(str(c) for c in headers)] + [tuple(str(c) for c in r) for r in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]

    def fmt(row: tuple[str, ...]) -> str:
        parts = []
        for i, c in enumerate(row):
            right = i > 0 and c.replace(".", "", 1).replace("%", "").isdigit()
            parts.append(c.rjust(widths[i]) if right else c.ljust(widths[i]))
        return "  ".join(parts).rstrip()

    lines = ["", title, fmt(cells[0]), "  ".join("-" * w for w in widths)]
    lines.extend(fmt(r) for r in cells[1:])
    return lines


def to_table(summary: Summary, *, top: int = 20) -> str:
    s = summary
    n = s.plans or 1
    lines = [f"{s.plans} plans  ({', '.join(f'{k}: {v}' for k, v in s.langs.items())})"]
    lines += _table(
        "Outcome",
        [(k, v, f"{100 * v / n:.1f}%") for k, v in s.status.items()],
        ("status", "plans", "share"),
    )
    lines += _table(
        "Most common errors",
        [(e["count"], e["status"], e["error"][:90]) for e in s.top_errors],
        ("count", "status", "error"),
    )
    lines += _table(
        "Size and concurrency (plans that parsed)",
        [
            (name, *(f"{stats[k]:g}" for k in ("mean", "median", "p90", "max")))
            for name, stats in (
                ("nodes", s.nodes),
                ("calls", s.calls),
                ("depth (longest call chain)", s.depth),
                ("width (calls at once)", s.width),
            )
            if stats
        ],
        ("measure", "mean", "median", "p90", "max"),
    )
    lines += _table(
        "Domains",
        [
            (
                d,
                c,
                s.domain_plans.get(d, 0),
                ", ".join(f"{k} {v}" for k, v in list(s.slots.get(d, {}).items())[:6]),
            )
            for d, c in list(s.domains.items())[:top]
        ],
        ("domain", "calls", "plans", "slots (count)"),
    )
    if len(s.domains) > top:
        lines.append(f"... and {len(s.domains) - top} more domains")
    lines += _table(
        "Argument value types",
        [(k, v) for k, v in s.arg_types.items()],
        ("type", "arguments"),
    )
    lines += _table(
        "External identifiers (constants / context values)",
        [(k, v) for k, v in list(s.identifiers.items())[:top]],
        ("name", "references"),
    )
    return "\n".join(lines) + "\n"
