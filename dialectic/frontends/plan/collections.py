"""``new Map(...)`` and ``new Set(...)`` as values a program builds and reads (SPEC 10, "Maps
and Sets").

``new Map(entries)`` is ``{"$global": ["Map", entries]}``; a ``new Set(xs)`` that no spread,
``Array.from``, ``.size`` or ``.has`` takes at once (:mod:`.sets`) is ``{"$global": ["Set",
xs]}``. Their reads are methods and members (``m.get(k)``, ``s.has(x)``, ``m.size``). A change
is a statement on a name the program defined as ``new Map(...)``/``new Set(...)``:
``m.set(k, v);``, ``s.add(x);``, ``m.delete(k);``. The core's values never change, so the
statement makes the name's next version, ``m = m.set(k, v)``: at the top of a block as a member
set is (:mod:`.members`: the definition so far moves to a hidden alias), in a loop as the
change ``m = m.set(k, v)`` of an accumulator (a fold, :mod:`.loopfold`). Anywhere else (``const
r = m.set(k, v);``, a chain, an arrow's body) the call stays the call of a function ``set``,
refused by the resolver unless the program's functions have one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dialectic.frontends.plan.accumulator import CHANGES, URL_CHANGES, is_new_collection
from dialectic.frontends.plan.base import ParserBase, closing
from dialectic.frontends.plan.keywords import NEW_HINTS
from dialectic.frontends.plan.loopbuild import scan_reads
from dialectic.values.jsregex import check_flags
from dialectic.values.regexsyntax import RegexSyntax, translate

if TYPE_CHECKING:
    from dialectic.frontends.plan.loopcheck import Body

__all__ = ["CollectionsMixin"]

#: a block's aliases, where each is defined, and their records (:mod:`.statements`)
_Block = tuple[dict[str, Any], dict[str, int], list[tuple[str, int, int, int, int]]]


#: a Map's, a Set's (and an array's) methods that give an iterator: live in JavaScript
_ITERATORS = frozenset(["keys", "values", "entries"])
#: the globals that read an iterator at once
_CONSUMERS = frozenset(["Array.from", "Map", "Set", "new Set", "Object.fromEntries"])


def held_iterators(tree: Any) -> list[dict[str, Any]]:
    """The receivers (``$ref`` nodes) of the iterators (``m.keys()``) ``tree`` keeps, that no
    spread or global reads at once: JavaScript's iterator would see a later change, this one
    not."""
    found: list[dict[str, Any]] = []
    stack: list[tuple[Any, bool]] = [(tree, False)]
    while stack:
        node, read = stack.pop()
        if type(node) is list:
            stack.extend((v, False) for v in node)
            continue
        if type(node) is not dict:
            continue
        for key, value in node.items():
            if key == "$spread":
                stack.append((value, True))
            elif key == "$global" and type(value) is list and value and value[0] in _CONSUMERS:
                stack.extend((v, i == 1) for i, v in enumerate(value))
            elif (
                key == "$method"
                and not read
                and type(value) is list
                and len(value) > 1
                and value[1] in _ITERATORS
                and type(value[0]) is dict
                and "$ref" in value[0]
            ):
                found.append(value[0])
                stack.append((value, False))
            else:
                stack.append((value, False))
    return found


def _iterator_held(p: ParserBase, name: str, receivers: Any, pos: int) -> None:
    """Refused when one of the iterators' ``receivers`` is ``name`` or a version of it."""
    names = {name, *(f"_{name}{n}" for n in range(1, 65))}
    if any(node.get("$ref") in names for node in receivers):
        raise p.fail(
            f"an iterator of `{name}` (keys(), values(), entries()) is kept before this "
            "change: JavaScript's iterator would see the change",
            p.starts[pos],
            f"read it at once, [...{name}.keys()], after the changes",
        )


#: what reads a URL's searchParams at once (a value, not a live view)
_READ_AT_ONCE = frozenset(["get", "getAll", "has", "toString", "size"])
_PARAM_CHANGES = frozenset(["set", "append", "delete"])
_CONSUMING = frozenset(["fromEntries", "from", "URLSearchParams"])


