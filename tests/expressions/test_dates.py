"""``Date`` (SPEC 1.8, "Dates"): programs compared with Node.js run with ``TZ=UTC`` and the
same fixed instant (``Date.now()``, ``new Date()``), a result's Date as JSON writes it; and a
generator of random dates, ISO texts and method calls, each answer Node's or a clear refusal."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
from collections.abc import Callable
from typing import Any

import pytest

from dialectic import FunctionDescription, Runtime

NOW = 1_717_171_717_171  # 2024-05-31T16:08:37.171Z: the instant both sides read

NODE = r"""
"use strict";
const AsyncFunction = (async () => {}).constructor;
const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const RealDate = Date;
class FixedDate extends RealDate {
  constructor(...a) { if (a.length) super(...a); else super(input.now); }
  static now() { return input.now; }
}
// a function's argument and result are JSON, as a tool's are (SPEC 5)
const echo = v => JSON.parse(JSON.stringify(v));
const out = [];
(async () => {
  for (const src of input.programs) {
    const ctx = JSON.parse(input.context);
    try {
      const f = new AsyncFunction('Date', 'echo', ...Object.keys(ctx), '"use strict";\n' + src);
      const v = await f(FixedDate, echo, ...Object.values(ctx));
      const text = JSON.stringify(v);
      out.push(text === undefined ? {undef: true} : {ok: JSON.parse(text)});
    } catch (e) { out.push({error: String(e).slice(0, 200)}); }
  }
  process.stdout.write(JSON.stringify(out));
})();
"""

CONTEXT: dict[str, Any] = {
    "orders": [
        {"id": 1, "createdAt": "2024-05-30T10:00:00Z", "total": 20},
        {"id": 2, "createdAt": "2024-05-01T08:30:00.000Z", "total": 35},
        {"id": 3, "createdAt": "2024-05-27", "total": 12},
        {"id": 4, "createdAt": "2023-12-31T23:59:59.999Z", "total": 7},
    ],
    "events": [
        {"name": "b", "date": "2024-03-01"},
        {"name": "a", "date": "2023-12-25T18:00:00+02:00"},
        {"name": "c", "date": "2024-01-10 09:15:00"},
    ],
    "start": "2024-01-01",
    "end": "2024-03-15T12:00:00Z",
    "ts": 1_700_000_000_123,
}


def node_answers(programs: list[str]) -> list[dict[str, Any]]:
    node = shutil.which("node")
    assert node is not None, "set-up installs Node.js"
    done = subprocess.run(
        [node, "-e", NODE],
        input=json.dumps({"programs": programs, "context": json.dumps(CONTEXT), "now": NOW}),
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
        env={**os.environ, "TZ": "UTC"},
    )
    out: list[dict[str, Any]] = json.loads(done.stdout)
    return out


def runtime() -> Runtime:
    rt = Runtime(load_entry_points=False, now=NOW)
    rt.register(FunctionDescription("echo", "echo", lambda value: value, {"value": "any"}, "any"))
    return rt


def compare(programs: list[str]) -> tuple[list[str], list[str], list[str]]:
    """The programs answered as Node does, those refused, and those answered wrongly."""
    rt = runtime()
    same: list[str] = []
    refused: list[str] = []
    wrong: list[str] = []
    for src, answer in zip(programs, node_answers(programs), strict=True):
        out = rt.run(src, lang="plan", context=CONTEXT)
        if out.status != "success":
            assert out.error is not None and out.error.code != "internal_error", (src, out)
            refused.append(src)
        elif "ok" in answer and json.dumps(out.value) == json.dumps(answer["ok"]):
            same.append(src)
        else:
            wrong.append(f"{src} -> {out.value!r}; Node: {answer}")
    return same, refused, wrong


PROGRAMS = [
    "return new Date('2024-01-15T10:30:00Z').getTime();",
    "return new Date('2024-01-15').toISOString();",
    "const d = new Date('2024-03-05T07:08:09.123Z'); return [d.getFullYear(), d.getMonth(), "
    "d.getDate(), d.getDay(), d.getHours(), d.getMinutes(), d.getSeconds(), "
    "d.getMilliseconds(), d.getTimezoneOffset()];",
    "const d = new Date(ts); return [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), "
    "d.getUTCDay(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), "
    "d.getUTCMilliseconds()];",
    "return new Date('2024-02-01') - new Date('2024-01-01');",
    "return Math.round((new Date(end) - new Date(start)) / 86400000);",
    "return new Date('2024-01-15') < new Date('2024-01-16');",
    "const a = new Date('2024-01-15'); const b = new Date('2024-01-15'); "
    "return [a === b, a === a, a !== b, a.getTime() === b.getTime(), a == b];",
    "return [new Date('2024-01-15'), {at: new Date(0)}];",
    "return new Date(ts);",
    "return JSON.stringify({at: new Date(1700000000000), bad: new Date('x')});",
    "return `${new Date(0)}`;",
    "return String(new Date(86400000 * 365));",
    "return new Date(0) + '';",
    "return new Date(0) + 1;",
    "return typeof new Date();",
    "return [isNaN(new Date('hello')), isNaN(new Date('2024-13-01')), isNaN(new Date(''))];",
    "return [isNaN(new Date('2024-01-15').getTime()), "
    "Number.isNaN(new Date('2024-01-32').getTime())];",
    "return +new Date('2024-01-15');",
    "return events.sort((a, b) => new Date(a.date) - new Date(b.date)).map(e => e.name);",
    "const d = new Date(orders[0].createdAt); "
    "return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`;",
    "return new Date(Date.UTC(2024, 0, 31, 23, 59)).toISOString();",
    "return [new Date(2024, 13, 1).toISOString(), new Date(2024, 1, 30, 25).toISOString()];",
    "return Date.parse('2024-01-15T10:30:00+05:30');",
    "return [new Date(1e15).toUTCString(), new Date(-1e14).toString()];",
    "return [new Date('2024-01-15').toDateString(), "
    "new Date('2024-01-15T10:11:12Z').toTimeString()];",
    "return new Date(new Date('2024-01-15')).toISOString();",
    "return [new Date('2024-01-15').toJSON(), new Date('x').toJSON()];",
    "return new Date('2024-01-15 10:30:00').toISOString();",
    "return [new Date(99, 0).getFullYear(), new Date(Date.UTC(5, 0)).getUTCFullYear()];",
    "return new Date(8.64e15 + 1).toString();",
    "return new Date('2024-01-15') > 1705276800000;",
    "const cutoff = Date.now() - 7 * 24 * 60 * 60 * 1000; "
    "return orders.filter(o => new Date(o.createdAt).getTime() >= cutoff).map(o => o.id);",
    "return new Date().toISOString();",
    "return [Date.now(), new Date().getTime(), +new Date()];",
    "return [new Date(null).getTime(), new Date(true).getTime(), new Date(1.9).getTime(), "
    "new Date(-1.9).getTime()];",
    "return new Date(undefined).toString();",
    "return [new Date(-62198755200000).toISOString(), new Date(-1).toISOString(), "
    "new Date(Date.UTC(12345, 0)).toISOString()];",
    "return [new Date(0) === 0, new Date(0) * 2, -new Date(5), new Date(10) / 4];",
    "return orders.map(o => new Date(o.createdAt)).sort((a, b) => b - a)[0];",
    "const newest = orders.reduce((m, o) => new Date(o.createdAt) > new Date(m.createdAt) "
    "? o : m); return newest.id;",
    "return [isNaN('abc'), isNaN('12'), isNaN(3), isNaN(undefined), isNaN(null)];",
    "return ['2024-02-30', '2024-04-31', '2023-02-29', '2024-01-15T24:00', "
    "'2024-01-15T10:30:00.123456', '+002024-01-15', '2024-01-15t10:30:00z', '2024-01-15Z', "
    "' 2024-01-15 ', '2024-01-15T10:30:00+0530', '2024-01-15T10:30:00-00:00'].map(t => "
    "new Date(t).toISOString());",
    "return ['2024-01-15T24:00:01', '2024-01-15T25:00', '2024-01-15T10:30:60', "
    "'2024-01-00', '2024-00-10', '+275760-09-13T00:00:00.001Z'].map(t => isNaN(new Date(t)));",
    "return new Date(new Date('2024-05-31T23:00:00Z').getTime() + 86400000).getDay();",
    "return ['2024Z', '2024-01Z', '2024-01-15T10:30+05:30', '2024-01-15 10:30:00+05:30', "
    "'2024-01-15T10:30:00.5-08:00', '2024-01-15T24:00:00.000Z', '-002024-01-15', "
    "'2024-01-15T00:00:00.000+23:59', '1969-12-31T23:59:59.999Z', '0001-01-01'].map(t => "
    "new Date(t).toISOString());",
    "const d = new Date(0); return [structuredClone(d) === d, structuredClone([d])[0] === d, "
    "structuredClone(d).getTime(), [d].includes(d), [d].includes(new Date(0)), "
    "new Set([d, d, new Date(0)]).size, echo(d), new Date(0) ? 1 : 2];",
    "return [{d: '2024-01-02', i: 1}, {d: '2024-01-01', i: 2}, {d: '2024-01-02', i: 3}]"
    ".sort((a, b) => new Date(b.d) - new Date(a.d)).map(x => x.i);",
    "return [5, 3, 9].sort((a, b) => new Date(a, 0) - new Date(b, 0));",
    "return new Date(ts).toLocaleDateString('en-US', {year: 'numeric', month: 'long', "
    "day: 'numeric'});",
    "const d = new Date(end); return [d.toLocaleString(), d.toLocaleDateString(), "
    "d.toLocaleTimeString(), d.toLocaleString('en-US', {timeZone: 'UTC'})];",
    "return orders.map(o => new Date(o.createdAt).toLocaleDateString('en-US', {weekday: "
    "'short', month: 'short', day: 'numeric'}));",
    "return [new Date(ts).toLocaleTimeString('en-US', {hour: '2-digit', minute: '2-digit'}), "
    "new Date(0).toLocaleTimeString('en-US', {hour: 'numeric', minute: '2-digit', "
    "hour12: false}), new Date(end).toLocaleString('en-US', {dateStyle: undefined, "
    "month: 'long', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit'})];",
    "return [new Date(ts).toLocaleDateString('en', {month: '2-digit', day: '2-digit', "
    "year: 'numeric'}), new Date(ts).toLocaleDateString(undefined, {month: 'long', "
    "year: 'numeric'}), new Date('x').toLocaleDateString()];",
]


def test_dates_answer_as_node() -> None:
    same, refused, wrong = compare(PROGRAMS)
    assert not wrong, wrong
    assert not refused, refused
    assert len(same) == len(PROGRAMS) >= 30


# -- the generator -----------------------------------------------------------------------------
_METHODS = [
    "getTime()",
    "getFullYear()",
    "getMonth()",
    "getDate()",
    "getDay()",
    "getHours()",
    "getMinutes()",
    "getSeconds()",
    "getMilliseconds()",
    "getUTCDay()",
    "getTimezoneOffset()",
    "toISOString()",
    "toJSON()",
    "toString()",
    "toDateString()",
    "toTimeString()",
    "toUTCString()",
]


def _iso(rng: random.Random) -> str:
    year = rng.choice([rng.randint(1900, 2100), rng.randint(0, 9999), rng.randint(-3000, 0)])
    text = f"{year:04d}" if 0 <= year <= 9999 else f"{'-' if year < 0 else '+'}{abs(year):06d}"
    text += f"-{rng.randint(0, 13):02d}"
    if rng.random() < 0.9:
        text += f"-{rng.randint(0, 32):02d}"
        if rng.random() < 0.6:
            text += rng.choice("T T") + f"{rng.randint(0, 25):02d}:{rng.randint(0, 60):02d}"
            if rng.random() < 0.6:
                text += f":{rng.randint(0, 60):02d}"
                if rng.random() < 0.5:
                    text += "." + str(rng.randint(0, 999999))[: rng.randint(1, 6)]
            text += rng.choice(["", "Z", "+05:30", "-08:00", "+0100", "z"])
    return text


def _parts(rng: random.Random) -> str:
    parts = [rng.randint(-5, 2200), rng.randint(-14, 25), rng.randint(-40, 40)]
    parts += [rng.randint(-30, 30) for _ in range(rng.randint(0, 4))]
    return ", ".join(map(str, parts))


#: the ways a generated program makes a Date
_MAKERS: list[Callable[[random.Random], str]] = [
    lambda rng: f"new Date('{_iso(rng)}')",
    lambda rng: f"new Date({rng.randint(-(10**13), 10**13)})",
    lambda rng: f"new Date({_parts(rng)})",
    lambda rng: (
        f"new Date(Date.UTC({rng.randint(1950, 2050)}, {rng.randint(0, 11)}, {rng.randint(1, 31)}))"
    ),
    lambda rng: "new Date()",
]


def _date(rng: random.Random) -> str:
    return rng.choice(_MAKERS)(rng)


def generated(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        shape = rng.randrange(4)
        if shape == 0:
            out.append(f"return {_date(rng)}.{rng.choice(_METHODS)};")
        elif shape == 1:
            out.append(f"return {_date(rng)} - {_date(rng)};")
        elif shape == 2:
            op = rng.choice(["<", ">=", "===", "!=="])
            out.append(f"return {_date(rng)} {op} {_date(rng)};")
        else:
            out.append(f"return [isNaN({_date(rng)}), JSON.stringify({_date(rng)})];")
    return out


def _counted(what: str, programs: list[str], least: int) -> None:
    """Every program answered as Node does or refused (none wrong), at least ``least`` of
    them answered; the counts printed (``pytest -s``)."""
    same, refused, wrong = compare(programs)
    print(f"{what}: {len(same)} same, {len(refused)} refused, {len(wrong)} wrong")
    assert not wrong, wrong[:5]
    assert len(same) >= least


def test_generated_dates_are_node_or_refused() -> None:
    _counted("dates", generated(7, 400), 300)


_LOCALE_FIELDS: list[tuple[str, list[Any]]] = [
    ("weekday", [None, "long", "short", "narrow"]),
    ("year", [None, "numeric", "2-digit"]),
    ("month", [None, "numeric", "2-digit", "long", "short", "narrow"]),
    ("day", [None, "numeric", "2-digit"]),
    ("hour", [None, "numeric", "2-digit"]),
    ("minute", [None, "numeric", "2-digit"]),
    ("second", [None, "numeric", "2-digit"]),
    ("hour12", [None, True, False]),
]


def locale_programs(seed: int, count: int) -> list[str]:
    """``toLocale*String`` of random instants with random options: the common shapes answer
    as Node's ICU, the irregular ones are refused."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        options = {k: v for k, vs in _LOCALE_FIELDS if (v := rng.choice(vs)) is not None}
        if rng.random() < 0.4:  # (fewer fields: the shapes programs write)
            options = {k: options[k] for k in list(options)[: rng.randint(0, 3)]}
        t = rng.choice([rng.randint(-(10**12), 4 * 10**12), rng.randint(0, 86_400_000)])
        method = rng.choice(["toLocaleString", "toLocaleDateString", "toLocaleTimeString"])
        locale = rng.choice(["'en-US'", "undefined", "'en'"])
        out.append(f"return new Date({t}).{method}({locale}, {json.dumps(options)});")
    return out


