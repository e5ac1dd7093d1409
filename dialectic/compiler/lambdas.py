"""JavaScript's methods and globals compiled (SPEC 1.8): :func:`method`, :func:`global_call`.

A method call's closure evaluates its receiver and arguments, then applies JavaScript's method:
one that takes a function runs its element loop (:mod:`dialectic.compiler.higherorder`), the
others the plain method of :mod:`dialectic.values.jsmethods`; a receiver that is neither an
array nor a text goes to the registered function of that name. The arrow functions themselves
and their frames are in :mod:`dialectic.compiler.arrows` (re-exported here).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dialectic.compiler.accumulate import COPY_STEP
from dialectic.compiler.arrows import (
    FRAME,
    GIVEN,
    Arrow,
    Frame,
    Steps,
    apply_js,
    comparator_key,
    merge,
    param_reader,
    refused,
    spread_args,
)
from dialectic.compiler.higherorder import (
    apply_async,
    apply_sync,
    reduce_async,
    reduce_sync,
    sort_values,
)
from dialectic.compiler.textsteps import TEXT_STEP
from dialectic.outcome.errors import DialecticError, JSONPath
from dialectic.run.evaluator import Compiled, State, deadline_error
from dialectic.values import jsmethods as jm
from dialectic.values.collections import JsIterator, JsMap, JsSet
from dialectic.values.data import UNDEFINED
from dialectic.values.jslimits import ITEMS_LEFT, MAX_ITEMS, StepsSpent
from dialectic.values.jsnan import or_nan
from dialectic.values.jsops import JsRefusal, TextTooLong, kind
from dialectic.values.jsparams import JsSearchParams
from dialectic.values.jsregex import DEADLINE, JsRegExp, Overdue, text_regexp
from dialectic.values.matchinfo import OWNER

__all__ = [
    "FRAME",
    "GIVEN",
    "Arrow",
    "Frame",
    "Steps",
    "apply_js",
    "comparator_key",
    "global_call",
    "merge",
    "method",
    "param_reader",
    "plain_method",
    "refused",
    "spread_args",
]


#: the values whose methods are always JavaScript's: a method name that is also a registered
#: function (the datetime extension's ``at``) calls it for other receivers (SPEC 1.8); of
#: null or undefined, JavaScript's TypeError (`tags.join(', ')` with no tags is a failure)
_JAVASCRIPTS = frozenset({list, str, type(None), type(UNDEFINED), JsRegExp})
#: a Map's and a Set's methods are theirs; for any other receiver the registered function of
#: the name (`get`, `has`, `values`...) wins, as before Maps were values
_COLLECTIONS = frozenset({JsMap, JsSet, JsIterator, JsSearchParams})
#: the methods that take a replacement function (after a regular expression)
_REPLACERS = frozenset(["replace", "replaceAll"])
#: the text methods that may find every match of a regular expression
_SCANS = frozenset(["replace", "replaceAll", "split", "match", "matchAll", "exec"])
#: of those, the methods that make match arrays (with index, input, groups: matchinfo)
_MATCHES = frozenset(["match", "matchAll", "exec"])
#: array methods that read one item whatever the length (one step, SPEC 7)
_ONE_ITEM = frozenset(["at"])
#: array methods that copy the items they give (``concat``, ``slice``): one step, and one per
#: :data:`COPY_STEP` items of the new array, as a spread's copy counts (SPEC 7)
_COPIES = frozenset(["concat", "slice"])
#: the methods of a text that read all of it whatever they make (`big.includes(x)` a million
#: times is a million megabytes read): a step per :data:`TEXT_STEP` characters of the
#: receiver, as every text a method makes counts a step per ``TEXT_STEP`` of its characters
#: (SPEC 1.8, "Limits": a run's steps bound its work on texts too, not only the deadline)
_TEXT_READS = frozenset(
    [
        *("includes", "indexOf", "lastIndexOf", "search", "match", "matchAll", "replace"),
        *("replaceAll", "split", "normalize", "toUpperCase", "toLowerCase", "localeCompare"),
        *("toLocaleUpperCase", "toLocaleLowerCase", "trim", "trimStart", "trimEnd"),
    ]
)


def _arrow_of(name: str, args: list[Compiled | Arrow], path: JSONPath) -> Arrow | None:
    """The arrow function of the method ``name``'s arguments, checked: one at most, first,
    and only for a method that takes one; a sort takes nothing else (SPEC 1.8)."""
    arrows = [a for a in args if isinstance(a, Arrow)]
    arrow = arrows[0] if arrows else None
    if name in _REPLACERS and arrow is not None:  # `s.replace(/x/g, m => ...)`
        if len(args) != 2 or args[1] is not arrow:
            raise DialecticError(
                "invalid_program",
                f"`{name}` takes a regular expression, then the arrow function",
                path,
                hint=f"Write s.{name}(/(\\d+)/g, (m, n) => ...).",
            )
        return arrow
    if len(arrows) > 1 or (arrow is not None and not isinstance(args[0], Arrow)):
        raise DialecticError(
            "invalid_program", f"`{name}` takes one arrow function, as its first argument", path
        )
    if arrow is not None and name not in jm.ARRAY_HIGHER:  # JavaScript: text of it, or ignored
        raise DialecticError(
            "invalid_program",
            f"`{name}` takes no arrow function",
            path,
            hint="Arrow functions are arguments of map, filter, find, some, every, reduce, "
            "flatMap and sort.",
        )
    if len(arrows) < len(args) and name in ("sort", "toSorted"):  # JavaScript: a TypeError
        raise DialecticError(
            "invalid_program",
            f"`{name}` takes an arrow function as its comparator, or nothing",
            path,
            hint=f"Write xs.{name}((a, b) => a - b) for numbers, "
            f"xs.{name}((a, b) => a.name < b.name ? -1 : 1) for texts.",
        )
    return arrow


def method(
    name: str,
    target: Compiled,
    args: list[Compiled | Arrow],
    spreads: list[bool],
    path: JSONPath,
    steps: Steps,
    stringify: Callable[[Any], str],
    combine: Callable[[list[Compiled], Callable[[list[Any]], Any]], Compiled],
    fallback: Compiled | None = None,
    *,
    max_len: int,
    members: bool = True,
) -> Compiled:
    """The closure of ``target.name(args)``; ``spreads`` flags the non-arrow arguments written
    ``...x``; ``fallback`` calls the registered function of that name for other receivers; a
    text it makes is within ``max_len`` (the run's ``max_string_length``, SPEC 1.8); a regex
    match array it makes keeps its members if ``members`` (the program may read them)."""
    arrow = _arrow_of(name, args, path)
    values = [a for a in args if isinstance(a, Compiled)]
    higher = name in jm.ARRAY_HIGHER
    replacer = arrow is not None and name in _REPLACERS
    if replacer and arrow is not None and arrow.is_async:
        raise DialecticError(
            "invalid_program",
            f"the replacement function of `{name}` calls a function that waits (a tool)",
            path,
            hint="Get what it needs first: const found = [...s.matchAll(re)]; then call the "
            "function on each.",
        )
    plain = plain_method(name, path, steps, stringify, max_len, members)
    if fallback is not None and (name in jm.COLLECTION_READS or name in jm.COLLECTION_CHANGES):
        javascripts = _COLLECTIONS
    else:
        javascripts = _JAVASCRIPTS

    def prepare(vs: list[Any]) -> tuple[Any, list[Any]]:
        receiver = vs[0]
        rest = spread_args(vs[1:], spreads, path)
        if higher and type(receiver) is list and arrow is None and name not in ("sort", "toSorted"):
            raise DialecticError(
                "expression_error",
                f"`{name}` needs an arrow function, e.g. xs.{name}(x => ...)",
                path,
            )
        return receiver, rest

    def run_sync(s: State, vs: list[Any]) -> Any:
        receiver, rest = prepare(vs)
        if fallback is not None and type(receiver) not in javascripts:
            token = GIVEN.set((receiver, *rest))
            try:
                return fallback.sync(s)  # type: ignore[misc]
            finally:
                GIVEN.reset(token)
        if replacer:
            assert arrow is not None
            return replaced(name, arrow, s, receiver, rest, steps, stringify, path, max_len)
        try:
            if higher and type(receiver) is list:
                if name in ("sort", "toSorted"):
                    return sort_values(receiver, arrow, s, steps)
                assert arrow is not None
                if name in jm.FOLDS:
                    return reduce_sync(name, arrow, s, receiver, rest, steps)
                return apply_sync(name, arrow, s, receiver, steps)
        except JsRefusal as exc:
            raise refused(exc, name, path) from None
        if higher:
            raise refused(
                JsRefusal(f"`{name}` is an array method; the value is {jm._a(kind(receiver))}"),
                name,
                path,
            )
        return plain(receiver, rest, s)

    async def run_async(s: State, vs: list[Any]) -> Any:
        receiver, rest = prepare(vs)
        if fallback is not None and type(receiver) not in javascripts:
            token = GIVEN.set((receiver, *rest))
            try:
                if fallback.sync is not None:
                    return fallback.sync(s)
                return await fallback.aio(s)  # type: ignore[misc]
            finally:
                GIVEN.reset(token)
        if not (higher and type(receiver) is list and arrow is not None and arrow.is_async):
            return run_sync(s, vs)
        try:
            if name in jm.FOLDS:
                return await reduce_async(name, arrow, s, receiver, rest, steps)
            if name in ("sort", "toSorted"):
                return sort_values(receiver, arrow, s, steps)
            return await apply_async(name, arrow, s, receiver, steps)
        except JsRefusal as exc:
            raise refused(exc, name, path) from None

    parts = [target, *values]
    needs_async = (arrow is not None and arrow.is_async) or (
        fallback is not None and fallback.sync is None
    )
    if all(p.sync is not None for p in parts) and not needs_async:
        syncs = [p.sync for p in parts]

        def call(s: State) -> Any:
            return run_sync(s, [f(s) for f in syncs])  # type: ignore[misc]

        return Compiled(sync=call)
    gather = combine(parts, lambda vs: vs)

    async def acall(s: State) -> Any:
        vs = gather.sync(s) if gather.sync is not None else await gather.aio(s)  # type: ignore[misc]
        return await run_async(s, vs)

    return Compiled(aio=acall)


def plain_method(
    name: str,
    path: JSONPath,
    steps: Steps,
    stringify: Callable[[Any], str],
    max_len: int,
    members: bool,
) -> Callable[[Any, list[Any], State], Any]:
    """The method ``name`` that takes no function, applied to a receiver and its arguments:
    its steps counted, a text it makes within ``max_len`` (measured before it is built where
    the method knows its length in advance, else here: `toUpperCase` of 'ß' is 'SS'); the
    match arrays it makes keep their members if ``members``."""
    scans = name in _SCANS
    reads = name in _TEXT_READS
    unfolds = name == "flat"
    whole = name not in _ONE_ITEM and name not in _COPIES  # (one step for the receiver)
    made = COPY_STEP if name in _COPIES else 1  # (the items a step of what it made counts)
    held = name == "get"  # (a Map's `get` gives a value it holds: it makes no array)
    keeps = members and name in _MATCHES
    # the method of a text and of an array, looked up once (other receivers: per call)
    by_type: dict[type, Callable[..., Any] | None] = {
        str: jm.text_method(name, max_len),
        list: jm.array_method(name, stringify, max_len),
    }

    def plain(receiver: Any, rest: list[Any], s: State) -> Any:
        t = type(receiver)
        fn = by_type.get(t)
        if fn is None:
            try:
                fn = jm.plain_method(receiver, name, stringify, max_len)
            except JsRefusal as exc:
                raise refused(exc, name, path) from None
        if t is list:
            steps.take(s, 1 + (len(receiver) if whole else 0))
        else:  # (a text a method reads whole counts a step per TEXT_STEP characters)
            steps.take(s, 1 + (len(receiver) // TEXT_STEP if reads and t is str else 0))
        if scans:  # (a regular expression's matches: the loop looks at the run's deadline,
            # and the match arrays are kept with their members for the run: matchinfo)
            token = DEADLINE.set(s.deadline_at)
            owner = OWNER.set(s) if keeps else None
            try:
                out = apply_js(fn, [receiver, *rest], name, path, True)
            except Overdue:
                raise deadline_error(s.limits, path) from None
            finally:
                if owner is not None:
                    OWNER.reset(owner)
                DEADLINE.reset(token)
        elif unfolds:  # (`flat` stops where the steps end: its items count one each)
            left = ITEMS_LEFT.set(min(MAX_ITEMS, max(steps.left(s), 0)))
            try:
                out = apply_js(fn, [receiver, *rest], name, path, True)
            except StepsSpent:
                steps.spent(s)
                raise  # (not reached: spent raises)
            finally:
                ITEMS_LEFT.reset(left)
        else:
            out = apply_js(fn, [receiver, *rest], name, path, True)
        if type(out) is list:
            if not (held and t is JsMap):
                steps.take(s, len(out) // made)  # what it made counts: `[a, a].flat()` doubles
        elif type(out) is str:
            if len(out) > max_len:
                raise refused(TextTooLong(len(out), max_len), name, path)
            if len(out) >= TEXT_STEP:  # what it made counts: a million upper-cased megabytes
                steps.take(s, len(out) // TEXT_STEP)  # would outlast any deadline
        return out

    return plain


def global_call(
    name: str,
    args: list[Compiled],
    spreads: list[bool],
    path: JSONPath,
    steps: Steps,
    stringify: Callable[[Any], str],
    combine: Callable[[list[Compiled], Callable[[list[Any]], Any]], Compiled],
    *,
    max_len: int,
    nan: bool = False,
) -> Compiled:
    """The closure of the global ``name(args)`` (``Math.max``, ``JSON.stringify``...); a text
    it makes is within ``max_len`` (the run's ``max_string_length``, SPEC 1.8); ``nan``: a
    site where the program tests the value for NaN (``parseInt``, ``Number``: SPEC 1.7)."""
    fn = jm.globals_table(stringify, max_len)[name]
    if nan:
        fn = or_nan(fn)

    def finish(vs: list[Any]) -> Any:
        out = apply_js(fn, spread_args(vs, spreads, path), name, path)
        if type(out) is str and len(out) > max_len:  # (`String(x)` of a registered value)
            raise refused(TextTooLong(len(out), max_len), name, path)
        return out

    if not args:
        return Compiled(sync=lambda s: finish([]))
    if all(a.sync is not None for a in args):
        syncs = [a.sync for a in args]

        def call(s: State) -> Any:
            vs = [f(s) for f in syncs]  # type: ignore[misc]
            read = sum(len(v) for v in vs if type(v) is list)
            steps.take(s, 1 + read)
            out = finish(vs)
            if type(out) is list and len(out) - read >= COPY_STEP:  # `Array.from({length: n})`:
                steps.take(s, (len(out) - read) // COPY_STEP)  # n / 256, as a spread's copy
            return out

        return Compiled(sync=call)
    return combine(args, finish)


def replaced(
    name: str,
    arrow: Arrow,
    s: State,
    receiver: Any,
    rest: list[Any],
    steps: Steps,
    stringify: Callable[[Any], str],
    path: JSONPath,
    max_len: int,
) -> Any:
    """``s.replace(re, (m, g1, ..., at, s) => ...)``: the arrow applied to each match, its
    value made text as JavaScript's ``String()`` does (SPEC 1.8, "Regular expressions")."""
    regex = rest[0] if rest else UNDEFINED
    if type(regex) is str:  # `s.replace('x', m => ...)`: the text's first place (every: All)
        try:
            regex = text_regexp(regex, name == "replaceAll")
        except JsRefusal as exc:
            raise refused(exc, name, path) from None
    if type(receiver) is not str or type(regex) is not JsRegExp:
        raise refused(
            JsRefusal(
                f"`{name}` with a function takes a text and a regular expression or a text",
                "Write s.replace(/x/g, m => ...).",
            ),
            name,
            path,
        )
    if name == "replaceAll" and not regex.is_global:
        raise refused(
            JsRefusal(
                "replaceAll() takes a regex with the g flag (a TypeError in JavaScript)",
                "Add the g flag.",
            ),
            name,
            path,
        )

    def made(given: tuple[Any, ...]) -> str:
        steps.take(s, 1)
        return jm.to_string(arrow.apply(s, given), stringify)

    token = DEADLINE.set(s.deadline_at)
    try:
        return regex.replace(receiver, made, max_len, regex.is_global)
    except JsRefusal as exc:
        raise refused(exc, name, path) from None
    except Overdue:
        raise deadline_error(s.limits, path) from None
    finally:
        DEADLINE.reset(token)
