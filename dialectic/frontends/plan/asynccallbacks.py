"""An ``async`` callback of an array method that does not wait for it (SPEC 10, "Functions").

An ``async`` function returns a promise, and only ``map`` (its promises then awaited by
``Promise.all``) and ``forEach`` (refused by :mod:`.loopforms`) are written so by models on
purpose. Plan reads ``await`` inside the callback as the value itself, so elsewhere its answer
would not be Node's: ``filter``, ``find``, ``findIndex``, ``findLast``, ``findLastIndex``,
``some`` and ``every`` test the promise, which is always truthy (``xs.filter(async x => await
ok(x))`` keeps every item in Node); ``flatMap`` does not flatten a promise; a sort's
comparator returning a promise compares as NaN (the order is left as it is). So those are
refused at the ``async``, with what to write. An ``async`` step of ``reduce`` (``reduceRight``)
awaits each step before the next, as ``map``'s callbacks are awaited where their values are
used (SPEC 10's table of deliberate differences): Node's value when the step reads its
accumulator only as ``await acc`` (from the second item on, the accumulator is the promise the
step before returned; ``acc + x`` would make ``"[object Promise]3"``), so any other read of it
is refused at that read."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["async_callback_problem"]

#: methods whose callback's value is tested, flattened or compared: a promise is no answer
_NO_PROMISE = frozenset(
    {
        *("filter", "find", "findIndex", "findLast", "findLastIndex", "some", "every"),
        *("flatMap", "sort", "toSorted"),
    }
)


def async_callback_problem(
    kinds: Sequence[str], values: Sequence[object], pos: int, closes: Sequence[int]
) -> tuple[str, int, str] | None:
    """The problem (message, token, hint) of the ``async`` at token ``pos`` when it starts the
    first argument of such a method, else None (``closes``: each bracket's partner)."""
    if pos < 3 or kinds[pos - 1] != "(" or kinds[pos - 3] not in (".", "op"):
        return None
    if kinds[pos - 3] == "op" and values[pos - 3] != "?.":
        return None
    method = str(values[pos - 2])
    if method in ("reduce", "reduceRight"):
        return _unawaited_accumulator(kinds, values, pos, closes)
    if method in _NO_PROMISE:
        sort = method in ("sort", "toSorted")
        does = "compare" if sort else "flatten" if method == "flatMap" else "test"
        return (
            f"`{method}` does not wait for an `async` callback: it would {does} the promise "
            "the callback returns, not its value",
            pos,
            "get the keys first: const keys = await Promise.all(xs.map(async x => await "
            "key(x))); then sort indices by them, with a comparator that does not await"
            if sort
            else "get the values first, then use them: const vs = await Promise.all(xs.map("
            f"async x => await f(x))); const out = xs.{method}((x, i) => vs[i]);",
        )
    return None


def _unawaited_accumulator(
    kinds: Sequence[str], values: Sequence[object], pos: int, closes: Sequence[int]
) -> tuple[str, int, str] | None:
    """The first read of an ``async`` reduce step's accumulator (its first parameter) that is
    not ``await acc``: in JavaScript it reads the promise the step before returned."""
    at = pos + 1
    if kinds[at] == "name" and values[at] == "function":
        at += 1
        if kinds[at] == "name":
            at += 1  # (`async function step(acc, x)`)
    if kinds[at] == "(":
        at += 1
    if kinds[at] != "name":
        return None  # (a pattern or no parameter: the method's own checks)
    acc = values[at]
    end = closes[pos - 1]
    i = at + 1
    while i < end and not (kinds[i] == "op" and values[i] in ("=>", "{")) and kinds[i] != "{":
        i += 1  # (to the body)
    if kinds[i] == "op" and kinds[i + 1] == "{":
        i += 1
    if kinds[i] == "{" and _awaited_first(kinds, values, i + 1, acc):
        return None  # (`acc = await acc;` first: every later read reads the value)
    i = at + 1
    while i < end:
        if (
            kinds[i] == "name"
            and values[i] == acc
            and kinds[i - 1] != "."
            and not (kinds[i - 1] == "name" and values[i - 1] == "await")
            and not (kinds[i + 1] == ":" and kinds[i - 1] in ("{", ","))
        ):
            return (
                f"the `async` step reads `{acc}` without `await`: from the second item on "
                f"it is the promise the step before returned (`{acc} + x` would make "
                '"[object Promise]x" in JavaScript)',
                i,
                f"await it first: async ({acc}, x) => (await {acc}) + await f(x), or collect "
                "the values first: const vs = await Promise.all(xs.map(async x => await f(x)));"
                " then reduce them",
            )
        i += 1
    return None


def _awaited_first(kinds: Sequence[str], values: Sequence[object], i: int, acc: object) -> bool:
    """Whether the tokens at ``i`` are ``acc = await acc;``."""
    return (
        kinds[i] == "name"
        and values[i] == acc
        and kinds[i + 1] == "="
        and values[i + 2] == "await"
        and values[i + 3] == acc
        and kinds[i + 3] == "name"
        and kinds[i + 4] == ";"
    )
