"""A third corpus of programs as models write them in code mode when given a tool catalog
(model_agents.js: Object.entries and fromEntries, Map and Set and their iteration,
Array.from, reduce into objects, flatMap, at, structuredClone, numbers and text formatting,
regular expressions, dates; retries, pagination, early returns, guards; Promise.all over
map, batches, allSettled; JSON.stringify and reports), run by Node.js and by dialectic with
the tools of model_tools.py: every one gives Node's value or fails clearly at its place with
a hint, never another value and never a crash, and as many as before give Node's value; and
the gaps it showed, each against Node."""

from __future__ import annotations

from pathlib import Path

import pytest

from .corpus_checks import (
    check_floor,
    check_named_once,
    check_never_wrong,
    check_refusals,
    run_both,
)
from .model_tools import Verdict, runtime, verdicts

CORPUS = Path(__file__).with_name("model_agents.js")
#: the programs that gave Node's value when this was last raised (a regression lowers it)
SAME_AT_LEAST = 196


@pytest.fixture(scope="module")
def tally() -> list[Verdict]:
    return verdicts(CORPUS)


def test_the_corpus_is_big_and_named_once() -> None:
    check_named_once(CORPUS, 200)


def test_no_program_gives_another_value_than_node_or_crashes(tally: list[Verdict]) -> None:
    check_never_wrong(tally)


def test_as_many_give_nodes_value_as_before(tally: list[Verdict]) -> None:
    check_floor(tally, SAME_AT_LEAST)


def test_each_refusal_says_where_and_what_to_write(tally: list[Verdict]) -> None:
    check_refusals(tally)


def test_a_value_json_parse_made_may_be_changed_in_place() -> None:
    texts = [
        "const parsed = JSON.parse(await read_file('/data/config.json'));\n"
        "parsed.retries += 2;\nparsed.features.push('x');\nreturn parsed;",
        "const r = await fetch_url('https://api.example.com/version');\n"
        "const data = JSON.parse(r.body);\ndata.minor = data.minor + 1;\nreturn data;",
        "const cfg = JSON.parse(await read_file('/data/config.json'));\n"
        "cfg.endpoints.api = 'x';\ncfg.retries = 0;\ndelete cfg.debug;\nreturn cfg;",
        "const s = JSON.stringify({n: 1});\nconst o = JSON.parse(s);\no.n++;\no.m = o.n * 2;\n"
        "return [s, o];",
        "const d = JSON.parse('{\"a\": 1}');\nconst e = {...d};\nd.a = 2;\nreturn [d, e];",
        "const o = JSON.parse('{\"a\": 1}');\nconst f = () => o.a;\no.a = 2;\nreturn f();",
        # an array JSON.parse or structuredClone made: its methods change it
        "const a = JSON.parse('[3, 1, 2]');\na.push(4);\na.sort();\nreturn a;",
        "const a = JSON.parse('[1, 2]');\na[0] = 9;\na.length = 1;\nreturn a;",
        "const a = structuredClone([1, 2]);\na.push(3);\na.reverse();\nreturn a;",
        "const src = [1, 2];\nconst a = JSON.parse(JSON.stringify(src));\na.push(3);\n"
        "return [src, a];",
        "const cfg = JSON.parse(await read_file('/data/config.json'));\n"
        "cfg.features.push('audit');\ncfg.debug = !cfg.debug;\n"
        "return JSON.stringify(cfg, null, 2);",
    ]
    assert [v.kind for v in run_both(texts)] == ["same"] * len(texts)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # another name holds the same object: JavaScript changes it there too
        (
            "const a = JSON.parse('{\"x\": 1}');\nconst b = a;\nb.x = 2;\nreturn [a, b];",
            "is not one the program made here",
        ),
        (
            "const a = JSON.parse('{\"x\": 1}');\nconst keep = [a];\na.x = 2;\nreturn keep;",
            "is read whole before this change",
        ),
        (
            'const a = JSON.parse(\'{"x": {"y": 1}}\');\nconst inner = a.x;\na.x.y = 5;\n'
            "return [inner, a];",
            "is read before `a.x.y` changes a part of it",
        ),
        (
            "const a = JSON.parse('[3, 1, 2]');\nconst b = a;\na.push(4);\nreturn b;",
            "is read before the statement changes it",
        ),
        # a reviver may return any value, one held elsewhere among them (refused as such)
        (
            "const o = JSON.parse('{\"k\": 1}', (k, v) => v);\no.k = 3;\nreturn o;",
            "JSON.parse takes no reviver function",
        ),
    ],
)
def test_a_parsed_value_held_elsewhere_stays_refused(text: str, message: str) -> None:
    out = runtime().run(text, lang="plan")
    assert out.status == "failure", out.value
    assert message in (out.message or ""), out.message


def test_a_try_block_may_end_with_a_step_of_a_member() -> None:
    texts = [
        "const stats = { ok: 0, failed: 0 };\nfor (const id of [1, 5, 2, 6]) {\n  try {\n"
        "    await get_user(id);\n    stats.ok++;\n  } catch {\n    stats.failed++;\n  }\n}\n"
        "return stats;",
        "const stats = { ok: 0, failed: 0 };\nfor (const id of [1, 5]) {\n  try {\n"
        "    await get_user(id);\n    stats.ok += 1;\n  } catch (e) {\n"
        "    stats.failed += 1;\n  }\n}\nreturn stats;",
        "const counts = { admin: 0, engineer: 0, support: 0 };\nconst role = 'engineer';\n"
        "for (const id of [1, 2, 3, 9]) {\n  try {\n    const u = await get_user(id);\n"
        "    counts[role] += u.age;\n  } catch (e) {\n    counts.support--;\n  }\n}\n"
        "return counts;",
        "const totals = { age: 0 };\nlet n = 0;\nfor (const id of [1, 2, 9]) {\n  try {\n"
        "    const u = await get_user(id);\n    totals.age += u.age;\n    n++;\n"
        "  } catch (e) {\n    n--;\n  }\n}\nreturn [totals, n];",
        "const stats = { ok: 0 };\ntry {\n  await get_user(1);\n  stats.ok++;\n} catch {}\n"
        "return stats;",
        "const stats = { ok: 0, names: '' };\nfor (const id of [1, 9, 2]) {\n  try {\n"
        "    const u = await get_user(id);\n    stats.names += u.name[0];\n  } catch (e) {\n"
        "    stats.names += '?';\n  }\n}\nreturn stats;",
        "const m = { a: 1 };\nfor (const x of [1, 2]) {\n  try {\n    const k = 'a';\n"
        "    m[k]++;\n  } catch {}\n}\nreturn m;",
    ]
    assert [v.kind for v in run_both(texts)] == ["same"] * len(texts)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # the change is made before the call that may fail: JavaScript keeps it
        (
            "const stats = { ok: 0 };\ntry {\n  stats.ok++;\n  await get_user(9);\n} catch {}\n"
            "return stats;",
            "then one change",
        ),
        # the key reads what the block declares: it cannot run after the block
        (
            "const byRole = {};\nfor (const id of [1, 9]) {\n  try {\n"
            "    const u = await get_user(id);\n    byRole[u.role]++;\n  } catch (e) {}\n}\n"
            "return byRole;",
            "the key of this change reads what the block declares",
        ),
    ],
)
def test_other_steps_of_members_in_a_try_stay_refused(text: str, message: str) -> None:
    out = runtime().run(text, lang="plan")
    assert out.status == "failure", out.value
    assert message in (out.message or ""), out.message
