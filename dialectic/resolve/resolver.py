"""The resolver: syntax nodes + registry in, resolved nodes out (starlark-go's resolver is the
model: a pass of its own, before and apart from evaluation).

Everything about names and shape that can be known before a run is decided here, once, for every
consumer (the compiler, ``Runtime.compile`` / ``dialectic compile``, the canonical writer):

- names: an alias of an enclosing block, a registered constant (also up to case and
  underscores), a function used as a value (an error), a forbidden name, else a context value;
- calls: the function (also up to case and underscores, with a warning) and the binding of the
  arguments to its parameters (SPEC 1.5);
- aliases: a memo slot each, the aliases each one reads, the dependency order, cycles;
- static limits and checks: ``max_calls``, forbidden member and object keys, ``$use`` only at
  the top, literal templates within ``max_string_length``.

Problems are collected, so one pass reports every problem it finds (each node that fails becomes
an ``Undefined`` placeholder and the walk goes on).

Here: the walk; names are resolved by the mixin :mod:`dialectic.resolve.names`, calls by
:mod:`dialectic.resolve.calls`, expression forms (methods, arrow functions) by
:mod:`dialectic.resolve.expressions`, operators and conditionals by
:mod:`dialectic.resolve.operators`, blocks of aliases and their order by
:mod:`dialectic.resolve.blocks`.

Cost (every new program pays it): one dispatch per node through a table of unbound functions
built once per class; the nesting is counted only inside an alias's expression (where an alias's
``depth`` needs it); a literal resolves to itself without a frame; a free name's meaning is
decided once per program; binding facts are kept per registry and function
(:mod:`dialectic.resolve.calls`); the hottest nodes are built through their mutable twins
(:mod:`dialectic.resolve.build`); an array or object of literals resolves to itself.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

from dialectic.limits import Limits
from dialectic.outcome.errors import DialecticError, JSONPath, LimitExceeded
from dialectic.registry.descriptions import FunctionDescription
from dialectic.registry.registry import Registry
from dialectic.resolve.accumulate import accumulating
from dialectic.resolve.binding import Signature
from dialectic.resolve.blocks import BlocksMixin, _Scope
from dialectic.resolve.build import (
    GetTwin,
    arr,
    obj,
    or_empty,
    template,
)
from dialectic.resolve.calls import CallsMixin
from dialectic.resolve.effects import EffectInfo, analyze
from dialectic.resolve.expressions import ExpressionsMixin, _Params
from dialectic.resolve.foldtext import Marks
from dialectic.resolve.forbidden import FORBIDDEN_MEMBERS, forbidden_error
from dialectic.resolve.maybe import Reads
from dialectic.resolve.maynan import NanState
from dialectic.resolve.names import NamesMixin
from dialectic.resolve.recursion import RecursionMixin
from dialectic.tree.dispatch import unbound_table
from dialectic.tree.nodes import (
    Arr,
    Get,
    Given,
    Lambda,
    Let,
    Lit,
    Method,
    Node,
    Obj,
    Template,
    Undefined,
    Unwrap,
)
from dialectic.values.matchinfo import MEMBERS as MATCH_MEMBERS


class ResolveErrors(Exception):
    """Every problem the resolver found (the first one is the message)."""

    def __init__(self, errors: list[DialecticError]) -> None:
        super().__init__(str(errors[0]))
        self.errors = errors


class Resolved:
    """The resolver's result: the resolved root and what it learned about the program."""

    __slots__ = (
        "root",
        "mode",
        "warnings",
        "context_refs",
        "alias_names",
        "memo_size",
        "constant_slots",
        "calls",
        "steps_slot",
        "effects",
        "accumulates",
        "folds",
        "texts",
        "match_members",
        "nan_sites",
    )

    def __init__(
        self,
        root: Node,
        mode: str,
        warnings: list[str],
        context_refs: dict[str, JSONPath],
        alias_names: set[str],
        memo_size: int,
        constant_slots: dict[str, int],
        calls: int,
        steps_slot: int = -1,
    ) -> None:
        self.root = root
        self.mode = mode
        self.warnings = warnings
        #: context names the program reads, with the first place each is read
        self.context_refs = context_refs
        self.alias_names = alias_names
        #: memo slots: one per alias, one per constant with a factory
        self.memo_size = memo_size
        self.constant_slots = constant_slots
        self.calls = calls
        #: the memo slot that counts method steps, or -1
        self.steps_slot = steps_slot
        #: effectful calls and expression statements (SPEC 17): the plan, else None
        self.effects: EffectInfo | None = None
        #: the ``reduce`` arrows, and the merges and arrays of their bodies, that change the
        #: accumulator in place (:mod:`dialectic.resolve.accumulate`): id -> (the node, the
        #: arrow's nesting level)
        self.accumulates: dict[int, tuple[Node, int]] = {}
        #: of those, the changes of a fold's state (:mod:`dialectic.resolve.foldstate`): id ->
        #: the field it may change in place, or None (it copies)
        self.folds: dict[int, str | None] = {}
        #: the texts folds build by appends (:mod:`dialectic.resolve.foldtext`)
        self.texts: Marks = {}
        #: whether the program may read a regex match array's index, input or groups (then
        #: its matches keep them: :mod:`dialectic.values.matchinfo`)
        self.match_members = True
        #: the ids of the calls that give NaN where the program tests for it (SPEC 1.7,
        #: :mod:`dialectic.resolve.maynan`); every other one refuses it
        self.nan_sites: set[int] = set()


