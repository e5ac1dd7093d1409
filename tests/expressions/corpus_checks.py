"""What every corpus of model-written programs checks (model_programs.js, model_tasks.js,
model_agents.js, run by model_tools.py): its programs are named once, none gives another value
than Node's or crashes, as many as before give Node's value, and each refusal says where (and,
where the corpus asks it, what to write instead); and ``run_both``, a few programs run by
Node and by dialectic."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from .model_tools import Verdict, corpus, judge, node_answers, runtime

__all__ = ["check_floor", "check_named_once", "check_never_wrong", "check_refusals", "run_both"]


def check_named_once(path: Path, at_least: int) -> None:
    names = [name for name, _ in corpus(path)]
    assert len(names) >= at_least, len(names)
    assert len(set(names)) == len(names), [n for n, k in Counter(names).items() if k > 1]


def check_never_wrong(tally: list[Verdict]) -> None:
    """A wrong value or a crash (a traceback, an internal error) fails at once."""
    bad = [v for v in tally if v.kind in ("wrong", "crash")]
    assert not bad, "\n".join(f"{v.kind} {v.name}: {v.detail}" for v in bad)


def check_floor(tally: list[Verdict], same_at_least: int) -> None:
    kinds = Counter(v.kind for v in tally)
    assert kinds["same"] >= same_at_least, kinds


def check_refusals(tally: list[Verdict], hint: bool = True) -> None:
    """Each refusal names its line and column (and, with ``hint``, says what to write)."""
    for v in tally:
        if v.kind == "refused":
            assert re.search(r"line \d+, column \d+", v.detail), (v.name, v.detail)
            assert not hint or re.search(r"(?i)hint", v.detail), (v.name, v.detail)


def run_both(texts: list[str]) -> list[Verdict]:
    """Each of ``texts`` run by Node and by dialectic, judged (named by its index)."""
    rt = runtime()
    return [
        judge(rt, str(i), text, answer)
        for i, (text, answer) in enumerate(zip(texts, node_answers(texts), strict=True))
    ]
