"""Recursive functions resolved (``$letrec``, ``$apply``: SPEC 1.2,
:mod:`dialectic.tree.recursion`).

Each function of a ``$letrec`` is resolved as an arrow function of nesting level 0: an
application runs its body in a fresh stack of frames (its parameters and its aliases are the
frame's), whatever arrows the ``$letrec`` stands in. So the body may read only what does not
live in a frame: the aliases of blocks outside every arrow function (the run's memo), constants,
context values and the functions of its group and of enclosing groups. A name that is a
parameter or a local of the code around the ``$letrec`` is refused (JavaScript's function
would read it through a closure, which the call tree has no way to keep).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dialectic.outcome.errors import DialecticError, JSONPath
from dialectic.resolve.blocks import _Scope
from dialectic.resolve.build import lambda_
from dialectic.resolve.expressions import _Params
from dialectic.tree.nodes import Lambda, Node, Spread
from dialectic.tree.recursion import Apply, LetRec

__all__ = ["RecursionMixin"]


class _Hidden(dict[str, int]):
    """The names of the frames around a ``$letrec`` seen from a function's body: reading one
    is refused (``get`` is how the resolver's name lookup asks a scope)."""

    path: JSONPath = ()

    def get(self, name: str, default: Any = None) -> Any:
        if name in self:
            raise DialecticError(
                "invalid_program",
                f"a recursive function's body reads `{name}`, a parameter or a local of the "
                "code around its definition",
                hint="Pass the value as an argument of the function.",
            )
        return default


class RecursionMixin:
    """``$letrec`` and ``$apply`` (a mixin of the resolver)."""

    #: the functions of the enclosing ``$letrec`` groups: name -> its number of parameters
    _recursive: tuple[dict[str, int], ...] = ()

    if TYPE_CHECKING:
        _env: list[Any]
        _arrow_count: int
        _arrow_locals: list[int]
        _conditional: int
        _present: dict[tuple[int, int], int]

        def resolve(self, node: Node) -> Node: ...

        def _steps(self) -> None: ...

    def _LetRec(self, node: LetRec) -> Node:
        group = dict(zip(node.names, (len(fn.params) for fn in node.fns), strict=True))
        outer = self._recursive
        self._recursive = (*outer, group)
        try:
            fns = tuple([self._function(fn) for fn in node.fns])
            body = self.resolve(node.body)
        finally:
            self._recursive = outer
        self._steps()  # (each application is a step)
        return LetRec(node.path, node.names, fns, body)

    def _function(self, fn: Lambda) -> Lambda:
        """``fn`` resolved as an arrow at nesting level 0, seeing only the run's aliases."""
        env = self._env
        hidden = _Hidden()
        seen: list[Any] = []
        for scope in env:
            if isinstance(scope, _Params):
                for name in scope.params:
                    hidden[name] = 0
            elif scope.frame >= 0:
                for name in scope.slots:
                    hidden[name] = 0
            else:
                if hidden:  # (names of frames further out, hidden below this block)
                    seen.append(_Scope(hidden))
                    hidden = _Hidden()
                seen.append(scope)
        if hidden:
            seen.append(_Scope(hidden))
        saved = (self._arrow_count, self._arrow_locals, self._present)
        self._env = [*seen, _Params(fn.params, 0)]
        self._arrow_count, self._arrow_locals, self._present = 1, [0], {}
        self._conditional += 1  # (a body runs once per application: maybe never)
        try:
            body = self.resolve(fn.body)
        finally:
            self._conditional -= 1
            locals_ = self._arrow_locals[0]
            self._arrow_count, self._arrow_locals, self._present = saved
            self._env = env
        made = lambda_(fn.path, fn.params, body, locals_)
        assert isinstance(made, Lambda)
        return made

    def _Apply(self, node: Apply) -> Node:
        name = node.name
        arity = None
        for group in reversed(self._recursive):
            arity = group.get(name)
            if arity is not None:
                break
        if arity is None:
            raise DialecticError(
                "invalid_program",
                f"$apply applies `{name}`, which no enclosing $letrec defines",
                node.path,
                hint='Define it: {"$letrec": [["f", {"$fn": [["n"], body]}], expr]}.',
            )
        if len(node.args) > arity:
            raise DialecticError(
                "invalid_program",
                f"`{name}` takes {arity} argument{'s' if arity != 1 else ''}, "
                f"given {len(node.args)}",
                node.path,
            )
        for a in node.args:
            if isinstance(a, Spread):
                raise DialecticError(
                    "invalid_program",
                    f"a spread argument of `{name}`: the call tree applies a function to "
                    "arguments one by one",
                    a.path,
                    hint="Give the function an array parameter and pass the array.",
                )
        args = tuple([self.resolve(a) for a in node.args])
        return Apply(node.path, name, args)
