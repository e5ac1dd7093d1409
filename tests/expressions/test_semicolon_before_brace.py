"""A statement ends before a block's `}` without `;` in every mode, strict too (SPEC 10,
"Strict and lenient modes"): JavaScript inserts the semicolon there always. Each program runs
strictly (:func:`.program_oracle.check`) and gives Node's answer."""

from __future__ import annotations

import pytest

from dialectic.frontends.base import SourceError
from dialectic.frontends.plan import parse_plan

from .program_oracle import check, runtime

PROGRAMS = [
    "function f(x) { const u = x + 1; return u }\nreturn f(2);",
    "function f(x) { if (x > 1) { return 'big' } return 'small' }\nreturn [f(n), f(0)];",
    "const g = (a) => { const b = a * 2; return b };\nreturn g(3);",
    "const out = [];\nif (flag) { out.push(1) }\nreturn out;",
    "let total = 0;\nfor (const x of nums) { total += x }\nreturn total;",
    "let k = 0;\nwhile (k < 3) { k++ }\nreturn k;",
    "let k = 0;\ndo { k += 2 } while (k < 5);\nreturn k;",
    "const out = [];\nfor (const x of nums) { if (x > 5) { break } out.push(x) }\nreturn out;",
    "const out = [];\nfor (const x of nums) { if (x < 1) { continue } out.push(x) }\nreturn out;",
    "let r = 0;\ntry { r = await echo(1) } catch (e) { r = 2 }\nreturn r;",
    "let r = '';\nswitch (n) { case 7: r = 'seven'; break; default: r = 'other' }\nreturn r;",
    "function f(x) { if (!x) { throw new Error('no') } return x }\n"
    "try { return f(0); } catch (e) { return e.message; }",
    "const xs = nums.map(x => { const y = x * 2; return y + 1 });\nreturn xs;",
    "let t = 'a';\nif (n > 1) { t += 'b'; t = t + 'c' } else { t = 'd' }\nreturn t;",
]


def test_a_statement_before_a_closing_brace_needs_no_semicolon() -> None:
    verdicts = check(PROGRAMS, runtime())
    assert [(v.kind, v.detail) for v in verdicts] == [("same", "")] * len(PROGRAMS)


@pytest.mark.parametrize(
    "text",
    [
        "function f(x) { const u = x + 1 return u }\nreturn f(2);",
        "const a = 1 const b = 2;\nreturn a;",
    ],
)
def test_two_statements_on_a_line_still_need_one(text: str) -> None:
    with pytest.raises(SourceError) as caught:
        parse_plan(text, strict=True)
    assert "`;`" in str(caught.value)
