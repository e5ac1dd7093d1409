"""OpenAPI in: every operation of an OpenAPI 3.0/3.1 document as a function ``NAME.operation``
(SPEC section 16).

    rt = Runtime()
    rt.add_openapi("pets", "https://example.com/openapi.json",
                   headers={"Authorization": "Bearer ${PETS_TOKEN}"}, timeout=10)
    rt.run("return pets.getPet({petId: 7}).name;")
    rt.close()   # closes the service's HTTP client

The document is read by :mod:`~dialectic.connectors.openapi_document`, requests are sent by
:mod:`~dialectic.connectors.openapi_http`; this module makes the function descriptions and
reads the command line's ``--openapi`` options.
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import urljoin

from dialectic.connectors.openapi_document import Operation, identifier, operations
from dialectic.connectors.openapi_http import Service
from dialectic.connectors.openapi_source import OpenAPIError, load_document
from dialectic.outcome.errors import PluginError, clip
from dialectic.registry.descriptions import FunctionDescription
from dialectic.registry.jsonschema import function_from_schema

__all__ = [
    "OpenAPIError",
    "OpenAPIService",
    "add_openapi",
    "attach_openapi",
    "describe_operation",
    "expand_env",
    "load_openapi",
    "load_openapi_options",
    "parse_openapi_options",
]

#: HTTP method -> (effects, idempotent), for descriptions that carry them
EFFECTS = {
    "get": ("read", True),
    "head": ("read", True),
    "options": ("read", True),
    "trace": ("read", True),
    "put": ("write", True),
    "delete": ("destructive", True),
    "post": ("write", False),
    "patch": ("write", False),
}
_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_ENV = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")


class OpenAPIService:
    """A loaded document: its :class:`Service` (the HTTP client) and its functions."""

    def __init__(self, name: str, service: Service, functions: list[FunctionDescription]):
        self.name = name
        self.service = service
        self.functions = functions

    def close(self) -> None:
        self.service.close()

    async def aclose(self) -> None:
        await self.service.aclose()


def expand_env(text: str, environ: Mapping[str, str] | None = None) -> str:
    """``text`` with each ``${NAME}`` replaced by the environment variable ``NAME``; a variable
    that is not set is an :class:`OpenAPIError` naming it (never its neighbours' values)."""
    env = os.environ if environ is None else environ

    def value(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in env:
            raise OpenAPIError(f"the environment variable {name} is not set")
        return env[name]

    return _ENV.sub(value, text)


def load_openapi(
    name: str,
    source: Any,
    *,
    base_url: str | None = None,
    headers: Mapping[str, str] | None = None,
    timeout: float | None = None,
    environ: Mapping[str, str] | None = None,
) -> OpenAPIService:
    """Read the document ``source`` (URL, file or mapping) and make one function per operation,
    named ``name.operation``. ``base_url`` overrides the document's ``servers[0].url``;
    ``headers`` are sent with every request (``${ENV}`` expanded); ``timeout`` (seconds, default
    30) bounds each request. Raises :class:`OpenAPIError` for a document that cannot be used."""
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        raise OpenAPIError(f"a service name must be an identifier, got {clip(name, 60)!r}")
    try:
        seconds = 30.0 if timeout is None else float(timeout)
    except (TypeError, ValueError):
        seconds = float("nan")
    if not 0 < seconds <= 3600:
        raise OpenAPIError(f"service {name!r}: the timeout must be in (0, 3600] s, got {timeout}")
    doc, doc_url = load_document(source, timeout=seconds)
    base = base_url if base_url is not None else _server_url(name, doc, doc_url)
    expanded: dict[str, str] = {}
    for key, value in (headers or {}).items():
        _check_header(name, key, value)
        expanded[key] = expand_env(value, environ)
        _check_header(name, key, expanded[key])
    try:
        service = Service(name, base, expanded, seconds)
    except ValueError as exc:
        raise OpenAPIError(str(exc)) from None
    call_timeout = None if timeout is None else seconds + 1.0  # httpx's message comes first
    functions = [describe_operation(name, service, op, call_timeout) for op in operations(doc)]
    return OpenAPIService(name, service, functions)


def _check_header(service: str, key: Any, value: Any) -> None:
    """A configured header is a token name and one line of Latin-1 text (the value is never
    quoted: it may be a secret)."""
    if not isinstance(key, str) or not _TOKEN.fullmatch(key):
        raise OpenAPIError(f"service {service!r}: {clip(key, 60)!r} is not a valid header name")
    if not isinstance(value, str) or any(c in value for c in "\r\n\0"):
        raise OpenAPIError(f"service {service!r}: the value of the header {key} is not one line")
    try:
        value.encode("latin-1")
    except UnicodeEncodeError:
        raise OpenAPIError(
            f"service {service!r}: the value of the header {key} has characters a header "
            "cannot carry"
        ) from None


def _server_url(name: str, doc: Mapping[str, Any], doc_url: str | None) -> str:
    """``servers[0].url`` with its variables' defaults, resolved against the document's URL."""
    servers = doc.get("servers")
    server = servers[0] if isinstance(servers, list) and servers else {"url": "/"}
    url = str(server.get("url", "/")) if isinstance(server, dict) else "/"
    variables = server.get("variables") if isinstance(server, dict) else None
    for var, spec in (variables or {}).items():
        if isinstance(spec, dict) and "default" in spec:
            url = url.replace("{" + str(var) + "}", str(spec["default"]))
    if url.startswith(("http://", "https://")):
        return url
    if doc_url is None:
        raise OpenAPIError(
            f"service {name!r}: the document's server URL {url!r} is relative and the document "
            "was not read from a URL; give a base URL (base_url=..., or --openapi-base-url "
            f"{name}=URL)"
        )
    return urljoin(doc_url, url)


def describe_operation(
    namespace: str, service: Service, op: Operation, call_timeout: float | None = None
) -> FunctionDescription:
    """The function of one operation: ``namespace.name``, its parameters from the operation's
    JSON Schema, the response schema as its result type; ``call_timeout`` is the function's
    ``timeout`` (None: the run's ``call_timeout`` limit)."""
    fname = f"{namespace}.{op.name}"

    async def call(**kwargs: Any) -> Any:
        return await service.call(op, kwargs)

    call.__name__ = call.__qualname__ = identifier(fname)
    description = op.description + (" (deprecated)" if op.deprecated else "")
    options: dict[str, Any] = {} if call_timeout is None else {"timeout": call_timeout}
    effects, idempotent = EFFECTS.get(op.method, ("write", False))
    fields = {f.name for f in dataclasses.fields(FunctionDescription)}
    if "effects" in fields:
        options["effects"] = effects
    if "idempotent" in fields:
        options["idempotent"] = idempotent
    try:
        return function_from_schema(
            fname,
            description,
            call,
            op.input_schema,
            op.output_schema,
            namespace=namespace,
            **options,
        )
    except PluginError as exc:
        if op.output_schema is None:
            raise OpenAPIError(f"{op.method.upper()} {op.path}: {exc}") from None
    # a response schema that cannot be used (too large, ...) leaves only its type name
    try:
        return function_from_schema(
            fname,
            description,
            call,
            op.input_schema,
            None,
            namespace=namespace,
            returns=_type_name(op.output_schema),
            **options,
        )
    except PluginError as exc:
        raise OpenAPIError(f"{op.method.upper()} {op.path}: {exc}") from None


def _type_name(schema: Any) -> str:
    kind = schema.get("type") if isinstance(schema, dict) else None
    known = ("string", "number", "integer", "boolean", "array", "object", "null")
    return kind if isinstance(kind, str) and kind in known else "any"


# -- the runtime and the command line -------------------------------------------------------
def add_openapi(
    runtime: Any,
    name: str,
    source: Any,
    *,
    base_url: str | None = None,
    headers: Mapping[str, str] | None = None,
    timeout: float | None = None,
) -> list[str]:
    """Register the operations of ``source`` in ``runtime`` as ``name.*`` (see
    :func:`load_openapi`); the service's client is closed by ``runtime.close()``. Returns the
    function names."""
    loaded = load_openapi(name, source, base_url=base_url, headers=headers, timeout=timeout)
    registry = getattr(runtime, "registry", None)
    for fn in loaded.functions:
        if registry is not None and fn.name in registry.functions:
            raise OpenAPIError(
                f"service {name!r}: the function {fn.name} is already registered (by "
                f"{registry.sources.get(fn.name, 'another registration')}); choose another "
                "service name"
            )
    runtime.register(*loaded.functions)
    _closing(runtime).append(loaded)
    return [f.name for f in loaded.functions]


def _closing(runtime: Any) -> list[Any]:
    """The runtime's list of things to close at ``close()``/``aclose()``."""
    found: list[Any] | None = getattr(runtime, "_resources", None)
    if found is None:  # an older runtime: keep them anyway (closed by the caller)
        found = []
        runtime._resources = found
    return found


def parse_openapi_options(
    values: Iterable[str],
    headers: Iterable[str] = (),
    base_urls: Iterable[str] = (),
    timeouts: Iterable[str] = (),
) -> dict[str, dict[str, Any]]:
    """``--openapi NAME=URL|FILE``, ``--openapi-header NAME:Header=Value``,
    ``--openapi-base-url NAME=URL`` and ``--openapi-timeout NAME=SECONDS`` as
    ``{name: {"source", "headers", "base_url", "timeout"}}``; a malformed value raises
    :class:`OpenAPIError`."""
    services: dict[str, dict[str, Any]] = {}
    for value in values:
        name, sep, source = value.partition("=")
        if not sep or not name.strip() or not source.strip():
            raise OpenAPIError(f"--openapi: expected NAME=URL or NAME=FILE, got {value!r}")
        if name.strip() in services:
            raise OpenAPIError(f"--openapi: the service {name.strip()!r} is given twice")
        services[name.strip()] = {
            "source": source.strip(),
            "headers": {},
            "base_url": None,
            "timeout": None,
        }
    for value in headers:
        name, sep, rest = value.partition(":")
        header, eq, text = rest.partition("=")
        if not sep or not eq or not header.strip():
            raise OpenAPIError(  # never echo the value: it may be a secret
                "--openapi-header: expected NAME:Header=Value (e.g. "
                "pets:Authorization=Bearer ${PETS_TOKEN})"
            )
        _service(services, name, "--openapi-header")["headers"][header.strip()] = text
    for value in base_urls:
        name, sep, url = value.partition("=")
        if not sep or not url.strip():
            raise OpenAPIError(f"--openapi-base-url: expected NAME=URL, got {value!r}")
        _service(services, name, "--openapi-base-url")["base_url"] = url.strip()
    for value in timeouts:
        name, sep, seconds = value.partition("=")
        try:
            number = float(seconds)
        except ValueError:
            raise OpenAPIError(
                f"--openapi-timeout: expected NAME=SECONDS, got {clip(value, 60)!r}"
            ) from None
        _service(services, name, "--openapi-timeout")["timeout"] = number
    return services


def _service(services: dict[str, dict[str, Any]], name: str, option: str) -> dict[str, Any]:
    if name.strip() not in services:
        raise OpenAPIError(
            f"{option}: no service {name.strip()!r} (declare it with --openapi {name.strip()}=URL)"
        )
    return services[name.strip()]


def load_openapi_options(
    runtime: Any,
    values: Iterable[str],
    headers: Iterable[str] = (),
    base_urls: Iterable[str] = (),
    timeouts: Iterable[str] = (),
) -> list[str]:
    """Register the services of the command line's ``--openapi`` options (see
    :func:`parse_openapi_options`) in ``runtime``; returns the function names. Raises
    :class:`OpenAPIError` (a usage error) for a bad option or document."""
    names: list[str] = []
    for name, spec in parse_openapi_options(values, headers, base_urls, timeouts).items():
        names.extend(
            add_openapi(
                runtime,
                name,
                spec["source"],
                base_url=spec["base_url"],
                headers=spec["headers"],
                timeout=spec["timeout"],
            )
        )
    return names


def attach_openapi(
    runtime: Any,
    openapi: Iterable[str] = (),
    openapi_headers: Iterable[str] = (),
    openapi_base_urls: Iterable[str] = (),
    openapi_timeouts: Iterable[str] = (),
) -> list[str]:
    """What ``dialectic run --openapi ...`` does: register the services of the options in
    ``runtime``; the function names. A bad option or document, or a name clash, closes
    ``runtime`` and is a usage error (``click.BadParameter``, exit 2)."""
    import click

    try:
        return load_openapi_options(
            runtime, openapi, openapi_headers, openapi_base_urls, openapi_timeouts
        )
    except (OpenAPIError, PluginError) as exc:
        runtime.close()
        raise click.BadParameter(str(exc), param_hint="--openapi") from None
