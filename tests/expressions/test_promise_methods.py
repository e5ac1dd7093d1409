"""A promise's ``then`` (SPEC 10, "Mapping to the call tree"; Plan's ``promises.py``):
on a call of a registered function (``slow`` is an ``async`` function on both sides), on
``Promise.all(...)`` and on another ``then``, the arrow applied to the value, as Node gives;
``Promise.resolve`` is its value; handlers of failures and ``Promise.race`` of waits
only are refused at their place."""

from __future__ import annotations

import pytest

from dialectic import Runtime

from .program_oracle import runs_as_in_node, runtime

RT: Runtime = runtime()

PROGRAMS = [
    "return slow(5).then(x => x * 2);",
    "const x = await slow(3).then(v => v + 1);\nreturn x;",
    "const v = await slow(2).then(x => x + 1).then(y => [y, y * 10]);\nreturn v;",
    "return Promise.all([slow(1), slow(2)]).then(([a, b]) => a + b);",
    "return await Promise.all(nums.map(n => slow(n))).then(rs => rs.filter(r => r > 2));",
    "const r = await slow({a: [1, 2]}).then(({a}) => {\n  const t = a.length;\n"
    "  return t * 2;\n});\nreturn r;",
    "return [await Promise.resolve(5), await Promise.resolve(slow('x'))];",
    "const p = {then: 1};\nreturn p.then;",
    "return slow(people).then(ps => ps.map(p => p.name).join(', '));",
]


def test_then_gives_what_node_gives() -> None:
    runs_as_in_node(PROGRAMS, RT)


def test_catch_runs_its_handler_in_both_modes() -> None:
    text = "const v = await failLater('x').catch(e => 0);\nreturn v;"
    for strict in (False, True):
        out = RT.run(text, lang="plan", strict=strict)
        assert out.status == "success" and out.value == 0, out.message
        assert not out.warnings, out.warnings


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("return (await slow(3)).then(v => v);", "unknown function `then`"),
        (
            "return Promise.race([sleep(1).then(() => 1), sleep(2).then(() => 2)]);",
            "`Promise.race` here",
        ),
        ("return Promise.reject();", "`Promise.reject` needs a value"),
        ("return slow(2).finally(() => 1);", "Plan has no `finally`"),
        ("return slow(2).then(x => x, 0);", "a promise's handler here is an arrow function"),
        ("return slow(2).then((x, i) => x);", "a promise's handler here is an arrow function"),
    ],
)
def test_what_plan_cannot_mean_is_refused_at_its_place(text: str, message: str) -> None:
    out = RT.run(text, lang="plan", strict=True)
    assert out.status == "failure", out.to_json()
    assert message in (out.message or ""), out.message
    assert out.error is not None and out.error.line == 1
