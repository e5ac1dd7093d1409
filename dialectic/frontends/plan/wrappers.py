"""A program wrapped in a function, as code-mode prompts and Node scripts write it (SPEC 10).

Models often send the body of a Plan program inside a function of no parameters:

- ``async () => { ...; return x; }`` (the program *is* the function, code-mode style);
- ``(async () => { ... })();``, ``(async function () { ... })();``, ``(function () { ... }())``;
- ``async function main() { ... }`` followed by ``main();``, ``await main();``,
  ``return main();`` or ``return await main();``;
- ``const main = async () => { ... };`` followed by the same call.

In lenient mode the wrapper's text is blanked (offsets stay the same, so every line:column is
the original's) and the body runs as the program, with a warning naming the wrapper. Strict mode
refuses a wrapper, pointing at it. A function of parameters, a declared function that is never
called, or anything after the call is not a wrapper this reads: the parser then reports the text
as it is, or this module says what is wrong.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from dialectic.frontends.plan.base import DECLARATORS, Problem, closing
from dialectic.frontends.plan.lexer import Lexed
from dialectic.frontends.plan.spans import LineIndex

__all__ = ["Unwrapped", "may_be_wrapped", "unwrap"]

#: the tokens after the body of a function in parentheses: `(f)()` or `(f())`
_CALLED = frozenset([(")", "(", ")"), ("(", ")", ")")])
_NOT_LINE_END = re.compile("[^\n\r\u2028\u2029]")


@dataclass(frozen=True, slots=True)
class Unwrapped:
    """The program's text with the wrapper blanked and the warning to give, or the problem
    the wrapper has (then ``text`` is None)."""

    text: str | None
    warning: str
    problem: Problem | None = None


def may_be_wrapped(kinds: Sequence[str], values: Sequence[object]) -> bool:
    """A cheap test of the first tokens: could this program be wrapped at all?"""
    i = 0
    if kinds[0] == "name" and values[0] == "return":
        i = 1
    if kinds[i] == "name" and values[i] == "await":
        i += 1
    if kinds[i] == "(":
        return True
    if i > 0:
        return False
    first = values[0] if kinds[0] == "name" else kinds[0]
    if first == "async" or first == "function":
        return True
    return first in DECLARATORS and kinds[1] == "name" and kinds[2] == "="


def _skip_semicolons(kinds: Sequence[str], i: int) -> int:
    while kinds[i] == ";":
        i += 1
    return i


@dataclass(slots=True)
class _Head:
    """What the wrapper's head says: its name (None for an anonymous function), whether it is
    in parentheses, where its body opens, and the parameters' tokens."""

    name: str | None
    paren: bool
    declared: bool
    body: int
    params: tuple[int, int]
    shape: str


def _head(kinds: Sequence[str], values: Sequence[object]) -> _Head | None:
    """Reads ``[const name =] [(] [async] (function [name] | ) () [=>] {`` from token 0."""
    i = 0
    name: str | None = None
    declared = False
    if kinds[0] == "name" and values[0] in DECLARATORS:
        name = str(values[1])
        declared = True
        i = 3
    else:  # `return (async () => {...})();`, `await (async () => {...})();`
        if kinds[i] == "name" and values[i] == "return":
            i += 1
        if kinds[i] == "name" and values[i] == "await":
            i += 1
        if i > 0 and kinds[i] != "(":
            return None
    # `(async () => {...})()`: a parenthesis opening the function (not its parameter list)
    paren = (
        not declared
        and kinds[i] == "("
        and (
            kinds[i + 1] == "("
            or (kinds[i + 1] == "name" and values[i + 1] in ("async", "function"))
        )
    )
    if i > 0 and not declared and not paren:
        return None
    if paren:
        i += 1
    is_async = kinds[i] == "name" and values[i] == "async"
    if is_async:
        i += 1
    if kinds[i] == "name" and values[i] == "function":
        i += 1
        if kinds[i] == "name":
            if not declared:
                name = str(values[i])
            i += 1
        elif not declared and not paren:
            return None  # `function () {}` alone is not JavaScript
        arrow = False
    elif kinds[i] == "(":
        arrow = True
    else:
        return None
    if kinds[i] != "(":
        return None
    opened = i
    depth = 0
    while True:
        kind = kinds[i]
        if kind == "eof":
            return None
        if kind == "(":
            depth += 1
        elif kind == ")":
            depth -= 1
            if depth == 0:
                break
        i += 1
    params = (opened + 1, i)
    i += 1
    if arrow:
        if kinds[i] != "op" or values[i] != "=>":
            return None
        i += 1
    if kinds[i] != "{":
        return None
    prefix = "async " if is_async else ""
    if arrow:
        shape = f"{prefix}() => {{...}}"
    elif declared or not name:
        shape = f"{prefix}function() {{...}}"
    else:
        shape = f"{prefix}function {name}() {{...}}"
    if declared:
        shape = f"{name} = {shape}"
    return _Head(name, paren, declared or (not arrow and not paren), i, params, shape)


