"""An OpenAPI service declared by a plugin (SPEC 2, 16): its ``dialectic_register_services``
hook registers ``OpenAPIService``; the runtime loads it when it is built and ``close()`` ends its
client (the autouse fixture checks no service thread is left)."""

from __future__ import annotations

from typing import Any

import pytest

from dialectic import Runtime, hookimpl
from dialectic.connectors.services import OpenAPIService
from dialectic.outcome.errors import PluginError

from .conftest import TOKEN, PetStore


def test_a_plugins_openapi_service_is_loaded_called_and_closed(petstore: PetStore) -> None:
    class Pets:
        __name__ = "pets_plugin"

        @hookimpl
        def dialectic_register_services(self, register: Any) -> None:
            register(
                OpenAPIService(
                    "pets",
                    petstore.url + "/openapi.json",
                    headers={"Authorization": f"Bearer {TOKEN}"},
                    timeout=20,
                )
            )

    rt = Runtime(plugins=[Pets()], load_entry_points=False)
    try:
        out = rt.run("return [pets.getPet({petId: 1}).name, pets.secret({}).ok];", lang="plan")
        assert out.status == "success", out.message
        assert out.value == ["Rex", True]
    finally:
        rt.close()


def test_a_plugins_service_that_does_not_load_names_the_plugin(closed_port: int) -> None:
    class Down:
        __name__ = "down_plugin"

        @hookimpl
        def dialectic_register_services(self, register: Any) -> None:
            register(OpenAPIService("down", f"http://127.0.0.1:{closed_port}/openapi.json"))

    with pytest.raises(PluginError, match=r"down_plugin.*OpenAPI service"):
        Runtime(plugins=[Down()], load_entry_points=False)
