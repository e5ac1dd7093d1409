"""``xs.sort(c);`` and ``xs.reverse();`` as statements at the top of a block (SPEC 10, "Changes
outside loops"), as programs finish a list: ``const out = []; for (...) out.push(...);
out.sort((a, b) => b.n - a.n); return out.slice(0, 5);``.

JavaScript reorders the array itself. The core's values never change, so the statement makes a
new version of the alias, as a member set does (:mod:`.members`): the definition so far moves to
a hidden alias (``_out1``, which every read before the statement reads), and the name is from
then on ``_out1.toSorted(c)`` (``toReversed()``). That is JavaScript's answer only when nothing
else holds the array: it must be one the program made (an array literal, a loop's or a push's
array, the new array of ``map``, ``filter``, ``slice``, ``Object.keys``..., a function's
result), read before the statement only through its members and methods (a read of the whole
array, ``const keep = out;``, ``[out]``, would see the new order in JavaScript); else the
statement is refused at its place, with what to write.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from dialectic.frontends.plan.base import ParserBase, closing
from dialectic.frontends.plan.loopbuild import scan_reads
from dialectic.frontends.plan.spans import SpanRecord
from dialectic.values.jsmethods import NEW_ARRAY_METHODS

if TYPE_CHECKING:
    from dialectic.frontends.plan.blockstate import BlockState
    from dialectic.frontends.plan.restblock import Outer

__all__ = ["ReorderMixin", "new_array", "reordered"]

#: globals whose value is a new array
_NEW_GLOBAL = frozenset(
    {"Array.from", "Array.of", "Object.keys", "Object.values", "Object.entries"}
)
_COPIES = frozenset({"JSON.parse", "structuredClone"})
_COPY = {"sort": "toSorted", "reverse": "toReversed"}
_Block = tuple[dict[str, Any], dict[str, int], list[tuple[str, int, int, int, int]]]


def new_array(value: Any, own: frozenset[str] = frozenset()) -> bool:
    """Whether the alias's value ``value`` is an array nothing else holds (also the version
    ``test ? _xs1.toSorted(c) : _xs1`` an ``if (test) xs.sort(c);`` before made of one); a
    call of a registered function is new data, one of ``own`` (the program's functions and
    their parameters, :func:`.functionscope.own_calls`) is not: it may return what the program
    holds (``function mk() { return base; }``)."""
    if type(value) is list:
        return True
    if type(value) is not dict or len(value) != 1:
        return False
    ((key, items),) = value.items()
    if key == "$if":
        return type(items) is list and len(items) == 3 and _conditional_copy(items[1], items[2])
    if key == "$method":
        return type(items) is list and len(items) > 1 and items[1] in NEW_ARRAY_METHODS
    if key == "$global":
        if type(items) is list and len(items) == 2 and items[0] in _COPIES:
            return True  # (`JSON.parse(text)`, without a reviver, which may return any value)
        return type(items) is list and bool(items) and items[0] in _NEW_GLOBAL
    return type(key) is str and key[:1] != "$" and key not in own  # a tool's result: new data


def _conditional_copy(then: Any, other: Any) -> bool:
    """Whether ``then`` is a reordered copy of the hidden version ``other`` names, or both are
    copies of one version (the branches :meth:`ReorderMixin.conditional_reorder` writes): a
    new array either way, as the version before was one (checked when it was reordered)."""
    if not reordered(then):
        return False
    if reordered(other):
        return bool(then["$method"][0] == other["$method"][0])
    return type(other) is dict and "$ref" in other and bool(then["$method"][0] == other)


def _other_reorder(kinds: Sequence[str], values: Sequence[object], at: int, name: object) -> int:
    """For the ``else`` at token ``at``: the first token of its branch when the branch is only
    ``name.sort(...);`` or ``name.reverse();`` (braced or not), else -1."""
    first = at + 1
    braced = kinds[first] == "{"
    i = first + 1 if braced else first
    if not (
        kinds[i] == "name"
        and values[i] == name
        and kinds[i + 1] == "."
        and values[i + 2] in _COPY
        and kinds[i + 3] == "("
    ):
        return -1
    end = closing(kinds, i + 3)
    if kinds[end] == "eof":
        return -1
    end += 1
    end += kinds[end] == ";"
    if braced and (kinds[end] != "}" or closing(kinds, first) != end):
        return -1
    return first


def reordered(value: Any) -> bool:
    """Whether the alias's value ``value`` is a version :class:`ReorderMixin` made."""
    items = value.get("$method") if type(value) is dict and len(value) == 1 else None
    return type(items) is list and len(items) > 1 and items[1] in _COPY.values()


