"""The HTTP side of an OpenAPI service: requests built from arguments, sent over httpx.

One :class:`Service` per configured service holds one ``httpx.AsyncClient``, opened on the first
call and reused by every run until :meth:`Service.close`. An ``AsyncClient`` belongs to the
event loop it was used in, while runs come from many loops (``Prepared.run`` starts a loop per
run, ``run_async`` uses the caller's): the client lives on the service's own event loop in a
background thread, and a call hands its request to that loop and waits for the answer in the
run's loop (asyncio or trio). Cancelling the run (its deadline) cancels the request.

The URL of a request is always the configured base URL plus the operation's path template:
path parameters are percent-encoded (``/`` included) and a value made of dots only is encoded
too, so no argument can change the host or leave the base URL's path.
"""

from __future__ import annotations

import asyncio
import codecs
import threading
import weakref
from collections.abc import Mapping
from concurrent.futures import Future
from typing import Any
from urllib.parse import quote

import anyio
import anyio.to_thread
import httpx
import orjson
import sniffio

from dialectic.connectors.openapi_document import Operation, Param
from dialectic.outcome.errors import Failure, clip

#: a response body larger than this fails (bytes)
MAX_RESPONSE_BYTES = 10_000_000
#: an HTTP error's body is quoted up to this many characters
QUOTED_BODY = 500
#: header names an OpenAPI parameter may not set (OpenAPI 3: they are ignored)
_RESERVED_HEADERS = frozenset({"accept", "content-type", "authorization"})

#: the characters a path template's literal text keeps as they are (the rest is encoded)
_PATH_SAFE = "/:@!$&'()*+,;=-._~%"

Request = tuple[str, httpx.URL, list[tuple[str, str]], dict[str, str], bytes | None]


