"""`dialectic run --openapi NAME=URL|FILE` against the real test service."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from dialectic.tools.cli import main

from .conftest import DOC, TOKEN, PetStore


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["run", *args, "--no-entry-points"])
    return result.exit_code, result.output


def program(tmp_path: Path, text: str) -> str:
    path = tmp_path / "p.js"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_run_with_a_url_and_an_auth_header(
    petstore: PetStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PETS_TOKEN", TOKEN)
    f = program(
        tmp_path, "s = pets.secret();\nreturn {ok: s.ok, name: pets.getPet({petId: 1}).name};"
    )
    code, out = invoke(
        f,
        "--openapi",
        f"pets={petstore.url}/openapi.json",
        "--openapi-header",
        "pets:Authorization=Bearer ${PETS_TOKEN}",
    )
    assert code == 0, out
    assert orjson.loads(out) == {"ok": True, "name": "Rex"}
    assert TOKEN not in out


def test_run_with_a_file_and_a_base_url(petstore: PetStore, tmp_path: Path) -> None:
    doc = tmp_path / "pets.json"
    doc.write_bytes(orjson.dumps(DOC))
    f = program(tmp_path, "return pets.getPet({petId: 99});")
    code, out = invoke(
        f,
        "--openapi",
        f"pets={doc}",
        "--openapi-base-url",
        f"pets={petstore.url}/api/v1",
        "--format",
        "json",
    )
    assert code == 1
    error = orjson.loads(out)["error"]
    assert error["code"] == "http_error" and "HTTP 404" in error["message"]


def test_run_with_a_timeout(petstore: PetStore, tmp_path: Path) -> None:
    f = program(tmp_path, "return pets.slow();")
    url = f"pets={petstore.url}/openapi.json"
    code, out = invoke(f, "--openapi", url, "--openapi-timeout", "pets=0.3", "--format", "json")
    assert code == 1
    error = orjson.loads(out)["error"]
    assert error["code"] == "timeout" and "within 0.3 s" in error["message"]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--openapi", "pets"], "expected NAME=URL or NAME=FILE"),
        (["--openapi", "pets=/no/such/file.json"], "cannot read the OpenAPI document"),
        (["--openapi-header", "pets:A=b"], "no service 'pets'"),
        (["--openapi", "pets=x.json", "--openapi-base-url", "pets"], "expected NAME=URL"),
        (["--openapi", "pets=x.json", "--openapi-timeout", "pets=0"], "timeout must be in"),
    ],
)
def test_bad_options_are_usage_errors(tmp_path: Path, options: list[str], message: str) -> None:
    code, out = invoke(program(tmp_path, "return 1;"), *options)
    assert code == 2
    assert message in out


def test_describe_shows_the_operations(tmp_path: Path) -> None:
    doc = tmp_path / "pets.json"
    doc.write_bytes(orjson.dumps(DOC))
    result = CliRunner().invoke(
        main,
        [
            "describe",
            "--no-entry-points",
            "--openapi",
            f"pets={doc}",
            "--openapi-base-url",
            "pets=http://127.0.0.1:9/api/v1",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "pets.getPet" in result.output and "One pet by id" in result.output
