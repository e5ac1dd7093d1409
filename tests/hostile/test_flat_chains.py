"""A flat program as written whose tree nests past ``max_depth`` (SPEC 7): a `switch` of cases
that return (each case a test inside the one before), a chain of operators or of method calls.
It runs when it fits, and is refused otherwise with the limit named and what nests, never only
"nested too deeply" (a `switch` of 48 to 100 returning cases said just that)."""

from __future__ import annotations

import pytest

from dialectic import Runtime

RT = Runtime(["dialectic.testing"], load_entry_points=False)


def _switch(n: int) -> str:
    cases = "".join(f"  case echo({i}): return {i};\n" for i in range(n))
    return f"const v = echo({n - 1});\nswitch (v) {{\n{cases}  default: return -1;\n}}"


def _refusal(text: str) -> tuple[str, str]:
    out = RT.run(text)
    assert not out.ok and out.error is not None
    details = out.to_json()["error"]
    return details["details"]["limit"], out.to_json()["message"]


def test_a_switch_that_fits_runs() -> None:
    out = RT.run(_switch(40))
    assert out.ok and out.value == 39


@pytest.mark.parametrize("n", [48, 60, 99, 200])
def test_a_switch_past_the_depth_says_what_nests(n: int) -> None:
    limit, message = _refusal(_switch(n))
    assert limit == "max_depth"
    assert "switch" in message and "max_depth" in message, message


@pytest.mark.parametrize(
    "text,what",
    [
        ("const v = echo(1);\nreturn " + " && ".join(["v"] * 100) + ";", "operators"),
        ("const v = echo(1);\nreturn " + " + ".join(["v"] * 100) + ";", "operators"),
        ("const xs = echo([1]);\nreturn xs" + ".map(x => x)" * 60 + ";", "method calls"),
    ],
    ids=["and", "plus", "methods"],
)
def test_a_chain_past_the_depth_says_what_nests(text: str, what: str) -> None:
    limit, message = _refusal(text)
    assert limit == "max_depth"
    assert f"{what} (" in message and "each inside the one before" in message, message
    assert "named" in message  # (what to write instead)


def test_other_nesting_keeps_the_plain_message() -> None:
    limit, message = _refusal("return " + "[" * 120 + "1" + "]" * 120 + ";")
    assert limit == "max_depth" and "chain" not in message
