"""A real HTTP service for the batch tests: one OpenAPI operation, ``GET /double/{x}``, served by
uvicorn on 127.0.0.1 (a free port) in a thread, with its document at /openapi.json."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

DOC: dict[str, Any] = {
    "openapi": "3.0.3",
    "info": {"title": "Doubler", "version": "1"},
    "paths": {
        "/double/{x}": {
            "get": {
                "operationId": "double",
                "parameters": [
                    {"name": "x", "in": "path", "required": True, "schema": {"type": "integer"}}
                ],
                "responses": {
                    "200": {
                        "description": "twice x",
                        "content": {"application/json": {"schema": {"type": "object"}}},
                    }
                },
            }
        }
    },
}


@contextmanager
def doubler() -> Iterator[str]:
    """The service's base URL while the block runs."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    base = f"http://127.0.0.1:{port}"

    async def document(request: Request) -> Response:
        return JSONResponse({**DOC, "servers": [{"url": base}]})

    async def double(request: Request) -> Response:
        return JSONResponse({"twice": int(request.path_params["x"]) * 2})

    app = Starlette(routes=[Route("/openapi.json", document), Route("/double/{x}", double)])
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    give_up = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < give_up, "the server did not start"
        time.sleep(0.01)
    try:
        yield base
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        sock.close()
