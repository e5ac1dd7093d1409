"""The plugin's registrations and its packaging (entry point)."""

from __future__ import annotations

import importlib.metadata
from typing import Any

import dialectic_ide.plugin as plugin

from dialectic import FunctionDescription, Optional, TypeConversion, TypeDescription
from dialectic.registry.plugins import make_plugin_manager


def registered() -> list[Any]:
    pm = make_plugin_manager()
    pm.register(plugin)
    out: list[Any] = []
    pm.hook.dialectic_register_types(register=lambda *d: out.extend(d))
    pm.hook.dialectic_register_functions(register=lambda *d: out.extend(d))
    pm.hook.dialectic_register_conversions(register=lambda *d: out.extend(d))
    return out


def test_registrations() -> None:
    descs = registered()
    types = {d.name: d for d in descs if isinstance(d, TypeDescription)}
    functions = {d.name: d for d in descs if isinstance(d, FunctionDescription)}
    conversions = {(d.from_type, d.to_type) for d in descs if isinstance(d, TypeConversion)}
    assert set(types) == {"symbol", "selection", "location"}
    assert set(functions) == {
        "findSymbol", "findDefinitions", "findReferences", "search", "lines",
        "getCurrentSelection",
    }  # fmt: skip
    assert functions["findSymbol"].aliases == ("findByName",)  # the RFC's name, declared
    assert conversions == {("selection", "symbol"), ("location", "symbol"), ("string", "symbol")}
    assert functions["findSymbol"].parameters == {
        "name": "string",
        "file": Optional("string"),
        "line": Optional("integer"),
    }
    assert functions["findSymbol"].returns == "symbol"
    assert functions["findReferences"].parameters == {"target": "symbol"}
    assert all(fn.pass_context and fn.blocking for fn in functions.values())


def test_entry_point() -> None:
    eps = importlib.metadata.entry_points(group="dialectic")
    [ep] = [ep for ep in eps if ep.name == "ide"]
    assert ep.value == "dialectic_ide.plugin"
    assert ep.load() is plugin
