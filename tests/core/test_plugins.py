"""Plugins: pluggy hooks with a `register` callback, entry points, and errors naming the plugin."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import dialectic
from dialectic import (
    Constant,
    FunctionDescription,
    PluginError,
    Runtime,
    TypeConversion,
    TypeDescription,
    hookimpl,
)
from dialectic.registry.plugins import HOOKS

ROOT = Path(__file__).resolve().parents[2]


class Box:
    def __init__(self, item: str) -> None:
        self.item = item


class ThrowawayPlugin:
    """Implements every hook (the meta-test below checks this class covers HOOKS)."""

    @hookimpl
    def dialectic_register_functions(self, register: Any) -> None:
        register(
            FunctionDescription(
                "shout", "loud", lambda text: text.upper() + "!", {"text": "string"}, "string"
            )
        )

    @hookimpl
    def dialectic_register_types(self, register: Any) -> None:
        register(TypeDescription("box", "a box", Box, {"item": "string"}, Box))

    @hookimpl
    def dialectic_register_conversions(self, register: Any) -> None:
        register(TypeConversion("box", "string", "the item", lambda b: b.item))

    @hookimpl
    def dialectic_register_constants(self, register: Any) -> None:
        register(Constant("greeting", "a greeting", "hello"))

    @hookimpl
    def dialectic_register_services(self, register: Any) -> None:
        # (MCP servers through this hook: tests/mcp_e2e/test_plugin_servers.py)
        from dialectic.connectors.services import OpenAPIService

        paths = {"/n": {"get": {"operationId": "listNotes", "responses": {"200": {}}}}}
        doc = {"openapi": "3.1.0", "info": {"title": "n", "version": "1"}, "paths": paths}
        register(OpenAPIService("notes", doc, base_url="http://127.0.0.1:9"))


def test_every_hook_registers_through_a_throwaway_plugin() -> None:
    plugin = ThrowawayPlugin()
    rt = Runtime(plugins=[plugin], load_entry_points=False)
    try:
        out = rt.run({"shout": {"box": {"$ref": "greeting"}}})
        assert out.value == "HELLO!"
        assert "notes.listNotes" in rt.registry.functions
    finally:
        rt.close()
        del rt  # a Runtime owns its plugin manager; dropping it unregisters the plugin
    assert "shout" not in Runtime(load_entry_points=False).registry.functions


def test_meta_every_hook_is_documented_and_tested() -> None:
    spec = (ROOT / "SPEC.md").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for hook in HOOKS:
        assert hook in spec, f"{hook} is not documented in SPEC.md"
        assert hook in readme, f"{hook} is not documented in README.md"
        assert hasattr(ThrowawayPlugin, hook), f"{hook} has no test"


def test_module_name_plugins_and_import_errors_name_the_plugin() -> None:
    rt = Runtime(plugins=["dialectic.testing"], load_entry_points=False)
    assert "greet" in rt.registry.functions
    with pytest.raises(PluginError, match="no_such_plugin_module"):
        Runtime(plugins=["no_such_plugin_module"], load_entry_points=False)


def test_a_hook_that_raises_names_the_plugin() -> None:
    class Broken:
        __name__ = "broken_plugin"

        @hookimpl
        def dialectic_register_functions(self, register: Any) -> None:
            raise KeyError("oops")

    with pytest.raises(PluginError, match=r"broken_plugin.*dialectic_register_functions"):
        Runtime(plugins=[Broken()], load_entry_points=False)


def test_conflicting_names_name_both_sources() -> None:
    a = SimpleNamespace(__name__="plugin_a")
    b = SimpleNamespace(__name__="plugin_b")

    def hook(register: Any) -> None:
        register(FunctionDescription("dup", "d", lambda: 1, {}))

    a.dialectic_register_functions = hookimpl(hook)
    b.dialectic_register_functions = hookimpl(hook)
    with pytest.raises(PluginError, match=r"plugin_a.*plugin_b"):
        Runtime(plugins=[a, b], load_entry_points=False)


def test_unknown_parameter_type_is_a_registration_error() -> None:
    rt = Runtime(load_entry_points=False)
    with pytest.raises(PluginError, match="unknown type 'strng'"):
        rt.register(FunctionDescription("f", "f", lambda x: x, {"x": "strng"}))


def _make_dist(tmp: Path, name: str, module_body: str) -> Path:
    pkg = tmp / name
    (pkg / name).mkdir(parents=True)
    (pkg / name / "__init__.py").write_text(textwrap.dedent(module_body), encoding="utf-8")
    (pkg / "pyproject.toml").write_text(
        textwrap.dedent(
            f"""
            [build-system]
            requires = ["setuptools>=61"]
            build-backend = "setuptools.build_meta"

            [project]
            name = "{name.replace("_", "-")}"
            version = "0.0.1"

            [project.entry-points.dialectic]
            {name} = "{name}"

            [tool.setuptools]
            packages = ["{name}"]
            """
        ),
        encoding="utf-8",
    )
    return pkg


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Really install two distributions with `dialectic` entry points into a target folder."""
    tmp = tmp_path_factory.mktemp("plugins")
    good = _make_dist(
        tmp,
        "dialectic_ep_good",
        """
        from dialectic import FunctionDescription, hookimpl

        @hookimpl
        def dialectic_register_functions(register):
            register(FunctionDescription("epHello", "hello from an entry point",
                                         lambda name: "hello " + name, {"name": "string"}))
        """,
    )
    bad = _make_dist(tmp, "dialectic_ep_broken", "import module_that_does_not_exist\n")
    target = tmp / "site"
    for pkg in (good, bad):
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "install",
                "--quiet",
                "--no-deps",
                "--no-build-isolation",
                "--target",
                str(target),
                str(pkg),
            ],
            check=True,
            capture_output=True,
            text=True,
        )
    return target


