"""NESTFUL and BFCL files as batch items: their gold calls as programs, their function
documents as stubs (``dialectic.batch.stubs``), their gold answers as ``expected``.

- NESTFUL (a JSON array of rows ``{sample_id, input, output, tools, gold_answer}``): the program
  is the row's ``output``, the gold call sequence as written; the NESTFUL envelope of the front
  end reads it (positional ``arg_0, arg_1...``, ``"$var_1.result$"`` references). The corpus
  records no intermediate outputs, so a stub's echo flows into the next call: NESTFUL's
  parameter types are not checked (every parameter is ``any``); names, arity and references
  are. ``expected`` is ``gold_answer``.
- BFCL (JSON Lines ``{id, question, function}``, with ``possible_answer/<same file name>``
  beside it holding ``{id, ground_truth}``): the program is the gold answer as a list of OpenAI
  function calls ``[{"name", "arguments"}]`` (run in parallel), each parameter given its first
  acceptable value (a first value of ``""`` means "omitted"); the stubs check names, required
  parameters and types against the row's ``function`` documents. ``expected`` is
  ``ground_truth``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

from dialectic.batch.items import BatchItem
from dialectic.outcome.outcome import ErrorInfo


def sniff(path: Path) -> str | None:
    """``"nestful"``, ``"bfcl"`` or None (not a corpus file) from the file's first bytes."""
    try:
        with path.open("rb") as fh:
            head = fh.read(4096).lstrip()
    except OSError:
        return None
    if head.startswith(b"[") and b'"tools"' in head and b'"output"' in head:
        return "nestful"
    if head.startswith(b"{"):
        first = head.split(b"\n", 1)[0]
        if b'"question"' in first and b'"function"' in first:
            return "bfcl"
    return None


def _loose(doc: Any) -> Any:
    """A NESTFUL document with every parameter ``any`` (the corpus records no intermediate
    outputs: echoes flow between calls)."""
    if not isinstance(doc, dict):
        return doc
    params = doc.get("parameters")
    if not isinstance(params, dict):
        return doc
    if "properties" in params:
        props = params.get("properties") or {}
        loose = {"type": "object", "properties": {k: {} for k in props}}
        loose["required"] = params.get("required") or []
    else:
        loose = {k: {} for k in params}
    return {**doc, "parameters": loose}


def nestful_items(path: Path) -> Iterator[BatchItem]:
    rows = orjson.loads(path.read_bytes())
    if not isinstance(rows, list):
        raise ValueError(f"{path}: a NESTFUL file holds a JSON array of rows")
    for n, row in enumerate(rows):
        ident = str(row.get("sample_id") or n) if isinstance(row, dict) else str(n)
        try:
            tools = row["tools"]
            docs = orjson.loads(tools) if isinstance(tools, str) else tools
            yield BatchItem(
                ident,
                row["output"],
                "json",
                functions=tuple(_loose(d) for d in docs),
                expected=row.get("gold_answer"),
            )
        except (KeyError, TypeError, orjson.JSONDecodeError) as exc:
            yield BatchItem(
                ident,
                None,
                problem=ErrorInfo(
                    "invalid_batch_line",
                    f"NESTFUL row {n} of {path.name} is not a row with `output` and `tools`: "
                    f"{type(exc).__name__}: {exc}",
                    f"{path.name}[{n}]",
                ),
            )


_OMITTED = object()


def _first(values: Any, depth: int = 0) -> Any:
    """The first acceptable value (``""`` first: omitted); an object's fields are lists of
    acceptable values in turn."""
    first = values[0] if isinstance(values, list) and values else values
    if first == "":
        return _OMITTED
    return _pick(first, depth)


def _pick(value: Any, depth: int) -> Any:
    """An accepted value: in its objects (also inside lists), each field is a list of
    acceptable values in turn."""
    if depth > 50:
        return value
    if isinstance(value, dict):
        picked = {k: _first(v, depth + 1) for k, v in value.items()}
        return {k: v for k, v in picked.items() if v is not _OMITTED}
    if isinstance(value, list):
        return [_pick(v, depth + 1) if isinstance(v, dict) else v for v in value]
    return value


def _answer_program(ground_truth: Any) -> list[dict[str, Any]]:
    calls: list[dict[str, Any]] = []
    for call in ground_truth:
        ((name, params),) = call.items()
        picked = {key: _first(values) for key, values in params.items()}
        args = {k: v for k, v in picked.items() if v is not _OMITTED}
        calls.append({"name": name, "arguments": args})
    return calls


def bfcl_items(path: Path) -> Iterator[BatchItem]:
    answers_file = path.parent / "possible_answer" / path.name
    answers: dict[str, Any] = {}
    if answers_file.is_file():
        with answers_file.open("rb") as fh:
            for raw in fh:
                if raw.strip():
                    row = orjson.loads(raw)
                    answers[str(row["id"])] = row["ground_truth"]
    with path.open("rb") as fh:
        for n, raw in enumerate(fh, 1):
            if not raw.strip():
                continue
            row = orjson.loads(raw)
            ident = str(row.get("id", f"{path.name}:{n}"))
            truth = answers.get(ident)
            where = f"{path.name}:{n}"
            if truth is None:
                yield BatchItem(
                    ident,
                    None,
                    problem=ErrorInfo(
                        "no_gold_answer",
                        f"no gold answer for {ident} in {answers_file}",
                        where,
                        hint="BFCL's gold calls live in possible_answer/<same file name>.",
                    ),
                )
                continue
            try:
                program = orjson.dumps(_answer_program(truth)).decode()
            except (ValueError, AttributeError, TypeError) as exc:
                yield BatchItem(
                    ident,
                    None,
                    problem=ErrorInfo(
                        "invalid_batch_line", f"unreadable gold answer: {exc}", where
                    ),
                )
                continue
            yield BatchItem(
                ident,
                program,
                "json",
                functions=tuple(row.get("function") or ()),
                expected=truth,
            )


def corpus_items(path: Path, kind: str) -> Iterator[BatchItem]:
    if kind == "nestful":
        return nestful_items(path)
    return bfcl_items(path)
