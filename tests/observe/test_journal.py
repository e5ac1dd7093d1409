"""Journals (SPEC 18): running a program again replays what completed and repeats nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dialectic import Runtime
from dialectic.run.approval import Approval, ApprovalRequest
from dialectic.run.journal import MemoryJournal, SqliteJournal

from .conftest import Tools, by_path, make_runtime

# a write, then a slow read (cut short by the deadline), then a write that needs it
RESUMABLE = (
    "b = book({city: 'Oslo'}); s = lookup({key: b.ref}); c = book({city: s});"
    " return [b.ref, c.ref];"
)


def test_resume_after_a_deadline_repeats_no_completed_call(tools: Tools) -> None:
    journal = MemoryJournal()
    tools.slow = True
    first = make_runtime(tools, limits={"deadline": 0.3}).run(
        RESUMABLE, lang="plan", journal=journal
    )
    assert first.status == "failure" and first.error is not None
    assert first.error.details.get("limit") == "deadline"
    assert [(c["function"], c["status"]) for c in first.calls] == [
        ("book", "done"),
        ("lookup", "in_flight"),
        ("book", "not_started"),
    ]
    assert tools.calls == {"book": 1, "lookup": 1}

    tools.slow = False
    again = make_runtime(tools).run(RESUMABLE, lang="plan", journal=journal)
    assert again.status == "success", again.message
    assert again.value == ["B-Oslo-1", "B-b-oslo-1-1"]
    calls = by_path(again.calls)
    assert calls["program.$let.b"]["replayed"] is True
    assert calls["program.$let.s"]["status"] == "done"  # a read in flight simply runs again
    assert "replayed" not in calls["program.$let.c"]
    # each booking happened exactly once over both runs
    assert tools.calls == {"book": 2, "lookup": 2}

    third = make_runtime(tools).run(RESUMABLE, lang="plan", journal=journal)
    assert third.value == again.value
    assert all(c.get("replayed") for c in third.calls)
    assert tools.calls == {"book": 2, "lookup": 2}


def test_an_effectful_call_in_flight_is_not_repeated_silently(tools: Tools) -> None:
    journal = MemoryJournal()
    program = "r = reserve({key: 'seat'}); return book({city: r});"
    tools.slow = True
    first = make_runtime(tools, limits={"deadline": 0.3}).run(program, lang="plan", journal=journal)
    assert [c["status"] for c in first.calls] == ["in_flight", "not_started"]
    tools.slow = False
    again = make_runtime(tools).run(program, lang="plan", journal=journal)
    assert again.status == "failure" and again.error is not None
    assert again.error.code == "in_flight"
    assert again.error.path == "program.$let.r"
    assert "may have taken effect" in (again.message or "")
    assert "idempotent" in (again.error.hint or "")
    assert tools.calls == {"reserve": 1}  # not called again
    assert [c["status"] for c in again.calls] == ["not_started", "not_started"]

    # the approver may allow the repeat; the request names the call
    asked: list[ApprovalRequest] = []

    def approve(request: ApprovalRequest) -> Approval:
        asked.append(request)
        return Approval.ALLOW

    allowed = make_runtime(tools).run(program, lang="plan", journal=journal, approve=approve)
    assert allowed.status == "success", allowed.message
    assert [r.function for r in asked].count("reserve") == 1  # asked once, not twice
    assert tools.calls == {"reserve": 2, "book": 1}


def test_the_approver_is_not_asked_about_a_call_the_journal_replays(tools: Tools) -> None:
    journal = MemoryJournal()
    program = "r = reserve({key: 'seat'}); return book({city: r});"
    asked: list[str] = []

    def approve(request: ApprovalRequest) -> Approval:
        asked.append(request.function)
        return Approval.ALLOW

    first = make_runtime(tools).run(program, lang="plan", journal=journal, approve=approve)
    assert first.status == "success", first.message
    assert asked == ["reserve", "book"]
    again = make_runtime(tools).run(program, lang="plan", journal=journal, approve=approve)
    assert again.value == first.value
    assert all(c.get("replayed") for c in again.calls)
    assert asked == ["reserve", "book"]  # nothing runs, so nothing is asked
    assert tools.calls == {"reserve": 1, "book": 1}


def test_the_approver_may_refuse_the_repeat(tools: Tools) -> None:
    journal = MemoryJournal()
    program = "return reserve({key: 'seat'});"
    tools.slow = True
    make_runtime(tools, limits={"deadline": 0.3}).run(program, lang="plan", journal=journal)
    tools.slow = False

    def approve(request: ApprovalRequest) -> Approval:
        return Approval.deny("not twice")

    out = make_runtime(tools).run(program, lang="plan", journal=journal, approve=approve)
    assert out.status == "failure" and out.error is not None
    assert out.error.code in ("in_flight", "denied")
    assert "not twice" in (out.message or "")
    assert tools.calls == {"reserve": 1}


def test_an_idempotent_call_in_flight_runs_again(tools: Tools) -> None:
    journal = MemoryJournal()
    program = "return reserveAgain({key: 'seat'});"
    tools.slow = True
    make_runtime(tools, limits={"deadline": 0.3}).run(program, lang="plan", journal=journal)
    tools.slow = False
    out = make_runtime(tools).run(program, lang="plan", journal=journal)
    assert out.value == "R-seat"
    assert tools.calls == {"reserve": 2}


def test_a_failed_call_runs_again_and_other_arguments_are_other_calls(tools: Tools) -> None:
    journal = MemoryJournal()
    rt = make_runtime(tools)
    program = "b = book({city: city}); return fail({reason: b.ref});"
    out = rt.run(program, lang="plan", journal=journal, context={"city": "Rome"})
    assert out.status == "failure"
    rt.run(program, lang="plan", journal=journal, context={"city": "Rome"})
    assert tools.calls == {"book": 1, "fail": 2}
    rt.run(program, lang="plan", journal=journal, context={"city": "Pisa"})
    assert tools.calls == {"book": 2, "fail": 3}


def test_sqlite_journal_resumes_in_a_new_runtime_and_notation(tools: Tools, tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    plan = "a = book({city: 'Oslo'}); return [a.ref, fetch({key: a.city}).value];"
    journal = SqliteJournal(path)
    out = make_runtime(tools).run(plan, lang="plan", journal=journal)
    assert out.value == ["B-Oslo-1", 4]
    journal.close()

    # another process would open the same file; the same program written as Dialect JSON
    reopened = SqliteJournal(path)
    assert len(reopened) == 2
    fresh = Tools()
    program: Any = {
        "$let": {"a": {"book": {"city": "Oslo"}}},
        "$return": [
            {"$get": [{"$ref": "a"}, "ref"]},
            {"$get": [{"fetch": {"key": {"$get": [{"$ref": "a"}, "city"]}}}, "value"]},
        ],
    }
    again = make_runtime(fresh).run(json.dumps(program), lang="json", journal=reopened)
    assert again.value == ["B-Oslo-1", 4]
    assert dict(fresh.calls) == {}
    assert all(c.get("replayed") for c in again.calls)
    reopened.close()


def test_a_result_that_is_not_json_counts_as_in_flight(tmp_path: Path) -> None:
    journal = SqliteJournal(tmp_path / "j.sqlite")
    key = ("p", '[["a"],[]]', "{}")
    journal.started(key, "f")
    assert journal.get(key) == ("in_flight", None)
    journal.done(key, "f", object())
    assert journal.get(key) == ("in_flight", None)
    journal.done(key, "f", {"ok": [1, 2]})
    assert journal.get(key) == ("done", {"ok": [1, 2]})
    journal.failed(key)
    assert journal.get(key) is None
    journal.close()


def test_a_broken_journal_fails_the_run_clearly(tools: Tools, tmp_path: Path) -> None:
    journal = SqliteJournal(tmp_path / "j.sqlite")
    journal.close()  # every operation now raises
    out = make_runtime(tools).run("return book({city: 'Oslo'});", lang="plan", journal=journal)
    assert out.status == "failure" and out.error is not None
    assert out.error.code == "journal_error"
    assert out.error.path == "program.$return"
    assert tools.calls == {}


def test_runtime_wide_journal(tools: Tools) -> None:
    journal = MemoryJournal()
    rt = Runtime(load_entry_points=False, journal=journal)
    rt.register(*tools.functions())
    rt.run("return book({city: 'Oslo'});", lang="plan")
    rt.run("return book({city: 'Oslo'});", lang="plan")
    assert tools.calls == {"book": 1}
    assert len(journal) == 1


@pytest.mark.parametrize("lang", ["plan"])
def test_map_applications_are_journaled_one_by_one(tools: Tools, lang: str) -> None:
    journal = MemoryJournal()
    rt = make_runtime(tools)
    program = "return ['a', 'b', 'c'].map((c) => book({city: c}).ref);"
    assert rt.run(program, lang=lang, journal=journal).value == ["B-a-1", "B-b-1", "B-c-1"]
    assert len(journal) == 3
    assert rt.run(program, lang=lang, journal=journal).value == ["B-a-1", "B-b-1", "B-c-1"]
    assert tools.calls == {"book": 3}


def test_deep_calls_in_arrow_functions_keep_distinct_entries(tools: Tools) -> None:
    # the displayed path is abbreviated past 16 segments; the journal's key never is
    journal = MemoryJournal()
    deep = "[" * 12 + "['a', 'b'].map((c) => book({city: c}).ref)" + "]" * 12
    rt = make_runtime(tools)
    first = rt.run(f"return {deep};", lang="plan", journal=journal)
    assert first.status == "success", first.message
    again = rt.run(f"return {deep};", lang="plan", journal=journal)
    assert json.dumps(again.value).count("B-a-1") == 1
    assert json.dumps(again.value).count("B-b-1") == 1
    assert tools.calls == {"book": 2}
    assert len(journal) == 2


def test_resume_on_trio(tools: Tools) -> None:
    import anyio

    from dialectic import FunctionDescription

    slow = {"on": True}

    async def nap(key: str) -> str:
        tools.calls["nap"] += 1
        await anyio.sleep(3600 if slow["on"] else 0)
        return key.upper()

    def make(deadline: float) -> Runtime:
        rt = make_runtime(tools, limits={"deadline": deadline})
        rt.register(FunctionDescription("nap", "sleeps", nap, {"key": "string"}, "string"))
        return rt

    journal = MemoryJournal()
    program = "b = book({city: 'Oslo'}); n = nap({key: b.ref}); return [b.ref, n];"

    async def run(rt: Runtime) -> Any:
        return await rt.run_async(program, lang="plan", journal=journal)

    first = anyio.run(run, make(0.3), backend="trio")
    assert [c["status"] for c in first.calls] == ["done", "in_flight"]
    slow["on"] = False
    again = anyio.run(run, make(5), backend="trio")
    assert again.value == ["B-Oslo-1", "B-OSLO-1"]
    assert tools.calls == {"book": 1, "nap": 2}


def test_jsonl_journal_resumes_from_its_file(tools: Tools, tmp_path: Path) -> None:
    from dialectic.run.journal import JsonlJournal

    path = tmp_path / "journal.jsonl"
    program = "a = book({city: 'Oslo'}); return [a.ref, fail({reason: a.city})];"
    journal = JsonlJournal(path)
    out = make_runtime(tools).run(program, lang="plan", journal=journal)
    assert out.status == "failure"
    journal.close()
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert [(row["function"], row["status"]) for row in lines] == [
        ("book", "in_flight"),
        ("book", "done"),
        ("fail", "in_flight"),
        ("", "failed"),
    ]
    with path.open("a", encoding="utf-8") as f:
        f.write('{"torn": ')  # a crash in the middle of a line
    reopened = JsonlJournal(path)
    assert len(reopened) == 1
    again = make_runtime(tools).run(program, lang="plan", journal=reopened)
    assert again.status == "failure"
    assert tools.calls == {"book": 1, "fail": 2}
    reopened.close()
    after_torn = path.read_text(encoding="utf-8").split('{"torn": \n')[1].splitlines()
    assert [json.loads(line)["status"] for line in after_torn] == ["in_flight", "failed"]
