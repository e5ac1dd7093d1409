"""Two forms models write that read as JavaScript gives them (SPEC 10, "Mapping to the call
tree"), rewritten before an array method is resolved:

- a registered function of **one parameter passed by name** to an array method
  (``Promise.all(cities.map(get_weather))``): the arrow ``(_v) => get_weather(_v)``. JavaScript
  passes the index and the array too, which a function of one parameter ignores; a function of
  more parameters (an optional one too: ``search(query, limit?)`` would take the index as its
  ``limit``) stays refused, as any function used as a value (``not_a_value``);
- ``pop()`` or ``shift()`` of an array the expression itself just made (``name.split('.').pop()``,
  ``xs.filter(f).shift()``, ``Object.keys(o).pop()``): nothing else holds that array, so the
  change in place shows nowhere and the value is ``.at(-1)`` / ``.at(0)`` (``undefined`` when it
  is empty, as ``pop`` gives). A method that texts have too (``slice``, ``concat``) is no such
  array: ``'ab'.slice(1).pop()`` stays refused, as JavaScript throws there.
"""

from __future__ import annotations

from collections.abc import Callable

from dialectic.registry.registry import Registry
from dialectic.tree.nodes import Call, Global, Lambda, Lit, Method, Node, Ref

__all__ = ["made_array_end", "passed_function"]

#: the array methods that call a function given to them with (item, index, array)
_CALLBACKS = frozenset(
    [
        "map", "filter", "forEach", "flatMap", "find", "findIndex", "findLast", "findLastIndex",
        "some", "every",
    ]
)  # fmt: skip
#: methods of arrays only (no text has them) that give a new array
_NEW_ARRAY_METHODS = frozenset(["split", "map", "filter", "flatMap", "flat", "toSorted"])
_NEW_ARRAY_GLOBALS = frozenset(["Object.keys", "Object.values", "Object.entries", "Array.from"])
#: the parameter of the arrow made for a function passed by name (an arrow's own scope)
_PARAM = "_passed"


def passed_function(
    method: str, arg: Node, registry: Registry | None, bound: Callable[[str], bool]
) -> Node:
    """``arg`` given to the array method ``method``; the arrow calling it when it names a
    registered function of one parameter that no alias or parameter of the program hides."""
    if registry is None or type(arg) is not Ref or method not in _CALLBACKS:
        return arg
    fn = registry.functions.get(arg.name)
    if fn is None or len(fn.parameters) != 1 or bound(arg.name):
        return arg
    path = arg.path
    call = Call(path, arg.name, "array", positional=(Ref(path, _PARAM),))
    return Lambda(path, (_PARAM,), call)


def made_array_end(node: Method) -> Method | None:
    """``x.pop()`` / ``x.shift()`` as ``x.at(-1)`` / ``x.at(0)`` when ``x`` is an array the
    expression itself made; None otherwise."""
    if node.name not in ("pop", "shift") or node.args or node.optional:
        return None
    target = node.target
    made = (
        type(target) is Method and target.name in _NEW_ARRAY_METHODS and not target.optional
    ) or (type(target) is Global and target.name in _NEW_ARRAY_GLOBALS)
    if not made:
        return None
    index = Lit(node.path, -1 if node.name == "pop" else 0)
    return Method(node.path, target, "at", (index,))
