"""Every program under examples/ runs and gives its stored expected outcome.

``examples/manifest.json`` lists each example (a stem such as ``travel/rental_car``) with the
``dialectic run`` arguments it needs and the plugins it uses. Each notation present is run:
``.js`` (Plan), ``.json`` (Dialect JSON) and ``.yaml`` (Plan2). The outcome must contain every key
of ``<stem>.expected.json`` with the same value (or of ``<stem>.<ext>.expected.json`` when a
notation's outcome differs, e.g. Plan2's single-domain lifting or suggestions written back in the
program's own notation).

Regenerate after a deliberate change with ``DIALECTIC_UPDATE_EXAMPLES=1 pytest tests/examples``,
then review the diff: the expected files are the examples' documentation.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import json
import os
import shlex
import subprocess
import sys
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
MANIFEST: dict[str, Any] = json.loads((EXAMPLES / "manifest.json").read_text())
NOTATIONS = {".js": "plan", ".json": "json", ".yaml": "plan2"}
UPDATE = os.environ.get("DIALECTIC_UPDATE_EXAMPLES") == "1"
#: examples that meet a known core bug (reported), expected to fail; strict, so the fix must
#: also remove its entry here.
KNOWN_ISSUES: dict[str, str] = {}


def context_from_args(args: list[str]) -> dict[str, Any]:
    """The run context the CLI builds from ``--now``/``--timezone``/``--workspace``/..."""
    ctx: dict[str, Any] = {}
    it = iter(args)
    for flag in it:
        value = next(it)
        if flag == "--plugin":
            continue  # a plugin to load (listed under "plugins" too), not a context value
        if flag == "--context":
            key, _, raw = value.partition("=")
            ctx[key] = raw
        elif flag == "--workspace":
            ctx["workspace"] = str(ROOT / value)
        else:
            ctx[flag.removeprefix("--")] = value
    return ctx


def program_files(stem: str) -> list[Path]:
    return [EXAMPLES / f"{stem}{ext}" for ext in NOTATIONS if (EXAMPLES / f"{stem}{ext}").exists()]


def expected_file(path: Path) -> Path:
    stem = path.with_suffix("")
    own = stem.with_name(f"{stem.name}{path.suffix}.expected.json")
    return own if own.exists() else stem.with_name(f"{stem.name}.expected.json")


def cases() -> list[Any]:
    out = []
    for stem in MANIFEST["examples"]:
        for path in program_files(stem):
            marks = []
            name = str(path.relative_to(EXAMPLES))
            if name in KNOWN_ISSUES:
                marks.append(pytest.mark.xfail(reason=KNOWN_ISSUES[name], strict=True))
            out.append(pytest.param(stem, path, marks=marks, id=str(path.relative_to(EXAMPLES))))
    return out


@cache
def plugin_modules(names: tuple[str, ...]) -> tuple[ModuleType, ...]:
    return tuple(importlib.import_module(name) for name in names)


def run_example(
    path: Path, entry: dict[str, Any], runtime: Any = None, **extra: Any
) -> dict[str, Any]:
    from dialectic import Runtime

    if runtime is None:
        runtime = Runtime(plugins=plugin_modules(tuple(entry["plugins"])), load_entry_points=False)
    context = context_from_args(entry["args"]) | extra
    outcome = runtime.run(path.read_text(), context=context, lang=NOTATIONS[path.suffix])
    result = outcome.to_json()
    return json.loads(result) if isinstance(result, str | bytes) else dict(result)


def summarize(outcome: dict[str, Any]) -> dict[str, Any]:
    """The part of an outcome an example documents (no positions, timings or internals)."""
    out: dict[str, Any] = {"status": outcome["status"]}
    for key in ("mode", "value", "message", "warnings"):
        if outcome.get(key) not in (None, [], ""):
            out[key] = outcome[key]
    if outcome.get("suggestions"):
        out["suggestions"] = [
            {k: s[k] for k in ("description", "program", "replacement") if k in s}
            for s in outcome["suggestions"]
        ]
    if outcome["status"] == "failure" and outcome.get("error"):
        out["error"] = {
            k: outcome["error"][k] for k in ("code", "message") if k in outcome["error"]
        }
    return out


@pytest.mark.parametrize(("stem", "path"), cases())
def test_example_outcome(stem: str, path: Path) -> None:
    got = summarize(run_example(path, MANIFEST["examples"][stem]))
    target = expected_file(path)
    if UPDATE and str(path.relative_to(EXAMPLES)) not in KNOWN_ISSUES:
        current = json.loads(target.read_text()) if target.exists() else None
        if current != got:
            if current is not None and target.name.count(".") == 2:
                # the shared file disagrees with this notation: give it its own file
                target = path.with_name(f"{path.with_suffix('').name}{path.suffix}.expected.json")
            target.write_text(json.dumps(got, indent=2, ensure_ascii=False) + "\n")
    assert target.exists(), f"missing expected outcome {target.relative_to(ROOT)}"
    assert got == json.loads(target.read_text())


def test_manifest_covers_every_program() -> None:
    listed = {EXAMPLES / f"{stem}{ext}" for stem in MANIFEST["examples"] for ext in NOTATIONS}
    programs = {
        p
        for p in EXAMPLES.rglob("*")
        if p.suffix in NOTATIONS
        and "workspace" not in p.parts
        and not p.name.endswith(".expected.json")
        and p.name != "manifest.json"
        and not p.name.endswith(".mcp.json")  # an MCP host configuration, not a program
    }
    assert programs - listed == set(), "programs missing from examples/manifest.json"
    for stem in MANIFEST["examples"]:
        assert program_files(stem), f"{stem}: no program file"
        for path in program_files(stem):
            assert expected_file(path).exists(), f"{path.name}: no expected outcome"
    assert (EXAMPLES / MANIFEST["demo"]).exists()


def test_readme_shows_every_command() -> None:
    readme = (EXAMPLES / "README.md").read_text()
    for stem, entry in MANIFEST["examples"].items():
        for path in program_files(stem):
            command = shlex.join(["dialectic", "run", str(path.relative_to(ROOT)), *entry["args"]])
            assert command in readme, f"examples/README.md lacks: {command}"


def recording_travel_runtime(events: list[tuple[str, str]]) -> Any:
    """A runtime with the datetime plugin and the real travel functions, each wrapped to record
    ("start", name) and ("end", name) around its own coroutine."""
    import dialectic_datetime.plugin
    from dialectic_travel import fixtures
    from dialectic_travel import plugin as travel
    from dialectic_travel import types as travel_types

    from dialectic import FunctionDescription, Runtime

    def recorded(desc: FunctionDescription) -> FunctionDescription:
        implementation = desc.implementation
        assert inspect.iscoroutinefunction(implementation), desc.name

        async def run(**kwargs: Any) -> Any:
            events.append(("start", desc.name))
            try:
                return await implementation(**kwargs)
            finally:
                events.append(("end", desc.name))

        return dataclasses.replace(desc, implementation=run)

    runtime = Runtime(plugins=[dialectic_datetime.plugin], load_entry_points=False)
    runtime.register(*travel_types.TYPES, *travel_types.CONVERSIONS)  # `place`, `travelDate`
    runtime.register(*(recorded(d) for d in travel.descriptions() + fixtures.descriptions()))
    return runtime


def test_independent_calls_run_concurrently() -> None:
    """The demo's three searches are all in flight at once; in core/concurrency.js domainA and
    domainB overlap and domainC starts after both ended. Shown by the order of events, not by
    the wall clock."""
    events: list[tuple[str, str]] = []
    runtime = recording_travel_runtime(events)
    demo = EXAMPLES / MANIFEST["demo"]
    entry = MANIFEST["examples"][MANIFEST["demo"].rsplit(".", 1)[0]]
    got = run_example(demo, entry, runtime=runtime, travel_latency=0.05)
    assert got["status"] == "success", got
    assert set(got["value"]) == {"flights", "trains", "busses"}
    assert sorted(events[:3]) == [("start", "busses"), ("start", "flights"), ("start", "trains")]
    assert {kind for kind, _ in events[3:]} == {"end"} and len(events) == 6

    events.clear()
    concurrency = EXAMPLES / "core" / "concurrency.js"
    entry = MANIFEST["examples"]["core/concurrency"]
    got = run_example(concurrency, entry, runtime=runtime, travel_latency=0.05)
    assert got["status"] == "success", got
    # domainA || domainB, then domainC: two rounds of latency, not three
    assert sorted(events[:2]) == [("start", "domainA"), ("start", "domainB")], events
    assert sorted(events[2:4]) == [("end", "domainA"), ("end", "domainB")], events
    assert events[4:] == [("start", "domainC"), ("end", "domainC")], events


@pytest.mark.parametrize(("stem", "path"), cases())
def test_example_command_through_the_cli(stem: str, path: Path) -> None:
    """Each command of examples/README.md, run as a user would (entry-point plugins)."""
    args = MANIFEST["examples"][stem]["args"]
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "dialectic.tools.cli",
            "run",
            str(path.relative_to(ROOT)),
            *args,
            "--format",
            "json",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    got = json.loads(proc.stdout)
    expected = json.loads(expected_file(path).read_text())
    assert (proc.returncode == 0) == (expected["status"] == "success"), proc.stderr
    for key in ("status", "value", "warnings"):
        assert got.get(key) == expected.get(key), key
    replacements = [s["replacement"] for s in got.get("suggestions", [])]
    assert replacements == [s["replacement"] for s in expected.get("suggestions", [])]


def test_demo_command_through_the_cli() -> None:
    """The README's demo command, run as a user would (entry-point plugins, JSON output)."""
    stem = MANIFEST["demo"].rsplit(".", 1)[0]
    args = MANIFEST["examples"][stem]["args"]
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "dialectic.tools.cli",
            "run",
            f"examples/{MANIFEST['demo']}",
            *args,
            "--format",
            "json",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    expected = json.loads(expected_file(EXAMPLES / MANIFEST["demo"]).read_text())
    assert got["status"] == expected["status"] == "success"
    assert got["value"] == expected["value"]
