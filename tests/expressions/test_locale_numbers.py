"""``x.toLocaleString(locale, options)`` of a number (SPEC 1.8, "Numbers";
:mod:`dialectic.values.jslocale`): generated numbers (ties, tiny, huge, negative, shortest texts
that differ from the exact double) under each supported option set give Node's text; the rest
is refused with what to write."""

from __future__ import annotations

import json
import random

import pytest

from dialectic import Runtime

from .program_oracle import runs_as_in_node, runtime

RT: Runtime = runtime()

OPTION_SETS = [
    "",
    "'en-US'",
    "'en-US', {minimumFractionDigits: 2, maximumFractionDigits: 2}",
    "'en-US', {maximumFractionDigits: 0}",
    "'en-US', {minimumFractionDigits: 4}",
    "'en-US', {maximumFractionDigits: 6}",
    "'en-US', {style: 'percent'}",
    "'en-US', {style: 'percent', maximumFractionDigits: 2}",
    "'en-US', {style: 'currency', currency: 'USD'}",
    "'en', {style: 'currency', currency: 'EUR'}",
    "'en-US', {style: 'currency', currency: 'JPY'}",
    "'en-US', {style: 'currency', currency: 'gbp', maximumFractionDigits: 3}",
    "undefined, {useGrouping: false, maximumFractionDigits: 4}",
    "'en-US', {minimumIntegerDigits: 5, minimumFractionDigits: 1}",
]


def _numbers(seed: int) -> list[float]:
    rng = random.Random(seed)
    out: list[float] = [0.0, 1e21, 1.5e300, 5e-324, 123456789012345680000.0, 0.1 + 0.2]
    for _ in range(120):
        kind = rng.randrange(5)
        if kind == 0:  # a tie at some decimal: 1.0005, 8.345
            digits = rng.randint(0, 7)
            out.append(round(rng.randint(0, 10**digits) + 0.5, 0) / 10**digits)
        elif kind == 1:
            out.append(rng.uniform(-1e6, 1e6))
        elif kind == 2:
            out.append(rng.random() * 10 ** rng.randint(-9, 25))
        elif kind == 3:
            out.append(round(rng.uniform(-100, 100), rng.randint(0, 5)))
        else:
            out.append(float(rng.randint(-(10**12), 10**12)))
    return [-x if rng.random() < 0.3 else x for x in out]


@pytest.mark.parametrize("seed", [1, 2])
def test_generated_numbers_are_written_as_node_writes_them(seed: int) -> None:
    numbers = json.dumps(_numbers(seed))
    programs = [f"return {numbers}.map(x => x.toLocaleString({args}));" for args in OPTION_SETS]
    runs_as_in_node(programs, RT)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("return (1234.5).toLocaleString('de-DE');", "English only"),
        ("return (1234.5).toLocaleString('en-GB');", "English only"),
        ("return 'abc'.toLocaleString();", "writes by the locale's rules"),
        ("return [1].toLocaleString();", "writes by the locale's rules"),
        (
            "return (1.5).toLocaleString('en-US', {minimumFractionDigits: 3, "
            "maximumFractionDigits: 1});",
            "a RangeError in JavaScript",
        ),
        (
            "return (1.5).toLocaleString('en-US', {maximumSignificantDigits: 2});",
            "`maximumSignificantDigits` is not supported",
        ),
        ("return (1.5).toLocaleString('en-US', {style: 'currency'});", "needs a currency"),
        (
            "return (1.5).toLocaleString('en-US', {style: 'currency', currency: 'CHF'});",
            "currency 'CHF' is not supported",
        ),
        ("return (1 / 0).toLocaleString('en-US', {style: 'percent'});", "an infinity"),
    ],
)
def test_what_is_not_english_or_known_is_refused(text: str, message: str) -> None:
    out = RT.run(text, lang="plan", strict=True)
    assert out.status == "failure", out.to_json()
    assert message in (out.message or ""), out.message


def test_intl_number_format_formats_as_to_locale_string() -> None:
    runs_as_in_node(
        [
            "return new Intl.NumberFormat('en-US').format(1234.5);",
            "const fmt = new Intl.NumberFormat('en-US', {style: 'currency', currency: 'USD'});\n"
            "return nums.map(n => fmt.format(n * 100));",
            "return Intl.NumberFormat('en-US', {maximumFractionDigits: 1}).format(3.14159);",
            "const pct = new Intl.NumberFormat(undefined, {style: 'percent'});\n"
            "return `${pct.format(0.256)} of ${new Intl.NumberFormat().format(1e6)}`;",
        ],
        RT,
    )
    tree = (
        '{"$method": [{"$global": ["Intl.NumberFormat", "en-US", {"$object": {"style": '
        '"percent"}}]}, "format", 0.5]}'
    )
    assert RT.run(tree, lang="json").value == "50%"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("const f = new Intl.NumberFormat();\nreturn f;", "cannot leave the program"),
        ("const f = new Intl.NumberFormat('de-DE');\nreturn f.format(1);", "English only"),
        ("const f = new Intl.NumberFormat();\nreturn f.format('1');", "for numbers"),
        ("return [1].format(2);", "unknown function `format`"),
    ],
)
def test_what_an_intl_number_format_refuses(text: str, message: str) -> None:
    out = RT.run(text, lang="plan", strict=True)
    assert out.status == "failure", out.to_json()
    assert message in (out.message or ""), out.message


def test_an_infinity_in_the_plain_style() -> None:
    runs_as_in_node(["return [1 / 0, -1 / 0].map(x => x.toLocaleString());"], RT)
