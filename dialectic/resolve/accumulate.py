"""Which ``reduce`` steps may change their accumulator in place (SPEC 1.8, "``reduce``").

``xs.reduce((acc, x) => ({...acc, [x.k]: (acc[x.k] || 0) + 1}), {})`` and ``[...acc, x]`` make
a new object or array per item, as JavaScript does: each step copies the accumulator, so n
distinct keys cost n squared. (The Plan front end writes the in-place idiom ``acc[k] = v;
return acc;`` this way too: :mod:`dialectic.frontends.plan.accumulator`.) When nothing but the
step itself can hold the accumulator, changing it in place gives the same answer at the cost
of the change; :mod:`dialectic.compiler.accumulate` does that, copying the accumulator once
the first time a step changes it (the initial value, or an item of the array, is never
changed).

The arrow's first parameter (``acc``) may be, anywhere in its body:

- the base of the merge or array that is the step's result (the body, a block's result, either
  branch of ``? :``): that merge changes it;
- the step's result as it is (``acc.includes(x) ? acc : [...acc, x]``);
- read without being held: a member (``acc[k]``, ``acc.k``, ``acc.length``), spread into a new
  object, array or arguments (``{...acc}``, ``[...acc]``, ``Math.max(...acc)``: copies), an
  operand of an operator other than ``&&``, ``||``, ``??`` (their value: a number, text or
  boolean), a template's part, a test of ``? :``, the receiver of a method that takes no
  function (``acc.includes(x)``, ``indexOf``, ``join``, ``slice``, ...) and is no registered
  function, the argument of ``Object.keys``, ``Object.values``, ``Object.entries``,
  ``JSON.stringify``, ``Array.isArray``.

Anything else may hold it beyond the step (an alias of it, a field or an item of another value,
a function's argument, an operand of ``??``, the receiver of ``map``, another reduce's initial
value, a merge that is not the step's result): that reduce copies, as before. So does one whose
body holds write calls (SPEC 17): they may run after the step's value, and read ``acc``.
"""

from __future__ import annotations

from collections.abc import Callable, Container

from dialectic.tree.nodes import (
    Arr,
    Block,
    Cond,
    Get,
    Global,
    Lambda,
    Merge,
    Method,
    Node,
    Op,
    ParamRef,
    Spread,
    Template,
)
from dialectic.tree.walking import children, walk
from dialectic.values.jsops import BINARY, UNARY

__all__ = ["COPYING_SPREADS", "accumulating", "appended", "in_place_steps", "reads_only"]

#: methods of the accumulator that read it (their value is new, an item, or a primitive)
_READING_METHODS = frozenset(
    {"includes", "indexOf", "lastIndexOf", "join", "at", "slice", "concat"}
)
#: globals whose value holds none of their first argument itself
_READING_GLOBALS = frozenset(
    {"Object.keys", "Object.values", "Object.entries", "JSON.stringify", "Array.isArray"}
)


#: operators whose value is a number, a text or a boolean (not ``&&``, ``||``, ``??``)
_PRIMITIVE_OPS = frozenset({"+", *BINARY, *UNARY})
#: where ``...acc`` copies its items into a new array (or arguments)
COPYING_SPREADS = frozenset({Arr, Method, Global})


def in_place_steps(lam: Lambda, frame: int) -> list[Node]:
    """The merges (``{...acc, ...}``) and arrays (``[...acc, ...]``) of the ``reduce`` arrow
    ``lam`` (the arrow at nesting level ``frame``) that may change its accumulator in place;
    none when something may hold the accumulator beyond a step."""

    def is_acc(node: Node) -> bool:
        return type(node) is ParamRef and node.frame == frame and node.index == 0

    steps: list[Node] = []
    results: set[int] = set()  # the blocks and conditionals that give the step's result
    stack = [lam.body]
    while stack:
        node = stack.pop()
        if type(node) is Block:
            results.add(id(node))
            stack.append(node.body)
        elif type(node) is Cond:
            results.add(id(node))
            stack.append(node.then)
            stack.append(node.otherwise)
        elif _changes(node, is_acc):
            steps.append(node)
    if not steps:
        return []
    pending: list[Node] = [lam.body]
    while pending:
        parent = pending.pop()
        for kid in children(parent):
            if is_acc(kid):
                if not (_gives(parent, kid, results) or reads_only(parent, kid)):
                    return []
            elif type(kid) is Spread and is_acc(kid.value):
                if type(parent) not in COPYING_SPREADS:
                    return []
            else:
                pending.append(kid)
    return steps


def _changes(node: Node, is_acc: Callable[[Node], bool]) -> bool:
    """Whether ``node`` is ``{...acc, ...}``, ``[...acc, ...]`` or ``acc.concat(...)``."""
    if type(node) is Merge:
        return bool(node.parts) and is_acc(node.parts[0])
    if type(node) is Arr and node.items:
        first = node.items[0]
        return type(first) is Spread and is_acc(first.value)
    target = appended(node)
    return target is not None and is_acc(target)


def appended(node: Node) -> Node | None:
    """The receiver ``a`` when ``node`` is ``a.concat(...)`` (no registered ``concat``, no
    ``?.``, no function among the arguments): a new array, ``[...a, ...]`` when ``a`` is an
    array, that :func:`dialectic.compiler.appends.concat_owned` may make by appending to
    ``a`` in place (a text's ``concat`` stays the text's)."""
    if type(node) is not Method or node.name != "concat" or node.optional:
        return None
    if node.fallback is not None or any(type(a) is Lambda for a in node.args):
        return None
    return node.target


def _gives(parent: Node, acc: Node, results: set[int]) -> bool:
    """Whether ``acc`` is the step's result as it is (or a test of ``? :``)."""
    if id(parent) not in results:
        return False
    return type(parent) is Cond or (type(parent) is Block and parent.body is acc)


def reads_only(parent: Node, acc: Node) -> bool:
    """Whether ``parent`` only reads ``acc``, its child: its value cannot hold it."""
    if type(parent) is Get:
        return parent.target is acc
    if type(parent) is Merge or type(parent) is Template:
        return True  # (a merge copies the members; a template makes a text)
    if type(parent) is Op:
        return parent.op in _PRIMITIVE_OPS
    if type(parent) is Cond:
        return parent.test is acc
    if type(parent) is Method:
        return parent.target is acc and parent.name in _READING_METHODS and parent.fallback is None
    if type(parent) is Global:
        return parent.name in _READING_GLOBALS and bool(parent.args) and parent.args[0] is acc
    return False


def accumulating(
    reducers: list[tuple[Lambda, int, list[Node], dict[int, str | None]]],
    effect_blocks: Container[int] | None,
) -> dict[int, tuple[Node, int]]:
    """The resolver's ``accumulates``: each arrow of ``reducers`` (the arrow, its nesting level,
    its :func:`in_place_steps`) and its steps, by id (the nodes are kept: their ids stay
    theirs). Not an arrow whose body holds a block with effectful statements (SPEC 17, the
    ids ``effect_blocks``): its statements may run after the step's value, and read ``acc``."""
    out: dict[int, tuple[Node, int]] = {}
    for lam, frame, steps, _ in reducers:
        if effect_blocks and any(
            type(n) is Block and id(n) in effect_blocks for n in walk(lam.body)
        ):
            continue
        for node in (lam, *steps):
            out[id(node)] = (node, frame)
    return out