class Service:
    """One HTTP service: its base URL, headers (credentials), timeout and client."""

    def __init__(
        self,
        name: str,
        base_url: str,
        headers: Mapping[str, str] | None = None,
        timeout: float = 30.0,
        max_response_bytes: int = MAX_RESPONSE_BYTES,
    ) -> None:
        self.name = name
        try:
            base = httpx.URL(base_url)
        except (httpx.InvalidURL, TypeError) as exc:
            raise ValueError(f"service {name!r}: invalid base URL {base_url!r}: {exc}") from None
        if base.scheme not in ("http", "https") or not base.host:
            raise ValueError(
                f"service {name!r}: the base URL must be an absolute http(s) URL, got {base_url!r}"
            )
        self.base = base.copy_with(query=None, fragment=None)
        self.prefix = base.raw_path.split(b"?")[0].decode("ascii").rstrip("/")
        self.headers = dict(headers or {})
        self.timeout = float(timeout)
        self.max_response_bytes = max_response_bytes
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._client: httpx.AsyncClient | None = None
        self._closed = False

    def __repr__(self) -> str:  # never the headers: they hold credentials
        return f"Service({self.name!r}, {str(self.base)!r})"

    # -- the background loop ---------------------------------------------------------------
    def _started(self) -> tuple[asyncio.AbstractEventLoop, httpx.AsyncClient]:
        with self._lock:
            if self._closed:
                raise Failure(
                    f"the service `{self.name}` is closed (its runtime was closed)",
                    code="service_closed",
                )
            if self._loop is None or self._client is None:
                loop = asyncio.new_event_loop()
                thread = threading.Thread(
                    target=loop.run_forever, name=f"dialectic-openapi-{self.name}", daemon=True
                )
                thread.start()
                self._client = httpx.AsyncClient(
                    headers=self.headers, timeout=httpx.Timeout(self.timeout)
                )
                self._loop, self._thread = loop, thread
                weakref.finalize(self, _stop, loop, thread)
            return self._loop, self._client

    def close(self) -> None:
        """Close the client and stop the service's loop (waits for both); calls after it
        fail. Closing twice is harmless."""
        with self._lock:
            loop, thread, client = self._loop, self._thread, self._client
            self._closed = True
            self._loop = self._thread = self._client = None
        if loop is None or thread is None or client is None:
            return
        try:
            asyncio.run_coroutine_threadsafe(client.aclose(), loop).result(timeout=10)
        except TimeoutError:
            pass  # a connection that does not close: the loop stops anyway
        finally:
            _stop(loop, thread)

    async def aclose(self) -> None:
        """:meth:`close` from async code, without blocking the caller's loop."""
        await anyio.to_thread.run_sync(self.close)

    # -- a call ----------------------------------------------------------------------------
    async def call(self, op: Operation, kwargs: Mapping[str, Any]) -> Any:
        """Send the request of ``op`` with ``kwargs`` and return its JSON (or text) body;
        an HTTP error, a timeout or an unreachable service raises :class:`Failure`."""
        request = self.request(op, kwargs)
        loop, client = self._started()
        future = asyncio.run_coroutine_threadsafe(self._send(client, request), loop)
        status, reason, media, charset, data = await _wait(future)
        label = f"{op.method.upper()} {op.path}"
        if status >= 300:
            raise _http_failure(self.name, label, status, reason, data, charset)
        if not data:
            return None
        if media == "application/json" or media.endswith("+json"):
            try:
                return orjson.loads(data)
            except orjson.JSONDecodeError:
                raise Failure(
                    f"the service `{self.name}` answered {label} with invalid JSON: "
                    f"{clip(data.decode(charset, 'replace'), QUOTED_BODY)}",
                    code="invalid_response",
                ) from None
        return data.decode(charset, "replace")

    async def _send(
        self, client: httpx.AsyncClient, request: Request
    ) -> tuple[int, str, str, str, bytes]:
        method, url, query, headers, content = request
        try:
            async with client.stream(
                method, url, params=tuple(query), headers=headers, content=content
            ) as response:
                chunks: list[bytes] = []
                total = 0
                async for chunk in response.aiter_bytes():
                    total += len(chunk)
                    if total > self.max_response_bytes:
                        raise Failure(
                            f"the service `{self.name}` answered {method} {url.path} with more "
                            f"than {self.max_response_bytes} bytes",
                            code="limit_exceeded",
                        )
                    chunks.append(chunk)
        except httpx.TimeoutException:
            raise Failure(
                f"the service `{self.name}` ({self.base}) did not answer {method} {url.path} "
                f"within {self.timeout:g} s",
                hint="The service is slow or stuck; try again later or with a smaller request.",
                code="timeout",
            ) from None
        except httpx.HTTPError as exc:
            raise Failure(
                f"cannot reach the service `{self.name}` at {self.base}: "
                f"{type(exc).__name__}: {clip(str(exc) or 'connection failed', 200)}",
                hint="The service is down or unreachable; try again later.",
                code="service_unavailable",
            ) from None
        ctype = response.headers.get("content-type", "")
        media = ctype.split(";")[0].strip().lower()
        return (
            response.status_code,
            response.reason_phrase,
            media,
            _charset(response.charset_encoding),
            b"".join(chunks),
        )

    # -- building the request --------------------------------------------------------------
    def request(self, op: Operation, kwargs: Mapping[str, Any]) -> Request:
        """The method, URL (base URL + the path template filled in), query pairs, headers and
        body of one call; text that is not valid Unicode (a lone surrogate) fails here."""
        try:
            request = self._request(op, kwargs)
            for key, value in request[2]:
                key.encode()
                value.encode()
        except UnicodeEncodeError:
            raise Failure(
                "an argument contains a lone surrogate, which is not valid Unicode text",
                hint="Send text made of whole characters.",
                code="invalid_argument",
            ) from None
        return request

    def _request(self, op: Operation, kwargs: Mapping[str, Any]) -> Request:
        path_values: dict[str, str] = {}
        query: list[tuple[str, str]] = []
        headers: dict[str, str] = {}
        cookies: list[str] = []
        body: dict[str, Any] = {}
        whole: Any = None
        has_whole = False
        for p in op.params:
            if p.name not in kwargs:
                continue
            value = kwargs[p.name]
            if p.location == "path":
                path_values[p.wire] = _path_value(p, value)
            elif p.location == "query":
                if value is not None:
                    query.extend(_query_pairs(p, value))
            elif p.location == "header":
                if p.wire.lower() not in _RESERVED_HEADERS and value is not None:
                    headers[p.wire] = _header_value(p, _simple(value, p.explode))
            elif p.location == "cookie":
                if value is not None:
                    cookies.append(f"{p.wire}={quote(_simple(value, False), safe='')}")
            elif p.location == "body":
                body[p.wire] = value
            else:
                whole, has_whole = value, True
        if cookies:
            headers["Cookie"] = "; ".join(cookies)
        url = self._url(op, path_values)
        content = None
        if op.body_media is not None and (has_whole or body or op.body_required):
            content = _body(op.body_media, whole if has_whole else body)
            headers["Content-Type"] = op.body_media
        for key in self.headers:  # configured headers win over arguments
            for other in [h for h in headers if h.lower() == key.lower()]:
                del headers[other]
        return op.method.upper(), url, query, headers, content

    def _url(self, op: Operation, values: Mapping[str, str]) -> httpx.URL:
        parts: list[str] = []
        rest = op.path
        while "{" in rest:
            before, _, tail = rest.partition("{")
            name, _, rest = tail.partition("}")
            parts.append(quote(before, safe=_PATH_SAFE))
            if name not in values:
                raise Failure(f"the path parameter `{name}` of {op.path} is missing")
            parts.append(values[name])
        parts.append(quote(rest, safe=_PATH_SAFE))
        url = self.base.copy_with(raw_path=(self.prefix + "".join(parts)).encode("ascii"))
        if url.host != self.base.host or url.port != self.base.port:  # defence in depth
            raise Failure(f"the request would leave the service `{self.name}`")
        return url


