"""Benchmark: static analysis of a generated corpus of plans in all three notations.

    .venv/bin/python benchmarks/analyze.py [--plans 10000] [--seed 1] [--nestful]

Generates ``--plans`` random plans (data-flow graphs of calls to travel-like domains with named
slots, literals, references and templates), writes a third as Dialect JSON call trees, a third as
Plan (the Plan decompiler) and a third as Plan2 (the converter), into one JSON Lines corpus, then
times ``analyze`` + ``summarize`` over it and prints plans per second per notation (CPU time of
this process, ``time.process_time``: the machine is shared).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

from dialectic.tools.analysis import analyze, read_nestful, summarize, to_table

DOMAINS = {
    "flights": ["origin", "destination", "departing", "airline", "number"],
    "trains": ["from", "to", "date"],
    "busses": ["departing", "arriving", "date"],
    "car": ["location", "pickup", "dropoff"],
    "hotels": ["city", "checkin", "checkout", "guests"],
    "weather": ["city", "date"],
}
CONSTANTS = ["tomorrow", "today", "now"]


def _value(rng: random.Random, aliases: list[str]) -> Any:
    roll = rng.random()
    if aliases and roll < 0.3:
        return {
            "$get": [
                {"$ref": rng.choice(aliases)},
                rng.choice(["destination", "arrives", "city", "date"]),
            ]
        }
    if aliases and roll < 0.4:
        return {"$template": ["on ", {"$ref": rng.choice(aliases)}, " at noon"]}
    if roll < 0.5:
        return {"$ref": rng.choice(CONSTANTS)}
    if roll < 0.6:
        return rng.randint(1, 9999)
    return rng.choice(["SFO", "LAX", "JFK", "Paris", "Berlin", "10/10/23", "United"])


def generate(rng: random.Random) -> Any:
    bindings: dict[str, Any] = {}
    names: list[str] = []
    for i in range(rng.randint(1, 6)):
        domain = rng.choice(list(DOMAINS))
        slots = rng.sample(DOMAINS[domain], rng.randint(1, len(DOMAINS[domain])))
        call = {domain: {s: _value(rng, names) for s in slots}}
        if len(call[domain]) == 1:  # one-key args: keep it unambiguous for every notation
            call[domain]["extra"] = 1
        name = f"step{i + 1}"
        bindings[name] = {"$unwrap": call} if rng.random() < 0.5 else call
        names.append(name)
    if rng.random() < 0.5 and len(names) > 1:
        body: Any = [{"$ref": n} for n in rng.sample(names, rng.randint(2, len(names)))]
    else:
        body = {"$ref": names[-1]}
    return {"$let": bindings, "$return": body}


def build_corpus(count: int, seed: int, path: Path) -> dict[str, int]:
    from dialectic.frontends.plan import decompile
    from dialectic.tools.convert import tree_for_plan, tree_to_plan2

    rng = random.Random(seed)
    langs = {"json": 0, "plan": 0, "plan2": 0}
    with path.open("wb") as fh:
        for i in range(count):
            tree = generate(rng)
            lang = ("json", "plan", "plan2")[i % 3]
            program: Any = tree
            if lang == "plan":
                program = decompile(tree_for_plan(tree))
            elif lang == "plan2":
                program = tree_to_plan2(tree)
            langs[lang] += 1
            fh.write(orjson.dumps({"id": i, "lang": lang, "program": program}) + b"\n")
    return langs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--plans", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--nestful", action="store_true", help="also time the NESTFUL sample")
    ap.add_argument("--table", action="store_true", help="print the summary table")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "corpus.jsonl"
        t0 = time.process_time()
        langs = build_corpus(args.plans, args.seed, corpus)
        t1 = time.process_time()
        print(f"generated {args.plans} plans {langs} in {t1 - t0:.2f}s")
        records = analyze([corpus], progress=False)
        t2 = time.process_time()
        summary = summarize(records)
        t3 = time.process_time()
    print(
        f"analyze:   {len(records)} plans in {t2 - t1:.2f}s = {len(records) / (t2 - t1):,.0f} "
        "plans/s (parse + static analysis)"
    )
    print(f"summarize: {t3 - t2:.3f}s;  status {summary.status}")
    by_lang = _per_lang(args.plans, args.seed)
    for lang, (n, secs) in by_lang.items():
        print(f"  {lang:6s} {n:6d} plans in {secs:.2f}s = {n / secs:,.0f} plans/s")
    if args.table:
        print(to_table(summary))
    nestful = Path(__file__).resolve().parents[1] / ".." / "shared" / "corpora" / "nestful"
    nestful_file = nestful / "nestful_last360.json"
    if args.nestful and nestful_file.exists():
        t = time.process_time()
        recs = analyze(read_nestful(nestful_file), progress=False)
        secs = time.process_time() - t
        print(f"NESTFUL: {len(recs)} plans in {secs:.3f}s = {len(recs) / secs:,.0f} plans/s")
    bad = [r for r in records if r.status != "ok"]
    if bad:
        print(f"{len(bad)} plans failed, e.g. {bad[0].id}: {bad[0].error}", file=sys.stderr)
        return 1
    return 0


def _per_lang(count: int, seed: int) -> dict[str, tuple[int, float]]:
    from dialectic.frontends.plan import decompile
    from dialectic.tools.analysis import analyze_program
    from dialectic.tools.convert import tree_for_plan, tree_to_plan2

    rng = random.Random(seed)
    trees = [generate(rng) for _ in range(count)]
    out: dict[str, tuple[int, float]] = {}

    def as_json(tree: Any) -> str:
        return orjson.dumps(tree).decode()

    def as_plan(tree: Any) -> str:
        text: str = decompile(tree_for_plan(tree))
        return text

    makers: tuple[tuple[str, Callable[[Any], str]], ...] = (
        ("json", as_json),
        ("plan", as_plan),
        ("plan2", tree_to_plan2),
    )
    for lang, make in makers:
        texts = [make(t) for t in trees[: count // 3]]
        t0 = time.process_time()
        for text in texts:
            analyze_program(text, lang)
        out[lang] = (len(texts), time.process_time() - t0)
    return out


if __name__ == "__main__":
    sys.exit(main())
