"""An alias whose expression has arrow functions with aliases of their own, first read inside
another arrow function (found by the program differential): the alias is evaluated where it
is defined, so its arrows' frames are its own. It failed with an internal IndexError (its
arrow read the locals of the arrow it was read from) when that arrow's body made a call."""

from __future__ import annotations

import pytest

from .program_oracle import check, runtime

PROGRAMS = [
    "const v1 = [1].map(x => { const y = x; return y; });\nreturn [1].map(p => echo(v1));",
    "const v1 = people.map(({name: n}, i) => n.repeat(i)).join('|');\n"
    "return [1].some(p => later(v1));",
    "const v1 = people.map(({name}) => name);\nreturn [1, 2].map(p => echo(v1).length + p);",
    "const v1 = [5].map(x => { const y = x * 2; return y; });\n"
    "return [1].map(p => { const z = echo(p); return v1[0] + z; });",
    # an arrow's alias first read from a deeper arrow
    "return [1, 2].map(x => { const a = [x].map(y => { const b = y * 10; return b; });"
    " return [3].map(z => echo(a[0]) + z); });",
    "return [1, 2].map(x => { const a = [x].map(y => { const b = later(y); return b; });"
    " return [3, 4].map(z => later(a[0] + z)); });",
    "const v1 = later([2, 1].map(x => { const y = later(x); return y; }));\n"
    "return [1].map(p => later(v1).concat(p));",
]


@pytest.mark.parametrize("program", PROGRAMS)
def test_the_value_is_nodes(program: str) -> None:
    [verdict] = check([program], runtime())
    assert verdict.kind == "same", verdict
