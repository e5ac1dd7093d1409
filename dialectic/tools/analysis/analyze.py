"""``analyze`` (programs -> records) and ``summarize`` (records -> corpus statistics)."""

from __future__ import annotations

import re
import statistics
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

import orjson

from dialectic.outcome.errors import DialecticError
from dialectic.tools.analysis.corpus import LANGS, Program, detect_lang, iter_programs
from dialectic.tools.analysis.records import PlanRecord, analyze_tree

_BACKTICKED = re.compile(r"`[^`]*[A-Za-z0-9_][^`]*`|'[^']*'|\"[^\"]*\"")
_NUMBER = re.compile(r"\b\d+\b")


def to_tree(program: Any, lang: str | None, **options: Any) -> tuple[Any, str]:
    """Parse ``program`` (source text or call tree) to a call tree; returns (tree, lang).

    Raises :class:`~dialectic.outcome.errors.DialecticError` (``SourceError`` for syntax errors)."""
    if not isinstance(program, str):
        return program, "json"
    lang = lang or detect_lang(program)
    if lang == "json":
        try:
            return orjson.loads(program), lang
        except orjson.JSONDecodeError as exc:
            raise DialecticError("syntax_error", f"invalid JSON: {exc}") from None
    if lang == "plan2":
        from dialectic.frontends.plan2 import parse_plan2

        plan2_options = {k: v for k, v in options.items() if k in ("lift", "slots", "strict")}
        return parse_plan2(program, **plan2_options).tree, lang
    if lang == "plan":
        try:
            from dialectic.frontends.plan import parse_plan
        except ImportError:
            raise DialecticError(
                "unsupported_language", "the Plan front end is not installed"
            ) from None
        return parse_plan(program).tree, lang
    raise DialecticError(
        "unsupported_language", f"unknown notation {lang!r}; expected one of {', '.join(LANGS)}"
    )


def analyze_program(
    program: Any,
    lang: str | None = None,
    id: str = "",
    *,
    validate: bool = True,
    runtime: Any = None,
    **options: Any,
) -> PlanRecord:
    """Analyse one program (source text or call tree). With a ``runtime``, a plan that passes
    the static checks is also compiled against its registry (unknown functions, parameters,
    argument types...): a failure there is a ``compile_error`` too."""
    record = PlanRecord(id=id, lang=lang or ("json" if not isinstance(program, str) else "?"))
    try:
        tree, record.lang = to_tree(program, lang, **options)
    except DialecticError as exc:
        if record.lang == "?":
            record.lang = detect_lang(program) if isinstance(program, str) else "json"
        record.status = "parse_error"
        record.error_code = exc.code
        problems = getattr(exc, "problems", None)
        if problems:
            p = problems[0]
            record.error = f"line {p.line}, column {p.column}: {p.message}"
        else:
            record.error = exc.message
        return record
    except ImportError as exc:  # a front end this notation needs is missing
        record.status = "parse_error"
        record.error_code = "unsupported_language"
        record.error = str(exc)
        return record
    analyze_tree(tree, record, validate=validate)
    if runtime is not None and record.status == "ok":
        errors = runtime.prepare(tree, lang="json").errors
        if errors:
            record.status = "compile_error"
            record.error_code = errors[0].code
            record.error = errors[0].message
    return record


def analyze(
    inputs: Iterable[Any],
    *,
    lang: str | None = None,
    progress: bool | None = None,
    validate: bool = True,
    exclude: tuple[str, ...] = (),
    runtime: Any = None,
    **options: Any,
) -> list[PlanRecord]:
    """Analyse every program in ``inputs`` (paths, folders, JSON Lines files, source texts, call
    trees or :class:`Program` objects). ``progress``: a tqdm bar on stderr (``None``: only when
    stderr is a terminal). ``exclude``: glob patterns of file names to skip in folders.
    ``runtime``: also compile each plan against this runtime's registry.
    ``options`` go to the front ends (``lift``, ``slots``)."""
    programs: Iterator[Program] = iter_programs(inputs, lang, exclude)
    if progress is None:
        progress = sys.stderr.isatty()
    if progress:
        from tqdm import tqdm

        programs = iter(tqdm(programs, desc="analysing", unit=" plans", file=sys.stderr))
    return [
        analyze_program(p.program, p.lang, p.id, validate=validate, runtime=runtime, **options)
        for p in programs
    ]


