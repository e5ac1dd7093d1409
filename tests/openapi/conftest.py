"""A real HTTP service for the OpenAPI tests: a Starlette app under uvicorn on 127.0.0.1 (a free
port), serving its own OpenAPI 3.0 document at /openapi.json with the API under /api/v1.

Every request outside /api/v1 and /openapi.json is recorded in ``PetStore.escaped`` (a request
that left the base URL's path), and answered 418.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import anyio
import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

TOKEN = "s3cret-token-value"

DOC: dict[str, Any] = {
    "openapi": "3.0.3",
    "info": {"title": "Pets", "version": "1"},
    "servers": [{"url": "/api/v1"}],
    "paths": {
        "/pets": {
            "get": {
                "operationId": "listPets",
                "summary": "List the pets, optionally by tag",
                "parameters": [
                    {
                        "name": "tag",
                        "in": "query",
                        "schema": {"type": "array", "items": {"type": "string"}},
                    },
                    {"$ref": "#/components/parameters/Limit"},
                ],
                "responses": {
                    "200": {
                        "description": "pets",
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "array",
                                    "items": {"$ref": "#/components/schemas/Pet"},
                                }
                            }
                        },
                    }
                },
            },
            "post": {
                "operationId": "createPet",
                "requestBody": {"$ref": "#/components/requestBodies/NewPet"},
                "responses": {
                    "201": {
                        "description": "created",
                        "content": {
                            "application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}
                        },
                    }
                },
            },
        },
        "/pets/{petId}": {
            "parameters": [{"$ref": "#/components/parameters/PetId"}],
            "get": {
                "operationId": "getPet",
                "summary": "One pet by id",
                "responses": {
                    "200": {
                        "description": "the pet",
                        "content": {
                            "application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}
                        },
                    },
                    "404": {"description": "no such pet"},
                },
            },
            "delete": {"operationId": "deletePet", "responses": {"204": {"description": "gone"}}},
        },
        "/things/{id}": {
            "put": {
                "operationId": "putThing",
                "parameters": [
                    {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}
                ],
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "required": ["id", "label"],
                                "properties": {
                                    "id": {"type": "integer"},
                                    "label": {"type": "string"},
                                },
                            }
                        }
                    },
                },
                "responses": {"200": {"description": "echo"}},
            }
        },
        "/tags": {
            "post": {
                "operationId": "countTags",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {"type": "array", "items": {"type": "string"}}
                        }
                    },
                },
                "responses": {"200": {"description": "count"}},
            }
        },
        "/echo/{value}": {
            "get": {
                "parameters": [
                    {"name": "value", "in": "path", "required": True, "schema": {}},
                    {"name": "X-Trace", "in": "header", "schema": {"type": "string"}},
                    {
                        "name": "ids",
                        "in": "query",
                        "explode": False,
                        "schema": {"type": "array", "items": {"type": "integer"}},
                    },
                    {
                        "name": "filter",
                        "in": "query",
                        "style": "deepObject",
                        "schema": {"type": "object"},
                    },
                ],
                "responses": {"200": {"description": "what the server saw"}},
            }
        },
        "/slow": {"get": {"operationId": "slow", "responses": {"200": {"description": "late"}}}},
        "/secret": {"get": {"operationId": "secret", "responses": {"200": {"description": "ok"}}}},
        "/boom": {"get": {"operationId": "boom", "responses": {"200": {"description": "never"}}}},
        "/moved": {"get": {"operationId": "moved", "responses": {"200": {"description": "no"}}}},
        "/latin": {
            "get": {
                "operationId": "latin",
                "parameters": [{"name": "bogus", "in": "query", "schema": {"type": "boolean"}}],
                "responses": {"200": {"description": "text in ISO-8859-1"}},
            }
        },
        "/text": {
            "get": {
                "operationId": "text",
                "responses": {
                    "200": {"description": "t", "content": {"text/plain": {"schema": {}}}}
                },
            }
        },
    },
    "components": {
        "parameters": {
            "PetId": {
                "name": "petId",
                "in": "path",
                "required": True,
                "schema": {"type": "integer", "minimum": 1},
            },
            "Limit": {
                "name": "limit",
                "in": "query",
                "schema": {"type": "integer", "maximum": 100},
            },
        },
        "requestBodies": {
            "NewPet": {
                "required": True,
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}},
            }
        },
        "schemas": {
            "Pet": {
                "type": "object",
                "required": ["name"],
                "properties": {
                    "id": {"type": "integer", "readOnly": True},
                    "name": {"type": "string", "description": "what the pet answers to"},
                    "tag": {"type": "string", "nullable": True},
                    "friends": {"type": "array", "items": {"$ref": "#/components/schemas/Pet"}},
                },
            }
        },
    },
}


class PetStore:
    """The running service: its base address and what it saw."""

    def __init__(self) -> None:
        self.pets: dict[int, dict[str, Any]] = {
            1: {"id": 1, "name": "Rex", "tag": "dog"},
            2: {"id": 2, "name": "Tom", "tag": "cat"},
            3: {"id": 3, "name": "Fido", "tag": "dog"},
        }
        self.escaped: list[str] = []
        self.clients: list[tuple[str, int]] = []
        self.url = ""
        self.app = Starlette(
            routes=[
                Route("/openapi.json", self.openapi),
                Route("/api/v1/pets", self.list_pets, methods=["GET"]),
                Route("/api/v1/pets", self.create_pet, methods=["POST"]),
                Route("/api/v1/pets/{pet_id:int}", self.get_pet, methods=["GET"]),
                Route("/api/v1/pets/{pet_id:int}", self.delete_pet, methods=["DELETE"]),
                Route("/api/v1/things/{id}", self.put_thing, methods=["PUT"]),
                Route("/api/v1/tags", self.count_tags, methods=["POST"]),
                Route("/api/v1/echo/{value:path}", self.echo),
                Route("/api/v1/slow", self.slow),
                Route("/api/v1/secret", self.secret),
                Route("/api/v1/boom", self.boom),
                Route("/api/v1/moved", self.moved),
                Route("/api/v1/latin", self.latin),
                Route("/api/v1/text", self.text),
                Route("/{rest:path}", self.elsewhere, methods=["GET", "POST", "PUT", "DELETE"]),
            ]
        )

    def _seen(self, request: Request) -> None:
        if request.client is not None:
            self.clients.append((request.client.host, request.client.port))

    async def openapi(self, request: Request) -> Response:
        return JSONResponse(DOC)

    async def list_pets(self, request: Request) -> Response:
        self._seen(request)
        tags = request.query_params.getlist("tag")
        found = [p for p in self.pets.values() if not tags or p["tag"] in tags]
        limit = int(request.query_params.get("limit", "100"))
        return JSONResponse(found[:limit])

    async def create_pet(self, request: Request) -> Response:
        body = await request.json()
        pet = {"id": max(self.pets) + 1, **body}
        self.pets[pet["id"]] = pet
        return JSONResponse(pet, status_code=201)

    async def get_pet(self, request: Request) -> Response:
        self._seen(request)
        pet = self.pets.get(request.path_params["pet_id"])
        if pet is None:
            return JSONResponse({"error": f"no pet {request.path_params['pet_id']}"}, 404)
        return JSONResponse(pet)

    async def delete_pet(self, request: Request) -> Response:
        self.pets.pop(request.path_params["pet_id"], None)
        return Response(status_code=204)

    async def put_thing(self, request: Request) -> Response:
        return JSONResponse({"path_id": request.path_params["id"], "body": await request.json()})

    async def count_tags(self, request: Request) -> Response:
        return JSONResponse({"count": len(await request.json())})

    async def echo(self, request: Request) -> Response:
        return JSONResponse(
            {
                "raw_path": request.scope["raw_path"].decode(),
                "query": request.scope["query_string"].decode(),
                "trace": request.headers.get("x-trace"),
                "authorization": request.headers.get("authorization"),
            }
        )

    async def slow(self, request: Request) -> Response:
        await anyio.sleep(10)
        return JSONResponse("late")

    async def secret(self, request: Request) -> Response:
        if request.headers.get("authorization") != f"Bearer {TOKEN}":
            return JSONResponse({"error": "bad or missing token"}, status_code=401)
        return JSONResponse({"ok": True})

    async def boom(self, request: Request) -> Response:
        return PlainTextResponse("database on fire " + "x" * 5000, status_code=500)

    async def moved(self, request: Request) -> Response:
        return RedirectResponse(f"{self.url}/elsewhere", status_code=302)

    async def latin(self, request: Request) -> Response:
        charset = "x-bogus" if request.query_params.get("bogus") == "true" else "iso-8859-1"
        return Response("café".encode("latin-1"), media_type=f"text/plain; charset={charset}")

    async def text(self, request: Request) -> Response:
        return PlainTextResponse("plain words")

    async def elsewhere(self, request: Request) -> Response:
        self.escaped.append(request.scope["raw_path"].decode())
        return PlainTextResponse("outside the API", status_code=418)


@pytest.fixture(scope="session")
def petstore() -> Iterator[PetStore]:
    """The service, on a free port of 127.0.0.1, for the whole session."""
    store = PetStore()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        store.app, log_level="warning", lifespan="off", timeout_graceful_shutdown=1
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    give_up = time.monotonic() + 60
    while not server.started:
        assert thread.is_alive() and time.monotonic() < give_up, "the test server did not start"
        time.sleep(0.02)
    store.url = f"http://127.0.0.1:{port}"
    try:
        yield store
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        sock.close()


@pytest.fixture(autouse=True)
def no_client_outlives_its_test() -> Iterator[None]:
    """Every test closes the services it used: no service loop thread is left behind."""
    yield
    left = [t.name for t in threading.enumerate() if t.name.startswith("dialectic-openapi-")]
    assert left == [], f"service threads still running: {left}"


@pytest.fixture
def closed_port() -> int:
    """A port of 127.0.0.1 nobody listens on."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port: int = sock.getsockname()[1]
    sock.close()
    return port
