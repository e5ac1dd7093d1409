"""``{"$try": [body, handler]}`` and ``{"$throw": value}`` compiled (SPEC 1.2).

A ``$try`` first reads every alias of an enclosing block its body reads (JavaScript ran those
statements before it entered the ``try``, so their failures are not the body's), then runs the
body. A failure of the body that JavaScript also throws (:attr:`DialecticError.throws`: a
registered function's call failing, ``$throw``, ``JSON.parse`` of a text that is not JSON) runs
the handler with the error: the thrown value, or ``{name: "Error", message}`` (a function's own
message). Every other
failure (a refusal where JavaScript computes a value, a limit, a cancellation) and every
ambiguity goes on as if there were no ``$try``: catching it would give an answer JavaScript
does not give. The body's concurrent calls have all ended when its failure reaches the
``$try`` (:mod:`dialectic.run.gather`), so nothing it started runs on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dialectic.compiler.arrows import Arrow
from dialectic.outcome.errors import DialecticError, JSONPath
from dialectic.run.evaluator import Compiled, State
from dialectic.tree.nodes import Node
from dialectic.tree.resolved import AliasRef, Block
from dialectic.tree.walking import walk

__all__ = ["outer_aliases", "throw", "try_catch"]


def outer_aliases(body: Node) -> list[AliasRef]:
    """The aliases ``body`` reads that no block inside it defines (one reference each, in the
    order of a walk): linear in the body."""
    inner: set[tuple[int, int]] = set()
    refs: dict[tuple[int, int], AliasRef] = {}
    for n in walk(body):
        t = type(n)
        if t is AliasRef:
            assert isinstance(n, AliasRef)
            refs.setdefault((n.slot, n.frame), n)
        elif t is Block:
            assert isinstance(n, Block)
            inner.update((b.slot, b.frame) for b in n.bindings)
    return [r for key, r in refs.items() if key not in inner]


def error_value(exc: DialecticError) -> Any:
    """What the handler's parameter holds: what ``$throw`` threw, else an error object."""
    if exc.thrown is not None:
        return exc.thrown[0]
    return {"name": "Error", "message": exc.message}


def try_catch(before: list[Compiled], body: Compiled, handler: Arrow) -> Compiled:
    """The compiled ``$try`` (``before``: the outer aliases its body reads, read first)."""
    arity = handler.arity
    firsts = [c.sync for c in before]
    if body.sync is not None and handler.body.sync is not None and None not in firsts:
        bsync, happly = body.sync, handler.apply
        reads: list[Callable[[State], Any]] = [f for f in firsts if f is not None]

        def run(s: State) -> Any:
            for read in reads:
                read(s)
            try:
                return bsync(s)
            except DialecticError as exc:
                if not exc.throws:
                    raise
                return happly(s, (error_value(exc),) if arity else ())

        return Compiled(sync=run)

    async def arun(s: State) -> Any:
        for c in before:
            if c.sync is not None:
                c.sync(s)
            else:
                await c.aio(s)  # type: ignore[misc]
        try:
            if body.sync is not None:
                return body.sync(s)
            return await body.aio(s)  # type: ignore[misc]
        except DialecticError as exc:
            if not exc.throws:
                raise
            s.stopped_by = None  # (caught: no longer what a cancelled evaluation ends with)
            return await handler.aapply(s, (error_value(exc),) if arity else ())

    return Compiled(aio=arun)


def throw(path: JSONPath, stringify: Callable[[Any], str]) -> Callable[[list[Any]], Any]:
    """The finish of a ``$throw``: a failure whose message is the thrown error's (an object's
    ``message``, else the value as text)."""

    def finish(vs: list[Any]) -> Any:
        thrown = vs[0]
        text = thrown.get("message") if type(thrown) is dict else thrown
        message = text if type(text) is str else stringify(thrown)
        err = DialecticError(
            "thrown",
            message or "(an error without a message)",
            path,
            hint="the program threw this (`throw`); catch it with try/catch, or change what "
            "leads to it",
            details={"name": thrown.get("name")} if type(thrown) is dict else {},
        )
        err.throws = True
        err.thrown = (thrown,)
        raise err

    return finish
