"""NESTFUL rows (sequences of calls with ``"$var_1.result$"`` references) as call trees.

Each call ``{"name": f, "label": "$var_1", "arguments": {"arg_0": 1, ...}}`` becomes the alias
``var_1`` bound to ``{f: {arg_0: ..., ...}}`` (named arguments, in the order written); an argument
that is exactly ``"$var_1.result$"`` (or ``"$var1.output_0$"``...) becomes ``{"$ref": "var_1"}``:
the call's value stands for its single output. The program returns the last call's alias.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

from dialectic.frontends.envelopes import NESTFUL_REF as _REF  # (one reference syntax)
from dialectic.tools.analysis.corpus import Program


def _arg(value: Any) -> Any:
    if isinstance(value, str):
        m = _REF.match(value)
        return {"$ref": m.group(1)} if m else value
    if isinstance(value, list):
        return [_arg(v) for v in value]
    if isinstance(value, dict):
        return {"$object": {k: _arg(v) for k, v in value.items()}}
    return value


def nestful_to_tree(calls: list[dict[str, Any]] | str) -> Any:
    """The call tree of one NESTFUL ``output`` (the list, or its JSON string)."""
    if isinstance(calls, str):
        calls = orjson.loads(calls)
    assert isinstance(calls, list)
    bindings: dict[str, Any] = {}
    last = None
    for i, call in enumerate(calls):
        label = str(call.get("label") or f"$step_{i + 1}").lstrip("$") or f"step_{i + 1}"
        args = {k: _arg(v) for k, v in (call.get("arguments") or {}).items()}
        bindings[label] = {call["name"]: args}
        last = label
    if last is None:
        return {"$return": None}
    return {"$let": bindings, "$return": {"$ref": last}}


def read_nestful(path: str | Path) -> Iterator[Program]:
    """The rows of a NESTFUL JSON file (a list of rows with an ``output`` field) as programs."""
    rows = orjson.loads(Path(path).read_bytes())
    for n, row in enumerate(rows):
        ident = str(row.get("sample_id") or n)
        yield Program(nestful_to_tree(row["output"]), "json", ident)