def _charset(name: str | None) -> str:
    """The response's charset when Python knows it, else UTF-8 (a service may name anything)."""
    if name:
        try:
            return codecs.lookup(name).name
        except LookupError:
            pass
    return "utf-8"


def _stop(loop: asyncio.AbstractEventLoop, thread: threading.Thread) -> None:
    if not loop.is_closed():
        loop.call_soon_threadsafe(loop.stop)
        if thread is not threading.current_thread():
            thread.join(timeout=10)
            if not thread.is_alive():
                loop.close()


async def _wait(future: Future[Any]) -> Any:
    """The result of a request running on the service's loop, awaited in the run's loop;
    cancelling the waiter cancels the request."""
    try:
        library = sniffio.current_async_library()
    except sniffio.AsyncLibraryNotFoundError:
        library = "asyncio"
    if library == "asyncio":
        return await asyncio.wrap_future(future)
    try:
        return await anyio.to_thread.run_sync(future.result, abandon_on_cancel=True)
    finally:
        future.cancel()  # a no-op once it is done


def _http_failure(
    service: str, label: str, status: int, reason: str, data: bytes, charset: str
) -> Failure:
    body = clip(data.decode(charset, "replace").strip(), QUOTED_BODY) if data else "(empty)"
    if status in (401, 403):
        hint = "The service refused the credentials; check the configured headers."
    elif status == 404:
        hint = "No such resource: check the identifiers in the arguments."
    elif status < 400:
        hint = "The service redirected the request; redirects are not followed."
    elif status < 500:
        hint = "The service rejected the request; check the arguments against its description."
    else:
        hint = "The service failed; try again later."
    return Failure(
        f"the service `{service}` answered {label} with HTTP {status} {reason}: {body}",
        hint=hint,
        code="http_error",
    )


