"""A loop that changes its items' members (:mod:`.itemloops`, checked by :mod:`.itemcheck` and
:mod:`.itemsource`) written, before parsing, as a loop that builds the changed items into the
name again::

    const items = await getCart({id: 7});        const _items1 = await getCart({id: 7});
    for (const item of items) {                  const items = [];
      item.total = item.price * item.qty;  ->    let _item2 = null;
    }                                            for (const _item3 of _items1) {
                                                   _item2 = [_item3][typeof _item3 === 'object'
                                                     && _item3 !== null
                                                     && !Array.isArray(_item3) ? 0 : 1];
                                                   _item2 = {..._item2, ["total"]:
                                                     (_item2.price * _item2.qty)};
                                                   items.push(_item2);
                                                 }

Each change is the item's next value (JavaScript's order and keys: a key set again keeps its
place, a new one goes last, integer-like keys first, as an object literal's): ``x.k op= v`` is
``{...x, [k]: x.k op (v)}``, ``x.k ??= v`` is ``{...x, [k]: x.k ?? (v)}`` (and ``||``), ``x.k
&&= v`` is ``x.k ? {...x, [k]: (v)} : x``, ``x.k++`` is ``{...x, [k]: +x.k + 1}``,
``x.k.push(a)`` is ``{...x, [k]: [...x.k.map(v => v), a]}`` (the ``map`` fails on anything but
an array, as ``push`` does), ``delete x.k`` keeps the other entries. ``break`` and ``continue``
keep the item first; after a ``break`` the items not reached follow unchanged. An item that is
not an object fails (an index out of range), where JavaScript would set a member on an array
or fail on ``null``."""

from __future__ import annotations

import json

from dialectic.frontends.plan.itemcheck import REORDERS, BodyPlan, Change, ItemRefusal, read_body
from dialectic.frontends.plan.itemloops import ItemLoop, find_item_loops
from dialectic.frontends.plan.itemsource import Source, find_source, in_functions
from dialectic.frontends.plan.lexer import Lexed
from dialectic.frontends.plan.parensets import name_index, pure_key
from dialectic.frontends.plan.tokenscan import enclosing, partners
from dialectic.frontends.plan.tokenwrite import TokenWriter
from dialectic.frontends.plan.typeerrors import may_catch, member_text

__all__ = ["item_changes"]

#: the member read (and missing) when an item is not an object: the failure's message
_NOT_AN_OBJECT = json.dumps("an item of the loop that sets its members is not an object").replace(
    " ", "\\u0020"
)

_Problem = tuple[str, int, str | None]


class _Names:
    """Hidden names no token of the program uses."""

    def __init__(self, used: dict[str, list[int]]) -> None:
        self.used, self.n = used, 0

    def fresh(self, stem: str) -> str:
        while True:
            self.n += 1
            name = f"_{stem}{self.n}"
            if name not in self.used:
                return name


