"""The methods whose value is a new array (``values.jsmethods.NEW_ARRAY_METHODS``): one
constant read by both readings of an in-place reordering, the Plan front end's statement
``ys.sort();`` (:mod:`dialectic.frontends.plan.reorder`) and the resolver's ``xs.m(...).sort()``
(:mod:`dialectic.resolve.inplace`). Each method's new array reordered in place gives what Node
gives, in both forms; an array the new one may hold (an item `with` put in) is still refused."""

from __future__ import annotations

import pytest

from dialectic import Runtime
from dialectic.frontends.plan import reorder
from dialectic.resolve import inplace
from dialectic.values import jsmethods
from dialectic.values.arraysets import ARRAY_SETS
from dialectic.values.jsmethods import NEW_ARRAY_METHODS, NEW_TEXTS_METHODS

from .program_oracle import check, runs_as_in_node, runtime

RT: Runtime = runtime()

#: a new array of each method (``src``: the value it is made of, returned beside it)
MADE = {
    "map": ("const src = [3, 1, 2];", "src.map(x => x * 2)"),
    "filter": ("const src = [3, 1, 2];", "src.filter(x => x > 1)"),
    "slice": ("const src = [3, 1, 2];", "src.slice(0)"),
    "concat": ("const src = [3, 1, 2];", "src.concat([0])"),
    "flat": ("const src = [[3], [1, 2]];", "src.flat()"),
    "flatMap": ("const src = [3, 1, 2];", "src.flatMap(x => [x, -x])"),
    "toSorted": ("const src = [3, 1, 2];", "src.toSorted((a, b) => b - a)"),
    "toReversed": ("const src = [3, 1, 2];", "src.toReversed()"),
    "with": ("const src = [3, 1, 2];", "src.with(0, 5)"),
    "toSpliced": ("const src = [3, 1, 2, 0];", "src.toSpliced(1, 1, 7, 5)"),
    "split": ("const src = 'b,c,a';", "src.split(',')"),
    "match": ("const src = 'b1c2a3';", "src.match(/[a-z]/g)"),
}


def test_one_constant_read_by_both() -> None:
    assert "_NEW_ARRAY" not in vars(reorder) and "_NEW_ARRAY" not in vars(inplace)
    assert vars(reorder)["NEW_ARRAY_METHODS"] is jsmethods.NEW_ARRAY_METHODS
    assert vars(inplace)["NEW_ARRAY_METHODS"] is jsmethods.NEW_ARRAY_METHODS
    assert NEW_TEXTS_METHODS < NEW_ARRAY_METHODS
    # every method there gives a new array in JavaScript (but the versions of `xs[i] = v;` and
    # `xs.length = n;`, which Plan cannot call by name: values/arraysets.py)
    assert set(MADE) == NEW_ARRAY_METHODS - set(ARRAY_SETS)
    assert not NEW_ARRAY_METHODS & {"sort", "reverse", "splice", "keys", "entries", "matchAll"}
    assert reorder.new_array({"$method": [{"$ref": "xs"}, "with", 0, 1]})
    assert not reorder.new_array({"$method": [{"$ref": "xs"}, "at", 0]})


@pytest.mark.parametrize("method", sorted(MADE))
def test_each_new_array_reordered_in_place(method: str) -> None:
    define, made = MADE[method]
    runs_as_in_node(
        [
            f"{define} const ys = {made}.sort(); return [src, ys];",
            f"{define} const ys = {made}; ys.sort(); return [src, ys];",
            f"{define} const ys = {made}.reverse(); return [src, ys];",
            f"{define} const ys = {made}; ys.reverse(); return [src, ys];",
        ],
        RT,
    )


def test_an_array_the_new_one_holds_is_refused() -> None:
    shared = [
        # `a` is an item of the new array `with` made: sorting it sorts `a` in JavaScript
        "const a = [3, 1]; const xs = [[0], [9]]; const b = xs.with(0, a).at(0).sort(); "
        "return [a, b];",
        "const xs = [[3, 1], [9]]; const b = xs.with(1, [7, 2]).at(0).sort(); return [xs, b];",
        "const a = [3, 1]; const b = [[0]].concat([a]).at(-1).sort(); return [a, b];",
    ]
    for verdict in check(shared, RT):
        assert verdict.kind == "refused", verdict
        assert "reorders its array itself" in verdict.detail, verdict
    runs_as_in_node(
        [
            "const a = [3, 1]; const xs = [[0], [9]]; const b = xs.with(0, a).at(0).sort(); "
            "return b;",
            "const xs = [[3, 1], [9]]; const b = xs.with(0, [7, 2]).at(0).sort(); return b;",
            "const t = 'ab'; const b = t.match(/(a)(b)/).reverse(); return [t, b];",
        ],
        RT,
    )


def test_to_spliced_gives_nodes_arrays() -> None:
    """``toSpliced`` (ECMAScript's: a start counted from the end when negative, a count
    clamped, without a count the rest removed, without arguments a copy), and the methods
    models pair with it, against Node."""
    xs = "const xs = [1, 2, 3, 4, 5];\n"
    runs_as_in_node(
        [
            xs + "return [xs.toSpliced(1, 2), xs.toSpliced(1, 0, 'a', 'b'), xs.toSpliced(-2), "
            "xs.toSpliced(2), xs.toSpliced(), xs.toSpliced(1, -1, 'z'), xs];",
            xs + "return [xs.toSpliced(10, 1, 'w'), xs.toSpliced(-10, 2), "
            "xs.toSpliced(1, Infinity), xs.toSpliced(0.5, 1.7), xs.toSpliced(undefined)];",
            xs + "return [xs.toSpliced(1, 1, ...[7, 8]), xs.toSpliced(2, undefined, 9)];",
            xs + "return [xs.with(-1, 0), xs.toSorted((a, b) => b - a), xs.toReversed(), "
            "xs.findLast(x => x < 4), xs.findLastIndex(x => x > 9), xs.at(-2), "
            "xs.flatMap(x => x % 2 ? [x, x] : []), xs.includes(3), xs];",
            "return [1, 2, 3].map(x => x * 2).toSpliced(0, 1).toReversed();",
        ],
        RT,
    )
