"""The language primer of the catalog (SPEC sections 1, 10, 11 in brief), full and compact."""

from __future__ import annotations

__all__ = ["COMPACT_PRIMER", "PRIMER", "primer"]

PRIMER = """\
# dialectic: how to write a program

A program composes calls of the functions listed below. Write it in one of three notations:
**Plan** (a strict subset of JavaScript), **Dialect JSON** (the call tree itself) or **Plan2**
(YAML). All three compile to the same call tree, and a run ends in one of three outcomes:
**success** (the value), **failure** (what is wrong, where, and what to do) or **ambiguous** (a
question, with complete programs to choose from: send one of them back).

**Plan.** Alias definitions `const name = expr;` (or `name = expr;`), then `return expr;` (the
final answer) or `use expr;` (hand the value back to you, to write the next program). Calls
are awaited implicitly (`await` is accepted and changes nothing). Expressions are JavaScript's:
literals (`'text'`, `42`, `1.5`, `true`, `null`, `undefined`, `[a, ...xs]`, `{key: value, ...o}`),
names (an alias, a constant or a value of the run's context), calls `f(a, b)` or with named
arguments `f({x: 1, y: 2})`, methods `x.m(a)` (JavaScript's array and text methods; any other
`m` is the call `m(x, a)`), member access `a.b`, `a[0]`, `a?.b`, template literals
`` `Hi ${name}!` ``, the operators `+ - * / % ** === !== == != < <= > >= && || ?? !`, the bitwise
`| & ^ ~ << >> >>>` (32-bit, as JavaScript: `x | 0`, `(h << 5) - h`), `typeof` and
`test ? a : b` (only the branch taken runs), `Math.min/max/round/floor/ceil/abs`,
`Object.keys/values/entries`, `JSON.stringify/parse`, `Number`, `String`, `parseInt`,
`parseFloat`, `Array.isArray`, computed keys `{...acc, [o.id]: o}`. Arrow functions (parameters
may be flat patterns: `([k, v]) => ...`, `({id, name}) => ...`) are arguments of array
methods: `map`, `filter`, `find`, `findIndex`, `some`, `every`, `flatMap`, `reduce`,
`toSorted`/`sort` (also `slice`, `concat`, `includes`, `indexOf`, `join`, `at`, `length`;
`xs.filter(Boolean)`; a number's `toFixed(2)`, `toPrecision(3)`, `toString(16)`; `sort()` without
a comparator orders by text, as JavaScript does; `Array(n).fill(v)`, `[...Array(n).keys()]`);
calls inside one run concurrently for all items.

```js
const found = flights({origin: 'SFO', destination: 'LAX', departing: next(Thursday)});
const united = found.filter(f => f.airline === 'United');            // filter
const cheapest = found.toSorted((a, b) => a.price_usd - b.price_usd)[0];  // sort and pick
const byAirport = ['SFO', 'OAK'].map(a => flights({origin: a, destination: 'LAX'}).length);
return {
  cheapest: cheapest.flight,
  for_two: cheapest.price_usd * 2,                                    // arithmetic
  united: united.length > 0 ? united.map(f => f.flight) : 'none',     // conditional
  byAirport,                                                          // fan-out with map
};
```

Aliases are not variables: each is defined once, computed at most once and only if the result
needs it, in any order of definition; independent calls run concurrently. When JavaScript's
answer would be a trap for data (`'5' - 2`, `1 == '1'`, `[a] + [b]`, `0 / 0`), the run fails and
says what to write instead. `Infinity` is a value inside a run (`let best = -Infinity;`,
`Math.min(...xs)` of none, `1 / 0`), not in the result or a call's argument (JSON has none:
write `Number.isFinite(x) ? x : null`); Dialect JSON writes it `{"$ref": "Infinity"}`.

**Dialect JSON.** An object with exactly one key is a call: `{"f": {"x": 1, "y": 2}}` (named
arguments), `{"f": [1, 2]}` (positional), `{"f": 1}` (the one required argument). Calls nest:
`{"findReferences": {"getCurrentSelection": {}}}`. Any other object is data (values evaluated);
write a one-key data object as `{"$object": {"key": value}}`. Core forms: `{"$ref": "name"}`,
`{"$get": [value, "key", 0]}` (member and index access), `{"$template": ["Hi ", {"$ref": "n"}]}`
(text), `{"$let": {"a": expr}, "$return": expr}` (aliases; `"$use"` instead of `"$return"` at the
top hands the value back), `{"$quote": data}` (data, not evaluated), and the expressions:
`{"$op": ["+", a, b]}`, `{"$if": [test, then, otherwise]}`, `{"$get?": [v, "k"]}`,
`{"$method": [xs, "map", {"$fn": [["x"], body]}]}`, `{"$global": ["Math.max", a, b]}`,
`{"$spread": xs}`, `{"$merge": [o1, o2]}`.

**Plan2 (YAML).** A mapping of aliases; `result` is the program's value. An alias maps
functions (domains) to their named arguments (slots); several functions under one alias run
concurrently, and an alias with one function is that call's result (a one-element list becomes
its element). Every string is a template: `${expr}` holds a Plan expression, and a string that is
exactly `${expr}` keeps the value's type. Plan2 has no `use`.

```yaml
day: ${next(Thursday)}
result:
  flights:
    origin: SFO
    destination: LAX
    departing: ${day}
```

An `if (test) { ...; return a; } else { return b; }` statement whose branches end in `return` is
the choice `test ? a : b` (statements after an `if` without `else` are its other branch); an
`if` without `return` changes values or makes calls (`let status = 'low'; if (n > 5) { status =
'high'; }`, `if (urgent) { await notify({...}); }`), and a `let` may be assigned again
(`total = Math.round(total);`);
`const [a, b] = await Promise.all([f(), g()]);` and `const {x, y} = v;` bind several aliases.
A function shown `[write]` or `[destructive]` changes things: its calls always run, in the order
written, and later reads see them; a call alone is a statement, `mkdir({dir_name: 'tmp'});`
(Dialect JSON: `{"$do": [call, {"$let": {"a": v}}, call], "$return": v}`).
`for (const x of xs) { ... }` loops over a list: its body changes accumulators defined just
before it and read after it (`const out = [];` with `out.push(v)`, `let total = 0;` with
`total += v` or `total++`, `const byId = {};` with `byId[k] = v`), with `const`, `if`/`else`,
`continue`, `break`, `return` (the loop stops there), loops inside and calls inside; the body
may read what it changes
(`if (!seen[k]) { seen[k] = true; out.push(k); }`: then the items run one after another);
otherwise the calls of all items run concurrently, `[write]` ones in order. `while (test) {
... }` and `do { ... } while (test);` loop until a condition holds (pagination: `let page = 1;
while (true) { const r = await list({page}); all.push(...r.items); if (!r.next) break; page =
r.next; }`), their iterations in order; `x ??= v`, `o[k] ||= v` as statements too, and the
group-by `(groups[k] ??= []).push(x);` on a `const groups = {};` (a computed key bound first).
`xs.forEach(x => { ... })`, `for (let i = 0; i < n; i++)` (any C-style loop) and `await
Promise.all(ids.map(async id => { byId[id] = await get({id}); }))` are loops.
Helpers defined at the top, `function label(p) { ... }` or `const isAdult = p => p.age >= 18;`,
can be called or passed (`people.filter(isAdult)`); an arrow's body may hold `if` with early
`return`s and loops. A helper may take functions and call them or pass them on (`const sumBy =
(xs, f) => xs.reduce((s, x) => s + f(x), 0); sumBy(people, p => p.age)`, `const by = k => (a,
b) => a[k] - b[k]; xs.sort(by('age'))`), but not store, return or compare them.

A `switch` whose cases end in `return` is the choice it makes; one whose cases end in `break`
changes values as an `if`/`else if` chain does; a case without `break` falls into the next.

`new Map(entries)` and `new Set(xs)` are values (`m.get(k)`, `m.set(k, v);`, `m.clear();` as
statements, `[...m.entries()]`, `Object.fromEntries(m)`); return them as arrays or objects.

Regular expressions run in linear time: `/^\\d{3}$/.test(s)`, `s.replace(/\\s+/g, ' ')`,
`s.split(/,\\s*/)`, `s.match(/(\\d+)/)?.[1]`, `[...s.matchAll(/#(\\w+)/g)].map(m => m[1])`,
`new RegExp(word, 'i')`; no backreferences, lookaround, `exec` or `lastIndex`.

**Not in the language.** Recursion, `new` (but `Map`, `Set`,
`RegExp`, `Array(n).fill(v)`), classes, `o.a.b = v`, `use` inside `if`. Write instead:
`for...of` or `.map`/`.filter`/`.reduce`, `if`/`else if`, a new alias for a new value, `use` to
decide in the next program.

**Values.** Arguments are converted to the declared types automatically: text <-> number,
a single value to a one-element list, a list to text joined with ", ", and the registered
conversions below. Functions are not values: call them. Member access reads JSON data and the
declared fields and properties of the types below.
"""

