"""An array's change in place as a statement at the top of a block (SPEC 10, "Changes outside
loops"), as programs build and edit a list: ``xs[i] = v;`` (``+=`` and the other compound
assignments, ``??=``, ``||=``, ``&&=``, ``xs[i]++;``, ``xs[i]--;``), ``xs.length = n;``,
``xs.pop();``, ``xs.shift();``, ``xs.unshift(a, b);``, ``xs.splice(start, count, ...items);``,
``xs.fill(v);``.

JavaScript changes the array itself. As a sort does (:mod:`.reorder`), the statement makes a
new version of the alias: the definition so far moves to a hidden alias (``_xs1``, which every
read before the statement reads), and the name is from then on its changed copy:

====================================  ===============================================
``xs[i] = v;``                        ``{"$method": [_xs1, "[]=", i, v]}``
``xs[i] += v;`` (``xs[i]++;``)        ``{"$method": [_xs1, "[]=", i, _xs1[i] + v]}``
``xs[i] ??= v;``                      ``_xs1[i] == null ? <the set> : _xs1``
``xs.length = n;``                    ``{"$method": [_xs1, "length=", n]}``
``xs.pop();`` / ``xs.shift();``       ``_xs1.slice(0, -1)`` / ``_xs1.slice(1)``
``xs.unshift(a, b);``                 ``[a, b, ..._xs1]``
``xs.splice(s, n, ...items);``        ``_xs1.toSpliced(s, n, ...items)``
``xs.fill(v);``                       ``_xs1.map(() => v)``
====================================  ===============================================

(``[]=`` and ``length=``: :mod:`dialectic.values.arraysets`, which refuse an index past the
end, a negative, fractional or text index, as JSON holds no holes nor properties of an
array.) That is JavaScript's answer only when nothing else holds the array: it must be one the
program made (an array literal, ``new Array(n).fill(v)``, ``Array.from``, the new array of
``map``, ``filter``, ``slice``..., a loop's pushes, or a version such a statement made), read
before the statement only through its members and methods; else the statement is refused at
its place, with what to write. At most ``MAX_CHANGES`` changes per array (each copies it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dialectic.frontends.plan.base import closing
from dialectic.frontends.plan.callforms import fresh_copy
from dialectic.frontends.plan.logicalset import LOGICAL_SETS, only_if
from dialectic.frontends.plan.loopbuild import has_call, scan_reads
from dialectic.frontends.plan.members import MAX_CHANGES, count_change
from dialectic.frontends.plan.ownresults import new_result
from dialectic.frontends.plan.reorder import ReorderMixin, arg_spans, new_array

if TYPE_CHECKING:
    from dialectic.frontends.plan.blockstate import BlockState

__all__ = ["ArrayChangesMixin", "array_version", "assigns"]

_Block = tuple[dict[str, Any], dict[str, int], list[tuple[str, int, int, int, int]]]
#: the methods that change an array in place, read as statements here
_METHODS = frozenset(["pop", "shift", "unshift", "splice", "fill"])
#: the compound assignments and their operators
_COMPOUND = {
    f"{op}=": op for op in ("+", "-", "*", "/", "%", "**", "|", "&", "^", "<<", ">>", ">>>")
}


def array_version(value: Any) -> bool:
    """Whether the alias's value ``value`` is surely an array nothing else holds (a literal,
    a new array of a method or a global: not a function's result, which may be an object;
    or the version ``xs[i] ??= v;`` made: ``_xs1[i] == null ? _xs1.[]=(i, v) : _xs1``)."""
    if type(value) is dict and list(value) == ["$if"] and type(value["$if"]) is list:
        parts = value["$if"]
        if len(parts) != 3:
            return False
        sets = [p for p in parts[1:] if not _ref(p)]
        refs = [p for p in parts[1:] if _ref(p)]
        if len(sets) != 1 or len(refs) != 1:
            return False
        items = sets[0].get("$method") if type(sets[0]) is dict else None
        return type(items) is list and items[1:2] == ["[]="] and items[0] == refs[0]
    if type(value) is list:
        return True
    if type(value) is not dict or len(value) != 1:
        return False
    key = next(iter(value))
    return key in ("$method", "$global") and new_array(value)


def assigns(kind: str, value: Any) -> bool:
    """Whether the token sets what stands before it: ``=``, ``+=`` and the other compound
    assignments, ``??=``, ``||=``, ``&&=``, ``++``, ``--``."""
    return kind == "=" or (
        kind == "op" and (value in _COMPOUND or value in LOGICAL_SETS or value in ("++", "--"))
    )


def _ref(node: Any) -> bool:
    return type(node) is dict and list(node) == ["$ref"]


class ArrayChangesMixin(ReorderMixin):
    """``xs[i] = v;``, ``xs.pop();``... statements of a block on an array the program made."""

    if TYPE_CHECKING:

        def _block_state(self, alias_rec: list[Any]) -> BlockState: ...

        _member_changes: dict[str, int] | None

        def _tool_result(self, value: Any, pos: int = -1) -> bool: ...

        def _check_member_change(
            self,
            name: str,
            pos: int,
            aliases: dict[str, Any],
            alias_rec: list[tuple[str, int, int, int, int]],
        ) -> None: ...

    def array_change(self, pos: int, block: _Block) -> bool:
        """The statement at token ``pos`` if it changes an array of the ``block`` in place
        (the module's forms): the alias from then on is its changed copy. False when it is no
        such statement (an object's member set, :mod:`.members`, reads it then)."""
        aliases, alias_at, _ = block
        kinds, values = self.kinds, self.values
        name = values[pos]
        if name not in aliases or name not in alias_at:
            return False
        if kinds[pos + 1] == "." and kinds[pos + 2] == "name" and kinds[pos + 3] == "(":
            if values[pos + 2] not in _METHODS:
                return False
            close = closing(kinds, pos + 3)
            if kinds[close] == "eof" or kinds[close + 1] not in (";", "}", "eof"):
                return False  # (`const x = xs.pop();` reads its value: :mod:`.arrayvalues`)
            self._check_array(name, pos, block, str(values[pos + 2]), methods=True)
            return self._method_change(pos, name, str(values[pos + 2]), block)
        result = self._from_result(name, aliases)
        if not result and not self._made_array(name, block):
            return False
        if kinds[pos + 1] == "." and kinds[pos + 2] == "name":
            key, op = values[pos + 2], values[pos + 3]
            if key == "length" and kinds[pos + 3] == "=":
                self._check_array(name, pos, block, "length")
                return self._set_change(pos, name, "length", (pos + 2, pos + 2), pos + 4, block)
            if not result or not assigns(kinds[pos + 3], op):
                return False  # (an object's member set: :mod:`.members`)
            if op in ("++", "--") and kinds[pos + 4] not in (";", "}", "eof"):
                return False
            self._check_member_change(name, pos, aliases, block[2])  # (a reply's: `[]=`)
            return self._set_change(pos, name, key, (pos + 2, pos + 2), pos + 4, block)
        if kinds[pos + 1] != "[":
            return False
        close = closing(kinds, pos + 1)
        if kinds[close] == "eof":
            return False
        after = close + 1
        op = values[after]
        if not assigns(kinds[after], op):
            return False
        if op in ("++", "--") and kinds[after + 1] not in (";", "}", "eof"):
            return False
        self._check_array(name, pos, block, "item")
        self.pos = pos + 2
        key = self.expr(0)
        if self.pos != close:
            raise self.unexpected(self.tok(self.pos), "`]`")
        return self._set_change(pos, name, key, (pos + 2, close - 1), after + 1, block)

    def _from_result(self, name: str, aliases: dict[str, Any]) -> bool:
        """Whether ``name`` holds a tool's result (``const xs = await get_rows();``: new data,
        which nothing else holds; :meth:`.MembersMixin._tool_result`) or a new copy
        (``JSON.parse(text)``, ``structuredClone(v)``, a call of the program's function whose
        every result is new, :mod:`.ownresults`), or the versions its
        item and member sets made of one: its sets are read as ``[]=`` (``length=``), which
        sets an array's item (its length) or an object's member, as JavaScript does, and
        refuses anything else as it runs (the run knows the value's type, the reading not)."""
        value = aliases[name]
        for _ in range(MAX_CHANGES + 1):
            items = value.get("$method") if type(value) is dict and len(value) == 1 else None
            if type(items) is not list or items[1:2] not in (["[]="], ["length="]):
                break
            ref = items[0].get("$ref") if type(items[0]) is dict else None
            if ref not in aliases:
                return False
            value = aliases[ref]
        return (  # (or `JSON.parse(text)`; or `mk()`, each of its results new: an array
            # or an object, known as it runs, :mod:`.ownresults`)
            self._tool_result(value) or fresh_copy(value) or new_result(self, value)
        )

    def _made_array(self, name: str, block: _Block) -> bool:
        made = self._block_state(block[2]).finals.get(name)  # a loop's pushes
        value = block[0][name]
        return (
            array_version(value)
            or (made is not None and made[0] == "push")
            or new_result(self, value, array_version)  # (`mk()`, each result a new array)
        )

    def _check_array(
        self, name: str, pos: int, block: _Block, what: str, methods: bool = False
    ) -> None:
        """Refused: an array a statement assigned, one the program did not make, one read
        whole before, one changed more than ``MAX_CHANGES`` times."""
        aliases, _, alias_rec = block
        shown = (
            f"{what}()"
            if methods
            else {"length": "its length", "member": "a member"}.get(what, "an item")
        )
        change = f"`{name}.{what}()`" if methods else f"setting {shown} of `{name}`"
        made = self._block_state(alias_rec).finals.get(name)
        if made is not None and made[0] == "number":  # `let xs = f(); xs = g(xs); xs.pop();`
            raise self.fail(
                f"{change} changes the array itself in JavaScript, and `{name}` holds the "
                "value a statement assigned it, which may be an array held elsewhere "
                "(JavaScript would change it everywhere it is held)",
                self.starts[pos],
                f"assign the changed copy instead: {name} = {name}.slice(0, -1); (or "
                f"{name}.toSpliced(...), {name}.with(i, v), [...{name}, v])",
            )
        if methods and not self._made_array(name, block):
            raise self.fail(
                f"{change} changes the array itself in JavaScript, and `{name}` is not an "
                "array the program made here (data it was given, a member of an object, "
                "another name's array, a function's result: JavaScript would change it "
                "everywhere it is held)",
                self.starts[pos],
                f"change a copy: const {name}2 = [...{name}]; {name}2.{what}(...);",
            )
        count_change(
            self,
            name,
            pos,
            "build the array in a loop (`for (...) xs.push(v);`) or with map: "
            "const xs = ys.map((y, i) => ...);",
        )
        reader = self.block_reads().whole_reader(aliases, name, self.starts[pos])
        if reader is not None:
            raise self.fail(
                f"`{name}` is read whole before {change} changes it: JavaScript shares the "
                "array, so that read would see the change",
                self.starts[pos],
                f"change it before reading it whole, or change a copy: const {name}2 = "
                f"[...{name}];",
            )

    def _method_change(self, pos: int, name: str, method: str, block: _Block) -> bool:
        aliases, _, alias_rec = block
        call, args, last = self.method_statement(pos, name, method)
        reads: list[dict[str, Any]] = []
        for arg in args:
            if name in scan_reads(arg, reads)[1]:
                raise self.fail(
                    f"an argument of `{name}.{method}()` holds `{name}` itself (JavaScript "
                    "would make the array contain itself)",
                    self.starts[pos + 4],
                    f"copy it: [...{name}]",
                )
        if method == "fill" and (len(args) != 1 or has_call(args[0])):
            raise self.fail(
                "`fill` as a statement takes one value without a call here (JavaScript "
                "fills from `start` to `end` with one value computed once)",
                self.starts[pos],
                f"build the array: {name} = {name}.map((x, i) => i >= start ? v : x); "
                "(a `let`), or compute the value first: const v = f(); xs.fill(v);",
            )
        reads = [n for n in reads if n.get("$ref") == name]  # (`xs.length`: read before)
        hidden = self.move_version(name, reads, block, pos)
        ref = {"$ref": hidden}
        items: list[Any]
        version: Any
        if method == "pop":
            items = [ref, "slice", 0, -1]
            version = {"$method": items}
        elif method == "shift":
            items = [ref, "slice", 1]
            version = {"$method": items}
        elif method == "unshift":
            items = [*args, {"$spread": ref}]
            version = items
        elif method == "splice":
            items = [ref, "toSpliced", *args]
            version = {"$method": items}
        else:  # fill
            items = [ref, "map", {"$fn": [[], args[0]]}]
            version = {"$method": items}
        aliases[name] = version
        alias_rec.append((name, pos, pos, last, self.pos - 1))
        rec = self.rec
        if rec is not None and method in ("splice", "pop", "shift"):
            rec[(rec.pin(items), 0)] = (self.starts[pos], self.ends[pos])
            rec[(rec.pin(version), "$method")] = (self.starts[pos], self.ends[last])
            arg_spans(rec, call, items)
        return True

    def _set_change(
        self,
        pos: int,
        name: str,
        key: Any,
        key_span: tuple[int, int],
        value_at: int,
        block: _Block,
    ) -> bool:
        """``name[key] op value;`` (``key`` "length": ``name.length = value;``), the operator
        the token before ``value_at``."""
        aliases, _, alias_rec = block
        kinds, values = self.kinds, self.values
        op = str(values[value_at - 1]) if kinds[value_at - 1] == "op" else "="
        if op != "=" and has_call(key):
            raise self.fail(
                f"the index of `{op}` calls a function (JavaScript computes it once)",
                self.starts[key_span[0]],
                f"compute the index first: const i = ...; {name}[i] {op} value;",
            )
        if op in ("++", "--"):
            self.pos = value_at
            value: Any = None
        else:
            self.pos = value_at
            value = self.expr(0)
        last = self.pos - 1
        self.end_statement(f"change to `{name}`")
        reads: list[dict[str, Any]] = []
        for tree in (key, value):
            if name in scan_reads(tree, reads)[1]:
                raise self.fail(
                    f"the change to `{name}` holds `{name}` itself (JavaScript would make the "
                    "array contain itself)",
                    self.starts[value_at if tree is value else key_span[0]],
                    f"copy it: [...{name}]",
                )
        reads = [n for n in reads if n.get("$ref") == name]
        hidden = self.move_version(name, reads, block, pos)
        if key == "length":
            items: list[Any] = [{"$ref": hidden}, "length=", value]
            version: Any = {"$method": items}
        else:
            current = {"$get": [{"$ref": hidden}, key]}
            if op in ("++", "--"):
                value = {"$op": [op[0], {"$op": ["+", current]}, 1]}
            elif op in _COMPOUND:
                value = {"$op": [_COMPOUND[op], current, value]}
            items = [{"$ref": hidden}, "[]=", key, value]
            version = {"$method": items}
            if op in LOGICAL_SETS:
                version = only_if(op, current, version, {"$ref": hidden})
        aliases[name] = version
        alias_rec.append((name, pos, pos, last, self.pos - 1))
        rec = self.rec
        if rec is not None:
            rec[(rec.pin(items), 0)] = (self.starts[pos], self.ends[pos])
            rec[(rec.pin(items), 2)] = (self.starts[key_span[0]], self.ends[key_span[1]])
            rec[(rec.pin(version), next(iter(version)))] = (self.starts[pos], self.ends[last])
        return True
