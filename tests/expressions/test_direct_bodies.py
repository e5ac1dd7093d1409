"""Arrow bodies of one element (`dialectic.compiler.direct`) and their columns
(`dialectic.compiler.columns`) are the same program as the general closures: for random arrays
(objects with and without the key, values of every JSON type, integers beyond 2**53, non-ASCII
and astral texts, elements that are not objects) and the arrow shapes models write, the three
ways give the same outcome: the same value, or the same error at the same place."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dialectic.compiler.direct as direct
import dialectic.compiler.forms as forms
from dialectic import Runtime
from dialectic.compiler.arrows import Arrow

from .test_methods import fn, get, m, op, ref
from .test_node_differential import _check

GENERAL = Runtime(load_entry_points=False)  # arrows applied with frames, node by node
ELEMENTS = Runtime(load_entry_points=False)  # plain functions of the element, no columns
COLUMNS = Runtime(load_entry_points=False)  # as shipped: columns where exact


@contextmanager
def _without(module: Any, name: str, value: Any) -> Iterator[None]:
    saved = getattr(module, name)
    setattr(module, name, value)
    try:
        yield
    finally:
        setattr(module, name, saved)


def outcomes(src: str, xs: Any) -> list[tuple[Any, ...]]:
    with _without(forms, "plain_body", lambda *a: None):
        general = GENERAL.prepare(src, lang="plan")
    with _without(direct, "columnar", lambda node: None):
        elements = ELEMENTS.prepare(src, lang="plan")
    columns = COLUMNS.prepare(src, lang="plan")
    out: list[tuple[Any, ...]] = []
    for prepared in (general, elements, columns):
        o = prepared.run({"xs": xs})
        if o.status == "success":
            out.append(("success", repr(o.value)))
        else:
            assert o.error is not None
            out.append((o.status, o.error.code, o.message))
    return out


VALUES = st.one_of(
    st.integers(min_value=-5, max_value=5),
    st.sampled_from([2**53, 2**53 + 1, -(2**53) - 3, 10**20]),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.sampled_from([1.5, 2.0, -0.0, 0.1]),
    st.sampled_from(["u", "United", "m", "", "é", "😀", "z"]),
    st.booleans(),
    st.none(),
    st.sampled_from([[1, 2], {"b": 1}, {"b": "u"}, []]),
)
OBJECTS = st.dictionaries(st.sampled_from(["a", "b", "c"]), VALUES, max_size=3)
ELEMENT = st.one_of(OBJECTS, OBJECTS, OBJECTS, VALUES)

BODIES = [
    "x.a === 'u'",
    "x.a !== 'u'",
    "x.a === 1",
    "x.a !== 2",
    "x.a === 1.5",
    "x.a === null",
    "x.a !== null",
    "x.a === true",
    "x.a < 3",
    "x.a >= 'm'",
    "x.a > 1.5",
    "x.a <= -2",
    "x.a == 1",
    "x.a",
    "x.a.b",
    "x.a * 2",
    "x.a * 0",
    "x.a + 1",
    "x.a - 3",
    "x.a + 'k'",
    "x.a / 2",
    "({...x, t: x.a * 2})",
    "({...x, t: x.a, u: x.b})",
    "({k: x.a, j: x.b})",
    "({k: x.a > 1})",
    "({})",
    "({...x})",
    "x.a ?? x.b",
    "x.a || 'n'",
    "x.a && x.b",
    "x.a ? 1 : 2",
    "-x.a",
    "!x.a",
    "[x.a, x.b]",
    "[x.a, ...x.b]",
    "x?.a",
    "x.a?.b",
    # members that may be missing (SPEC 1.2, "Optional members")
    "x.a.b ?? 'n'",
    "x?.a ?? 0",
    "x.a?.b ?? 1",
    "x.a === undefined",
    "x.a != null",
    "typeof x.a",
    "x",
    "7",
    "k",
]
METHODS = ["map", "filter", "find", "findIndex", "findLast", "some", "every", "flatMap"]
SORTS = ["(p, q) => p.a - q.a", "(p, q) => q.a - p.a", "(p, q) => p.a.b - q.a.b"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(ELEMENT, max_size=6),
    st.sampled_from(BODIES),
    st.sampled_from(METHODS),
)
def test_one_element_bodies_agree(xs: list[Any], body: str, method: str) -> None:
    src = f"k = 2;\nreturn xs.{method}(x => {body});"
    general, elements, columns = outcomes(src, xs)
    assert elements == general, src
    assert columns == general, src


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(ELEMENT, max_size=6), st.sampled_from(SORTS))
def test_sort_keys_agree(xs: list[Any], comparator: str) -> None:
    src = f"return xs.toSorted({comparator});"
    general, elements, columns = outcomes(src, xs)
    assert elements == general, src
    assert columns == general, src


@pytest.mark.parametrize(
    "xs",
    [
        [{"a": i % 7, "b": "u" if i % 3 else "v"} for i in range(50)],
        [{"a": "u" if i % 2 else "United", "b": i} for i in range(50)],
        [{"a": 2**53 - 1}, {"a": 1}],
    ],
)
@pytest.mark.parametrize("body", BODIES)
def test_columns_on_uniform_objects(xs: list[Any], body: str) -> None:
    """Arrays where every element has the keys: the columns themselves run (above, the
    random arrays mostly send them back to element-by-element)."""
    for method in ("map", "filter", "some", "find"):
        src = f"k = 2;\nreturn xs.{method}(x => {body});"
        general, elements, columns = outcomes(src, xs)
        assert elements == general, src
        assert columns == general, src


def test_which_bodies_are_plain() -> None:
    """What reads only its element compiles to a plain function; what needs a frame does
    not (the index, an enclosing arrow's parameter, a call, an alias of the body)."""

    def arrow_of(src: str) -> Arrow:
        prepared = COLUMNS.prepare(src, lang="plan")
        found: list[Arrow] = []
        stack: list[Any] = [prepared]
        seen: set[int] = set()
        while stack:  # the arrow is held by the method's closure cells
            obj = stack.pop()
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            if isinstance(obj, Arrow):
                found.append(obj)
                continue
            for attr in ("__closure__",):
                cells = getattr(obj, attr, None) or ()
                stack.extend(c.cell_contents for c in cells if c.cell_contents is not None)
            for value in getattr(obj, "__dict__", {}).values():
                stack.append(value)
            if hasattr(obj, "__slots__"):
                stack.extend(getattr(obj, n, None) for n in obj.__slots__ if hasattr(obj, n))
            if isinstance(obj, list | tuple):
                stack.extend(obj)
        assert found, src
        return found[0]

    assert arrow_of("return xs.filter(x => x.a === 1);").direct is not None
    assert arrow_of("return xs.map(x => ({...x, t: x.a * 2}));").direct is not None
    assert arrow_of("return xs.map((x, i) => i);").direct is None
    assert arrow_of("return xs.map(x => ys.map(y => x.a + y));").direct is None


# -- against Node.js: arrays of objects, the shapes the columns compute ------------------------
FIELD = st.one_of(
    st.integers(-3, 3),
    st.sampled_from([1.5, 2**53 - 1, "u", "United", "é", "", True, False, None]),
)
ROWS = st.lists(
    st.fixed_dictionaries({"a": FIELD, "b": FIELD}).map(lambda d: {"$object": d}), max_size=5
)
LITERALS = st.sampled_from([1, 0, 1.5, "u", "é", True, None])


def _row_program(xs: Any) -> st.SearchStrategy[Any]:
    x, a = ref("x"), get(ref("x"), "a")
    return st.one_of(
        st.builds(
            lambda o, k, name: m(xs, name, fn(["x"], op(o, a, k))),
            st.sampled_from(["===", "!==", "<", "<=", ">", ">="]),
            LITERALS,
            st.sampled_from(["filter", "find", "findIndex", "some", "every", "map"]),
        ),
        st.builds(
            lambda o, k: m(xs, "map", fn(["x"], op(o, a, k))),
            st.sampled_from(["*", "+", "-"]),
            st.sampled_from([2, 0, -1, "k"]),
        ),
        st.just(m(xs, "map", fn(["x"], a))),
        st.just(m(xs, "map", fn(["x"], {"$merge": [x, {"$object": {"t": op("*", a, 2)}}]}))),
        st.just(m(xs, "map", fn(["x"], {"$object": {"k": a, "j": get(x, "b")}}))),
        st.just(m(xs, "toSorted", fn(["p", "q"], op("-", get(ref("p"), "a"), get(ref("q"), "a"))))),
        st.just(m(xs, "toSorted", fn(["p", "q"], op("-", get(ref("q"), "a"), get(ref("p"), "a"))))),
    )


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(ROWS.flatmap(_row_program), min_size=20, max_size=40))
def test_object_arrays_agree_with_node(programs: list[Any]) -> None:
    _check(programs, COLUMNS)
