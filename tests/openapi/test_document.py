"""Reading OpenAPI documents: $refs, names, parameters, bodies, 3.0 vs 3.1, and clear errors for
documents that cannot be used. No network: documents are mappings or files."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from dialectic import Runtime
from dialectic.connectors.openapi import OpenAPIError, load_openapi
from dialectic.connectors.openapi_document import operation_name, operations

from .conftest import DOC

BASE = "http://127.0.0.1:9/api"


def by_name(doc: dict[str, Any]) -> dict[str, Any]:
    return {op.name: op for op in operations(doc)}


def test_refs_are_resolved_and_recursive_schemas_stay_finite() -> None:
    ops = by_name(copy.deepcopy(DOC))
    get_pet = ops["getPet"]
    assert [(p.name, p.location, p.required) for p in get_pet.params] == [
        ("petId", "path", True)
    ]  # from the path item's parameters, a $ref to components/parameters
    out = get_pet.output_schema
    assert out["$ref"] == "#/$defs/Pet"
    assert out["$defs"]["Pet"]["properties"]["friends"]["items"] == {"$ref": "#/$defs/Pet"}
    # the bundled schema is valid JSON Schema and checks a recursive value
    validator = jsonschema.Draft202012Validator(out)
    validator.validate({"name": "a", "friends": [{"name": "b", "friends": []}]})
    with pytest.raises(jsonschema.ValidationError):
        validator.validate({"name": "a", "friends": [{"name": 5}]})


def test_body_properties_become_parameters_and_read_only_ones_are_left_out() -> None:
    create = by_name(copy.deepcopy(DOC))["createPet"]
    params = {p.name: (p.location, p.required) for p in create.params}
    assert params == {
        "name": ("body", True),
        "tag": ("body", False),
        "friends": ("body", False),
    }  # `id` is readOnly
    assert create.body_media == "application/json" and create.body_required
    # OpenAPI 3.0's nullable is JSON Schema's null type
    assert create.input_schema["properties"]["tag"]["type"] == ["string", "null"]


def test_clashing_names_and_a_whole_body() -> None:
    ops = by_name(copy.deepcopy(DOC))
    assert [(p.name, p.wire, p.location) for p in ops["putThing"].params] == [
        ("id", "id", "path"),
        ("body_id", "id", "body"),
        ("label", "label", "body"),
    ]
    assert [(p.name, p.location) for p in ops["countTags"].params] == [("body", "body*")]
    echo = ops["get_echo_value"]
    assert [p.name for p in echo.params] == ["value", "ids", "filter", "X-Trace"]


def test_names_without_operation_id_and_duplicates() -> None:
    assert operation_name(None, "get", "/pets/{petId}/toys") == "get_pets_petId_toys"
    assert operation_name("pets.list-all", "get", "/x") == "pets_list_all"
    assert operation_name("2fa", "post", "/x") == "_2fa"
    doc = {
        "openapi": "3.1.0",
        "paths": {
            "/a": {"get": {"operationId": "same"}},
            "/b": {"get": {"operationId": "same"}, "post": {}},
        },
    }
    assert [op.name for op in operations(doc)] == ["same", "same_2", "post_b"]


def test_undeclared_path_variables_are_required_strings() -> None:
    doc = {"openapi": "3.1.0", "paths": {"/users/{user}/repos/{repo}": {"get": {}}}}
    op = operations(doc)[0]
    assert [(p.name, p.location, p.required) for p in op.params] == [
        ("user", "path", True),
        ("repo", "path", True),
    ]
    assert op.name == "get_users_user_repos_repo"


def test_refs_to_other_parts_of_the_document_do_not_clash() -> None:
    doc = {
        "openapi": "3.1.0",
        "x-shared": {"N": {"type": "integer"}},
        "components": {"schemas": {"N": {"type": "string"}}},
        "paths": {
            "/a": {
                "get": {
                    "operationId": "a",
                    "parameters": [
                        {"name": "i", "in": "query", "schema": {"$ref": "#/x-shared/N"}},
                        {"name": "s", "in": "query", "schema": {"$ref": "#/components/schemas/N"}},
                    ],
                }
            }
        },
    }
    schema = operations(doc)[0].input_schema
    validator = jsonschema.Draft202012Validator(schema)
    validator.validate({"i": 1, "s": "x"})
    with pytest.raises(jsonschema.ValidationError):
        validator.validate({"i": "x"})
    with pytest.raises(jsonschema.ValidationError):
        validator.validate({"s": 1})


def test_openapi_31_schemas_and_form_bodies() -> None:
    doc = {
        "openapi": "3.1.0",
        "paths": {
            "/login": {
                "post": {
                    "operationId": "login",
                    "requestBody": {
                        "content": {
                            "application/x-www-form-urlencoded": {
                                "schema": {
                                    "type": "object",
                                    "properties": {
                                        "user": {"type": "string"},
                                        "code": {"type": ["integer", "null"]},
                                    },
                                }
                            }
                        }
                    },
                    "responses": {
                        "200": {
                            "content": {
                                "application/problem+json": {
                                    "schema": {"type": "object", "properties": {"ok": {}}}
                                }
                            }
                        }
                    },
                }
            }
        },
    }
    login = operations(doc)[0]
    assert login.body_media == "application/x-www-form-urlencoded"
    assert not login.body_required
    assert [p.name for p in login.params] == ["user", "code"]
    assert login.input_schema["properties"]["code"] == {"type": ["integer", "null"]}
    assert login.output_schema == {"type": "object", "properties": {"ok": {}}}


def test_a_yaml_file_with_an_absolute_server(tmp_path: Path) -> None:
    doc = copy.deepcopy(DOC)
    doc["servers"] = [
        {
            "url": "http://{host}:8080/v{major}",
            "variables": {"host": {"default": "localhost"}, "major": {"default": "2"}},
        }
    ]
    path = tmp_path / "pets.yaml"
    path.write_text(yaml.safe_dump(doc), encoding="utf-8")
    loaded = load_openapi("pets", str(path))
    assert str(loaded.service.base) == "http://localhost:8080/v2"
    assert loaded.service.prefix == "/v2"
    assert "pets.getPet" in [f.name for f in loaded.functions]
    overridden = load_openapi("pets", path, base_url="https://example.com/api/")
    assert overridden.service.prefix == "/api"


def test_the_runtime_registers_them_and_describes_them() -> None:
    with Runtime(load_entry_points=False) as rt:
        names = rt.add_openapi("pets", copy.deepcopy(DOC), base_url=BASE)
        assert "pets.createPet" in names
        text = rt.describe("markdown")
        assert "pets.getPet" in text and "what the pet answers to" in text
        effects = {
            n: (f.effects, f.idempotent) for n, f in rt.registry.functions.items() if "pets." in n
        }
        assert effects["pets.getPet"] == ("read", True)
        assert effects["pets.deletePet"] == ("destructive", True)
        assert effects["pets.putThing"] == ("write", True)
        assert effects["pets.createPet"] == ("write", False)
        # a second service of the same name clashes, naming the function
        with pytest.raises(OpenAPIError, match=r"pets.listPets is already registered"):
            rt.add_openapi("pets", copy.deepcopy(DOC), base_url=BASE)


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ({"swagger": "2.0", "paths": {}}, "Swagger 2.0 documents are not supported"),
        ({"openapi": "4.0", "paths": {}}, "expected `openapi: 3.0.x` or `3.1.x`"),
        ([1, 2], "must be a URL, a file path or a mapping"),
        ({"openapi": "3.0.0", "paths": {"pets": {}}}, "must start with '/'"),
        (
            {
                "openapi": "3.0.0",
                "paths": {"/p": {"get": {"parameters": [{"$ref": "other.yaml#/P"}]}}},
            },
            "only references into the same document",
        ),
        (
            {"openapi": "3.0.0", "paths": {"/p": {"get": {"parameters": [{"$ref": "#/nope"}]}}}},
            "cannot resolve $ref '#/nope'",
        ),
        (
            {
                "openapi": "3.0.0",
                "paths": {"/p": {"get": {"parameters": [{"name": "x", "in": "body"}]}}},
            },
            "`in` must be path, query, header or cookie",
        ),
        (
            {"openapi": "3.0.0", "paths": {"/p": {"$ref": "#/paths/~1p"}}},
            "refers to itself",
        ),
    ],
)
def test_unusable_documents_are_clear_errors(doc: Any, message: str) -> None:
    with pytest.raises(OpenAPIError) as info:
        load_openapi("svc", doc, base_url=BASE)
    assert message in str(info.value)


def test_relative_server_needs_a_base_url_and_bad_names(tmp_path: Path) -> None:
    with pytest.raises(OpenAPIError, match=r"is relative .* give a base URL"):
        load_openapi("pets", copy.deepcopy(DOC))
    with pytest.raises(OpenAPIError, match="must be an identifier"):
        load_openapi("my pets", copy.deepcopy(DOC), base_url=BASE)
    with pytest.raises(OpenAPIError, match="absolute http"):
        load_openapi("pets", copy.deepcopy(DOC), base_url="file:///etc")
    with pytest.raises(OpenAPIError, match="cannot read the OpenAPI document"):
        load_openapi("pets", str(tmp_path / "missing.json"))
    bad = tmp_path / "bad.yaml"
    bad.write_text("openapi: [3.0\n", encoding="utf-8")
    with pytest.raises(OpenAPIError, match="neither JSON nor YAML"):
        load_openapi("pets", str(bad))


def test_a_schema_bomb_is_bounded() -> None:
    schemas: dict[str, Any] = {"S0": {"type": "string"}}
    for i in range(1, 40):  # each level refers to the one below twice: 2**40 paths if inlined
        ref = {"$ref": f"#/components/schemas/S{i - 1}"}
        schemas[f"S{i}"] = {"type": "object", "properties": {"a": ref, "b": ref}}
    doc = {
        "openapi": "3.1.0",
        "components": {"schemas": schemas},
        "paths": {
            "/x": {
                "post": {
                    "operationId": "x",
                    "requestBody": {
                        "content": {
                            "application/json": {"schema": {"$ref": "#/components/schemas/S39"}}
                        }
                    },
                }
            }
        },
    }
    op = operations(doc)[0]
    assert len(op.input_schema["$defs"]) == 39  # each schema once, by reference


def test_an_unusable_response_schema_leaves_its_type_and_a_bad_parameter_schema_fails() -> None:
    def doc(param: Any, result: Any) -> dict[str, Any]:
        response = {"content": {"application/json": {"schema": result}}}
        return {
            "openapi": "3.1.0",
            "paths": {
                "/p": {
                    "get": {
                        "operationId": "p",
                        "parameters": [{"name": "q", "in": "query", "schema": param}],
                        "responses": {"200": response},
                    }
                }
            },
        }

    loaded = load_openapi(
        "svc", doc({"type": "string"}, {"type": "array", "items": 5}), base_url=BASE
    )
    assert loaded.functions[0].returns == "array"
    with pytest.raises(OpenAPIError, match=r"GET /p: .*svc\.p"):
        load_openapi("svc", doc({"type": "strng"}, {}), base_url=BASE)
