"""The compiler's expression forms: operators, conditionals, JavaScript methods and globals,
arrow functions and their parameters, spreads and merges, optional member access (a mixin of
:class:`dialectic.compiler.closures.Compiler`)."""

from __future__ import annotations

import time
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from functools import partial
from typing import TYPE_CHECKING, Any

from dialectic.compiler import plus as plus_module
from dialectic.compiler.access import Access
from dialectic.compiler.accumulate import (
    ACC,
    concat_owned,
    counted,
    merge_owned,
    pop_owned,
    push_owned,
    set_owned,
    step_results,
)
from dialectic.compiler.direct import Plain, plain_body
from dialectic.compiler.expressions import conditional, nan_plus, operator
from dialectic.compiler.lambdas import (
    GIVEN,
    Arrow,
    Steps,
    comparator_key,
    global_call,
    merge,
    method,
    param_reader,
    plain_method,
)
from dialectic.compiler.plus import Term, chain, extend
from dialectic.compiler.textfold import TextAppend, appended
from dialectic.compiler.trycatch import outer_aliases, throw, try_catch
from dialectic.compiler.whileloop import while_loop
from dialectic.limits import Limits
from dialectic.outcome.errors import DialecticError, JSONPath
from dialectic.resolve.resolver import Resolved
from dialectic.run.evaluator import Compiled, State
from dialectic.tree.nodes import (
    Cond,
    Get,
    Given,
    Global,
    Lambda,
    Lit,
    Merge,
    Method,
    Node,
    Obj,
    Op,
    ParamRef,
    Spread,
    Throw,
    Try,
    While,
)
from dialectic.tree.walking import child_list
from dialectic.values.data import UNDEFINED
from dialectic.values.jsdate import JsDate, parse_iso
from dialectic.values.jsmethods import FOLDS
from dialectic.values.jsops import JsRefusal
from dialectic.values.jsregex import new_regexp
from dialectic.values.serialize import Serializer

__all__ = ["FormsMixin", "optional_link"]


def _spread_value(node: Node) -> Node:
    return node.value if isinstance(node, Spread) else node


def optional_link(node: Node) -> Get | Method | None:
    """The outermost optional link (``$get?``, ``$method?``) of the chain that ``node`` ends,
    following target slots through ``$get`` and ``$method`` (SPEC 1.2: ``a?.b.trim()`` is
    undefined when ``a`` is null or undefined); None if the chain has none."""
    n = node
    while isinstance(n, Get | Method):
        if n.optional:
            return n
        n = n.target
    return None


def _relinked(node: Get | Method, link: Get | Method, given: Given) -> Node:
    """The chain ``node`` with ``link`` reading ``given`` (its target's value) as a plain link."""
    spine: list[Get | Method] = []
    n: Node = node
    while n is not link:
        assert isinstance(n, Get | Method)
        spine.append(n)
        n = n.target
    out: Node = given
    for n in [link, *reversed(spine)]:  # from the link outwards
        if isinstance(n, Get):
            out = Get(n.path, out, n.keys, False, n.soft)
        else:
            out = Method(n.path, out, n.name, n.args, n.fallback)
    return out


def _holds(node: Node, ids: AbstractSet[int]) -> bool:
    """Whether ``node`` or a node below it is one of ``ids``."""
    todo = [node]
    while todo:
        n = todo.pop()
        if id(n) in ids:
            return True
        todo.extend(child_list(n))
    return False


