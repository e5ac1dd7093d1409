"""Plan-corpus analysis for data science: which domains (functions) plans call, with which slots
(named arguments) and value types, how often plans fail to parse or compile, how large they are
and how much concurrency their data-flow graph offers.

    from dialectic.tools.analysis import analyze, summarize
    records = analyze(["corpus/"])          # paths, folders, .jsonl, source texts or call trees
    summary = summarize(records)
    import pandas as pd; df = pd.DataFrame([r.to_row() for r in records])

Static: no registry is needed. See records.py for the conventions (slot names, depth, width).
"""

from dialectic.tools.analysis.analyze import (
    Summary,
    analyze,
    analyze_program,
    normalize_error,
    summarize,
    to_tree,
)
from dialectic.tools.analysis.corpus import Program, detect_lang, iter_programs
from dialectic.tools.analysis.nestful import nestful_to_tree, read_nestful
from dialectic.tools.analysis.records import PlanRecord, analyze_tree, call_arguments, value_type
from dialectic.tools.analysis.report import records_csv, summary_csv, to_json, to_table

__all__ = [
    "PlanRecord",
    "Program",
    "Summary",
    "analyze",
    "analyze_program",
    "analyze_tree",
    "call_arguments",
    "detect_lang",
    "iter_programs",
    "nestful_to_tree",
    "normalize_error",
    "read_nestful",
    "records_csv",
    "summarize",
    "summary_csv",
    "to_json",
    "to_table",
    "to_tree",
    "value_type",
]
