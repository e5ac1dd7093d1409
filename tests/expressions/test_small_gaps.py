"""Small forms models write that were refused in strict mode or worded badly (SPEC 10): each
program runs to Node's value in both modes (checked against Node itself) or is refused with a
clear message; never another answer."""

from __future__ import annotations

from dialectic import Runtime

from .program_generator import CONTEXT
from .program_oracle import node_answers, runtime, same

RT: Runtime = runtime()


def _as_in_node_in_both_modes(texts: list[str]) -> None:
    for text, answer in zip(texts, node_answers(texts), strict=True):
        assert "ok" in answer, (text, answer)
        for strict in (True, False):
            out = RT.run(text, lang="plan", context=CONTEXT, strict=strict)
            assert out.status == "success", (text, strict, out.message)
            assert same(out.value, answer["ok"]) is None, (text, strict, out.value, answer)


def _refused(text: str, strict: bool = True) -> str:
    out = RT.run(text, lang="plan", context=CONTEXT, strict=strict)
    assert out.status == "failure" and out.error is not None, (text, out.value)
    assert out.error.code != "internal_error", out.message
    message = out.message or ""
    assert "Traceback" not in message
    return message


# -- several declarators in a block ------------------------------------------------------------

SEVERAL_DECLARATORS = [
    "let total = 0;\nfor (const x of nums) { let i = 0, j = 1; total += x * i + j; }\n"
    "return total;",
    "const out = [];\nfor (const x of nums) { let a = x, b = a * 2; out.push(a + b); }\n"
    "return out;",
    "const out = [];\nfor (const x of nums) { const a = x, b = 1 }\nreturn out;",
    "let t = 0;\nif (flag) { let a = 1, b = 2; t = a + b; }\nreturn t;",
    "let k = 0;\nlet acc = 0;\nwhile (k < 3) { let a = k, b = 2; acc += a * b; k++; }\nreturn acc;",
    "let acc = 0;\nfor (let k = 0; k < 3; k++) { let a = k, b = 2; acc += a * b; }\nreturn acc;",
    "let acc = 0;\nfor (const x of nums) { let [a, b] = [x, 1], c = 3; acc += a * b + c; }\n"
    "return acc;",
    "const out = [];\nfor (const p of people) { const {name} = p, n = name.length; out.push(n); }"
    "\nreturn out;",
    "let acc = 0;\nnums.forEach(x => { let a = x, b = 2; acc += a * b; });\nreturn acc;",
    "let best = 0;\nfor (const x of nums) { let lo = 0, hi = x; while (lo < hi) { lo++; } "
    "best += lo; }\nreturn best;",
    "const out = [];\nfor (const x of nums) { let a = x, b; if (a > 4) { b = 1; } else { b = 2; }"
    " out.push([a, b]); }\nreturn out;",
    "let a = 1, b;\nif (flag) { b = 1; } else { b = 2; }\nreturn [a, b];",
]


def test_several_declarators_in_a_block_run_as_in_node_in_both_modes() -> None:
    _as_in_node_in_both_modes(SEVERAL_DECLARATORS)


def test_a_declarator_read_before_its_declaration_is_refused() -> None:
    text = "const out = [];\nfor (const x of nums) { const a = x, x = 2; out.push(a); }\nreturn 1;"
    assert "read before its declaration" in _refused(text)