class FormsMixin:
    """Expression forms of :class:`~dialectic.compiler.closures.Compiler` (which sets these
    attributes up)."""

    serializer: Serializer
    limits: Limits
    resolved: Resolved
    access: Access
    errors: list[DialecticError]
    _marked: AbstractSet[int]
    _uncounted: set[int]
    _text_builds: set[int]

    if TYPE_CHECKING:

        def compile(self, node: Node) -> Compiled: ...

        def _combine(
            self, children: list[Compiled], finish: Callable[[list[Any]], Any]
        ) -> Compiled: ...

    def _Op(self, node: Op) -> Compiled:
        if node.op == "+" and len(node.operands) == 2 and not self._marked and plus_module.SPINE:
            return self._plus(node)
        operands = [self.compile(o) for o in node.operands]
        if self.resolved.nan_sites and id(node) in self.resolved.nan_sites:
            return nan_plus(operands[0], node.path, self._combine)  # `+t` tested (SPEC 1.7)
        return operator(
            node.op,
            operands,
            node.path,
            self._combine,
            self.serializer.stringify,
            self.limits.max_string_length,
        )

    def _plus(self, node: Op) -> Compiled:
        """A chain of ``+`` (``a + b + c``: ``(a + b) + c``, each ``+`` the left operand of the
        next) compiled from the innermost ``+`` out, as one closure per ``+`` would compile it,
        with only the closures that are kept built (:func:`~dialectic.compiler.plus.extend`)."""
        spine = [node]
        left = node.operands[0]
        while type(left) is Op and left.op == "+" and len(left.operands) == 2:
            spine.append(left)
            left = left.operands[0]
        stringify, max_len = self.serializer.stringify, self.limits.max_string_length
        out: Compiled | tuple[Term, ...] = self.compile(left)
        for n in reversed(spine):
            right = self.compile(n.operands[1])
            if right.sync is not None and (isinstance(out, tuple) or out.sync is not None):
                out = extend(out, right, n.path, stringify, max_len)
                continue
            if isinstance(out, tuple):
                out = chain(out, stringify, max_len)
            out = operator("+", [out, right], n.path, self._combine, stringify, max_len)
        return chain(out, stringify, max_len) if isinstance(out, tuple) else out

    def _Cond(self, node: Cond) -> Compiled:
        return conditional(
            self.compile(node.test), self.compile(node.then), self.compile(node.otherwise)
        )

    def _Lambda(self, node: Lambda) -> Compiled:
        raise DialecticError("invalid_program", "an arrow function is not a value", node.path)

    def _arrow_or_value(self, node: Node) -> Compiled | Arrow:
        if isinstance(node, Lambda):
            arrow = Arrow(self.compile(node.body), len(node.params), node.locals)
            if id(node) in self.resolved.accumulates:  # (a reduce's: no key, no element)
                arrow.owns = True
                return arrow
            piece = appended(node)
            if piece is not None:  # `(acc, x) => acc + E`: a reduce appending to a text
                arrow.appends = TextAppend(
                    Arrow(self.compile(piece), len(node.params), node.locals),
                    node.body.path,
                    self.serializer.stringify,
                    self.limits.max_string_length,
                    id(node) in self._text_builds,
                )
            shape = comparator_key(node)
            if shape is not None:
                arrow.key = Arrow(self.compile(shape[0]), 1, 0)
                arrow.descending = shape[1]
            if node.params and not node.locals and not self.errors:
                first = node.params[0]
                arrow.direct = self._plain(node.body, first)
                if arrow.key is not None and shape is not None:
                    arrow.key.direct = self._plain(shape[0], first)
            return arrow
        return self.compile(node.value if isinstance(node, Spread) else node)

    def _plain(self, body: Node, param: str) -> Plain | None:
        sites = self.resolved.nan_sites
        if sites and _holds(body, sites):  # (`+x || 0`: its closure gives NaN, SPEC 1.7)
            return None
        return plain_body(
            body,
            param,
            self.compile,
            self.access.member,
            self.serializer.stringify,
            self.limits.max_string_length,
        )

    def _concat_owned(self, node: Method, frame: int, spreads: list[bool]) -> Compiled:
        """A fold's or a reduce's ``acc.concat(...)`` (:func:`concat_owned`)."""
        path = node.path
        gathered = self._combine(
            [self.compile(node.target), *(self.compile(_spread_value(a)) for a in node.args)], list
        )
        plain = plain_method(
            "concat",
            path,
            self._steps(path),
            self.serializer.stringify,
            self.limits.max_string_length,
            self.resolved.match_members,
        )
        field = self.resolved.folds.get(id(node), ACC)
        return concat_owned(gathered, frame, field, spreads, path, self._steps(path), plain)

    def _steps(self, path: JSONPath) -> Steps:
        return Steps(self.resolved.steps_slot, self.limits, path)

    def _Method(self, node: Method) -> Compiled:
        link = optional_link(node)
        if link is not None:
            return self._optional_chain(node, link)
        if node.name in FOLDS and node.args and isinstance(node.args[0], Lambda):
            self._uncounted.update(id(n) for n in step_results(node.args[0].body))
        args = [self._arrow_or_value(a) for a in node.args]
        spreads = [isinstance(a, Spread) for a in node.args if not isinstance(a, Lambda)]
        fallback = self.compile(node.fallback) if node.fallback is not None else None
        marked = self.resolved.accumulates.get(id(node))
        if marked is not None and node.name == "concat":  # `acc.concat(x)`: appends in place
            return self._concat_owned(node, marked[1], spreads)
        if marked is not None and node.name in ("[]=", "toSpliced"):  # `xs[i] = v`: in place
            field = self.resolved.folds.get(id(node))
            parts = [self.compile(node.target), *(self.compile(a) for a in node.args)]
            owned = set_owned if node.name == "[]=" else push_owned  # (`g[i].push(x)`)
            return self._combine(parts, partial(owned, marked[1], field, node.path))
        if marked is not None:  # a fold's `stack.slice(0, -1)` (a `pop()`): in place
            field = self.resolved.folds.get(id(node))
            return self._combine(
                [self.compile(node.target)], partial(pop_owned, marked[1], field, node.path)
            )
        return method(
            node.name,
            self.compile(node.target),
            args,
            spreads,
            node.path,
            self._steps(node.path),
            self.serializer.stringify,
            self._combine,
            fallback,
            max_len=self.limits.max_string_length,
            members=self.resolved.match_members,
        )

    def _Given(self, node: Given) -> Compiled:
        index = node.index
        return Compiled(sync=lambda s: GIVEN.get()[index])

    def _Global(self, node: Global) -> Compiled:
        if node.name == "Date.now" or (node.name == "Date" and not node.args):
            return _clock(self.now, node.name == "Date")
        if node.name in ("Date", "Date.parse") and len(node.args) == 1:
            arg = node.args[0]
            if type(arg) is Lit and type(arg.value) is str:
                try:  # (a text no Date reads is refused where it is written, before a run)
                    parse_iso(arg.value)
                except JsRefusal as exc:
                    raise DialecticError(
                        "invalid_program", exc.message, node.path, hint=exc.hint
                    ) from None
        if node.name == "RegExp":
            texts = [a.value for a in node.args if type(a) is Lit and type(a.value) is str]
            if texts and len(texts) == len(node.args):
                return self._regex(node, texts)
        args = [self.compile(a.value if isinstance(a, Spread) else a) for a in node.args]
        spreads = [isinstance(a, Spread) for a in node.args]
        return global_call(
            node.name,
            args,
            spreads,
            node.path,
            self._steps(node.path),
            self.serializer.stringify,
            self._combine,
            max_len=self.limits.max_string_length,
            nan=bool(self.resolved.nan_sites) and id(node) in self.resolved.nan_sites,
        )

    #: the run's clock fixed (ms since 1970; the Runtime's ``now``), or None: the wall clock
    now: int | None = None

    def _regex(self, node: Global, texts: list[str]) -> Compiled:
        """``/source/flags``: made once, its pattern checked before the program runs."""
        try:
            regex = new_regexp(*texts)
        except JsRefusal as exc:
            raise DialecticError("invalid_program", exc.message, node.path, hint=exc.hint) from None
        return Compiled(sync=lambda s: regex)

    def _While(self, node: While) -> Compiled:
        test, step = node.test, node.step
        assert isinstance(test, Lambda) and isinstance(step, Lambda)
        return while_loop(
            self.compile(node.init),
            Arrow(self.compile(test.body), 1, test.locals),
            Arrow(self.compile(step.body), 1, step.locals),
            self._steps(node.path),
            id(step) in self.resolved.accumulates,  # (its changes in place)
        )

    def _Try(self, node: Try) -> Compiled:
        handler = node.handler
        assert isinstance(handler, Lambda)
        before = [self.compile(ref) for ref in outer_aliases(node.body)]
        arrow = Arrow(self.compile(handler.body), len(handler.params), handler.locals)
        return try_catch(before, self.compile(node.body), arrow)

    def _Throw(self, node: Throw) -> Compiled:
        finish = throw(node.path, self.serializer.stringify)
        return self._combine([self.compile(node.value)], finish)

    def _ParamRef(self, node: ParamRef) -> Compiled:
        return param_reader(node.frame, node.index)

    def _Merge(self, node: Merge) -> Compiled:
        path = node.path
        parts = [self._fields_of(p) if isinstance(p, Obj) else self.compile(p) for p in node.parts]
        marked = self.resolved.accumulates.get(id(node))
        if marked is not None:  # a reduce's step: `{...acc, ...}` changes `acc` in place
            field = self.resolved.folds.get(id(node), ACC)
            return self._combine(parts, partial(merge_owned, marked[1], field, path))
        made = self._combine(parts, lambda vs: merge(vs, path))
        if self.resolved.steps_slot < 0 or id(node) in self._uncounted:
            return made
        return counted(made, self._steps(path))  # (a copy, SPEC 7)

    def _fields_of(self, node: Obj) -> Compiled:
        """An object written among spreads (``{...x, k: v}``): its fields as written, an
        undefined value kept, so that the merge drops that key (SPEC 1.2) instead of keeping
        an earlier part's value."""
        keys = list(node.fields)
        return self._combine(
            [self.compile(node.fields[k]) for k in keys],
            lambda vs: dict(zip(keys, vs, strict=True)),
        )

    def _optional_chain(self, node: Get | Method, link: Get | Method) -> Compiled:
        """The chain ``node`` whose outermost optional link is ``link`` (``a?.b.c``,
        ``a?.b.trim()``, ``x?.trim().length``): undefined when ``link``'s target is null or
        undefined (nothing after it runs); else the chain with ``link`` reading that value."""
        target = self.compile(link.target)
        rest = self.compile(_relinked(node, link, Given(link.target.path, 0)))
        if target.sync is not None and rest.sync is not None:
            tsync, rsync = target.sync, rest.sync

            def read(s: State) -> Any:
                v = tsync(s)
                if v is None or v is UNDEFINED:
                    return UNDEFINED
                token = GIVEN.set((v,))
                try:
                    return rsync(s)
                finally:
                    GIVEN.reset(token)

            return Compiled(sync=read)

        async def aread(s: State) -> Any:
            v = target.sync(s) if target.sync is not None else await target.aio(s)  # type: ignore[misc]
            if v is None or v is UNDEFINED:
                return UNDEFINED
            token = GIVEN.set((v,))
            try:
                return rest.sync(s) if rest.sync is not None else await rest.aio(s)  # type: ignore[misc]
            finally:
                GIVEN.reset(token)

        return Compiled(aio=aread)


def _clock(fixed: int | None, as_date: bool) -> Compiled:
    """``Date.now()`` (``new Date()``: a Date of it): the run's instant, read once a run (the
    Runtime's ``now`` when it is fixed), so that every reading in a run agrees (SPEC 1.8)."""

    def read(s: Any) -> Any:
        t = s.now_ms
        if t is None:
            t = s.now_ms = fixed if fixed is not None else time.time_ns() // 1_000_000
        return JsDate(t) if as_date else t

    return Compiled(sync=read)