class _Table(dict[type[Node], Callable[[Any, Any], Node]]):
    """The resolver's handlers by node class; a class without one is an invalid program."""

    def __missing__(self, cls: type[Node]) -> Callable[[Any, Any], Node]:
        return _unknown_node


def _unknown_node(resolver: Any, node: Node) -> Node:
    raise DialecticError("invalid_program", f"unknown node {type(node).__name__}")


_TABLES: dict[type, _Table] = {}


class Resolver(CallsMixin, ExpressionsMixin, BlocksMixin, NamesMixin, RecursionMixin):
    """Resolves one program. With ``registry=None`` (corpus analysis) every call is a
    :class:`DomainCall` read by the analysis conventions and every free name a context value."""

    def __init__(self, registry: Registry | None, limits: Limits) -> None:
        # every attribute is set here, in one order (instances share one layout of keys)
        self.registry = registry
        self.limits = limits
        self.errors: list[DialecticError] = []
        self.warnings: list[str] = []
        self.context_refs: dict[str, JSONPath] = {}
        self.alias_names: set[str] = set()
        self.memo_size = 0
        self.calls = 0
        self.constant_slots: dict[str, int] = {}
        #: the resolver's nesting level (resolve calls in progress), counted only while some
        #: block resolves an alias's expression (``_reading``: how many do): the levels are
        #: read relative to where that expression starts
        self._level = 0
        self._reading = 0
        #: the innermost block when it is resolving an alias's expression (its height grows
        #: with each nested node), else None
        self._cur: _Scope | None = None
        #: how many conditional branches (`? :` arms, right operands of && || ??) enclose the
        #: node being resolved
        self._conditional = 0
        #: how many arrow functions enclose the node being resolved, and per arrow being
        #: resolved, how many local alias slots its body has so far
        self._arrow_count = 0
        self._arrow_locals: list[int] = []
        #: alias blocks and arrow parameters around the node, innermost last (name lookup)
        self._env: list[_Scope | _Params] = []
        #: how often each alias or context name is read (a `sort` of a name read elsewhere
        #: would change what those reads see in JavaScript)
        self.ref_counts: dict[str, int] = {}
        #: aliases that may miss (SPEC 1.2, :mod:`dialectic.resolve.maybe`): the reads of each
        #: that may see undefined, and the aliases the enclosing branches' tests show are there
        self._may_see: Reads = {}
        self._present: dict[tuple[int, int], int] = {}
        self._candidates: set[tuple[int, int]] = set()
        #: NaN that the program tests for (SPEC 1.7, :mod:`dialectic.resolve.maynan`), and its
        #: aliases the enclosing branches' tests show are no NaN
        self._nan = NanState()
        self._nan_shown = self._nan.shown
        self._in_place: list[tuple[Method, Node, int, tuple[object, ...]]] = []
        #: the ``reduce`` arrows that may change their accumulator in place: (the arrow, its
        #: nesting level, the merges and arrays that change it)
        self.reducers: list[tuple[Lambda, int, list[Node], dict[int, str | None]]] = []
        self.texts: Marks = {}  # (:mod:`dialectic.resolve.foldtext`)
        #: the memo slot counting method steps (-1: the program has no methods)
        self.steps_slot = -1
        #: whether the program may read a regex match array's members (a literal key
        #: `index`, `input`, `groups`, a computed key, Object.keys/values/entries,
        #: structuredClone)
        self.match_members = False
        #: write/destructive calls and expression statements seen (SPEC 17)
        self.ordered = 0
        #: free name -> its registered constant or _CONTEXT (decided once per program)
        self._free: dict[str, Any] = {}
        #: function name -> (function, its binding facts, whether it changes things), and
        #: JavaScript method name -> whether it is a registered function too: the registry's,
        #: fetched on the first call
        self._sigs: dict[str, tuple[weakref.ref[FunctionDescription], Signature, bool]] | None = (
            None
        )
        self._methods: dict[str, bool] | None = None
        self._known_free: dict[str, Any] | None = None
        #: whether the registry has namespaced functions (None: not asked yet)
        self._bare: bool | None = None
        table = _TABLES.get(type(self))
        if table is None:
            table = _TABLES[type(self)] = _Table(unbound_table(type(self), "_"))
        self._table = table

    # -- entry ----------------------------------------------------------------------------
    def resolve_root(self, root: Node) -> Resolved:
        mode = root.mode if isinstance(root, Let) else "return"
        resolved = self._top(root) if isinstance(root, Let) else self.resolve(root)
        if self._in_place:
            self._check_in_place()
        if self.calls > self.limits.max_calls:
            self.errors.insert(
                0,
                LimitExceeded(
                    "max_calls",
                    f"the program makes {self.calls} calls; the limit is {self.limits.max_calls}",
                ),
            )
        if self.errors:
            raise ResolveErrors(self.errors)
        out = Resolved(
            resolved,
            mode,
            self.warnings,
            self.context_refs,
            self.alias_names,
            self.memo_size,
            self.constant_slots,
            self.calls,
            self.steps_slot,
        )
        out.match_members = self.match_members
        out.nan_sites = self._nan.sites
        out.texts = self.texts
        if self.ordered:  # effectful calls or expression statements (SPEC 17)
            out.effects = analyze(resolved)
        if self.reducers:
            blocks = out.effects.blocks if out.effects is not None else None
            out.accumulates = accumulating(self.reducers, blocks)
            out.folds = {
                key: field
                for *_, fields in self.reducers
                for key, field in fields.items()
                if key in out.accumulates
            }
        return out

    def _top(self, node: Let) -> Node:
        """:meth:`resolve` for the program's top block (where ``$use`` is allowed)."""
        try:
            return self._block(node, top=True)
        except DialecticError as exc:
            return self._failed(exc, node)

    def resolve(self, node: Node) -> Node:
        """The resolved form of ``node``; a node that fails is recorded and becomes an
        ``Undefined`` placeholder (the walk goes on)."""
        if self._reading:  # inside an alias's expression: its nesting is measured
            level = self._level + 1
            self._level = level
            cur = self._cur
            if cur is not None and level - cur.start > cur.top:
                cur.top = level - cur.start
            try:
                result: Node = self._table[type(node)](self, node)
                return result
            except DialecticError as exc:
                return self._failed(exc, node)
            finally:
                self._level = level - 1
        try:
            result = self._table[type(node)](self, node)
            return result
        except DialecticError as exc:
            return self._failed(exc, node)

    def _failed(self, exc: DialecticError, node: Node) -> Node:
        """A node that failed: its error is recorded, an ``Undefined`` takes its place."""
        if not exc.path:
            exc.path = node.path
        self.errors.append(exc)
        return Undefined(node.path)

    def leaf(self) -> None:
        """What :meth:`resolve` records of a leaf below the current node (a literal, which
        resolves to itself): the height of the alias being read. Callers may skip it when
        ``_cur`` is None."""
        cur = self._cur
        if cur is not None:
            height = self._level + 1 - cur.start
            if height > cur.top:
                cur.top = height

    # -- structure ------------------------------------------------------------------------
    def _Lit(self, node: Lit) -> Node:
        return node

    def _Undefined(self, node: Undefined) -> Node:
        return node

    def _Arr(self, node: Arr) -> Node:
        for item in node.items:
            if type(item) is not Lit:
                return arr(node.path, self._items(node.items))
        if node.items and self._cur is not None:
            self.leaf()
        return node  # only literals: the array resolves to itself

    def _Given(self, node: Given) -> Node:
        return node

    def _Obj(self, node: Obj) -> Node:
        given = node.fields
        if "__proto__" in given:
            raise forbidden_error("__proto__", (*node.path, "__proto__"))
        fields: dict[str, Node] | None = None
        literal = False
        resolve = None if not self._reading else self.resolve
        table = self._table
        for k, v in given.items():
            if type(v) is Lit:  # a literal resolves to itself
                literal = True
                continue
            if fields is None:
                fields = dict(given)  # (the literals as they are)
            if resolve is not None:
                fields[k] = resolve(v)
                continue
            try:  # resolve(v), inline (nothing is measured outside an alias's expression)
                fields[k] = table[type(v)](self, v)
            except DialecticError as exc:
                fields[k] = self._failed(exc, v)
        if literal and self._cur is not None:  # the literals' height, once (a maximum)
            self.leaf()
        if fields is None:  # only literals: the object resolves to itself
            return node
        return obj(node.path, fields, node.explicit)

    def _Unwrap(self, node: Unwrap) -> Node:
        return Unwrap(node.path, self.resolve(node.value))

    def _Template(self, node: Template) -> Node:
        resolved: list[str | Node] = []
        literal = 0
        resolve = self.resolve
        for p in node.parts:
            if type(p) is str or isinstance(p, str):
                literal += len(p)
                resolved.append(p)
            elif type(p) is not Lit:
                if self._reading:
                    resolved.append(resolve(p))
                    continue
                try:  # resolve(p), inline (nothing is measured outside an alias's expression)
                    resolved.append(self._table[type(p)](self, p))
                except DialecticError as exc:
                    resolved.append(self._failed(exc, p))
            else:  # a literal resolves to itself (its height counted)
                if self._cur is not None:
                    self.leaf()
                resolved.append(p)
        max_len = self.limits.max_string_length
        if literal > max_len:
            raise LimitExceeded(
                "max_string_length",
                f"a template would produce {literal} characters; the limit is {max_len}",
                node.path,
            )
        return template(node.path, tuple(resolved))

    def _Get(self, node: Get) -> Node:
        keys = node.keys
        literal = True
        for k in keys:
            if type(k) is Lit:
                v = k.value
                if type(v) is str or isinstance(v, str):
                    if v in FORBIDDEN_MEMBERS or v.startswith("__"):
                        raise forbidden_error(v, k.path)
                    if v in MATCH_MEMBERS:  # (a literal key may be any JSON value)
                        self.match_members = True
            else:
                literal = False
                self.match_members = True
        target = node.target
        if self._reading:
            target = self.resolve(target)
        else:
            try:  # resolve(target), inline (nothing is measured outside an alias's expression)
                target = self._table[type(target)](self, target)
            except DialecticError as exc:
                target = self._failed(exc, target)
        if literal:  # literal keys resolve to themselves
            if self._cur is not None and keys:
                self.leaf()
        else:
            keys = tuple([self.resolve(k) for k in keys])
        made = GetTwin()
        made.path = node.path
        made.keys = keys
        if node.optional:  # `x?.b`, `x.a?.b`: `b`, and `a`, may be missing (SPEC 1.2)
            made.target = self._soft(target)
            made.soft = node.soft | 1
        else:
            made.target = target
            made.soft = node.soft | 1 if or_empty(node.target) else node.soft
        made.optional = node.optional
        made.__class__ = Get
        out: Node = made
        return out


def resolve(registry: Registry | None, limits: Limits, root: Node) -> Resolved:
    """Resolve a parsed program; raises :class:`ResolveErrors` with every problem found."""
    return Resolver(registry, limits).resolve_root(root)