def _scalar(value: Any) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return str(int(value))
    if isinstance(value, (int, float)):
        return str(value)
    return orjson.dumps(value).decode()


def _simple(value: Any, explode: bool) -> str:
    """The ``simple`` style: arrays ``a,b``; objects ``k,v,k,v`` (``k=v,k=v`` exploded)."""
    if isinstance(value, list):
        return ",".join(_scalar(v) for v in value)
    if isinstance(value, dict):
        if explode:
            return ",".join(f"{k}={_scalar(v)}" for k, v in value.items())
        return ",".join(f"{k},{_scalar(v)}" for k, v in value.items())
    return _scalar(value)


def _path_value(p: Param, value: Any) -> str:
    if isinstance(value, list):
        text = ",".join(_segment(_scalar(v)) for v in value)
    elif isinstance(value, dict):
        sep = "=" if p.explode else ","
        text = ",".join(f"{_segment(str(k))}{sep}{_segment(_scalar(v))}" for k, v in value.items())
    else:
        text = _segment(_scalar(value))
    if not text:
        raise Failure(
            f"the path parameter `{p.name}` is empty",
            hint=f"Give `{p.name}` a non-empty value.",
            code="invalid_argument",
        )
    if p.style == "label":
        return "." + text
    if p.style == "matrix":
        return f";{p.wire}={text}"
    return text


def _segment(text: str) -> str:
    """One value inside a path segment: every reserved character percent-encoded (``/``,
    ``?``, ``#``, ``%``), and ``.``/``..`` (which a URL would resolve away) too."""
    encoded = quote(text, safe="")
    if encoded and set(encoded) <= {"."}:
        return "%2E" * len(encoded)
    return encoded


def _query_pairs(p: Param, value: Any) -> list[tuple[str, str]]:
    if isinstance(value, list):
        if p.explode and p.style == "form":
            return [(p.wire, _scalar(v)) for v in value]
        sep = {"spaceDelimited": " ", "pipeDelimited": "|"}.get(p.style, ",")
        return [(p.wire, sep.join(_scalar(v) for v in value))]
    if isinstance(value, dict):
        if p.style == "deepObject":
            return [(f"{p.wire}[{k}]", _scalar(v)) for k, v in value.items()]
        if p.explode:
            return [(str(k), _scalar(v)) for k, v in value.items()]
        return [(p.wire, ",".join(f"{k},{_scalar(v)}" for k, v in value.items()))]
    return [(p.wire, _scalar(value))]


def _header_value(p: Param, text: str) -> str:
    if any(c in text for c in "\r\n\0"):
        raise Failure(
            f"the header parameter `{p.name}` contains a line break",
            hint="A header value is one line of text.",
            code="invalid_argument",
        )
    try:
        text.encode("latin-1")
    except UnicodeEncodeError:
        raise Failure(
            f"the header parameter `{p.name}` contains characters a header cannot carry",
            hint="Use ASCII text in header parameters.",
            code="invalid_argument",
        ) from None
    return text


def _body(media: str, value: Any) -> bytes:
    base = media.split(";")[0].strip().lower()
    if base == "application/json" or base.endswith("+json"):
        try:
            return orjson.dumps(value)
        except TypeError as exc:
            raise Failure(f"the request body cannot be sent as JSON: {exc}") from None
    if base.startswith("multipart/"):
        raise Failure(
            f"the operation takes a {base} body, which dialectic does not send",
            hint="Use another operation of the service, or call it outside the program.",
            code="unsupported",
        )
    if base == "application/x-www-form-urlencoded" and isinstance(value, dict):
        pairs = []
        for k, v in value.items():
            for item in v if isinstance(v, list) else [v]:
                pairs.append(f"{quote(str(k), safe='')}={quote(_scalar(item), safe='')}")
        return "&".join(pairs).encode()
    if isinstance(value, (bytes, bytearray)):
        return bytes(value)
    return (value if isinstance(value, str) else orjson.dumps(value).decode()).encode()
