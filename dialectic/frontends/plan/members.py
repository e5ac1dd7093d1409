"""A member set on an object the block defined (SPEC 10, "Semantics"), as programs finish a
result: ``const stats = {min, max}; stats.avg = sum / n;`` (also ``stats[key] = v;``,
``stats.avg ??= 0;``, :mod:`.logicalset`, and ``delete stats.tmp;``).

The core's values never change, so the change is a new version of the alias: the definition so
far moves to a hidden alias (``_stats1``, and every read of it before the change with it), and
the name is from then on ``{...stats, avg: v}`` (a key set again keeps its place, as in
JavaScript). That is JavaScript's answer only when nothing holds the old object: the alias must
be an object literal of the block (or a deep copy, or the result of a registered function's
call, which is new data), read before the change only member by member (a read of
the whole object, ``const copy = stats;``, ``f(stats)``, ``[stats]``, would see the change in
JavaScript); else the change is refused at the place with what to write. At most
``MAX_CHANGES`` changes per object (each copies it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dialectic.frontends.plan.accumulator import key_set
from dialectic.frontends.plan.base import ParserBase, closing
from dialectic.frontends.plan.callforms import fresh_copy, new_object
from dialectic.frontends.plan.functionscope import inside_function, own_calls
from dialectic.frontends.plan.logicalset import LOGICAL_SETS, only_if
from dialectic.frontends.plan.loopbuild import has_call, scan_reads

if TYPE_CHECKING:
    from dialectic.frontends.plan.blockstate import BlockState
    from dialectic.frontends.plan.restblock import Outer

__all__ = ["MembersMixin"]

MAX_CHANGES = 64
#: the member read (and missing) where `delete` meets an array: the failure's message
_NO_DELETE = {
    "$get": [
        {},
        "delete on an array (a hole): write xs.toSpliced(i, 1)",
    ]
}
#: a block's aliases, where each is defined, and their records (:mod:`.statements`)
_Block = tuple[dict[str, Any], dict[str, int], list[tuple[str, int, int, int, int]]]


#: the compound assignments and their operators (``o.n += 2``), and the steps (``o.n++``)
_COMPOUND = {
    f"{op}=": op for op in ("+", "-", "*", "/", "%", "**", "|", "&", "^", "<<", ">>", ">>>")
}
_STEPS = frozenset(["++", "--"])


def _sets(kinds: list[str], values: list[Any], i: int) -> bool:
    """Whether token ``i`` sets the member before it: ``=``, ``||=``, ``&&=``, ``??=``, a
    compound assignment, or ``++``/``--`` ending the statement."""
    if kinds[i] != "op":
        return kinds[i] == "="
    if values[i] in _STEPS:
        return kinds[i + 1] in (";", "}", "eof")
    return values[i] in LOGICAL_SETS or values[i] in _COMPOUND


def count_change(parser: Any, name: str, pos: int, hint: str) -> None:
    """One more change in place of ``name`` by the statement at token ``pos`` (``parser``: the
    Plan parser, whose ``_member_changes`` counts them): more than ``MAX_CHANGES`` is refused,
    each change being a copy, with ``hint``."""
    counts = parser._member_changes
    if counts is None:
        counts = parser._member_changes = {}
    counts[name] = counts.get(name, 0) + 1
    if counts[name] > MAX_CHANGES:
        raise parser.fail(
            f"`{name}` is changed more than {MAX_CHANGES} times (each change copies it)",
            parser.starts[pos],
            hint,
        )


class MembersMixin(ParserBase):
    """``name.key = value;`` and ``name[key] = value;`` statements of a block."""

    if TYPE_CHECKING:

        def fresh(self, prefix: str) -> str: ...

        def brought_from(self, alias_rec: list[Any], name: str) -> Outer | None: ...
        def brought_value(
            self, alias_rec: list[Any], name: str, pos: int, change: tuple[str, str, str]
        ) -> tuple[Outer, Any, Any] | None: ...

        def _block_state(self, alias_rec: list[Any]) -> BlockState: ...

        def _from_result(self, name: str, aliases: dict[str, Any]) -> bool: ...

        def collection_statement(
            self,
            pos: int,
            block: tuple[dict[str, Any], dict[str, int], list[tuple[str, int, int, int, int]]],
        ) -> bool: ...

    _member_changes: dict[str, int] | None = None
    #: the hidden aliases holding a name's earlier versions
    _hidden_versions: set[str] | None = None

    def member_change(
        self,
        pos: int,
        aliases: dict[str, Any],
        alias_at: dict[str, int],
        alias_rec: list[tuple[str, int, int, int, int]],
    ) -> bool:
        """The statement at token ``pos`` if it sets a member of an alias of the block; False
        when it is no such statement."""
        kinds, values = self.kinds, self.values
        name = values[pos]
        if name not in alias_at or name not in aliases:
            return False
        if self.collection_statement(pos, (aliases, alias_at, alias_rec)):
            return True  # `seen.add(x);` (:mod:`.collections`)
        if kinds[pos + 1] == "." and kinds[pos + 2] == "name" and _sets(kinds, values, pos + 3):
            key: Any = values[pos + 2]
            key_span = (pos + 2, pos + 2)
            value_at = pos + 4
        elif kinds[pos + 1] == "[":
            close = closing(kinds, pos + 1)
            if kinds[close] == "eof" or not _sets(kinds, values, close + 1):
                return False
            self.pos = pos + 2
            key = self.expr(0)
            if self.pos != close:
                raise self.unexpected(self.tok(self.pos), "`]`")
            key_span = (pos + 2, close - 1)
            value_at = close + 2
        else:
            return False
        self._check_member_change(name, pos, aliases, alias_rec)
        op = values[value_at - 1] if kinds[value_at - 1] == "op" else None
        if op is not None and has_call(key):
            raise self.fail(
                f"the key of `{op}` calls a function (JavaScript computes it once)",
                self.starts[key_span[0]],
                f"compute the key first: const k = ...; {name}[k] {op} value;",
            )
        logical = op if op in LOGICAL_SETS else None
        self.pos = value_at
        value = None if op in _STEPS else self.expr(0)
        last = self.pos - 1
        self.end_statement(f"change to `{name}`")
        reads: list[dict[str, Any]] = []
        for tree in (key, value):
            if name in scan_reads(tree, reads)[1]:
                raise self.fail(
                    f"the change to `{name}` holds `{name}` itself (JavaScript would make the "
                    "object contain itself)",
                    self.starts[value_at],
                    f"read the members you need: {name}.key",
                )
        if op in _STEPS or op in _COMPOUND:  # `o.n += 2` (`o.n++`: JavaScript's +o.n + 1)
            current = {"$get": [{"$ref": name}, key]}
            reads.append(current["$get"][0])
            if op in _STEPS:
                value = {"$op": [op[0], {"$op": ["+", current]}, 1]}
            else:
                value = {"$op": [_COMPOUND[op], current, value]}
        part: Any = {"$object": {key: value}} if type(key) is str else key_set(key, value)
        if logical is not None:  # `o.k ??= v`: the key set only when JavaScript sets it
            current = {"$get": [{"$ref": name}, key]}
            reads.append(current["$get"][0])
            part = only_if(logical, current, part, {"$object": {}})
        reads = [n for n in reads if n.get("$ref") == name]
        hidden = self.move_version(name, reads, (aliases, alias_at, alias_rec), pos)
        merged = [{"$ref": hidden}, part]
        aliases[name] = {"$merge": merged}
        alias_rec.append((name, pos, pos, last, self.pos - 1))
        self._put_member(merged, part, key, key_span, pos, value_at, last)
        return True

    def member_delete(self, pos: int, block: _Block) -> bool:
        """``delete name.key;`` (or ``delete name[key];``) at token ``pos`` (``delete``) on an
        object of the ``block`` (its aliases, where each is defined, their records): the alias
        is from then on its entries without that key (JavaScript's order of the others; a key
        set again goes last). False when the statement is no such change."""
        aliases, alias_at, alias_rec = block
        kinds, values = self.kinds, self.values
        name = values[pos + 1]
        if name not in alias_at or name not in aliases:
            return False
        if kinds[pos + 2] == "." and kinds[pos + 3] == "name" and kinds[pos + 4] == ";":
            key: Any = values[pos + 3]
            self.pos = pos + 4
        elif kinds[pos + 2] == "[":
            close = closing(kinds, pos + 2)
            if kinds[close] == "eof" or kinds[close + 1] != ";":
                return False
            self.pos = pos + 3
            key = self.expr(0)
            if self.pos != close:
                raise self.unexpected(self.tok(self.pos), "`]`")
            self.pos = close + 1
            if type(key) is not str:  # (JavaScript's key: the text of a number, of null...)
                key = {"$global": ["String", key]}
        else:
            return False
        self._check_member_change(name, pos + 1, aliases, alias_rec)
        last = self.pos - 1
        self.end_statement(f"`delete` of a member of `{name}`")
        reads: list[dict[str, Any]] = []
        if name in scan_reads(key, reads)[1]:
            raise self.fail(
                f"the key of the `delete` reads `{name}` whole",
                self.starts[pos],
                f"compute the key first: const k = ...; delete {name}[k];",
            )
        reads = [n for n in reads if n.get("$ref") == name]
        reply = self._from_result(name, aliases)  # (an array, or an object: known as it runs)
        hidden = self.move_version(name, reads, block, pos + 1)
        kept = {"$op": ["!==", {"$get": [{"$ref": "_entry"}, 0]}, key]}
        entries = {"$global": ["Object.entries", {"$ref": hidden}]}
        without = {"$method": [entries, "filter", {"$fn": [["_entry"], kept]}]}
        part: Any = {"$global": ["Object.fromEntries", without]}
        if reply:  # (an array's `delete` leaves a hole, or changes nothing: refused as it runs)
            part = {"$if": [{"$global": ["Array.isArray", {"$ref": hidden}]}, _NO_DELETE, part]}
        # (a `$merge` of one part, as a member set's version is: the next change reads it so)
        aliases[name] = {"$merge": [part]}
        alias_rec.append((name, pos + 1, pos, last, self.pos - 1))
        return True

    def move_version(
        self,
        name: str,
        reads: list[dict[str, Any]],
        block: tuple[dict[str, Any], dict[str, int], list[tuple[str, int, int, int, int]]],
        change: int,
    ) -> str:
        """Before a change to the alias ``name`` at token ``change``: its definition so far
        moves to a hidden alias, returned, which the reads so far (``reads`` and the other
        aliases') read; ``name`` is from then on defined at ``change``, declared as it was (a
        `let` changed so may be assigned again: ``xs.sort(); xs = xs.filter(f);``)."""
        aliases, alias_at, alias_rec = block
        hidden = self.fresh(f"_{name}")
        if self._hidden_versions is None:
            self._hidden_versions = set()
        self._hidden_versions.add(hidden)  # (a part's change follows them: .nestedchanges)
        at = self.starts[alias_at[name]]
        for node in reads + self.block_reads().reads_of(aliases, name, at):
            node["$ref"] = hidden  # (the reads so far are of the version before the change)
        aliases[hidden] = aliases.pop(name)
        self.block_reads().rename_records(alias_rec, name, hidden)
        alias_at[hidden] = alias_at[name]
        declared = self.declarator(alias_at[name])
        if declared is not None:
            if self._declarators is None:
                self._declarators = {}
            self._declarators[change] = declared
        if self._versions is None:
            self._versions = set()
        self._versions.add(change)
        if self._version_of is None:
            self._version_of = {}
        self._version_of[change] = alias_at[name]
        alias_at[name] = change
        return hidden

    def _check_member_change(
        self,
        name: str,
        pos: int,
        aliases: dict[str, Any],
        alias_rec: list[tuple[str, int, int, int, int]],
    ) -> None:
        counts = self._member_changes
        if counts is None:
            counts = self._member_changes = {}
        counts[name] = counts.get(name, 0) + 1
        value = aliases[name]
        versioned = type(value) is dict and list(value) == ["$merge"] and counts[name] > 1
        made = self._block_state(alias_rec).finals.get(name)  # a loop's object (not shared)
        outer = self.brought_from(alias_rec, name) if versioned else None
        if not versioned:  # after an `if` that returns (:mod:`.restblock`)
            change = (
                "changed after it",
                "the change",
                f"make a new object: const {name}2 = {{...{name}, key: value}};",
            )
            brought = self.brought_value(alias_rec, name, pos, change)
            if brought is not None:
                outer, value, made = brought
        # (`JSON.parse(JSON.stringify(o))`; a tool's reply is new data)
        fresh = new_object(value) or fresh_copy(value) or self._tool_result(value, pos)
        fresh = fresh or self._part_version(value)  # (`o.a.b = 1; delete o.c;`)
        fresh = fresh or (outer is None and self._from_result(name, aliases))  # (its sets)
        if not versioned and not fresh and made is not None and made[0] == "number":
            raise self.fail(  # `let o = {}; o = f(o); o.k = v;`
                f"`{name}` is changed in place, and it holds the value a statement assigned "
                "it, which may be an object held elsewhere (JavaScript would change it "
                "everywhere it is held)",
                self.starts[pos],
                f"assign a new object instead: {name} = {{...{name}, key: value}};",
            )
        if not versioned and not fresh and (made is None or made[0] != "entry"):
            raise self.fail(
                f"`{name}` is changed in place, and its value is not one the program made here "
                "(data it was given, a member of another value, another name's value: "
                "JavaScript would change it everywhere it is held)",
                self.starts[pos],
                f"make a new object: const {name}2 = {{...{name}, key: value}}; (an array: "
                f"const {name}2 = [...{name}]; {name}2[i] = v;)",
            )
        if counts[name] > MAX_CHANGES:
            raise self.fail(
                f"`{name}` is changed more than {MAX_CHANGES} times",
                self.starts[pos],
                "write the object with its members at once: const o = {a: ..., b: ...};",
            )
        if self.block_reads().whole_reader(aliases, name, self.starts[pos]) is not None:
            first = next((e for e in alias_rec if e[0] == name), None)  # (refused: once)
            where = self.index.where(self.starts[first[1]]) if first else "before"
            raise self.fail(
                f"`{name}` (defined at {where}) is read whole before this change: "
                "JavaScript shares the object, so that read would see the change",
                self.starts[pos],
                f"set the members before reading `{name}` whole, or make a new object: "
                f"const {name}2 = {{...{name}, key: value}};",
            )

    def _part_version(self, value: Any) -> bool:
        """Whether ``value`` is the version a change to a part made (``o.a.b = v;``,
        :mod:`.nestedchanges`): a copy of the version before, which that change found new."""
        if type(value) is not dict or list(value) != ["$method"]:
            return False
        call = value["$method"]
        if type(call) is not list or len(call) != 4 or call[1] != "[]=":
            return False
        receiver = call[0]
        hidden = self._hidden_versions or set()
        return type(receiver) is dict and list(receiver) == ["$ref"] and receiver["$ref"] in hidden

    def _tool_result(self, value: Any, pos: int = -1) -> bool:
        """Whether ``value`` is a call of a registered function (``await get_user(1)``): its
        result is new data, as a tool's reply is (SPEC 1.8 and 5), which nothing else holds.
        In a program with functions of its own, whose calls may return what they were given
        or what the program holds, only for a name in a function's body (token ``pos``: no
        other function holds the body's own local) and a call of no function of the program
        nor of a parameter (:mod:`.functionscope`)."""
        if type(value) is not dict or len(value) != 1:
            return False
        key = str(next(iter(value)))
        if key[:1] == "$":
            return False
        if not self.function_names():
            return True
        return pos >= 0 and inside_function(self, pos) and key not in own_calls(self)

    def _put_member(
        self,
        merged: list[Any],
        part: Any,
        key: Any,
        key_span: tuple[int, int],
        pos: int,
        value_at: int,
        last: int,
    ) -> None:
        rec = self.rec
        if rec is None:
            return
        starts, ends = self.starts, self.ends
        rec[(rec.pin(merged), 0)] = (starts[pos], ends[pos])
        rec[(rec.pin(merged), 1)] = (starts[pos], ends[last])
        if "$object" in part:
            rec[(rec.pin(part["$object"]), key)] = (starts[value_at], ends[last])
