"""A change to a part of a value the program wrote, as a statement at the top of a block (SPEC
10, "Changes outside loops"): ``m.a.b = v;``, ``mat[1][0] = v;``, ``o.list[i].k += 1;``,
``m.a.c.push(x);`` (also ``pop``, ``shift``, ``unshift``, ``splice``).

JavaScript changes the part itself. As a member set does (:mod:`.members`), the statement makes
the name's next version, a copy along the path: ``m.a.b = v`` is ``_m1.[]=('a',
_m1.a.[]=('b', v))`` (``[]=``: :mod:`dialectic.values.arraysets`, an object's member or an
array's item, refused for anything else), a push ``_m1.[]=('a', _m1.a.[]=('c',
_m1.a.c.toSpliced(_m1.a.c.length, 0, x)))``. That is JavaScript's answer only when nothing
else holds the part, so the name's value, through its versions, must be made of parts the
program wrote here (:func:`deep_fresh`: literals, copies, new arrays of ``Array.from({length:
n}, () => [...])``, a tool's reply), no alias of the block may read the name before the change
(a read ``const inner = m.a;`` would hold the part JavaScript changes), and the program defines
no function (which could hold it); else the statement is refused with what to write."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dialectic.frontends.plan.arraychanges import assigns
from dialectic.frontends.plan.base import ParserBase, closing
from dialectic.frontends.plan.copyhint import copy_hint
from dialectic.frontends.plan.functionscope import inside_function, own_calls
from dialectic.frontends.plan.logicalset import LOGICAL_SETS, only_if
from dialectic.frontends.plan.loopbuild import has_call, scan_reads
from dialectic.frontends.plan.members import count_change
from dialectic.frontends.plan.typeerrors import guarded, may_catch, member_text

__all__ = ["NestedChangesMixin", "deep_fresh"]

_Block = tuple[dict[str, Any], dict[str, int], list[tuple[str, int, int, int, int]]]
_COMPOUND = {
    f"{op}=": op for op in ("+", "-", "*", "/", "%", "**", "|", "&", "^", "<<", ">>", ">>>")
}
_METHODS = frozenset(["push", "pop", "shift", "unshift", "splice", "sort", "reverse"])
#: the copies a part's reorder leaves (`rows[i].sort(f)` is `rows[i]` set to its `toSorted(f)`)
_REORDERS = {"sort": "toSorted", "reverse": "toReversed"}
#: methods whose value is a copy of their receiver: the index of the first argument the copy
#: holds (the others are indexes, counts, comparators)
_HELD = {
    **dict.fromkeys(["slice", "toSorted", "toReversed", "length="], 99),
    "[]=": 3,
    "with": 3,
    "toSpliced": 4,
    "concat": 2,
}
#: methods whose value holds none of its receiver's parts
_NEW_PARTS = frozenset(["split", "match", "join", "map_keys"])
#: operators whose value is one of their operands
_PASSING = frozenset(["||", "&&", "??", ","])
#: the mark of a parameter bound to a value nothing holds (an undefined item, an index)
_NUMBERED = "\x00"
#: the most nodes one check walks (a statement's cost stays bounded)
_MOST_NODES = 20_000


def deep_fresh(
    tree: Any,
    aliases: dict[str, Any],
    versions: set[str],
    calls: bool,
    own: frozenset[str] = frozenset(),
    changed: int | None = None,
) -> bool:
    """Whether every part of the value ``tree`` is one nothing else holds: made of literals,
    copies, new arrays and the hidden aliases ``versions`` (the name's earlier versions),
    a registered function's reply when ``calls`` (new data; not a call of a name in ``own``,
    the program's functions and their parameters). With ``changed``, only the parts down to
    that level (0: the value, 1: its items or members...), the deepest the change reaches:
    `rows[0].push(x)` changes a part of level 1, so `input.rows.map(r => [...r])`, whose
    items are new arrays, will do, the items of those being nobody's change. One walk,
    bounded (each alias walked again only at a lower level)."""
    limit = _MOST_NODES if changed is None else changed
    stack: list[tuple[Any, frozenset[str], int]] = [(tree, frozenset(), 0)]
    seen: dict[str, int] = {}
    walked = 0
    while stack:
        node, bound, level = stack.pop()
        walked += 1
        if walked > _MOST_NODES:
            return False
        if level > limit:
            continue  # (a part no change reaches: it may be held elsewhere)
        if type(node) is list:
            stack.extend((v, bound, level + 1) for v in node)
            continue
        if type(node) is not dict:
            continue
        if len(node) != 1:
            stack.extend((v, bound, level + 1) for v in node.values())  # (a literal object)
            continue
        ((key, value),) = node.items()
        if key == "$ref":
            if value not in bound and _NUMBERED + str(value) in bound:
                continue  # (`Array.from({length: n}, (_, i) => [i])`: undefined, a number)
            if value in bound or value not in versions or value not in aliases:
                return False
            mark = 0 if changed is None else level  # (walked once when every level counts)
            if seen.get(value, limit + 1) > mark:
                seen[value] = mark
                stack.append((aliases[value], bound, level))
        elif key == "$spread":  # (its items are the array's: their level, or stricter)
            stack.append((value, bound, level))
        elif key == "$object":
            parts = value.values() if type(value) is dict else value
            stack.extend((v, bound, level + 1) for v in parts)
        elif key == "$merge":  # (each part's members are the object's)
            parts = value.values() if type(value) is dict else value
            stack.extend((v, bound, level + _bound_ref(v, bound)) for v in parts)
        elif key == "$if":
            stack.extend((v, bound, level) for v in value[1:])
        elif key == "$op":
            if value[0] in _PASSING:
                stack.extend((v, bound, level) for v in value[1:])
        elif key == "$method":
            if not _fresh_method(value, stack, bound, level):
                return False
        elif key == "$global":
            if not _fresh_global(value, stack, bound, level):
                return False
        elif key in ("$get", "$fn", "$await"):
            if key != "$fn":
                return False
        elif key[:1] != "$" and (not calls or key in own):  # (a tool's reply: new data)
            return False
    return True


def _fresh_method(
    items: list[Any], stack: list[tuple[Any, frozenset[str], int]], bound: Any, level: int
) -> bool:
    method = items[1] if len(items) > 1 else None
    held = _HELD.get(method) if type(method) is str else None
    if held is not None:  # a copy: its receiver's parts, and the arguments it puts in
        root = _root(items[0])  # (`r.slice()`: only the parameter's items are in the copy)
        stack.append((root, bound, level + (root is items[0] and _bound_ref(root, bound))))
        put = items[held:]
        if method == "[]=" and len(items) == 4 and _appended(items[0], items[2], items[3]):
            put = items[3][1:]  # (`o.k.push(x)` read as `o.k = [...o.k, x]`: the same part)
        stack.extend((v, bound, level) for v in put if not _is_fn(v))
        return True
    if method in _NEW_PARTS:
        return True
    if method == "map" and len(items) == 3 and _is_fn(items[2]):
        params, body = items[2]["$fn"][0], items[2]["$fn"][1]
        names = [p for p in params if type(p) is str]
        if _counted(items[0]):  # (each item undefined, each index a number: neither held)
            names = [_NUMBERED + p for p in names[:2]] + names[2:]
        stack.append((body, bound | frozenset(names), level + 1))
        return True  # (the receiver's items are not in the value: the body's are)
    return False


def _bound_ref(node: Any, bound: frozenset[str]) -> bool:
    """Whether ``node`` reads a parameter of the callback walked (``{...p}``, ``p.slice()``:
    the copy holds its members or items, one level down, not the parameter's value)."""
    return type(node) is dict and list(node) == ["$ref"] and node["$ref"] in bound


def _counted(node: Any) -> bool:
    """Whether ``node`` is ``Array.from({length: n})``: n items, each undefined."""
    if type(node) is not dict or list(node) != ["$global"] or type(node["$global"]) is not list:
        return False
    items = node["$global"]
    if len(items) != 2 or items[0] != "Array.from" or type(items[1]) is not dict:
        return False
    return list(items[1]) == ["$object"] and list(items[1]["$object"]) == ["length"]


def _appended(target: Any, key: Any, value: Any) -> bool:
    """Whether ``value`` is ``[...target[key], ...]``: the part ``target[key]`` grown."""
    if type(value) is not list or not value or type(value[0]) is not dict:
        return False
    spread = value[0].get("$spread") if list(value[0]) == ["$spread"] else None
    return spread is not None and _flat(spread) == _flat({"$get": [target, key]})


def _flat(node: Any) -> tuple[Any, ...]:
    """A chain of ``$get`` as its root and keys (one-key and many-key forms alike)."""
    keys: list[Any] = []
    while type(node) is dict and list(node) == ["$get"] and type(node["$get"]) is list:
        keys[:0] = node["$get"][1:]
        node = node["$get"][0]
    return (repr(node), *map(repr, keys))


def _root(node: Any) -> Any:
    """The value a copy's receiver ``a.b[k]`` is a part of (``a``), when it is such a chain:
    the part copied is walked with the whole, its place in the copy the same."""
    while type(node) is dict and list(node) == ["$get"] and type(node["$get"]) is list:
        node = node["$get"][0]
    return node


def _fresh_global(
    items: list[Any], stack: list[tuple[Any, frozenset[str], int]], bound: Any, level: int
) -> bool:
    name = items[0] if items else None
    if name == "Array.from" and len(items) == 2:
        arg = items[1]
        return type(arg) is dict and set(arg) == {"$object"} and list(arg["$object"]) == ["length"]
    if name in ("JSON.parse", "structuredClone", "Object.keys", "String", "Number"):
        return True
    if name == "Object.fromEntries":
        stack.extend((v, bound, level) for v in items[1:])
        return True
    return False


def _is_fn(node: Any) -> bool:
    return type(node) is dict and list(node) == ["$fn"]


def _set(target: Any, key: Any, value: Any) -> dict[str, Any]:
    return {"$method": [target, "[]=", key, value]}


class NestedChangesMixin(ParserBase):
    """``m.a.b = v;``, ``mat[i][j] = v;``, ``m.a.list.push(x);`` statements of a block."""

    if TYPE_CHECKING:
        _member_changes: dict[str, int] | None
        _hidden_versions: set[str] | None

        def move_version(
            self, name: str, reads: list[dict[str, Any]], block: _Block, change: int
        ) -> str: ...

        def function_names(self) -> dict[int, str]: ...

    def nested_change(self, pos: int, block: _Block) -> bool:
        """The statement at token ``pos`` if it changes a part of an alias of the ``block``
        (the module's forms); False when it is no such statement."""
        aliases, alias_at, _ = block
        kinds, values = self.kinds, self.values
        name = values[pos]
        if name not in aliases or name not in alias_at:
            return False
        path = self._path(pos)
        if path is None:
            return False
        keys, spans, after = path
        method = None
        if kinds[after] == "(" and len(keys) >= 2 and keys[-1] in _METHODS:
            method = str(keys.pop())
            spans.pop()
            close = closing(kinds, after)
            if kinds[close] == "eof" or kinds[close + 1] not in (";", "}", "eof"):
                return False
        elif len(keys) < 2:
            return False
        else:
            op = values[after]
            if not assigns(kinds[after], op):
                return False
            if op in ("++", "--") and kinds[after + 1] not in (";", "}", "eof"):
                return False
        self._check_nested(name, pos, block, keys, len(keys) - (method is None))
        return self._nested_version(pos, name, keys, spans, after, method, block)

    def _path(self, pos: int) -> tuple[list[Any], list[tuple[int, int]], int] | None:
        """The keys of ``name.a[k].b...`` at token ``pos``, their tokens, and the token after
        (None: no such path)."""
        kinds, values = self.kinds, self.values
        keys: list[Any] = []
        spans: list[tuple[int, int]] = []
        i = pos + 1
        while True:
            if kinds[i] == "." and kinds[i + 1] == "name":
                keys.append(values[i + 1])
                spans.append((i + 1, i + 1))
                i += 2
            elif kinds[i] == "[":
                close = closing(kinds, i)
                if kinds[close] == "eof":
                    return None
                spans.append((i + 1, close - 1))
                keys.append(None)  # (read when the statement is one: below)
                i = close + 1
            else:
                break
        if not keys:
            return None
        return keys, spans, i

    def _check_nested(
        self, name: str, pos: int, block: _Block, keys: list[Any], changed: int
    ) -> None:
        """Refuse the change of the part ``keys`` of ``name`` (reaching the part of level
        ``changed``) where JavaScript would show it elsewhere."""
        aliases, _, _ = block
        shown = name + "".join(f".{k}" if type(k) is str else "[...]" for k in keys)
        own: frozenset[str] = frozenset()
        if self.function_names() and inside_function(self, pos):
            own = own_calls(self)  # (a body's own local: no other function holds it)
        elif self.function_names():
            raise self.fail(
                f"`{shown}` changes a part of `{name}`, and the program defines functions, "
                "which may hold that part (JavaScript would change it there too)",
                self.starts[pos],
                f"set the part when writing the value, or copy it: {name} = {{...{name}, "
                "key: {...part, k: v}};",
            )
        calls = True
        versions = self._hidden_versions or set()
        if not deep_fresh(aliases[name], aliases, versions, calls, own, changed):
            raise self.fail(
                f"`{shown}` changes a part of `{name}`, and that part may be held elsewhere "
                f"too (Plan changes the parts of a value written here part by part, as "
                f"literals, `Array.from(...)` or `structuredClone(...)`; `{name}` holds data "
                "the run was given, another name's value, a member of one, or a callback's "
                "values that are not new, as `xs.map(p => p.tags)` (`xs.map(r => [...r])` makes "
                "new ones): JavaScript would change a part everywhere it is held)",
                self.starts[pos],
                f"copy the value where you define `{name}`: {copy_hint(self, name, pos)} (or "
                "write the value with the part already changed)",
            )
        if self.block_reads().reads_of(aliases, name, self.starts[pos]):
            raise self.fail(
                f"`{name}` is read before `{shown}` changes a part of it: a part read then "
                "is the same part in JavaScript, and would show the change",
                self.starts[pos],
                f"change the parts before reading `{name}`, or read a copy: "
                f"structuredClone({name}.part)",
            )
        count_change(
            self,
            name,
            pos,
            "write the value with its parts at once: const m = {a: {b: ...}};",
        )

    def _nested_version(
        self,
        pos: int,
        name: str,
        keys: list[Any],
        spans: list[tuple[int, int]],
        after: int,
        method: str | None,
        block: _Block,
    ) -> bool:
        aliases, _, alias_rec = block
        kinds, values = self.kinds, self.values
        for n, (first, last) in enumerate(spans):
            if keys[n] is None:
                self.pos = first
                keys[n] = self.expr(0)
                if self.pos != last + 1:
                    raise self.unexpected(self.tok(self.pos), "`]`")
            if has_call(keys[n]):
                raise self.fail(
                    "a key of the path calls a function (JavaScript computes it once)",
                    self.starts[first],
                    f"compute the key first: const k = ...; {name}[k]... = value;",
                )
        args: list[Any] = []
        op = "="
        if method is not None:
            self.pos = after + 1
            self.arguments(args, 0)
            value: Any = None
        else:
            op = str(values[after]) if kinds[after] == "op" else "="
            self.pos = after + 1
            value = None if op in ("++", "--") else self.expr(0)
        last = self.pos - 1
        self.end_statement(f"change to a part of `{name}`")
        reads: list[dict[str, Any]] = []
        for tree in [*keys, value, *args]:
            if name in scan_reads(tree, reads)[1]:
                raise self.fail(
                    f"the change to `{name}` holds `{name}` itself",
                    self.starts[pos],
                    f"copy what you need: structuredClone({name})",
                )
        reads = [n for n in reads if n.get("$ref") == name]
        hidden = self.move_version(name, reads, block, pos)
        parts: list[Any] = [{"$ref": hidden}]
        for n in range(len(keys)):  # (`_m1.a.b` as Plan reads it: one `$get` of the keys)
            parts.append({"$get": [{"$ref": hidden}, *keys[: n + 1]]})
        if method is not None:
            new = self._guarded_copy(parts[-1], method, args, name, spans)
            inner = len(keys) - 1
            new = _set(parts[inner], keys[inner], new)
        else:
            inner = len(keys) - 1
            current = parts[-1]
            if op in ("++", "--"):
                value = {"$op": [op[0], {"$op": ["+", current]}, 1]}
            elif op in _COMPOUND:
                value = {"$op": [_COMPOUND[op], current, value]}
            new = _set(parts[inner], keys[inner], value)
            if op in LOGICAL_SETS:
                new = only_if(op, current, new, parts[inner])
        for i in range(inner - 1, -1, -1):
            new = _set(parts[i], keys[i], new)
        aliases[name] = new
        alias_rec.append((name, pos, pos, last, self.pos - 1))
        rec = self.rec
        if rec is not None:
            rec[(rec.pin(new), next(iter(new)))] = (self.starts[pos], self.ends[last])
        return True

    def _guarded_copy(
        self,
        part: Any,
        method: str,
        args: list[Any],
        name: str,
        spans: list[tuple[int, int]],
    ) -> Any:
        """The copy ``part.method(...args)`` leaves when ``part`` is an array, else
        JavaScript's TypeError (``m.a.push is not a function``: a text, a number, an object
        has no such method; :mod:`.typeerrors`), its message Node's. A path whose text Node
        writes otherwise (a key computed by an expression) keeps the copy, which refuses any
        other value as it runs, in a program that may catch the failure."""
        copy = _method_copy(part, method, args)
        kinds, values = self.kinds, self.values
        texts = [
            member_text(kinds, values, first, last, kinds[first - 1] == ".")
            for first, last in spans
        ]
        path: str | None = name + "".join(t or "" for t in texts)
        if None in texts:
            if self._catches is None:
                self._catches = may_catch(self.source)
            if self._catches:
                return copy
            first, last = spans[0][0] - 1, spans[-1][1] + 1
            path = name + self.source[self.starts[first] : self.ends[last]]
        return guarded(part, copy, str(path), method)

    #: whether the program may catch a failure (:func:`.typeerrors.may_catch`, read once)
    _catches: bool | None = None

    if TYPE_CHECKING:

        def arguments(self, args: list[Any], depth: int) -> None: ...


def _method_copy(array: Any, method: str, args: list[Any]) -> Any:
    """The copy ``array.method(...args)`` leaves, by ``toSpliced`` (``toSorted``,
    ``toReversed``: an array's only, a text's or an object's is refused, as JavaScript's
    TypeError)."""
    if method in _REORDERS:
        return {"$method": [array, _REORDERS[method], *args]}
    path = array.get("$get") if type(array) is dict and len(array) == 1 else None
    length = {"$get": [*path, "length"] if type(path) is list else [array, "length"]}
    if method == "push":
        spliced = [length, 0, *args]
    elif method == "pop":
        spliced = [-1, 1]
    elif method == "shift":
        spliced = [0, 1]
    elif method == "unshift":
        spliced = [0, 0, *args]
    else:
        spliced = list(args)
    return {"$method": [array, "toSpliced", *spliced]}