class _Writer:
    def __init__(self, tokens: Lexed, names: _Names, encl: list[int]) -> None:
        self.w = TokenWriter(tokens)
        self.kinds, self.values = tokens.kinds, tokens.values
        self.names, self.encl = names, encl
        self.partner: dict[int, int] = {}
        #: per loop being written: token -> what to write there
        self.cur = ""
        self.src = ""
        self.array = ""
        self.plan = BodyPlan()
        self.refs: dict[int, int] = {}
        self.changes: dict[int, Change] = {}
        #: the loop's item as the program writes it (``x``, ``xs[i]``), and whether the
        #: program may catch a failure (:mod:`.typeerrors`)
        self.var = ""
        self.catches = False

    def put(self, text: str, at: int) -> None:
        """Tokens of a small text of names, punctuation and literals (space-separated)."""
        for word in text.split(" "):
            if word in ("(", ")", "[", "]", "{", "}", ";", ",", ".", ":", "=", "+", "-"):
                self.w.put(word, word, at)
            elif word[:1].isdigit():
                self.w.put("num", word, at)
            elif word[:1] in ("'", '"'):
                self.w.put("str", word, at)
            elif word[:1].isalpha() or word[:1] in ("_", "$"):
                self.w.put("name", word, at)
            else:
                self.w.put("op", word, at)

    def body(self, first: int, end: int) -> None:
        """Tokens ``first`` to ``end`` of the body, with the item, its changes and the loop's
        jumps written."""
        j = first
        plan, kinds = self.plan, self.kinds
        jumps = dict.fromkeys(plan.breaks, "break") | dict.fromkeys(plan.continues, "continue")
        lengths = set(plan.lengths)
        while j < end:
            change = self.changes.get(j)
            if change is not None:
                self.change(change)
                j = change.end + 1 if kinds[change.end] == ";" else change.end
                continue
            ref_end = self.refs.get(j)
            if ref_end is not None:
                if kinds[j - 1] in ("{", ",") and kinds[ref_end] in ("}", ",") and self._key(j):
                    self.w.copy(j, j + 1)  # (`{item}`: the key, then its value)
                    self.w.put(":", ":", j)
                self.w.put("name", self.cur, j)
                j = ref_end
                continue
            if j in lengths:
                self.w.put("name", self.src, j)
            elif j in jumps:
                self.put(f"{{ {self.array} . push ( {self.cur} ) ; {jumps[j]} ; }}", j)
                j += 2 if kinds[j + 1] == ";" else 1
                continue
            else:
                self.w.copy(j, j + 1)
            j += 1

    def _key(self, j: int) -> bool:
        """Whether the item's name at ``j`` stands alone in an object literal (`{a, item}`)."""
        brace = self.encl[j]
        if brace < 1 or self.kinds[brace] != "{":
            return False
        return self.kinds[brace - 1] not in (";", "{", "}", ")") and self.values[brace - 1] not in (
            "=>",
            "else",
            "do",
        )

    def key(self, change: Change, twice: bool) -> tuple[str, str]:
        """The key's tokens written: (how to write the computed key, how to read the member);
        a computed key as ``#K#``, written by :meth:`emit`."""
        first, last = change.key
        if first == last:  # `.k`
            name = str(self.values[first])
            return json.dumps(name), f"{self.cur} . {name}"
        if twice and not pure_key(self.kinds, self.values, first + 1, last):
            raise ItemRefusal(
                "the key of this change is read twice (it makes a call or a change)",
                first,
                "compute the key first: const k = ...; x[k] += v;",
            )
        return "#K#", f"{self.cur} [ #K# ]"

    def emit(self, text: str, change: Change, at: int) -> None:
        """``text`` with ``#K#`` as the change's key and ``#V#`` as its value written."""
        parts = text.split("#")
        for n, part in enumerate(parts):
            if n % 2 == 0:
                if part.strip():
                    self.put(part.strip(), at)
            elif part == "K":
                self.body(change.key[0] + 1, change.key[1])
            elif part == "V":
                self.body(change.op + 1, change.end)

    def change(self, c: Change) -> None:
        cur, kinds, values = self.cur, self.kinds, self.values
        at = c.ref
        if c.kind == "replace":
            self.emit(f"{cur} = ( #V# ) ;", c, at)
            return
        if c.kind == "reorder":  # `x.sort(c);`: the item's reordered copy
            copy = REORDERS[str(values[c.key[0]])]
            self.emit_push(f"{cur} = {cur} . {copy} ( #A# ) ;", c, at)
            return
        if c.kind == "delete":
            entry = self.names.fresh("entry")
            first, last = c.key
            key = json.dumps(str(values[first])) if first == last else "String ( #K# )"
            self.emit(
                f"{cur} = Object . fromEntries ( Object . entries ( {cur} ) . filter ( ( {entry} "
                f") => {entry} [ 0 ] !== {key} ) ) ;",
                c,
                at,
            )
            return
        op = str(values[c.op]) if c.op >= 0 else ""
        twice = c.kind == "push" or op != "="
        key, read = self.key(c, twice)
        if c.kind == "push":
            args = "" if kinds[c.op + 1] == ")" else " , ... [ #A# ]"
            pushed = self.pushed(c, read, args)
            self.emit_push(f"{cur} = {{ ... {cur} , [ {key} ] : {pushed} }} ;", c, at)
            return
        if op in ("++", "--"):
            value = f"+ {read} {op[0]} 1"
        elif op == "=":
            value = "( #V# )"
        elif op == "&&=":
            self.emit(f"{cur} = {read} ? {{ ... {cur} , [ {key} ] : ( #V# ) }} : {cur} ;", c, at)
            return
        else:
            value = f"{read} {op[:-1]} ( #V# )"
        self.emit(f"{cur} = {{ ... {cur} , [ {key} ] : {value} }} ;", c, at)

    def pushed(self, c: Change, read: str, args: str) -> str:
        """The member's array with the items pushed: ``[...x.k, a]`` when it is an array,
        else Node's TypeError (``x.k.push is not a function``, :mod:`.typeerrors`); a member
        whose path Node writes otherwise, in a program that may catch the failure, is read
        through ``x.k.map(v => v)``, which fails on anything but an array, as ``push`` does."""
        first, last = c.key
        member = member_text(self.kinds, self.values, first, last, True) if first == last else None
        if first != last:
            member = member_text(self.kinds, self.values, first + 1, last - 1, False)
        if member is None and not self.catches:
            member = "".join(str(self.values[j]) for j in range(first, last + 1))
            member = None if any(ch in member for ch in "'\"#") else member
        if member is None or "#" in member or "\\" in member:
            item = self.names.fresh("v")
            return f"[ ... {read} . map ( ( {item} ) => {item} ){args} ]"
        messages = [
            json.dumps(text).replace(" ", "\\u0020")
            for text in (
                "Cannot read properties of null (reading 'push')",
                f"{self.var}{member}.push is not a function",
            )
        ]
        # (`Promise.reject(e)` is the tree `{"$throw": E}`: it fails where it is read)
        fails = " : ".join(f"Promise . reject ( new TypeError ( {m} ) )" for m in messages)
        return f"( Array . isArray ( {read} ) ? [ ... {read}{args} ] : {read} === null ? {fails} )"

    def emit_push(self, text: str, c: Change, at: int) -> None:
        close = self.partner[c.op]
        head, _, tail = text.partition("#A#")
        self.emit(head, c, at)
        if tail:
            self.body(c.op + 1, close)
            self.emit(tail, c, at)