def test_locale_texts_are_node_or_refused() -> None:
    _counted("locale", locale_programs(3, 300), 100)


# -- the clock, refusals -----------------------------------------------------------------------
def test_the_runs_clock_is_fixed_by_now() -> None:
    rt = Runtime(load_entry_points=False, now=0)
    out = rt.run("return [Date.now(), new Date().toISOString()];", lang="plan")
    assert out.value == [0, "1970-01-01T00:00:00.000Z"]
    with pytest.raises(ValueError, match="now must be"):
        Runtime(load_entry_points=False, now=1.5)  # type: ignore[arg-type]


def test_the_wall_clock_is_read_once_a_run() -> None:
    out = Runtime(load_entry_points=False).run(
        "const a = Date.now(); const xs = [1, 2, 3].map(x => Date.now() - a); return [a, xs];",
        lang="plan",
    )
    assert out.status == "success"
    assert out.value[0] > 1_700_000_000_000 and out.value[1] == [0, 0, 0]


@pytest.mark.parametrize(
    ("program", "message"),
    [
        ("return new Date('Jan 15, 2024').getTime();", "not a date in ISO 8601 form"),
        ("return new Date('01/15/2024');", "not a date in ISO 8601 form"),
        ("const d = new Date(0); const t = d.setDate(20); return t;", "changes a Date in place"),
        ("return new Date('x').toISOString();", "RangeError"),
        ("return new Date('x').getTime();", "Invalid Date is NaN"),
        ("return new Date('x') - 1;", "Invalid Date is NaN"),
        ("return Date.parse('nope 1');", "not a date in ISO 8601 form"),
        ("return Date.parse('2024-13-01');", "NaN"),
        ("return isNaN((5).getTime());", "getTime() is a method of a Date"),
        ("return Date(0);", "Date"),
        ("return new Date([1]);", "takes a text, a number or a Date"),
        ("return ['2024-01-02', 'x'].sort((a, b) => new Date(a) - new Date(b));", "NaN"),
        ("return new Date(0).toLocaleDateString('de-DE');", "English only"),
        ("return new Date(0).toLocaleString('en-US', {timeZone: 'Asia/Tokyo'});", "'UTC' only"),
        ("return new Date(0).toLocaleString('en-US', {dateStyle: 'tiny'});", "must be one of"),
        ("return new Date(0).toLocaleString('en-US', {year: 'numeric', day: 'numeric'});", "ICU"),
    ],
)
def test_refused_with_what_to_write(program: str, message: str) -> None:
    out = Runtime(load_entry_points=False, now=0).run(program, lang="plan")
    assert out.status == "failure", out.value
    assert out.error is not None and out.error.code != "internal_error"
    assert message in out.error.message
