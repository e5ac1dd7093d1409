"""OpenAPI operations as functions, against a real Starlette service under uvicorn (conftest):
success, 4xx/5xx, timeouts, auth headers, path safety, one client reused across runs, close."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import trio

from dialectic import Runtime
from dialectic.connectors.openapi import OpenAPIError

from .conftest import TOKEN, PetStore


@pytest.fixture
def rt(petstore: PetStore) -> Iterator[Runtime]:
    runtime = Runtime(load_entry_points=False)
    runtime.add_openapi("pets", petstore.url + "/openapi.json")
    try:
        yield runtime
    finally:
        runtime.close()


def run(rt: Runtime, program: str, **kwargs: Any) -> Any:
    out = rt.run(program, lang="plan", **kwargs)
    assert out.status == "success", out.message
    return out.value


def failed(rt: Runtime, program: str) -> Any:
    out = rt.run(program, lang="plan")
    assert out.status == "failure", out.to_json()
    assert out.error is not None
    return out.error


def test_every_operation_is_a_function_of_the_namespace(rt: Runtime) -> None:
    names = sorted(n for n in rt.registry.functions if n.startswith("pets."))
    assert names == [
        "pets.boom",
        "pets.countTags",
        "pets.createPet",
        "pets.deletePet",
        "pets.getPet",
        "pets.get_echo_value",
        "pets.latin",  # no operationId: method and path
        "pets.listPets",
        "pets.moved",
        "pets.putThing",
        "pets.secret",
        "pets.slow",
        "pets.text",
    ]
    get_pet = rt.registry.functions["pets.getPet"]
    assert dict(get_pet.parameters) == {"petId": "integer"}
    assert get_pet.returns == "object"
    assert get_pet.description == "One pet by id"


def test_success_path_query_and_body(rt: Runtime, petstore: PetStore) -> None:
    assert run(rt, "return pets.getPet({petId: 1});") == {"id": 1, "name": "Rex", "tag": "dog"}
    dogs = run(rt, "return pets.listPets({tag: ['dog'], limit: 5}).map(p => p.name);")
    assert dogs == ["Rex", "Fido"]
    created = run(rt, "return pets.createPet({name: 'Kit', tag: null});")
    assert created["name"] == "Kit" and created["tag"] is None
    assert created["id"] in petstore.pets
    # a path parameter and a body property of one name: the body's is `body_id`
    assert run(rt, "return pets.putThing({id: 'a b', body_id: 3, label: 'L'});") == {
        "path_id": "a b",
        "body": {"id": 3, "label": "L"},
    }
    # a body that is not an object: one parameter `body`
    assert run(rt, "return pets.countTags({body: ['a', 'b', 'c']});") == {"count": 3}
    assert run(rt, "return pets.text();") == "plain words"
    assert run(rt, "return pets.latin();") == "café"  # decoded by its charset
    assert run(rt, "return pets.latin({bogus: true});") == "caf\ufffd"  # unknown: UTF-8
    assert (
        run(rt, "return pets.deletePet({petId: created.id});", context={"created": created}) is None
    )
    assert created["id"] not in petstore.pets


def test_query_and_header_serialization(rt: Runtime) -> None:
    seen = run(
        rt,
        "return pets.get_echo_value({value: 'v', ids: [1, 2], filter: {kind: 'cat'}, "
        "'X-Trace': 'abc'});",
    )
    assert seen["raw_path"] == "/api/v1/echo/v"
    assert seen["query"] == "ids=1%2C2&filter%5Bkind%5D=cat"
    assert seen["trace"] == "abc"


def test_a_bad_argument_fails_before_any_request(rt: Runtime, petstore: PetStore) -> None:
    before = len(petstore.clients)
    error = failed(rt, "return pets.getPet({petId: 0});")
    assert error.code == "invalid_argument"
    assert "minimum of 1" in error.message
    assert len(petstore.clients) == before


@pytest.mark.parametrize(
    ("value", "raw_path"),
    [
        ("../../x", "/api/v1/echo/..%2F..%2Fx"),
        ("..", "/api/v1/echo/%2E%2E"),
        (".", "/api/v1/echo/%2E"),
        ("//evil.example/x?y=1#z", "/api/v1/echo/%2F%2Fevil.example%2Fx%3Fy%3D1%23z"),
        ("@evil.example", "/api/v1/echo/%40evil.example"),
        ("%2e%2e", "/api/v1/echo/%252e%252e"),
    ],
)
def test_path_parameters_cannot_leave_the_base_path(
    rt: Runtime, petstore: PetStore, value: str, raw_path: str
) -> None:
    seen = rt.run(
        "return pets.get_echo_value({value: v});", lang="plan", context={"v": value}
    ).value
    assert seen["raw_path"] == raw_path
    assert petstore.escaped == []


def test_http_errors_quote_status_and_capped_body(rt: Runtime) -> None:
    error = failed(rt, "return pets.getPet({petId: 99});")
    assert error.code == "http_error"
    assert "HTTP 404 Not Found" in error.message
    assert '{"error":"no pet 99"}' in error.message
    assert "GET /pets/{petId}" in error.message
    error = failed(rt, "return pets.boom();")
    assert error.code == "http_error"
    assert "HTTP 500" in error.message and "database on fire" in error.message
    assert len(error.message) < 1000  # the 5,000-character body is capped
    assert "try again later" in (error.hint or "")


def test_redirects_are_not_followed(rt: Runtime, petstore: PetStore) -> None:
    error = failed(rt, "return pets.moved();")
    assert error.code == "http_error" and "HTTP 302" in error.message
    assert "redirects are not followed" in (error.hint or "")
    assert petstore.escaped == []


def test_auth_header_from_the_environment(
    petstore: PetStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PETS_TOKEN", TOKEN)
    with Runtime(load_entry_points=False) as rt:
        rt.add_openapi(
            "pets",
            petstore.url + "/openapi.json",
            headers={"Authorization": "Bearer ${PETS_TOKEN}"},
        )
        assert run(rt, "return pets.secret();") == {"ok": True}
        # a header parameter of the operation cannot replace the configured one
        seen = run(rt, "return pets.get_echo_value({value: 'x'});")
        assert seen["authorization"] == f"Bearer {TOKEN}"
    with Runtime(load_entry_points=False) as rt:
        rt.add_openapi(
            "pets", petstore.url + "/openapi.json", headers={"Authorization": "Bearer no"}
        )
        error = failed(rt, "return pets.secret();")
        assert "HTTP 401" in error.message and "bad or missing token" in error.message
        assert "credentials" in (error.hint or "")
    monkeypatch.delenv("PETS_TOKEN")
    rt = Runtime(load_entry_points=False)
    with pytest.raises(OpenAPIError, match="PETS_TOKEN is not set"):
        rt.add_openapi(
            "pets",
            petstore.url + "/openapi.json",
            headers={"Authorization": "Bearer ${PETS_TOKEN}"},
        )


def test_secrets_stay_out_of_messages(petstore: PetStore, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PETS_TOKEN", TOKEN)
    with Runtime(load_entry_points=False) as rt:
        rt.add_openapi(
            "pets",
            petstore.url + "/openapi.json",
            headers={"Authorization": "Bearer ${PETS_TOKEN}"},
        )
        for program in ("return pets.boom();", "return pets.getPet({petId: 99});"):
            assert TOKEN not in str(rt.run(program, lang="plan").to_json())
        resource = rt._resources[0]
        assert TOKEN not in repr(resource.service)


def test_timeout_is_a_clean_failure_naming_the_service(petstore: PetStore) -> None:
    with Runtime(load_entry_points=False) as rt:
        rt.add_openapi("pets", petstore.url + "/openapi.json", timeout=0.3)
        error = failed(rt, "return pets.slow();")
        assert error.code == "timeout"
        assert "`pets`" in error.message and "0.3 s" in error.message
        # the service still answers afterwards
        assert run(rt, "return pets.getPet({petId: 2}).name;") == "Tom"


def test_without_a_timeout_the_call_timeout_limit_applies(petstore: PetStore) -> None:
    with Runtime(load_entry_points=False, limits={"call_timeout": 0.3}) as rt:
        rt.add_openapi("pets", petstore.url + "/openapi.json")
        error = failed(rt, "return pets.slow();")
        assert error.code == "timeout"
        assert error.details.get("limit") == "call_timeout"


def test_connection_refused_names_the_service(petstore: PetStore, closed_port: int) -> None:
    with Runtime(load_entry_points=False) as rt:
        rt.add_openapi(
            "pets", petstore.url + "/openapi.json", base_url=f"http://127.0.0.1:{closed_port}/api"
        )
        error = failed(rt, "return pets.getPet({petId: 1});")
        assert error.code == "service_unavailable"
        assert f"`pets` at http://127.0.0.1:{closed_port}/api" in error.message


def test_the_run_deadline_cancels_the_request(petstore: PetStore) -> None:
    with Runtime(load_entry_points=False, limits={"deadline": 0.5}) as rt:
        rt.add_openapi("pets", petstore.url + "/openapi.json")
        started = time.monotonic()
        out = rt.run("return pets.slow();", lang="plan")
        assert out.status == "failure"
        assert out.error is not None and out.error.details.get("limit") == "deadline"
        assert time.monotonic() - started < 8  # the slow answer takes 10 s
        service = rt._resources[0].service
        loop = service._loop
        assert loop is not None
        pending = asyncio.run_coroutine_threadsafe(_other_tasks(), loop).result(timeout=10)
        assert pending == 0  # the cancelled request is not running on the service's loop


async def _other_tasks() -> int:
    await asyncio.sleep(0.05)  # let a cancellation settle
    me = asyncio.current_task()
    return sum(1 for t in asyncio.all_tasks() if t is not me and not t.done())


def test_one_client_serves_sync_asyncio_and_trio_runs(rt: Runtime, petstore: PetStore) -> None:
    service = rt._resources[0].service
    program = "return pets.getPet({petId: 1}).name;"
    start = len(petstore.clients)
    assert run(rt, program) == "Rex"
    client = service._client
    assert run(rt, program) == "Rex"

    async def in_asyncio() -> Any:
        return (await rt.run_async(program, lang="plan")).value

    async def in_trio() -> Any:
        return (await rt.run_async(program, lang="plan")).value

    assert asyncio.run(in_asyncio()) == "Rex"
    assert trio.run(in_trio) == "Rex"
    # from inside a running loop, the sync API runs in a thread with its own loop
    assert asyncio.run(_sync_in_loop(rt, program)) == "Rex"
    assert service._client is client
    ports = {port for _, port in petstore.clients[start:]}
    assert len(ports) == 1  # one connection, kept alive across runs and loops


async def _sync_in_loop(rt: Runtime, program: str) -> Any:
    return rt.run(program, lang="plan").value


def test_concurrent_calls_fan_out(rt: Runtime) -> None:
    names = run(rt, "return [1, 2, 3].map(i => pets.getPet({petId: i}).name);")
    assert names == ["Rex", "Tom", "Fido"]


def test_close_ends_the_client_and_later_calls_fail(petstore: PetStore) -> None:
    rt = Runtime(load_entry_points=False)
    rt.add_openapi("pets", petstore.url + "/openapi.json")
    assert run(rt, "return pets.getPet({petId: 1}).id;") == 1
    service = rt._resources[0].service
    thread = service._thread
    assert isinstance(thread, threading.Thread) and thread.is_alive()
    rt.close()
    assert not thread.is_alive()
    rt.close()  # twice is harmless
    error = failed(rt, "return pets.getPet({petId: 1});")
    assert error.code == "service_closed"


def test_aclose_from_a_loop(petstore: PetStore) -> None:
    async def main() -> tuple[Any, bool]:
        async with Runtime(load_entry_points=False) as rt:
            rt.add_openapi("pets", petstore.url + "/openapi.json")
            value = (await rt.run_async("return pets.getPet({petId: 2}).name;", lang="plan")).value
            thread = rt._resources[0].service._thread
        return value, thread.is_alive()

    assert asyncio.run(main()) == ("Tom", False)