def item_changes(source: str, tokens: Lexed) -> tuple[Lexed | None, _Problem | None]:
    """``tokens`` with each loop that changes its items' members written as a loop that builds
    the changed items (None: there is none), or the problem of one that is refused."""
    kinds, values = tokens.kinds, tokens.values
    partner = partners(kinds)
    loops = find_item_loops(kinds, values, partner)
    if not loops:
        return None, None
    where = name_index(kinds, values)
    encl = enclosing(kinds)
    functions = in_functions(kinds, values, partner)
    accepted: list[tuple[ItemLoop, Source, BodyPlan]] = []
    try:
        for loop in loops:
            try:
                plan = read_body(kinds, values, partner, loop, deep=True)
            except ItemRefusal as refusal:
                if refusal.token < 0:
                    continue  # (no change of the item: not such a loop)
                raise
            if accepted and loop.start < accepted[-1][0].stop:
                raise ItemRefusal(
                    "a loop that changes its items inside another one (Plan reads one level)",
                    loop.start,
                )
            if loop.start > 0 and kinds[loop.start - 1] not in (";", "{", "}"):
                raise ItemRefusal(
                    "a loop that changes its items is read only as a statement of a block",
                    loop.start,
                    "put the loop in braces: `if (c) { for (...) {...} }`",
                )
            arrays = all(c.kind == "reorder" for c in plan.changes)  # (`g.sort();` only)
            src = find_source(kinds, values, partner, encl, where, loop, functions, arrays)
            if not src.deep:
                plan = read_body(kinds, values, partner, loop, deep=False)
            accepted.append((loop, src, plan))
        if not accepted:
            return None, None
        return _write(source, tokens, accepted, partner, where, encl), None
    except ItemRefusal as refusal:
        starts = tokens.offsets()[0]
        return None, (refusal.message, starts[max(refusal.token, 0)], refusal.hint)