class CollectionsMixin(ParserBase):
    """``new Map(...)`` and the statements that change a Map or a Set."""

    #: the URL names whose searchParams reads were checked (:meth:`_params_read_at_once`)
    _params_checked: set[str] | None = None

    #: the names defined as `new Map(...)` or `new Set(...)`: name -> name token
    _collections: dict[str, int] | None = None

    if TYPE_CHECKING:  # defined by the other mixins

        def arguments(self, args: list[Any], depth: int) -> None: ...

        def _moved(self, args: list[Any], head: list[Any], skip: int) -> list[Any]: ...

        def move_version(
            self, name: str, reads: list[dict[str, Any]], block: _Block, change: int
        ) -> str: ...

        def _end(self, what: str) -> None: ...

    def new_map(self, pos: int, depth: int) -> Any:
        """``new Map(entries)`` at token ``pos`` (``new``, then ``Map`` and ``(``)."""
        self.pos = pos + 3
        args: list[Any] = []
        self.arguments(args, depth)
        if len(args) > 1 or (args and type(args[0]) is dict and "$spread" in args[0]):
            raise self.fail(
                "new Map(...) takes one array of [key, value] pairs",
                self.starts[pos],
                "write new Map(xs.map(x => [x.id, x])) or new Map(Object.entries(o))",
            )
        items = self._moved(args, ["Map"], 0)
        rec = self.rec
        if rec is not None:
            rec[(rec.pin(items), 0)] = (self.starts[pos], self.ends[pos + 1])
        return {"$global": items}

    def regex(self, pos: int) -> Any:
        """The regular expression literal at token ``pos``: ``{"$global": ["RegExp", source,
        flags]}``, its pattern checked here (what RE2 cannot run is refused at its place)."""
        text = self.values[pos]
        end = text.rindex("/")
        source, flags = text[1:end], text[end + 1 :]
        self._check_regex(source, flags, self.starts[pos] + 1, self.starts[pos] + end + 1)
        items = ["RegExp", source, flags] if flags else ["RegExp", source]
        if self.rec is not None:
            self.rec[(self.rec.pin(items), 0)] = (self.starts[pos], self.ends[pos])
        return {"$global": items}

    def _check_regex(self, source: str, flags: str, at: int, flags_at: int) -> None:
        why = check_flags(flags)
        if why is not None:
            raise self.fail(why, flags_at, "use the flags g, i, m, s, u")
        try:
            translate(source, flags)
        except RegexSyntax as exc:
            raise self.fail(exc.message, at + min(exc.offset, len(source)), exc.hint) from None

    def new_regexp(self, pos: int, depth: int) -> Any:
        """``new RegExp(source, flags)`` at token ``pos``: a constant pattern is checked
        here, any other when it runs."""
        start = pos + 3
        self.pos = start
        args: list[Any] = []
        self.arguments(args, depth)
        if len(args) > 2 or any(type(a) is dict and "$spread" in a for a in args):
            raise self.fail(
                "new RegExp(...) takes a pattern and its flags",
                self.starts[pos],
                "write new RegExp(text, 'gi')",
            )
        if args and all(type(a) is str for a in args):
            self._check_regex(
                args[0], args[1] if len(args) > 1 else "", self.starts[start], self.starts[start]
            )
        items = self._moved(args, ["RegExp"], 0)
        if self.rec is not None:
            self.rec[(self.rec.pin(items), 0)] = (self.starts[pos], self.ends[pos + 1])
        return {"$global": items}

    def new_date(self, pos: int, depth: int) -> Any:
        """``new Date(...)`` at token ``pos``: ``{"$global": ["Date", ...]}``."""
        return self._new_written_out(
            pos, depth, "write new Date(text), new Date(ms) or new Date(Date.UTC(y, m, d))"
        )

    def new_web(self, pos: int, depth: int) -> Any:
        """``new URL(text, base)``, ``new URLSearchParams(init)`` at token ``pos``: ``{"$global":
        ["URL", ...]}`` (values/jsurl.py, values/jsparams.py)."""
        made = self.values[pos + 1]
        node = self._new_written_out(
            pos,
            depth,
            "write new URL(text) or new URL(path, base)"
            if made == "URL"
            else "write new URLSearchParams({q: text, page: 2}) or new URLSearchParams(text)",
        )
        if len(node["$global"]) > (3 if made == "URL" else 2):
            raise self.fail(
                f"new {made}(...) takes "
                + ("a URL and a base" if made == "URL" else "one query text, object or pairs"),
                self.starts[pos],
                NEW_HINTS[made],
            )
        return node

    def _new_written_out(self, pos: int, depth: int, hint: str) -> Any:
        """``new X(...)`` at token ``pos``, its arguments written out (no spread)."""
        made = self.values[pos + 1]
        self.pos = pos + 3
        args: list[Any] = []
        self.arguments(args, depth)
        if any(type(a) is dict and "$spread" in a for a in args):
            raise self.fail(
                f"new {made}(...) takes its arguments written out", self.starts[pos], hint
            )
        items = self._moved(args, [made], 0)
        if self.rec is not None:
            self.rec[(self.rec.pin(items), 0)] = (self.starts[pos], self.ends[pos + 1])
        return {"$global": items}

    def collection_alias(self, name: str, value: Any, at: int) -> None:
        """``const name = new Map(...);``: the statements ``name.set(k, v);`` change it."""
        if is_new_collection(value) and (
            value["$global"][0] != "new Set" or id(value) in (self._loose_sets or ())
        ):  # (not `[...new Set(xs)]`: an array)
            if self._collections is None:
                self._collections = {}
            self._collections[name] = at

    def collection_each(self, receiver: Any, item: str, count: int) -> Any:
        """``m.forEach((v, k) => ...)`` on a name defined as a Map or a Set (:mod:`.loopforms`,
        the callback taking ``count`` parameters): the list and the mapper of the loop's items,
        ``[...m.entries()].map(item => [item[1], item[0]])`` (the value, then the key: an
        array's entries give the item and its index, so this is also an array's ``forEach``
        when the name is an array there), also on a Map or a Set made there (``new
        Set(xs).forEach(f)``); None for any other receiver."""
        names = self._collections
        if type(receiver) is not dict:
            return None
        made = receiver.get("$global")
        if type(made) is list and made and made[0] == "new Set":
            receiver = {"$global": ["Set", *made[1:]]}  # (a Set's entries: `[v, v]`)
        elif not (
            (names is not None and receiver.get("$ref") in names)
            or (type(made) is list and made and made[0] in ("Map", "Set"))
        ):
            return None
        pair: Any = {"$ref": item}
        value = {"$get": [pair, 1]}
        made = [value, {"$get": [pair, 0]}] if count == 2 else value
        return [{"$spread": {"$method": [receiver, "entries"]}}], {"$fn": [[item], made]}

    def _change_arguments(self, pos: int) -> tuple[str, list[Any], int]:
        """The method and arguments of ``name.set(k, v);`` at token ``pos``, its last token."""
        method = self._method_at(pos)
        assert method is not None  # (the caller found the change)
        self.pos = pos + (6 if method in URL_CHANGES else 4)
        args: list[Any] = []
        self.arguments(args, 0)
        last = self.pos - 1
        want = URL_CHANGES.get(method) or CHANGES[method]
        if any(type(a) is dict and "$spread" in a for a in args) or len(args) > want:
            takes = ("no argument", "one value", "a key and a value")[want]
            raise self.fail(
                f"{method}() takes {takes} here",
                self.starts[pos + 2],
                f"write {self.values[pos]}.{method}"
                + ("(key, value);" if want == 2 else f"({'value' if want else ''});"),
            )
        return method, args, last

    def _is_change(self, pos: int) -> bool:
        return self._method_at(pos) is not None

    def _method_at(self, pos: int) -> str | None:
        """The method of the statement ``m.set(...)`` at token ``pos`` on a name defined as a
        Map, a Set, a URLSearchParams or a URL (``u.searchParams.set(...)``: the URL's method
        ``searchParams.set``), or None."""
        kinds, values = self.kinds, self.values
        names = self._collections
        if names is None or values[pos] not in names or kinds[pos + 1] != ".":
            return None
        if kinds[pos + 2] != "name":
            return None
        if kinds[pos + 3] == "(":
            return str(values[pos + 2])
        if values[pos + 2] != "searchParams" or kinds[pos + 3] != "." or kinds[pos + 4] != "name":
            return None  # (the token list ends with `eof`: `pos + 5` is there after a name)
        method = f"searchParams.{values[pos + 4]}"
        if kinds[pos + 5] == "(" and method in URL_CHANGES:
            self._params_read_at_once(str(values[pos]))
            return method
        return None

    def _params_read_at_once(self, name: str) -> None:
        """Refuse a URL ``name`` whose query the program changes (``name.searchParams.set(k,
        v);``) when it holds ``name.searchParams`` anywhere (an alias, an argument, an
        iterator of it): JavaScript's is a live view that would see the change. Read at once
        (``.get(k)``, ``.getAll(k)``, ``.has(k)``, ``.toString()``, ``.size``, a change, a
        spread, ``Object.fromEntries``, ``Array.from``, ``new URLSearchParams``) it is a value."""
        checked = self._params_checked
        if checked is None:
            checked = self._params_checked = set()
        if name in checked:
            return
        checked.add(name)
        kinds, values = self.kinds, self.values
        for i in range(len(kinds) - 3):
            if values[i] != name or values[i + 2] != "searchParams" or kinds[i + 1] != ".":
                continue
            after = values[i + 4] if kinds[i + 3] == "." else None
            if after in _READ_AT_ONCE or (after in _PARAM_CHANGES and kinds[i + 5] == "("):
                continue
            if i > 0 and values[i - 1] == "...":
                continue
            if (
                i > 1
                and kinds[i - 1] == "("
                and values[i - 2] in _CONSUMING
                and kinds[i + 3] == ")"
            ):
                continue
            raise self.fail(
                f"`{name}.searchParams` is held while the program changes `{name}`'s query: "
                "JavaScript's is a live view that would see the change",
                self.starts[i],
                f"read what you need where you need it: {name}.searchParams.get(k), "
                f"[...{name}.searchParams], or {name}.searchParams.toString()",
            )

    def collection_change(self, body: Body, pos: int) -> Any:
        """``m.set(k, v);``, ``s.add(x);``, ``m.delete(k);`` in a loop's body at token ``pos``:
        the value of the accumulator's change ``m = m.set(k, v)`` (None for any other
        statement)."""
        method = self._method_at(pos)
        if method is None:
            return None
        if method == "get":
            self._grouping(pos)
            return None
        if method not in CHANGES and method not in URL_CHANGES:
            return None
        name = self.values[pos]
        method, args, last = self._change_arguments(pos)
        self._end(f"`{method}(...)`")
        items = self._moved(args, [{"$ref": name}, method], 0)
        value = {"$method": items}
        self._own_reads(name, args, pos)
        held = [node for tree in body.lets.values() for node in held_iterators(tree)]
        _iterator_held(self, name, held, pos)
        if self.rec is not None:
            self.rec[(self.rec.pin(items), 0)] = (self.starts[pos], self.ends[pos])
            self.rec[(self.rec.pin(value), "$method")] = (self.starts[pos], self.ends[last])
        body.use(value, pos, last)
        return value

    def _own_reads(self, name: str, args: list[Any], pos: int) -> None:
        """A change may read the Map or Set through a member or a method (``m.get(k)``),
        not whole (``m.set(k, m)``: JavaScript would make it hold itself)."""
        for arg in args:
            if name in scan_reads(arg)[1]:
                raise self.fail(
                    f"the change to `{name}` holds `{name}` itself",
                    self.starts[pos],
                    f"read what you need: {name}.get(k), {name}.size, [...{name}]",
                )

    def _grouping(self, pos: int) -> None:
        """``m.get(k).push(x);``: refused with the idiom that runs (the array a Map holds
        does not change in place)."""
        kinds, values = self.kinds, self.values
        close = closing(kinds, pos + 3)
        if (
            kinds[close] != "eof"
            and kinds[close + 1] == "."
            and kinds[close + 2] == "name"
            and kinds[close + 3] == "("
        ):
            name = values[pos]
            raise self.fail(
                f"`{name}.get(k).{values[close + 2]}(...)` changes the array `{name}` holds in "
                "place, where another name could hold it",
                self.starts[close + 2],
                f"set the key to a new array: {name}.set(k, [...({name}.get(k) ?? []), x]);",
            )

    def collection_statement(self, pos: int, block: _Block) -> bool:
        """``m.set(k, v);`` at the top of a block (token ``pos``; ``block``: its aliases, where
        each is defined, their records): the alias ``m`` from then on is its next version, the
        reads so far (and the change's own) read the one before."""
        aliases, _, alias_rec = block
        method = self._method_at(pos)
        if method not in CHANGES and method not in URL_CHANGES:
            if method == "get":
                self._grouping(pos)
            return False
        name = self.values[pos]
        if name not in aliases:
            return False
        if self.block_reads().whole_reader(aliases, name, self.starts[pos]) is not None:
            raise self.fail(
                f"`{name}` is read whole before this change: JavaScript shares the "
                f"{'Map' if self.values[pos + 2] == 'set' else 'collection'}, so that read "
                "would see the change",
                self.starts[pos],
                f"change `{name}` before reading it whole, or read what you need: "
                f"{name}.get(k), {name}.size, [...{name}]",
            )
        held = self.block_reads().iterators_of(aliases, name, self.starts[pos], held_iterators)
        _iterator_held(self, name, held, pos)
        method, args, last = self._change_arguments(pos)
        self.end_statement(f"change to `{name}`")
        self._own_reads(name, args, pos)
        reads: list[dict[str, Any]] = []
        for arg in args:
            found: list[dict[str, Any]] = []
            scan_reads(arg, found)
            reads.extend(n for n in found if n.get("$ref") == name)
        hidden = self.move_version(name, reads, block, pos)
        items = self._moved(args, [{"$ref": hidden}, method], 0)
        aliases[name] = {"$method": items}
        alias_rec.append((name, pos, pos, last, self.pos - 1))
        if self.rec is not None:
            self.rec[(self.rec.pin(items), 0)] = (self.starts[pos], self.ends[pos])
        return True