class ReorderMixin(ParserBase):
    """``name.sort(...);`` and ``name.reverse();`` statements of a block."""

    if TYPE_CHECKING:

        def _block_state(self, alias_rec: list[Any]) -> BlockState: ...

        def move_version(
            self, name: str, reads: list[dict[str, Any]], block: _Block, change: int
        ) -> str: ...

        def end_statement(self, what: str) -> None: ...

        def brought_value(
            self, alias_rec: list[Any], name: str, pos: int, change: tuple[str, str, str]
        ) -> tuple[Outer, Any, Any] | None: ...

    def conditional_reorder(self, pos: int, block: _Block) -> bool:
        """``if (test) name.sort(...);`` (or ``{ name.sort(...); }``, no ``else``) at token
        ``pos``: the alias from then on is ``test ? reordered : before`` (the test read once,
        before, as JavaScript's). False when it is no such statement."""
        kinds, values = self.kinds, self.values
        if kinds[pos + 1] != "(":
            return False
        head = closing(kinds, pos + 1)
        if kinds[head] == "eof":  # (a program cut short)
            return False
        braced = kinds[head + 1] == "{"
        at = head + 2 if braced else head + 1
        if kinds[at] != "name" or kinds[at + 1] != "." or values[at + 2] not in _COPY:
            return False
        if kinds[at + 3] != "(":
            return False
        end = closing(kinds, at + 3)
        if kinds[end] == "eof":
            return False
        end += 1
        end += kinds[end] == ";"
        if braced:
            if kinds[end] != "}" or closing(kinds, head + 1) != end:
                return False
            end += 1
        other = -1
        if kinds[end] == "name" and values[end] == "else":
            other = _other_reorder(kinds, values, end, values[at])
            if other < 0:
                return False
        return self.reorder_statement(at, block, pos, other)

    def reorder_statement(
        self, pos: int, block: _Block, test_at: int = -1, other_at: int = -1
    ) -> bool:
        """The statement at token ``pos`` if it is ``name.sort(...);`` or ``name.reverse();``
        of an alias of the ``block`` (its aliases, where each is defined, their records): the
        alias from then on is its reordered copy (``test_at``: the ``if`` whose body the
        statement is, :meth:`conditional_reorder`; ``other_at``: its ``else``'s reorder of the
        same name). False when it is no such statement."""
        aliases, alias_at, alias_rec = block
        kinds, values = self.kinds, self.values
        name, method = values[pos], values[pos + 2]
        if not (
            kinds[pos + 1] == "."
            and kinds[pos + 2] == "name"
            and method in _COPY
            and kinds[pos + 3] == "("
            and name in aliases
            and name in alias_at
        ):
            return False
        close = closing(kinds, pos + 3)
        if kinds[close] == "eof" or kinds[close + 1] not in (";", "}", "eof"):
            return False  # (`xs.sort().map(...)`: an expression; the resolver checks it)
        made = self._block_state(alias_rec).finals.get(name)  # a loop's array
        value = aliases[name]
        change = (
            f"`{method}()` reorders it after it",
            "the new order",
            f"reorder a copy: const {name}2 = [...{name}].{method}(...);",
        )
        brought = self.brought_value(alias_rec, name, pos, change)
        if brought is not None:  # after an `if` that returns (:mod:`.restblock`)
            _, value, made = brought
        if made is not None and made[0] == "number":  # `let xs = ...; xs = f(xs); xs.sort();`
            raise self.fail(
                f"`{method}()` reorders `{name}` itself in JavaScript, and `{name}` holds the "
                "value a statement assigned it, which may be an array held elsewhere "
                "(JavaScript would reorder it everywhere it is held)",
                self.starts[pos],
                f"assign the reordered copy instead: {name} = {name}.{_COPY[method]}"
                f"({'...' if method == 'sort' else ''});",
            )
        from dialectic.frontends.plan.ownresults import held_calls  # (it reads `new_array`)

        if not new_array(value, held_calls(self)) and (made is None or made[0] != "push"):
            raise self.fail(
                f"`{method}()` reorders `{name}` itself in JavaScript, and `{name}` is not an "
                "array the program made (JavaScript would reorder the array it holds, seen "
                "everywhere it is held)",
                self.starts[pos],
                f"reorder a copy: const {name}2 = [...{name}].{method}(...);",
            )
        if self.block_reads().whole_reader(aliases, name, self.starts[pos]) is not None:
            raise self.fail(
                f"`{name}` is read whole before `{method}()` reorders it: JavaScript shares "
                "the array, so that read would see the new order",
                self.starts[pos],
                f"reorder it before reading it whole, or reorder a copy: const {name}2 = "
                f"[...{name}].{method}(...);",
            )
        test: Any = None
        reads: list[dict[str, Any]] = []
        if test_at >= 0:  # `if (test) xs.sort();`: the test, then the statement
            self.pos = test_at + 2
            test = self.expr(0)
            scan_reads(test, reads)
            reads = [r for r in reads if r.get("$ref") == name]  # (they read the array before)
        call, args, last = self.method_statement(pos, name, method)
        if test_at >= 0 and kinds[pos - 1] == "{":
            self.pos += 1  # (the `}` closing the `if`'s body)
        if any(name in scan_reads(arg)[0] for arg in args):
            raise self.fail(
                f"the comparator reads `{name}`, which JavaScript is reordering as it runs",
                self.starts[pos + 4],
                f"read what you need before: const n = {name}.length;",
            )
        hidden = self.move_version(name, reads, block, pos)
        items = [{"$ref": hidden}, _COPY[method], *args]
        aliases[name] = {"$method": items}
        if test_at >= 0:
            otherwise: Any = {"$ref": hidden}
            if other_at >= 0:  # `else name.sort(...);`
                otherwise = self._other_copy(other_at, name, hidden)
            aliases[name] = {"$if": [test, aliases[name], otherwise]}
        alias_rec.append((name, pos, pos if test_at < 0 else test_at, last, self.pos - 1))
        rec = self.rec
        if rec is not None:
            rec[(rec.pin(items), 0)] = (self.starts[pos], self.ends[pos])
            rec[(rec.pin(aliases[name]), "$method")] = (self.starts[pos], self.ends[last])
            rec[(rec.pin(items), "$method")] = (self.starts[pos], self.ends[last])
            arg_spans(rec, call, items)  # (the comparator's place, for its failures)
        return True

    def _other_copy(self, pos: int, name: str, hidden: str) -> dict[str, Any]:
        """The copy the ``else`` branch's ``name.sort(...);`` (token ``pos``, braced or not)
        makes of the version ``hidden``."""
        kinds, values = self.kinds, self.values
        braced = kinds[pos] == "{"
        at = pos + 1 if braced else pos
        method = str(values[at + 2])
        _, args, _ = self.method_statement(at, name, method)
        if any(name in scan_reads(arg)[0] for arg in args):
            raise self.fail(
                f"the comparator reads `{name}`, which JavaScript is reordering as it runs",
                self.starts[at + 4],
                f"read what you need before: const n = {name}.length;",
            )
        if braced:
            self.pos += 1  # (the `}` closing the `else`'s body)
        return {"$method": [{"$ref": hidden}, _COPY[method], *args]}

    def method_statement(
        self, pos: int, name: str, method: str
    ) -> tuple[dict[str, Any], list[Any], int]:
        """The statement ``name.method(...);`` at token ``pos`` read: its call, the call's
        arguments and the call's last token (also for :mod:`.datesetters`)."""
        self.pos = pos
        call = self.expr(0)
        last = self.pos - 1
        self.end_statement(f"`{method}()` of `{name}`")
        assert type(call) is dict and "$method" in call
        return call, call["$method"][2:], last


def arg_spans(rec: SpanRecord, call: dict[str, Any], items: list[Any]) -> None:
    """The places of the call's arguments (``call["$method"][2:]``) for the same arguments in
    ``items``, a version's tree (for their failures)."""
    for i in range(2, len(items)):
        key = (id(call["$method"]), i)
        if key in rec:
            rec[(rec.pin(items), i)] = rec[key]