def _write(
    source: str,
    tokens: Lexed,
    accepted: list[tuple[ItemLoop, Source, BodyPlan]],
    partner: dict[int, int],
    where: dict[str, list[int]],
    encl: list[int],
) -> Lexed:
    kinds = tokens.kinds
    names = _Names(where)
    out = _Writer(tokens, names, encl)
    out.partner = partner
    out.catches = may_catch(source)
    at = 0
    edits: list[tuple[int, str, ItemLoop, Source, BodyPlan]] = []
    for loop, src, plan in accepted:
        edits.append((src.decl, "decl", loop, src, plan))
        edits.extend((u, "length", loop, src, plan) for u in src.lengths)
        edits.append((loop.start, "loop", loop, src, plan))
    srcs: dict[int, str] = {}
    for pos, what, loop, src, plan in sorted(edits, key=lambda e: e[0]):
        if pos < at:
            continue
        out.w.copy(at, pos)
        at = pos
        let = tokens.values[src.decl] == "let"
        if what == "decl":
            # (`let`: the loop reads the name and assigns it the new array after it)
            srcs[id(src)] = loop.array if let else names.fresh(loop.array)
            if let:
                continue
            out.w.copy(pos, pos + 1)
            out.w.put("name", srcs[id(src)], pos + 1)
            out.w.copy(pos + 2, src.semi + 1)
            out.put(f"const {loop.array} = [ ] ;", pos + 1)
            at = src.semi + 1
        elif what == "length":
            if let:
                continue
            out.w.put("name", srcs[id(src)], pos)
            at = pos + 1
        else:
            target = names.fresh(loop.array) if let else loop.array
            if let:
                out.put(f"const {target} = [ ] ;", loop.start)
            _loop(out, loop, srcs[id(src)], target, plan)
            if let:
                out.put(f"{loop.array} = {target} ;", loop.end)
            at = loop.stop
    out.w.copy(at, len(kinds))
    return out.w.lexed(source)


def _loop(out: _Writer, loop: ItemLoop, src: str, target: str, plan: BodyPlan) -> None:
    names = out.names
    cur, hid = names.fresh(loop.var.split("[")[0]), names.fresh("item")
    out.cur, out.src, out.array, out.plan = cur, src, target, plan
    out.var = loop.var
    out.refs = dict(loop.refs)
    out.changes = {c.first: c for c in plan.changes}
    at = loop.var_at
    out.put(f"let {cur} = null ;", loop.start)
    head = f"[ {loop.index} , {hid} ]" if loop.index is not None else hid
    of = f"{src} . entries ( )" if loop.index is not None else src
    out.put(f"for ( const {head} of {of} ) {{", at)
    if all(c.kind == "reorder" for c in plan.changes):  # (a sort fails on all but arrays)
        out.put(f"{cur} = {hid} ;", at)
    else:
        out.put(
            f"{cur} = typeof {hid} === 'object' && {hid} !== null && ! Array . isArray ( {hid} )"
            f" ? {hid} : {{ }} [ {_NOT_AN_OBJECT} ] ;",
            at,
        )
    out.body(loop.first, loop.end)
    if loop.kind == "each" and not loop.braced:
        out.put(";", loop.end)
    out.put(f"{target} . push ( {cur} ) ; }}", loop.end)
    if plan.breaks:
        out.put(f"{target} . push ( ... {src} . slice ( {target} . length ) ) ;", loop.end)
