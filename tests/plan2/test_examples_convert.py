"""The project's examples keep their outcome when converted between Plan and Plan2."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import pytest

from dialectic.tools.convert import convert

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
MANIFEST = EXAMPLES / "manifest.json"
CASES: list[tuple[str, str]] = []
if MANIFEST.exists():
    for name in json.loads(MANIFEST.read_text())["examples"]:
        for ext, lang in ((".js", "plan"), (".yaml", "plan2")):
            if (EXAMPLES / f"{name}{ext}").exists():
                CASES.append((name, lang))


def _ensure_unwrap(rt: Any) -> None:
    """Plan writes Plan2's lifting as ``unwrap(x)``; until the standard library has ``unwrap``,
    register an equivalent one."""
    from dialectic import FunctionDescription

    if rt.run("return unwrap([1]);", lang="plan").status == "success":
        return

    def unwrap(value: Any) -> Any:
        return value[0] if isinstance(value, list) and len(value) == 1 else value

    rt.register(FunctionDescription("unwrap", "unwrap", unwrap, {"value": "any"}))


def _context(args: list[str]) -> dict[str, Any]:
    ctx: dict[str, Any] = {"travel_latency": 0}
    for flag, value in zip(args[::2], args[1::2], strict=False):
        ctx[flag.lstrip("-")] = value
    return ctx


def _outcome(out: Any) -> tuple[str, Any]:
    data = out.to_json()
    return data["status"], data.get("value")


@pytest.mark.parametrize(("name", "lang"), CASES)
def test_converted_example_has_the_same_outcome(name: str, lang: str) -> None:
    from dialectic import Runtime

    spec = json.loads(MANIFEST.read_text())["examples"][name]
    plugins = [importlib.import_module(module) for module in spec["plugins"]]
    rt = Runtime(plugins=plugins, load_entry_points=False)
    _ensure_unwrap(rt)
    ctx = _context(spec["args"])
    if "workspace" in ctx:
        ctx["workspace"] = str(EXAMPLES.parent / ctx["workspace"])
    ext = ".js" if lang == "plan" else ".yaml"
    source = (EXAMPLES / f"{name}{ext}").read_text()
    target = "plan2" if lang == "plan" else "plan"
    # Plan -> Plan2 without lifting is exact (with lifting, a call returning a one-element
    # array would become its element: documented, and flight_lookup shows it).
    converted = convert(source, lang, target, lift=lang == "plan2")
    original = _outcome(rt.run(source, lang=lang, context=ctx))
    again = _outcome(
        rt.prepare(converted, lang=target, lift=False).run(ctx)
        if target == "plan2"
        else rt.run(converted, lang=target, context=ctx)
    )
    if original[0] == "success":
        assert again == original, converted
    else:
        assert again[0] == original[0], converted