def _call_end(kinds: Sequence[str], values: Sequence[object], i: int, name: str) -> int | None:
    """After a declared function: ``[return] [await] name()`` ending the program; the token
    after it (None if the program does not end so)."""
    if kinds[i] == "name" and values[i] == "return":
        i += 1
    if kinds[i] == "name" and values[i] == "await":
        i += 1
    if kinds[i] != "name" or values[i] != name:
        return None
    if kinds[i + 1] != "(" or kinds[i + 2] != ")":
        return None
    return i + 3


def unwrap(text: str, tokens: Lexed, strict: bool, index: LineIndex) -> Unwrapped | None:
    """The program without its wrapper, or None when ``tokens`` hold no wrapper."""
    kinds, values = tokens.kinds, tokens.values
    head = _head(kinds, values)
    if head is None:
        return None
    close = closing(kinds, head.body)
    if kinds[close] == "eof":
        return None
    first, last = head.params
    if last > first and head.declared:
        return None  # a helper function, not a wrapper: the parser says what Plan has instead
    i = close + 1
    if head.paren:
        # `(f)()` or `(f())`
        if i + 2 >= len(kinds) or (kinds[i], kinds[i + 1], kinds[i + 2]) not in _CALLED:
            return None
        i += 3
    elif head.declared:
        assert head.name is not None
        after = _skip_semicolons(kinds, i)
        if kinds[after] == "eof":
            starts, _ = tokens.offsets()
            return Unwrapped(
                None,
                "",
                (
                    f"the function `{head.name}` is declared but never called, so the program "
                    "does nothing",
                    starts[0],
                    f"end the program with `return {head.name}();`, or send only the body "
                    "of the function",
                ),
            )
        end = _call_end(kinds, values, after, head.name)
        if values[after] == head.name and kinds[after + 1] == "(":
            chained = closing(kinds, after + 1) + 1
            if kinds[chained] == "." and values[chained + 1] in ("catch", "then", "finally"):
                starts, _ = tokens.offsets()
                return Unwrapped(
                    None,
                    "",
                    (
                        f"`{head.name}()` is followed by `.{values[chained + 1]}(...)`: a "
                        "program has no promises to chain",
                        starts[after],
                        f"end the program with `return {head.name}();` (a failure ends the "
                        "run with its reason)",
                    ),
                )
        if end is None or kinds[_skip_semicolons(kinds, end)] != "eof":
            return None  # one of the program's functions (SPEC 10, "Functions")
        i = end
    i = _skip_semicolons(kinds, i)
    if kinds[i] != "eof":
        return None
    starts, ends = tokens.offsets()
    if last > first:
        return Unwrapped(
            None,
            "",
            (
                f"the program is a function of parameters "
                f"({text[starts[first] : ends[last - 1]]}), but nothing passes them",
                starts[first],
                "a program reads its inputs by name from the context: drop the parameters",
            ),
        )
    if strict and head.paren and values[0] == "return" and kinds[0] == "name":
        return None  # `return (() => {...})();`: an arrow called at once (SPEC 10), as written
    if strict:
        return Unwrapped(
            None,
            "",
            (
                f"the program is wrapped in a function (`{head.shape}`)",
                starts[0],
                "send only the function's body: its statements, ending with `return expr;`",
            ),
        )
    body_start, body_end = ends[head.body], starts[close]
    blanked = (
        _blank(text[:body_start])
        + text[body_start:body_end]
        + _blank(text[body_end : ends[i - 1]])
        + text[ends[i - 1] :]
    )
    return Unwrapped(
        blanked,
        f"{index.where(starts[0])}: ran the body of the function `{head.shape}` as the program",
    )


def _blank(part: str) -> str:
    """Spaces for ``part``, its line terminators kept (every line and column stays the same)."""
    return _NOT_LINE_END.sub(" ", part)
