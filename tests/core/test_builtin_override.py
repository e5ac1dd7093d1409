"""A built-in function (`upper`, `max`, `str`, ...) gives way to the user's own registration of
its name, through ``Runtime.register`` or a plugin; two plugins (or two registrations of the
user's) with one name are still an error naming both."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from dialectic import Constant, FunctionDescription, PluginError, Runtime, hookimpl

SHOUT = FunctionDescription(
    "upper", "mine", lambda text: f"{text.upper()}!", {"text": "string"}, "string"
)


def plugin(name: str, *descriptions: Any) -> Any:
    module = SimpleNamespace(__name__=name)

    def hook(register: Any) -> None:
        register(*descriptions)

    module.dialectic_register_functions = hookimpl(hook)
    return module


def test_runtime_register_replaces_a_builtin() -> None:
    rt = Runtime(load_entry_points=False)
    assert rt.run({"upper": "a"}).value == "A"  # the built-in, and a cached program
    rt.register(SHOUT)
    assert rt.run({"upper": "a"}).value == "A!"
    assert rt.run("return upper('b');", lang="plan").value == "B!"
    assert rt.registry.sources["upper"] == "Runtime.register"
    assert "mine" in rt.describe()
    assert rt.run({"lower": "A"}).value == "a"  # the other built-ins stay


def test_a_plugin_passed_explicitly_replaces_a_builtin() -> None:
    rt = Runtime(plugins=[plugin("shouting", SHOUT)], load_entry_points=False)
    assert rt.run({"upper": "a"}).value == "A!"


def test_str_and_max_can_be_replaced_too() -> None:
    rt = Runtime(load_entry_points=False)
    rt.register(
        FunctionDescription("str", "quoted", lambda value: f"<{value}>", {"value": "any"}),
        Constant("max", "the maximum", 99),
    )
    assert rt.run({"str": 1}).value == "<1>"
    out = rt.run("return max;", lang="plan")
    assert out.value == 99
    assert "max" not in rt.registry.functions


def test_two_plugins_with_one_name_still_clash() -> None:
    a = plugin("plugin_a", SHOUT)
    b = plugin("plugin_b", SHOUT)
    with pytest.raises(PluginError, match=r"'upper' is registered twice: by plugin 'plugin_a'.*"):
        Runtime(plugins=[a, b], load_entry_points=False)
    with pytest.raises(PluginError, match=r"plugin_a.*plugin_b"):
        Runtime(plugins=[a, b], load_entry_points=False)


def test_registering_one_name_twice_is_still_an_error() -> None:
    rt = Runtime(load_entry_points=False)
    rt.register(SHOUT)
    with pytest.raises(PluginError, match=r"'upper' is registered twice"):
        rt.register(SHOUT)
    rt = Runtime(plugins=[plugin("shouting", SHOUT)], load_entry_points=False)
    with pytest.raises(PluginError, match=r"plugin 'shouting' and by Runtime.register"):
        rt.register(SHOUT)


def test_without_builtins_nothing_changes() -> None:
    rt = Runtime(load_entry_points=False, builtins=False)
    rt.register(SHOUT)
    assert rt.run({"upper": "a"}).value == "A!"
    assert rt.run({"lower": "a"}).error is not None
