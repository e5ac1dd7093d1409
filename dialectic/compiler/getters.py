"""Reading a member path of a context value with literal keys (``user.profile.first``), the
commonest read of a program: one or two keys are read unrolled, with no loop. Each step reads
a plain dict's key in place and leaves everything else (a missing key, a list, a string, a
registered type, a forbidden name) to the sandbox's :meth:`~dialectic.compiler.access.Access.
member`, exactly as the general reader in :mod:`dialectic.compiler.closures` does."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dialectic.outcome.errors import JSONPath
from dialectic.run.evaluator import State

Member = Callable[[Any, Any, JSONPath], Any]


def context_getter(
    name: str, keys: tuple[Any, ...], member: Member, path: JSONPath
) -> Callable[[State], Any]:
    """The unrolled reader of ``name.k1`` or ``name.k1.k2`` (one or two keys)."""
    if len(keys) == 1:
        (k0,) = keys

        def get_ctx1(s: State) -> Any:
            v = s.context[name]
            if type(v) is dict:
                try:
                    return v[k0]
                except (KeyError, TypeError):
                    pass
            return member(v, k0, path)

        return get_ctx1
    if len(keys) == 2:
        k0, k1 = keys

        def get_ctx2(s: State) -> Any:
            v = s.context[name]
            if type(v) is dict:
                try:
                    w = v[k0]
                except (KeyError, TypeError):
                    pass  # (the sandbox is asked outside the handler: no chained exception)
                else:
                    if type(w) is dict:
                        try:
                            return w[k1]
                        except (KeyError, TypeError):
                            pass
                    return member(w, k1, path)
            return member(member(v, k0, path), k1, path)

        return get_ctx2
    raise ValueError(f"{len(keys)} keys: read in a loop")