def _python(target: Path, code: str, *, only_good: bool) -> subprocess.CompletedProcess[str]:
    env_path = str(target)
    if only_good:  # hide the broken distribution's metadata
        for dist in target.glob("dialectic_ep_broken*.dist-info"):
            dist.rename(dist.with_suffix(".hidden"))
    else:
        for dist in target.glob("dialectic_ep_broken*.hidden"):
            dist.rename(dist.with_suffix(".dist-info"))
    import os

    env = {**os.environ, "PYTHONPATH": env_path + os.pathsep + str(ROOT)}
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False
    )


def test_installed_entry_point_plugin_is_loaded(installed: Path) -> None:
    proc = _python(
        installed,
        "from dialectic import Runtime; print(Runtime().run({'epHello': 'ada'}).value)",
        only_good=True,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "hello ada"


def test_installed_plugin_that_fails_to_import_is_named(installed: Path) -> None:
    proc = _python(installed, "from dialectic import Runtime; Runtime()", only_good=False)
    assert proc.returncode != 0
    assert "dialectic_ep_broken" in proc.stderr
    assert "module_that_does_not_exist" in proc.stderr
    cli = _python(
        installed,
        "import sys; sys.argv=['dialectic','describe']; "
        "from dialectic.tools.cli import main; main()",
        only_good=False,
    )
    assert cli.returncode == 2
    assert "plugin 'dialectic_ep_broken'" in cli.stderr
    assert "Traceback" not in cli.stderr


def test_public_contract_names() -> None:
    for name in (
        "Runtime",
        "FunctionDescription",
        "TypeDescription",
        "TypeConversion",
        "Optional",
        "Ambiguous",
        "Candidate",
        "Outcome",
        "hookimpl",
    ):
        assert hasattr(dialectic, name)


def test_a_registration_that_fails_leaves_the_runtime_as_it_was() -> None:
    """A parameter declared as a JSON Schema (a dict) failed with Python's "unhashable type"
    and left the function half registered: registering it again said "registered twice"."""
    rt = Runtime(load_entry_points=False)
    before = rt.run({"upper": {"text": "a"}}).value

    def bad(t: Any) -> FunctionDescription:
        return FunctionDescription("upper", "mine", lambda text: text, {"text": t}, "string")

    with pytest.raises(PluginError, match=r"not a JSON Schema .*function_from_schema"):
        rt.register(bad({"type": "string"}))
    with pytest.raises(PluginError, match="cannot map Python type"):
        rt.register(bad(["string"]))
    with pytest.raises(PluginError, match="registered twice"):
        rt.register(bad("string"), bad("string"))
    assert rt.run({"upper": {"text": "a"}}).value == before == "A"  # still the built-in
    rt.register(bad("string"))
    assert rt.run({"upper": {"text": "a"}}).value == "a"