def normalize_error(message: str) -> str:
    """An error message with its specifics (names, numbers) blanked, for grouping."""
    text = message.split("\n", 1)[0]
    text = re.sub(r"^line N, column N: ", "", _NUMBER.sub("N", text))
    return _BACKTICKED.sub("`…`", text)


def _stats(values: list[int]) -> dict[str, float]:
    if not values:
        return {"mean": 0.0, "median": 0.0, "p90": 0.0, "max": 0.0}
    ordered = sorted(values)
    return {
        "mean": round(statistics.fmean(ordered), 3),
        "median": float(statistics.median(ordered)),
        "p90": float(ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]),
        "max": float(ordered[-1]),
    }


@dataclass
class Summary:
    plans: int = 0
    langs: dict[str, int] = field(default_factory=dict)
    status: dict[str, int] = field(default_factory=dict)
    parse_failure_rate: float = 0.0
    compile_failure_rate: float = 0.0
    top_errors: list[dict[str, Any]] = field(default_factory=list)
    domains: dict[str, int] = field(default_factory=dict)  # calls per domain
    domain_plans: dict[str, int] = field(default_factory=dict)  # plans calling the domain
    slots: dict[str, dict[str, int]] = field(default_factory=dict)
    arg_types: dict[str, int] = field(default_factory=dict)
    slot_types: dict[str, dict[str, int]] = field(default_factory=dict)
    identifiers: dict[str, int] = field(default_factory=dict)
    nodes: dict[str, float] = field(default_factory=dict)
    calls: dict[str, float] = field(default_factory=dict)
    depth: dict[str, float] = field(default_factory=dict)
    width: dict[str, float] = field(default_factory=dict)
    depth_histogram: dict[int, int] = field(default_factory=dict)
    width_histogram: dict[int, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def summarize(records: Iterable[PlanRecord], *, top: int = 10) -> Summary:
    """Corpus statistics over ``records``; size/DAG statistics cover the plans that parsed."""
    recs = list(records)
    s = Summary(plans=len(recs))
    s.langs = dict(Counter(r.lang for r in recs).most_common())
    s.status = dict(Counter(r.status for r in recs).most_common())
    if recs:
        s.parse_failure_rate = round(s.status.get("parse_error", 0) / len(recs), 4)
        s.compile_failure_rate = round(s.status.get("compile_error", 0) / len(recs), 4)
    errors: Counter[tuple[str, str]] = Counter()
    examples: dict[tuple[str, str], str] = {}
    domains: Counter[str] = Counter()
    domain_plans: Counter[str] = Counter()
    slots: dict[str, Counter[str]] = {}
    types: Counter[str] = Counter()
    slot_types: dict[str, Counter[str]] = {}
    idents: Counter[str] = Counter()
    parsed = [r for r in recs if r.status != "parse_error"]
    for r in recs:
        if r.error:
            key = (r.status, f"{r.error_code}: {normalize_error(r.error)}")
            errors[key] += 1
            examples.setdefault(key, f"{r.id}: {r.error.splitlines()[0]}")
    for r in parsed:
        domains.update(r.domains)
        domain_plans.update(r.domains.keys())
        for d, per in r.slots.items():
            slots.setdefault(d, Counter()).update(per)
        types.update(r.arg_types)
        for k, per in r.slot_types.items():
            slot_types.setdefault(k, Counter()).update(per)
        idents.update(r.identifiers)
    s.top_errors = [
        {"status": st, "error": msg, "count": n, "example": examples[(st, msg)]}
        for (st, msg), n in errors.most_common(top)
    ]
    s.domains = dict(domains.most_common())
    s.domain_plans = dict(domain_plans.most_common())
    s.slots = {
        d: dict(c.most_common()) for d, c in sorted(slots.items(), key=lambda kv: -domains[kv[0]])
    }
    s.arg_types = dict(types.most_common())
    s.slot_types = {k: dict(c.most_common()) for k, c in sorted(slot_types.items())}
    s.identifiers = dict(idents.most_common(50))
    ok = [r for r in parsed if r.status == "ok"]
    s.nodes = _stats([r.nodes for r in ok])
    s.calls = _stats([r.calls for r in ok])
    s.depth = _stats([r.depth for r in ok])
    s.width = _stats([r.width for r in ok])
    s.depth_histogram = dict(sorted(Counter(r.depth for r in ok).items()))
    s.width_histogram = dict(sorted(Counter(r.width for r in ok).items()))
    return s
