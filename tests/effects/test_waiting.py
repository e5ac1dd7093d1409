"""Waiting (SPEC 17, "Waiting"): `await new Promise(r => setTimeout(r, ms))`, a program's
`sleep` helper and the built-in `sleep(ms)` really wait, and order what follows: the calls after
a wait start after it ended, the ones before it end before it starts, in loops and functions,
in every notation, on asyncio and trio and from `Runtime.run`. A wait is bounded by the run's
deadline and cut by the run's cancellation.

The order is read from the calls themselves: a status function whose state advances with its
calls counts them and notes when each started, and a wait shows as a gap of at least its delay
between two calls (a lower bound only: no window on how long anything took)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import anyio
import pytest
from backends import run

from dialectic import FunctionDescription, Limits, Runtime
from tests.expressions.program_oracle import runs_as_in_node, runtime

#: the event loops a run may have (None: `Runtime.run`, which gives the program its own)
BACKENDS = [None, "asyncio", "trio"]

POLL = """
const job = await startExport({format: 'csv'});
let st = await getStatus({id: job.id});
while (st.state !== 'done') {
  await new Promise(r => setTimeout(r, 40));
  st = await getStatus({id: job.id});
}
return st.url;
"""


class Job:
    """An export job: done after ``ready`` status calls; notes when each call started."""

    def __init__(self, ready: int = 3) -> None:
        self.ready = ready
        self.events: list[tuple[str, float]] = []
        self.active = 0
        self.most = 0

    def note(self, name: str) -> None:
        self.events.append((name, time.monotonic()))

    def statuses(self) -> list[float]:
        return [t for name, t in self.events if name == "status"]

    def functions(self, use_async: bool) -> list[FunctionDescription]:
        def start_export(format: str) -> dict[str, Any]:
            self.note("start")
            return {"id": "job-1"}

        def status(id: str) -> dict[str, Any]:
            self.note("status")
            n = len(self.statuses())
            done = n >= self.ready
            return {"state": "done" if done else "running", "url": f"https://x/{id}.csv", "n": n}

        async def start_async(format: str) -> dict[str, Any]:
            await anyio.sleep(0)
            return start_export(format)

        async def status_async(id: str) -> dict[str, Any]:
            await anyio.sleep(0)
            return status(id)

        async def slow(id: str) -> str:
            self.active += 1
            self.most = max(self.most, self.active)
            await anyio.sleep(0.02)
            self.active -= 1
            return id

        return [
            FunctionDescription(
                "startExport",
                "Start an export.",
                start_async if use_async else start_export,
                {"format": "string"},
                "object",
            ),
            FunctionDescription(
                "getStatus",
                "A job's state.",
                status_async if use_async else status,
                {"id": "string"},
                "object",
            ),
            FunctionDescription("slow", "Echo, slowly.", slow, {"id": "string"}, "string"),
        ]


def make(use_async: bool = True, ready: int = 3, **options: Any) -> tuple[Runtime, Job]:
    job = Job(ready)
    rt = Runtime(load_entry_points=False, **options)
    rt.register(*job.functions(use_async))
    return rt, job


def gaps(times: list[float]) -> list[float]:
    return [b - a for a, b in zip(times, times[1:], strict=False)]


@pytest.mark.parametrize("use_async", [True, False], ids=["async", "sync"])
@pytest.mark.parametrize("backend", BACKENDS, ids=["run", "asyncio", "trio"])
def test_a_polling_loop_waits_between_polls(backend: str | None, use_async: bool) -> None:
    rt, job = make(use_async)
    out = run(rt, backend, POLL, lang="plan")
    assert out.status == "success", out.message
    assert out.value == "https://x/job-1.csv"
    assert [name for name, _ in job.events] == ["start", "status", "status", "status"]
    # each poll after a wait starts at least the wait later (asyncio may wake up to a clock tick
    # early: 35 of the 40 ms)
    assert all(g >= 0.035 for g in gaps(job.statuses())), gaps(job.statuses())


HELPERS = [
    "const sleep = ms => new Promise(r => setTimeout(r, ms));",
    "const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));",
    "function sleep(ms) { return new Promise(res => setTimeout(() => res(), ms)); }",
    "const sleep = ms => new Promise(resolve => { setTimeout(resolve, ms); });",
    "const sleep = ms => new Promise(function (r) { setTimeout(r, ms); });",
    "",  # the built-in `sleep`
]


@pytest.mark.parametrize("helper", HELPERS)
def test_a_program_sleep_helper_in_a_do_while(helper: str) -> None:
    rt, job = make(ready=2)
    program = f"""{helper}
    let st;
    do {{
      st = await getStatus({{id: 'a'}});
      if (st.state !== 'done') await sleep(30);
    }} while (st.state !== 'done');
    return st.n;
    """
    out = rt.run(program, lang="plan")
    assert out.status == "success", out.message
    assert out.value == 2
    assert len(job.statuses()) == 2 and gaps(job.statuses())[0] >= 0.025


def test_calls_before_a_wait_end_before_it_and_calls_after_start_after() -> None:
    rt, job = make(ready=99)
    program = """
    const first = getStatus({id: 'a'});
    await new Promise(r => setTimeout(r, 30));
    const second = getStatus({id: 'b'});
    return second.n;
    """
    out = rt.run(program, lang="plan")
    # `first` is read by nothing, but it comes before the wait: it ran, as in JavaScript
    assert (out.status, out.value) == ("success", 2), out.message
    assert gaps(job.statuses())[0] >= 0.025


def test_a_wait_in_a_function_and_a_for_loop() -> None:
    rt, job = make(ready=99)
    program = """
    const pause = ms => new Promise(r => setTimeout(r, ms));
    async function check(id) { await pause(30); const s = await getStatus({id}); return s.n; }
    const seen = [];
    for (const id of ['a', 'b']) { seen.push(await check(id)); }
    return seen;
    """
    t0 = time.monotonic()
    out = rt.run(program, lang="plan")
    assert (out.status, out.value) == ("success", [1, 2]), out.message
    times = job.statuses()
    assert times[0] - t0 >= 0.025 and gaps(times)[0] >= 0.025


@pytest.mark.parametrize("backend", BACKENDS, ids=["run", "asyncio", "trio"])
def test_plan2_and_dialect_json_wait_in_document_order(backend: str | None) -> None:
    rt, job = make(ready=99)
    plan2 = (
        "first: {getStatus: {id: a}}\nwait: {sleep: {ms: 30}}\nsecond: {getStatus: {id: b}}\n"
        "result: ${second.n}\n"
    )
    out = run(rt, backend, plan2, lang="plan2")
    assert (out.status, out.value) == ("success", 2), out.message
    assert gaps(job.statuses())[0] >= 0.025
    rt, job = make(ready=99)
    dialect = {
        "$do": [{"getStatus": {"id": "a"}}, {"sleep": {"ms": 30}}, {"getStatus": {"id": "b"}}],
        "$return": 1,
    }
    out = run(rt, backend, dialect)
    assert (out.status, out.value) == ("success", 1), out.message
    assert len(job.statuses()) == 2 and gaps(job.statuses())[0] >= 0.025


def test_calls_that_do_not_touch_a_wait_stay_concurrent() -> None:
    rt, job = make()
    program = """
    await new Promise(r => setTimeout(r, 1));
    const all = await Promise.all(['a', 'b', 'c'].map(id => slow({id})));
    return all;
    """
    out = rt.run(program, lang="plan")
    assert (out.status, out.value) == ("success", ["a", "b", "c"]), out.message
    assert job.most == 3  # the fan-out after the wait: the three calls at once


@pytest.mark.parametrize("backend", BACKENDS, ids=["run", "asyncio", "trio"])
def test_a_wait_longer_than_the_time_left_fails_at_once(backend: str | None) -> None:
    rt, job = make(limits=Limits(deadline=5))
    t0 = time.monotonic()
    out = run(
        rt, backend, "await getStatus({id: 'a'});\nawait sleep(60000);\nreturn 1;", lang="plan"
    )
    assert out.status == "failure" and out.error is not None
    assert out.error.code == "limit_exceeded" and out.error.details["limit"] == "deadline"
    assert "the wait of 60000 ms would end after the run's deadline" in (out.message or "")
    assert "line 2, column 7" in (out.message or "")
    assert time.monotonic() - t0 < 30  # (it did not wait the minute)
    assert len(job.statuses()) == 1


@pytest.mark.parametrize("backend", BACKENDS, ids=["run", "asyncio", "trio"])
def test_the_deadline_ends_a_loop_that_waits_forever(backend: str | None) -> None:
    rt, job = make(ready=10**9, limits=Limits(deadline=0.3))
    out = run(rt, backend, POLL, lang="plan")
    assert out.status == "failure" and out.error is not None
    assert out.error.code == "limit_exceeded" and out.error.details["limit"] == "deadline"
    assert 2 <= len(job.statuses()) <= 9  # about 0.3 s / 40 ms polls, then no more


def test_a_run_cancelled_during_a_wait_ends_and_leaves_no_timer() -> None:
    rt, job = make()
    prepared = rt.prepare("await sleep(60000);\nreturn await getStatus({id: 'a'});", lang="plan")

    async def main() -> tuple[bool, list[Any]]:
        loop = asyncio.get_running_loop()
        task = asyncio.ensure_future(prepared.run_async())
        await asyncio.sleep(0.05)
        task.cancel()
        cancelled = False
        try:
            await task
        except asyncio.CancelledError:
            cancelled = True
        await asyncio.sleep(0)
        live = [h for h in loop._scheduled if not h.cancelled()]  # type: ignore[attr-defined]
        return cancelled, live

    t0 = time.monotonic()
    cancelled, live = asyncio.run(main())
    assert cancelled and live == []  # the wait's timer and the run's deadline are gone
    assert time.monotonic() - t0 < 30 and job.statuses() == []


def test_a_run_cancelled_during_a_wait_on_trio() -> None:
    rt, job = make()
    prepared = rt.prepare("await sleep(60000);\nreturn await getStatus({id: 'a'});", lang="plan")

    async def main() -> bool:
        with anyio.move_on_after(0.05) as scope:
            await prepared.run_async()
        return scope.cancelled_caught

    t0 = time.monotonic()
    assert anyio.run(main, backend="trio")
    assert time.monotonic() - t0 < 30 and job.statuses() == []


def test_the_preview_leaves_waits_out() -> None:
    rt, _ = make()
    rt.register(
        FunctionDescription("send", "Send.", lambda text: None, {"text": "string"}, effects="write")
    )
    shown = rt.preview(
        "await sleep(10);\nawait send({text: 'hi'});\nawait sleep(10);\nreturn 1;", lang="plan"
    )
    assert [c["function"] for c in shown.to_json()] == ["send"]


def test_a_program_that_does_not_wait_pays_nothing() -> None:
    rt, _ = make()
    prepared = rt.prepare("const s = getStatus({id: 'a'});\nreturn s.n;", lang="plan")
    assert prepared.resolved is not None and prepared.resolved.effects is None


@pytest.mark.parametrize(
    ("program", "where"),
    [
        ("const p = new Promise((a, b) => a(1));\nreturn 1;", "line 1, column 33"),
        ("await new Promise(r => setTimeout(x, 5));\nreturn 1;", "line 1, column 35"),
        ("await new Promise(r => { f(); setTimeout(r, 5); });\nreturn 1;", "line 1, column 26"),
    ],
)
def test_any_other_new_promise_is_refused_with_what_to_write(program: str, where: str) -> None:
    out = Runtime(load_entry_points=False).run(program, lang="plan")
    assert out.status == "failure" and out.error is not None
    assert out.error.code == "syntax_error"
    message = out.message or ""
    assert "read only as a wait" in message and where in message
    assert "await new Promise(r => setTimeout(r, 500));" in (out.error.hint or "")


def test_answers_are_nodes() -> None:
    runs_as_in_node(
        [
            "await new Promise(r => setTimeout(r, 5)); return 1;",
            "const a = await later(3); await new Promise(r => setTimeout(r, 5));"
            " const b = await later(a + 1); return [a, b];",
            "const sleep = ms => new Promise(r => setTimeout(r, ms)); let i = 0; const seen = [];"
            " while (i < 3) { await sleep(2); seen.push(await later(i)); i++; } return seen;",
            "function wait(ms) { return new Promise(resolve => setTimeout(resolve, ms)); }"
            " const out = []; for (const x of nums) { out.push(await echo(x * 2)); await wait(1); }"
            " return out;",
            "const r = await new Promise(res => setTimeout(() => res(), 3));"
            " return [r === undefined, typeof r];",
            "const x = [await later(1), await new Promise(r => setTimeout(r, 2)), await later(2)];"
            " return x;",
            "await new Promise((resolve) => { setTimeout(resolve, -5); }); return 'negative';",
            "await new Promise(r => setTimeout(r)); return 'no delay';",
            "await new Promise(function (resolve) { setTimeout(function () { resolve(); }, 2); });"
            " return 'function';",
            "await new Promise((resolve, reject) => setTimeout(resolve, '3')); return 'text';",
            "const p = new Promise(r => setTimeout(r, 2)).then(() => 7); return await p;",
            "let tries = 0; let ok = false; do { tries++; ok = await later(tries >= 2);"
            " if (!ok) await new Promise(r => setTimeout(r, 2)); } while (!ok); return tries;",
            "if (flag) { await new Promise(r => setTimeout(r, 2)); } return await later('after');",
            # a wait in a `try` block orders the calls around it: the failure caught is the first
            "let v; try { await fail('first'); await new Promise(r => setTimeout(r, 2));"
            " v = await fail('second'); } catch (e) { v = e.message.includes('first'); } return v;",
            "let v; try { await new Promise(r => setTimeout(r, 2)); v = await later(5); }"
            " catch (e) { v = -1; } return v;",
            # a wait as a statement of an arrow function's body, in each element
            "const xs = await Promise.all(nums.map(async n => {"
            " await new Promise(r => setTimeout(r, 1)); return later(n); })); return xs;",
        ],
        runtime(),
    )
