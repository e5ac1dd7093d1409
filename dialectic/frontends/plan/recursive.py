"""The program's recursive functions (SPEC 10, "Recursive functions"): a function that calls
itself, directly or through others, is not written out at its uses (that would never end)
but becomes a ``$letrec`` (SPEC 1.2) at each use from outside its group:

    function total(node) { return node.size + node.children.reduce((s, c) => s + total(c), 0); }
    return total(tree);

is ``{"$letrec": [["total", {"$fn": [["node"], BODY]}], {"$apply": ["total", TREE]}]}``, and
inside ``BODY`` the call ``total(c)`` is ``{"$apply": ["total", C]}``. The group is the
functions that call each other in a cycle (mutual recursion too); each body is written out
once per ``$letrec``. Passed by name (``xs.map(total)``), a recursive function is the arrow
``(a, b) => total(a, b)`` (as many parameters as it has) around such a ``$letrec``.

Refused here: a recursive function that takes functions (a parameter it calls, or an arrow
passed to it), and one with a rest parameter passed by name (as for every function).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from dialectic.frontends.plan.base import ParseFailure

if TYPE_CHECKING:
    from dialectic.frontends.plan.functions import Function

__all__ = ["RecursiveMixin", "cycles"]


def cycles(calls: dict[str, set[str]]) -> dict[str, frozenset[str]]:
    """For each function in a cycle of ``calls`` (name -> the functions its body uses), its
    group: the functions it reaches that reach it back."""
    reach: dict[str, set[str]] = {}
    for name in calls:
        seen: set[str] = set()
        todo = list(calls[name])
        while todo:
            g = todo.pop()
            if g not in seen and g in calls:
                seen.add(g)
                todo.extend(calls[g])
        reach[name] = seen
    return {
        name: frozenset(g for g in seen if name in reach[g])
        for name, seen in reach.items()
        if name in seen
    }


class RecursiveMixin:
    """Uses of recursive functions (a mixin of the functions' mixin)."""

    #: name -> the recursive group of each function in a cycle (made by ``find_cycles``)
    _cyclic: dict[str, frozenset[str]] | None = None
    #: the functions whose ``$letrec`` encloses what is being written out
    _letrec_scope: frozenset[str] = frozenset()

    if TYPE_CHECKING:
        functions: dict[str, Function] | None
        _function_calls: set[int] | None
        _use_at: int
        rec: Any
        keep: list[Any]
        index: Any
        starts: Sequence[int]

        def _expand(self, node: Any, bound: frozenset[str], stack: tuple[str, ...]) -> Any: ...

        def _copy(self, node: Any) -> Any: ...

        def _charge(self, tokens: int, at: int) -> None: ...

        def _fail_at(self, message: str, hint: str) -> ParseFailure: ...

        def _hidden_param(self, n: int) -> str: ...

        def check_arguments(self, what: str, params: list[Any], args: list[Any]) -> None: ...

    def find_cycles(self) -> dict[str, frozenset[str]]:
        """The recursive functions (once per program)."""
        if self._cyclic is not None:
            return self._cyclic
        functions = self.functions or {}
        marks = self._function_calls or set()
        calls: dict[str, set[str]] = {}
        for name, fn in functions.items():
            used: set[str] = set()
            todo: list[Any] = [fn.tree]
            while todo:
                x = todo.pop()
                if type(x) is list:
                    todo.extend(v for v in x if type(v) is dict or type(v) is list)
                    continue
                if len(x) == 1:
                    key, value = next(iter(x.items()))
                    if key == "$ref" and value in functions:
                        used.add(value)
                    elif key in functions and id(x) in marks:
                        used.add(key)
                    elif key == "$quote":
                        continue
                todo.extend(v for v in x.values() if type(v) is dict or type(v) is list)
            calls[name] = used
        self._cyclic = cycles(calls)
        return self._cyclic

    def recursive_use(self, fn: Function, args: list[Any] | None, bound: frozenset[str]) -> Any:
        """The use of the recursive ``fn``: an ``$apply`` inside its group's ``$letrec``, else
        a ``$letrec`` around one (``args`` None: passed by name, an arrow applying it)."""
        where = self.index.where(self.starts[fn.at])
        what = f"the recursive function `{fn.name}` ({where})"
        if fn.called:
            raise self._fail_at(
                f"{what} calls its parameter `{min(fn.called)}`: a recursive function "
                "takes no functions",
                "call the function you mean by its name inside the body",
            )
        if args is None:
            if fn.rest:
                raise self._fail_at(
                    f"the function `{fn.name}` ({where}) has a rest parameter: passed by name "
                    "it would get what the method passes (an item, an index)",
                    f"call it in an arrow function: xs.map(x => {fn.name}(x))",
                )
            params = [self._hidden_param(300 + i) for i in range(len(fn.tree["$fn"][0]))]
            inner = self._in_group(fn, [{"$ref": p} for p in params], bound)
            return {"$fn": [params, inner]}
        for a in args:
            if type(a) is dict and "$fn" in a:
                raise self._fail_at(
                    f"an arrow function passed to {what}: a recursive function takes no functions",
                    "call the function you mean by its name inside the body",
                )
        params = fn.tree["$fn"][0]
        if fn.rest:  # `...more`: the arguments from its place, an array
            before = len(params) - 1
            missing = [{"$undefined": None} for _ in range(before - len(args))]
            args = [*args[:before], *missing, list(args[before:])]
        self.check_arguments(what, params, args)
        return self._in_group(fn, args, bound)

    def _in_group(self, fn: Function, args: list[Any], bound: frozenset[str]) -> Any:
        apply = {"$apply": [fn.name, *args]}
        rec = self.rec
        if rec is not None:
            for i in range(len(args)):
                span = rec.get((id(args), i))
                if span is not None:
                    rec[(rec.pin(apply["$apply"]), i + 1)] = span
        if fn.name in self._letrec_scope:
            return apply
        group = self.find_cycles()[fn.name]
        functions = self.functions
        assert functions is not None
        members = [functions[n] for n in sorted(group, key=lambda n: functions[n].at)]
        for g in members:
            captured = g.free & bound
            if captured:
                name = min(captured)
                raise self._fail_at(
                    f"the function `{g.name}` ({self.index.where(self.starts[g.at])}) reads "
                    f"`{name}` of the top of the program, but where it is used here `{name}` "
                    "is a parameter or a local",
                    f"give that parameter or local another name than `{name}`",
                )
        outer = self._letrec_scope
        self._letrec_scope = outer | group
        try:
            items: list[Any] = []
            for g in members:
                self._charge(g.last - g.first + 1, g.at)
                made = self._copy(g.tree)
                made["$fn"][1] = self._expand(made["$fn"][1], frozenset(made["$fn"][0]), ())
                items.append([g.name, made])
        finally:
            self._letrec_scope = outer
        return {"$letrec": [*items, apply]}
