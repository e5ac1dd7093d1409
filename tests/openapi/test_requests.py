"""Requests built from arguments (no network): URL safety, query and header styles, bodies,
configured headers; the command line's option parsing and ${ENV} expansion."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dialectic import Failure
from dialectic.connectors.openapi import (
    OpenAPIError,
    expand_env,
    load_openapi,
    parse_openapi_options,
)
from dialectic.connectors.openapi_document import Operation, Param, operations
from dialectic.connectors.openapi_http import Service

from .conftest import DOC

OPS = {op.name: op for op in operations(copy.deepcopy(DOC))}
SERVICE = Service("pets", "http://127.0.0.1:9/api/v1/", {"X-Key": "k"})


def param(name: str, location: str, style: str = "", explode: bool = False) -> Param:
    return Param(name, name, location, False, {}, "", style, explode)


def op_with(*params: Param, path: str = "/x", media: str | None = None) -> Operation:
    return Operation("x", "get", path, "", list(params), media)


@settings(max_examples=300, deadline=None)
@given(st.text(st.one_of(st.sampled_from("./%?#@:\\;=&"), st.characters()), max_size=30))
def test_no_path_value_changes_host_or_leaves_the_prefix(value: str) -> None:
    try:
        _, url, _, _, _ = SERVICE.request(OPS["get_echo_value"], {"value": value})
    except Failure as exc:  # only the empty value and invalid text are refused
        assert ("is empty" in exc.message and value == "") or "lone surrogate" in exc.message
        return
    assert (url.scheme, url.host, url.port) == ("http", "127.0.0.1", 9)
    raw = url.raw_path.decode("ascii")
    assert raw.startswith("/api/v1/echo/")
    segment = raw[len("/api/v1/echo/") :]
    assert "/" not in segment and "?" not in segment and "#" not in segment
    assert segment not in (".", "..")


@pytest.mark.parametrize(
    "args",
    [{"value": "\ud800"}, {"value": "v", "ids": ["\udfff"]}, {"value": "v", "X-Trace": "\ud800"}],
)
def test_lone_surrogates_fail_cleanly(args: dict[str, Any]) -> None:
    with pytest.raises(Failure) as info:
        SERVICE.request(OPS["get_echo_value"], args)
    assert info.value.code == "invalid_argument"


def test_path_arrays_and_objects_use_the_simple_style() -> None:
    op = op_with(param("ids", "path"), param("o", "path", explode=True), path="/a/{ids}/{o}")
    _, url, _, _, _ = SERVICE.request(op, {"ids": [1, "a/b"], "o": {"k": "v w"}})
    assert url.raw_path == b"/api/v1/a/1,a%2Fb/k=v%20w"


def test_query_styles() -> None:
    op = op_with(
        param("a", "query", "form", explode=True),
        param("b", "query", "form", explode=False),
        param("c", "query", "pipeDelimited"),
        param("d", "query", "spaceDelimited"),
        param("e", "query", "deepObject", explode=True),
        param("f", "query", "form", explode=True),
        param("g", "query", "form"),
    )
    args: dict[str, Any] = {
        "a": [1, 2],
        "b": [True, None],
        "c": ["x", "y"],
        "d": [1.0, 2.5],
        "e": {"k": 1},
        "f": {"p": "q"},
        "g": None,  # an omitted value: no pair at all
    }
    _, _, query, _, _ = SERVICE.request(op, args)
    assert query == [
        ("a", "1"),
        ("a", "2"),
        ("b", "true,"),
        ("c", "x|y"),
        ("d", "1 2.5"),
        ("e[k]", "1"),
        ("p", "q"),
    ]


def test_headers_cookies_and_configured_headers_win() -> None:
    op = op_with(
        param("X-Trace", "header"),
        param("x-key", "header"),
        param("Authorization", "header"),
        param("session", "cookie"),
    )
    _, _, _, headers, _ = SERVICE.request(
        op, {"X-Trace": ["a", "b"], "x-key": "mine", "Authorization": "Bearer x", "session": "a b"}
    )
    assert headers == {"X-Trace": "a,b", "Cookie": "session=a%20b"}
    with pytest.raises(Failure, match="line break"):
        SERVICE.request(op, {"X-Trace": "a\r\nHost: evil"})
    with pytest.raises(Failure, match="characters a header cannot carry"):
        SERVICE.request(op, {"X-Trace": "日本"})


def test_bodies() -> None:
    method, url, _, headers, content = SERVICE.request(
        OPS["putThing"], {"id": "7", "body_id": 7, "label": "é"}
    )
    assert (method, url.raw_path) == ("PUT", b"/api/v1/things/7")
    assert headers["Content-Type"] == "application/json"
    assert content == '{"id":7,"label":"é"}'.encode()
    _, _, _, _, content = SERVICE.request(OPS["countTags"], {"body": ["a"]})
    assert content == b'["a"]'
    form = op_with(
        param("user", "body"), param("n", "body"), media="application/x-www-form-urlencoded"
    )
    _, _, _, headers, content = SERVICE.request(form, {"user": "a&b=c", "n": [1, 2]})
    assert content == b"user=a%26b%3Dc&n=1&n=2"
    # an optional body with no argument: no body at all
    _, _, _, headers, content = SERVICE.request(
        op_with(param("z", "body"), media="application/json"), {}
    )
    assert content is None and "Content-Type" not in headers


def test_multipart_bodies_fail_before_sending() -> None:
    upload = op_with(param("body", "body*"), media="multipart/form-data")
    with pytest.raises(Failure, match="multipart/form-data body, which dialectic does not send"):
        SERVICE.request(upload, {"body": {"file": "x"}})


def test_expand_env_never_shows_values() -> None:
    env = {"TOKEN": "t0k", "USER": "ada"}
    assert expand_env("Bearer ${TOKEN} for ${USER}, $TOKEN stays", env) == (
        "Bearer t0k for ada, $TOKEN stays"
    )
    with pytest.raises(OpenAPIError) as info:
        expand_env("${TOKEN}${MISSING}", env)
    assert "MISSING" in str(info.value) and "t0k" not in str(info.value)


def test_option_parsing() -> None:
    parsed = parse_openapi_options(
        ["pets=http://h/openapi.json", "shop = ./shop.yaml"],
        ["pets:Authorization=Bearer ${T}", "pets:X-A=b=c"],
        ["shop=http://shop/api"],
        ["shop=2.5"],
    )
    assert parsed == {
        "pets": {
            "source": "http://h/openapi.json",
            "headers": {"Authorization": "Bearer ${T}", "X-A": "b=c"},
            "base_url": None,
            "timeout": None,
        },
        "shop": {
            "source": "./shop.yaml",
            "headers": {},
            "base_url": "http://shop/api",
            "timeout": 2.5,
        },
    }
    with pytest.raises(OpenAPIError, match="expected NAME=SECONDS"):
        parse_openapi_options(["a=x"], timeouts=["a=soon"])
    with pytest.raises(OpenAPIError, match="expected NAME=URL or NAME=FILE"):
        parse_openapi_options(["pets"])
    with pytest.raises(OpenAPIError, match="given twice"):
        parse_openapi_options(["a=x", "a=y"])
    with pytest.raises(OpenAPIError, match="no service 'shop'"):
        parse_openapi_options(["a=x"], ["shop:K=v"])
    with pytest.raises(OpenAPIError) as info:
        parse_openapi_options(["a=x"], ["a-secret-value"])
    assert "a-secret-value" not in str(info.value)


@pytest.mark.parametrize(
    ("headers", "message"),
    [
        ({"Bad Header": "v"}, "is not a valid header name"),
        ({"X-Key": "secret\r\nHost: evil"}, "is not one line"),
        ({"X-Key": "sécret€"}, "characters a header cannot carry"),
    ],
)
def test_configured_headers_are_checked_without_quoting_values(
    headers: dict[str, str], message: str
) -> None:
    with pytest.raises(OpenAPIError) as info:
        load_openapi("pets", copy.deepcopy(DOC), base_url="http://127.0.0.1:9", headers=headers)
    assert message in str(info.value)
    assert "secret" not in str(info.value)


@pytest.mark.parametrize("timeout", [0, -1, "abc", float("nan"), 10_000])
def test_bad_timeouts_are_clear_errors(timeout: Any) -> None:
    with pytest.raises(OpenAPIError, match=r"the timeout must be in \(0, 3600\] s"):
        load_openapi("pets", copy.deepcopy(DOC), base_url="http://127.0.0.1:9", timeout=timeout)


def test_a_template_with_other_characters_is_encoded() -> None:
    op = op_with(param("id", "path"), path="/café/{id}/a b")
    _, url, _, _, _ = SERVICE.request(op, {"id": "x"})
    assert url.raw_path == b"/api/v1/caf%C3%A9/x/a%20b"
