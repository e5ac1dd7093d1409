"""Whole programs as code-mode prompts make models write them: a function body with loops,
`try`/`catch`, `console.log`, destructuring with defaults, `new Set`, a `reduce` that changes its
accumulator, `JSON.stringify(v, null, 2)`. Each gives Node's answer (SPEC 10)."""

from __future__ import annotations

from dialectic import Runtime

from .program_generator import CONTEXT
from .program_oracle import node_answers, runs_as_in_node, runtime

RT: Runtime = runtime()

PROGRAMS = [
    """return (async () => {
  const out = [];
  let total = 0;
  for (const {name, age = 1} of people) {
    try {
      const up = await echo(name.toUpperCase());
      console.log(up);
      out.push(up);
    } catch (e) {
      out.push(null);
    }
    total += age;
  }
  const counts = out.reduce((acc, n) => { acc[n] = (acc[n] || 0) + 1; return acc; }, {});
  return {out, total, counts};
})();""",
    """async function main() {
  const tags = [...new Set(people.flatMap(p => p.tags))];
  const byTag = {};
  for (const t of tags) {
    byTag[t] = people.filter(p => p.tags.includes(t)).map(p => p.name);
  }
  console.log(JSON.stringify(byTag, null, 2));
  return JSON.stringify({tags, byTag}, null, 2);
}
return main();""",
    """const results = [];
for (const w of words) {
  if (w.length === 0) continue;
  const n = await later(w.length);
  if (n > 5) {
    results.push({w, long: true});
  } else {
    results.push({w, long: false});
  }
}
const {long = [], short = []} = {long: results.filter(r => r.long).map(r => r.w)};
return {long, short, count: results.length};""",
    """let summary = '';
for (const [k, v] of Object.entries(data)) {
  summary += `${k}=${typeof v};`;
}
try {
  const checked = await echo(summary.length);
  return {summary, checked};
} catch (err) {
  return {summary, error: err.message};
}""",
]


def test_code_mode_programs_give_what_node_gives() -> None:
    runs_as_in_node(PROGRAMS, RT)


def test_an_object_where_an_iterable_goes_says_to_use_its_entries() -> None:
    # Node: TypeError (not iterable); the message named the desugaring's `...`
    for text, column in [
        ("const out = [];\nfor (const x of data) { out.push(x); }\nreturn out;", (2, 17)),
        ("const [a] = data;\nreturn a;", (1, 7)),
        ("return [...data];", (1, 8)),
    ]:
        (answer,) = node_answers([text])
        assert "ok" not in answer and "TypeError" in str(answer), answer
        out = RT.run(text, lang="plan", context=CONTEXT)
        assert out.status == "failure" and out.error is not None, out.value
        assert "an object is not iterable" in str(out.message), out.message
        assert "Object.entries(o)" in (out.error.hint or ""), out.error.hint
        assert (out.error.line, out.error.column) == column, out.message
