"""Counting a batch as it runs: a tqdm bar on stderr (programs/s and the running success /
failure / ambiguous counts), and the summary at the end (a table, or JSON for machines)."""

from __future__ import annotations

import time
from collections import Counter
from typing import Any, TextIO

STATUSES = ("success", "failure", "ambiguous")


class Progress:
    """Counts records (and resumed ones); shows a bar when ``show``."""

    def __init__(
        self, show: bool, total: int | None, resumed: int, stream: TextIO | None = None
    ) -> None:
        self.counts: Counter[str] = Counter()
        self.errors: Counter[str] = Counter()
        self.resumed = resumed
        self.started = time.perf_counter()
        self._bar: Any = None
        self._last = 0.0
        if show:
            import sys

            from tqdm import tqdm

            self._bar = tqdm(
                total=total,
                desc="batch",
                unit=" programs",
                file=stream or sys.stderr,
                dynamic_ncols=True,
                mininterval=0.2,
            )

    def add(self, record: dict[str, Any]) -> None:
        outcome = record["outcome"]
        status = str(outcome.get("status"))
        self.counts[status] += 1
        error = outcome.get("error")
        if status == "failure" and isinstance(error, dict):
            self.errors[str(error.get("code"))] += 1
        bar = self._bar
        if bar is not None:
            bar.update(1)
            now = time.perf_counter()
            if now - self._last >= 0.2:
                self._last = now
                bar.set_postfix(self.postfix(), refresh=False)

    def postfix(self) -> dict[str, int]:
        return {s: self.counts[s] for s in STATUSES}

    def close(self) -> None:
        if self._bar is not None:
            self._bar.set_postfix(self.postfix(), refresh=False)
            self._bar.close()

    def summary(self, **extra: Any) -> dict[str, Any]:
        ran = sum(self.counts.values())
        seconds = time.perf_counter() - self.started
        return {
            "programs": ran,
            **{s: self.counts[s] for s in STATUSES},
            "resumed": self.resumed,
            "seconds": round(seconds, 3),
            "programs_per_second": round(ran / seconds, 1) if seconds > 0 else None,
            "failure_codes": dict(self.errors.most_common(10)),
            **extra,
        }


def summary_table(summary: dict[str, Any]) -> str:
    """The summary as an aligned two-column table."""
    rows: list[tuple[str, str]] = [
        ("programs run", str(summary["programs"])),
        *((s, str(summary[s])) for s in STATUSES),
        ("skipped (already in the output)", str(summary["resumed"])),
        ("seconds", f"{summary['seconds']:.2f}"),
        ("programs/s", str(summary["programs_per_second"])),
    ]
    if summary.get("where"):
        rows.append(("ran on", str(summary["where"])))
    if summary.get("output"):
        rows.append(("output", str(summary["output"])))
    for code, n in summary["failure_codes"].items():
        rows.append((f"  failure: {code}", str(n)))
    width = max(len(k) for k, _ in rows)
    return "\n".join(f"{k.ljust(width)}  {v}" for k, v in rows) + "\n"
