"""Method names Node.js never calls on a run's values, though a registered function has them:
``s.length()``, ``m.size()``, ``s.upper()`` (SPEC 1.8, "A method name that is also a registered
function"; SPEC 10, "Calls").

``x.m(a)`` with ``m`` not one of JavaScript's methods is the call ``m(x, a)`` of the registered
function ``m`` (the uniform call syntax). For the names below that call would answer where Node
throws ``TypeError: x.m is not a function`` for every value a run holds: ``length`` and ``size``,
which JavaScript has only as properties (of texts and arrays; of Maps, Sets and
URLSearchParams), and the built-in library's functions that are no JavaScript method
(``upper``, ``lower``, ``str``, ``unwrap``, ``max``, ``min``, ``convert``, ``sleep``: JavaScript
spells them otherwise, ``s.toUpperCase()``, ``Math.max(a, b)``). Written as a method, each is
refused before anything runs with what to write (the resolver,
:mod:`dialectic.resolve.expressions`); a namespace's function of the name is called
(``memory.size()``, SPEC 2.2), and the function form (``length(x)``, ``upper(x)``) stays the
call."""

from __future__ import annotations

__all__ = ["FOREIGN_METHODS", "METHOD_LOOKALIKES", "lookalike_message"]

#: each name: why Node throws, and what to write (``{r}``: the receiver's text)
METHOD_LOOKALIKES: dict[str, tuple[str, str]] = {
    "length": (
        "`length` is a property of texts and arrays in JavaScript, not a method",
        "Write `{r}.length`, without the parentheses.",
    ),
    "size": (
        "`size` is a property of Maps and Sets in JavaScript, not a method (an array's or a "
        "text's count is its `length`)",
        "Write `{r}.size` for a Map or a Set, `{r}.length` for an array or a text.",
    ),
    "upper": (
        "`upper` is not one of JavaScript's methods",
        "Write `{r}.toUpperCase()`, or call the built-in function: `upper({r})`.",
    ),
    "lower": (
        "`lower` is not one of JavaScript's methods",
        "Write `{r}.toLowerCase()`, or call the built-in function: `lower({r})`.",
    ),
    "str": (
        "`str` is not one of JavaScript's methods",
        "Write `String({r})`, or call the built-in function: `str({r})`.",
    ),
    "unwrap": (
        "`unwrap` is not one of JavaScript's methods",
        "Write `{r}[0]`, or call the built-in function: `unwrap({r})`.",
    ),
    "max": (
        "`max` is not one of JavaScript's methods",
        "Write `Math.max({r}, y)` (of an array: `Math.max(...{r})`).",
    ),
    "min": (
        "`min` is not one of JavaScript's methods",
        "Write `Math.min({r}, y)` (of an array: `Math.min(...{r})`).",
    ),
    "convert": (
        "`convert` is not one of JavaScript's methods",
        "Call the built-in function: `convert({r}, 'type')`.",
    ),
    "sleep": (
        "`sleep` is not one of JavaScript's methods",
        "Call the built-in function: `await sleep(ms)`.",
    ),
}


def lookalike_message(name: str, receiver: str | None) -> tuple[str, str]:
    """The message and the hint refusing ``x.name(...)`` (``name`` one of
    :data:`METHOD_LOOKALIKES`); ``receiver``: the receiver's text when it is a plain name or a
    chain of members (``u.name``), else None (written ``x``)."""
    why, hint = METHOD_LOOKALIKES[name]
    r = receiver if receiver is not None and len(receiver) <= 40 else "x"
    message = (
        f"{why}: `{r}.{name}()` throws a TypeError in JavaScript (`{r}.{name} is not a function`)"
    )
    return message, hint.format(r=r)


#: methods other languages have (Python, Rust, LINQ, lodash) that models write on arrays and
#: texts, and what JavaScript writes instead: written as a method (``xs.count()``), each is the
#: call of a registered function of the name when there is one (the uniform call syntax), else
#: refused naming what to write (not "unknown function `count`; did you mean `convert`?")
FOREIGN_METHODS: dict[str, str] = {
    "count": "`xs.length` (the items that pass a test: `xs.filter(f).length`)",
    "len": "`x.length`",
    "sum": "`xs.reduce((a, b) => a + b, 0)`",
    "average": "`xs.reduce((a, b) => a + b, 0) / xs.length`",
    "mean": "`xs.reduce((a, b) => a + b, 0) / xs.length`",
    "first": "`xs[0]`",
    "last": "`xs.at(-1)`",
    "contains": "`x.includes(v)`",
    "strip": "`s.trim()`",
    "lstrip": "`s.trimStart()`",
    "rstrip": "`s.trimEnd()`",
    "startswith": "`s.startsWith(t)`",
    "endswith": "`s.endsWith(t)`",
    "toUpper": "`s.toUpperCase()`",
    "toLower": "`s.toLowerCase()`",
    "capitalize": "`s.charAt(0).toUpperCase() + s.slice(1)`",
    "sorted": "`xs.toSorted()` (or `[...xs].sort((a, b) => a - b)`)",
    "reversed": "`xs.toReversed()`",
    "isEmpty": "`xs.length === 0`",
    "toList": "`[...x]`",
    "extend": "`[...xs, ...ys]` (a statement: `xs.push(...ys);`)",
    "unique": "`[...new Set(xs)]`",
    "distinct": "`[...new Set(xs)]`",
    "items": "`Object.entries(o)`",
    "equals": "`a === b` (objects: compare a field, `a.id === b.id`)",
}