COMPACT_PRIMER = """\
# dialectic: write a program that calls the functions below

Outcome: success, failure (what to fix) or ambiguous (programs to choose from).
- Plan (JavaScript): `const a = f({x: 1});` aliases (each runs at most once, only if needed;
  independent calls run concurrently), then `return expr;` (or `use expr;`: hand the value back).
  Calls `f(a, b)`, `f({name: v})`; JavaScript's operators, `c ? a : b`, `a?.b`, `...xs`,
  templates, Math/Object/JSON helpers and array methods with arrows:
  `fs.filter(f => f.airline === 'UA')`, `fs.toSorted((a, b) => a.price - b.price)[0]`,
  `fs.reduce((s, f) => s + f.price, 0)`, `['SFO', 'OAK'].map(a => flights({origin: a}))`
  (a fan-out). Any other `x.m(a)` is `m(x, a)`. `if` (a `return` per branch, or setting
  a `let`); `const out = []; for (const x of xs) out.push(f(x));` (`t += v`, `o[k] = v`),
  `while`, `/re/`, `new Date/Map/Set`, `try`/`catch`. [write] calls always run, in order;
  `f(x);` is a statement.
- Dialect JSON: a one-key object is a call: `{"f": {"x": 1}}`, `{"f": [1, 2]}`, `{"f": 1}`; calls
  nest. Forms: `{"$ref": "a"}`, `{"$get": [v, "key", 0]}`, `{"$template": ["Hi ", v]}`,
  `{"$let": {"a": v}, "$return": v}` (or `"$use"`), `{"$object": {"k": v}}`, `{"$quote": v}`,
  `{"$op": ["+", a, b]}`, `{"$if": [c, a, b]}`, `{"$method": [xs, "map", {"$fn": [["x"], e]}]}`.
- Plan2 (YAML): alias -> function -> named arguments; `result` is the value; every string is a
  template, `${expr}` alone keeps the type: `result: {f: {x: SFO, y: '${a.b}'}}`.
Arguments convert to the declared types (text <-> number, value -> [value], list -> text joined
with ", ").
"""


def primer(compact: bool = False) -> str:
    """The language primer (SPEC sections 1, 10, 11 in brief)."""
    return COMPACT_PRIMER if compact else PRIMER
