"""The plugin system: pluggy hook specifications, the ``hookimpl`` marker, and loading.

A plugin is any module or object with ``@hookimpl`` functions. Installed distributions expose
plugins through the ``dialectic`` entry-point group::

    [project.entry-points.dialectic]
    datetime = "dialectic_datetime.plugin"

Each hook receives a ``register`` callback that accepts one or more descriptions.
"""

from __future__ import annotations

import importlib
import importlib.metadata
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import Any

import pluggy

from dialectic.outcome.errors import PluginError

PROJECT = "dialectic"
ENTRY_POINT_GROUP = "dialectic"

hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)

Register = Callable[..., None]


class HookSpecs:
    """The hooks a dialectic plugin may implement."""

    @hookspec
    def dialectic_register_functions(self, register: Register) -> None:
        """Register functions: call ``register(FunctionDescription(...), ...)``."""

    @hookspec
    def dialectic_register_types(self, register: Register) -> None:
        """Register value types: call ``register(TypeDescription(...), ...)``."""

    @hookspec
    def dialectic_register_conversions(self, register: Register) -> None:
        """Register type conversions: call ``register(TypeConversion(...), ...)``."""

    @hookspec
    def dialectic_register_constants(self, register: Register) -> None:
        """Register named constants: call ``register(Constant(...), ...)``."""

    @hookspec
    def dialectic_register_services(self, register: Register) -> None:
        """Declare services whose functions the runtime registers when it is built: call
        ``register(MCPServers({"mcpServers": {...}}), OpenAPIService(name, source), ...)``
        (``dialectic.connectors.services``); ``Runtime.close()`` ends their sessions."""


#: hook name -> what it registers; documented in SPEC.md and README (a meta-test checks both)
HOOKS = {
    "dialectic_register_functions": "functions",
    "dialectic_register_types": "types",
    "dialectic_register_conversions": "conversions",
    "dialectic_register_constants": "constants",
    "dialectic_register_services": "services",
}


def make_plugin_manager() -> pluggy.PluginManager:
    pm = pluggy.PluginManager(PROJECT)
    pm.add_hookspecs(HookSpecs)
    return pm


def plugin_name(plugin: Any) -> str:
    if isinstance(plugin, ModuleType):
        return plugin.__name__
    return getattr(plugin, "__name__", None) or type(plugin).__name__


def import_plugin_module(name: str) -> ModuleType:
    """Import ``name`` as a plugin module; an import failure names the plugin."""
    try:
        return importlib.import_module(name)
    except Exception as exc:
        raise PluginError(
            f"plugin module {name!r} failed to import: {type(exc).__name__}: {exc}"
        ) from exc


def entry_point_plugins() -> Iterable[tuple[str, Any]]:
    """Load every ``dialectic`` entry point; a plugin that fails to load raises PluginError."""
    for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        dist = ep.dist.name if ep.dist is not None else "?"
        try:
            obj = ep.load()
        except Exception as exc:
            raise PluginError(
                f"plugin {ep.name!r} (entry point {ep.value!r} of distribution {dist!r}) "
                f"failed to import: {type(exc).__name__}: {exc}"
            ) from exc
        yield ep.name, obj
