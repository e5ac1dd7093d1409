"""Words JavaScript reserves, and what to tell a model that uses one in Plan."""

from __future__ import annotations

__all__ = [
    "RESERVED",
    "LITERAL_WORDS",
    "GLOBAL_NAMES",
    "NEW_HINTS",
    "hides_global",
    "keyword_hint",
    "is_identifier_name",
]

import re

# ECMAScript reserved words, strict-mode reserved words, and `await` (reserved inside the
# `async function plan() { ... }` a Plan is equivalent to). `this` is handled separately: Plan
# reads it as an ordinary name (`this(week)` is a call of the function named `this`).
RESERVED = frozenset(
    """break case catch class const continue debugger default delete do else enum export extends
    false finally for function if import in instanceof new null return super switch throw
    true try typeof var void while with yield let static implements interface package private
    protected public await""".split()  # noqa: SIM905 - a readable word list
)
LITERAL_WORDS = frozenset(["true", "false", "null", "undefined"])
#: JavaScript's globals the front end reads itself (`Math.max(...)`, `Math.PI`, `Number(x)`,
#: `Promise.all`): an alias or a parameter of the name would hide them in JavaScript, so none
#: may have it (the context cannot hide them either: SPEC 10)
GLOBAL_NAMES = frozenset(
    """Math Number JSON Object Array Promise String Boolean parseInt parseFloat
    encodeURIComponent encodeURI decodeURIComponent decodeURI console Infinity isFinite
    structuredClone Intl URL URLSearchParams btoa atob Buffer""".split()  # noqa: SIM905
)


def hides_global(name: str) -> str:
    """The message for an alias or a parameter named like one of :data:`GLOBAL_NAMES`."""
    return f"`{name}` is JavaScript's own; an alias or a parameter of that name would hide it"


_IDENTIFIER_NAME = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*\Z")

_LOOP = (
    "Plan's loops are statements: `for (const x of xs) { ... }` over a list, `while (test) "
    "{ ... }` and `do { ... } while (test);` (not inside an expression); or make the list with "
    ".map "
    "(the calls run concurrently): `const results = cities.map(c => weather({city: c}));`, or "
    "use .filter, .find, .reduce"
)
#: `new X(...)`: what to write instead, by X
NEW_HINTS = {
    "Set": "write new Set(xs) (or new Set()), then s.has(x), s.size, s.add(x); or [...new "
    "Set(xs)] for the distinct items",
    "Map": "write new Map(pairs) (or new Map()), then m.get(k), m.has(k), m.set(k, v); or use an "
    "object: Object.fromEntries(pairs)",
    "Date": "write new Date(text) of an ISO text, new Date(ms), new Date(y, m, d) or new Date() "
    "(the run's instant)",
    "Promise": "a wait is `await new Promise(r => setTimeout(r, ms));`; otherwise calls are "
    "awaited where their values are used: call the function itself",
    "Array": "write the array itself: [1, 2, 3], [...xs] or xs.map(x => ...)",
    "Object": "write the object: {}",
    "Error": "an Error is made only to throw it: `throw new Error('what went wrong');`",
    "URL": "write new URL(text) or new URL(path, base), then u.hostname, u.pathname, "
    "u.searchParams.get(k), u.href",
    "URLSearchParams": "write new URLSearchParams({q: text, page: 2}) (or of a query text), "
    "then p.toString(), p.get(k); p.append(k, v); changes a name defined by const",
}

_HINTS = {
    "function": "define functions at the top of the program, each a statement of its own: "
    "function label(p) { return p.name; } or the arrow function const label = p => p.name;, "
    "then call them, label(x), or pass them to an array method, xs.map(label)",
    "class": "Plan has no classes: keep the state in an object and write functions that "
    "take it, `const counter = {n: 0}; function inc(c) { return {...c, n: c.n + 1}; }`",
    "if": "`if (test) { ...; return a; } else { return b; }` is a statement; as a value write "
    "`test ? a : b`",
    "else": "`else` follows the branch of an `if`: if (test) { return a; } else { return b; }",
    "switch": "a `switch` whose cases end in `return` is a statement of a block, not of a "
    "loop's body; in a loop choose with `if (v === a) { ... } else if (...) { ... }` or a value "
    "with `test ? a : b`",
    "for": _LOOP,
    "while": _LOOP,
    "do": _LOOP,
    "new": "Plan has no `new`; call a function instead: `f(x)`",
    "await": "calls are awaited implicitly in Plan; remove `await`",
    "async": "calls are asynchronous implicitly in Plan; remove `async`",
    "const": "declare aliases as `name = expr;`",
    "let": "declare aliases as `name = expr;`",
    "var": "declare aliases as `name = expr;`",
    "try": "`try { ... } catch (e) { ... }` is a statement of a block, not a value",
    "throw": "`throw new Error('...');` is a statement where `return` may stand",
    "import": "Plan has no modules; the runtime provides every function",
    "export": "Plan has no modules; the runtime provides every function",
    "typeof": "`typeof` is an operator: `typeof x === 'string'`; it cannot be a name",
    "instanceof": "`instanceof` is an operator: `x instanceof Array`; it cannot be a name",
    "delete": "`delete` is a statement, `delete o.key;` of an object the block made; or build "
    "a new object without the key: const {key, ...rest} = o;",
    "void": "`void 0` is undefined; write undefined",
    "in": "`in` is an operator: `'key' in o`; it cannot be a name",
    "return": "`return` starts a statement: `return expr;` must be the last statement",
    "yield": "Plan has no generators",
}


def keyword_hint(word: str, following: object = None) -> str:
    """A hint for a reserved word used where Plan expects an expression or a name;
    ``following``: the next token's value (`new Set` gets its own hint)."""
    if word == "new" and following == "Set":
        return f"Plan has `new Set(xs)` with its arguments; {NEW_HINTS['Set']}"
    if word == "function" and following == "*":  # `function* range(n) { ... yield i; }`
        return (
            "Plan has no generator functions (`function*`, `yield`): build the array the "
            "generator would give, Array.from({length: n}, (_, i) => i), or push into one in a "
            "loop and return it"
        )
    if word == "new" and isinstance(following, str) and following in NEW_HINTS:
        return f"Plan has no `new {following}`; {NEW_HINTS[following]}"
    return _HINTS.get(
        word, f"`{word}` is a JavaScript keyword; choose another name (e.g. `{word}_`)"
    )


def is_identifier_name(text: str) -> bool:
    """An ASCII IdentifierName (reserved words included): usable after `.` and as a bare key."""
    return _IDENTIFIER_NAME.match(text) is not None
