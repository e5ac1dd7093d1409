"""A change statement outside a loop as straight-line versions (SPEC 10, "Changes outside
loops"): ``total += 5;``, ``xs.push(v);``, ``if (c) v = w;``, ``s += 'b';``.

:mod:`.reassign` reads such a statement as a loop over one item, so the loop's checks hold
(a read before the change, an array held elsewhere, a `const` assigned again...). Its trees need
no loop, though: the one iteration is the statement itself. So, once the body is read and
checked, each change makes the name's next version as a hidden alias of the block,

    total += 5;          _total2 = _total1 + _add1    (_add1 = 5)
    xs.push(total);      _xs2 = [..._xs1, ..._push1]  (_push1 = [total])
    if (total > 3) ...   _total5 = _if1 ? _add4 : _total4

(:func:`.loopfold.fold_step`, the step a fold makes per change, in the statement's order), the
name after the statement is its last version, and an expression statement runs it in its
place, as the loop ran (a failure there is the statement's; nothing else waits for it).

Read so only a body without calls to run for their effects (``if (c) { await notify(x); }``),
without locals of its own (``if (c) { const y = ...; }``), `break` or `return`: those keep the
one-item loop.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import TYPE_CHECKING, Any

from dialectic.frontends.plan.loopbuild import ref, scan_reads, step
from dialectic.frontends.plan.loopfold import fold_step

if TYPE_CHECKING:
    from dialectic.frontends.plan.loopcheck import Body
    from dialectic.frontends.plan.loopemit import LoopEmitMixin

__all__ = ["MAX_CHAIN", "STRAIGHT_NODES", "emit_straight", "straight"]

#: the longest chain of versions not run (each reading the one before) a statement makes; one
#: that would be longer runs as an expression statement, as a loop's statement does: the
#: versions before it are then computed, in program order, and a read of the last one does not
#: recurse through them all
MAX_CHAIN = 32

#: the fewest nodes a straight change statement makes (``x = y;``: the version's alias, the
#: name's and the statement's), which :attr:`max_nodes` counts per statement
STRAIGHT_NODES = 3


def straight(body: Body) -> bool:
    """Whether the one-item loop ``body`` (:mod:`.reassign`) is read as straight-line versions:
    no call run for its effects, no local of its own, no `break` or `return`."""
    return (
        body.once
        and body.loop is None
        and not body.runs
        and not body.breaks
        and body.state_param is None
        and body.ret is None
        and body.declared.keys() <= {body.param}
        and all(c.nested is None for changes in body.accs.values() for c in changes)
    )


def emit_straight(
    p: LoopEmitMixin, body: Body, inits: dict[str, str], pos: int, last: int, end: int
) -> None:
    """The statement (tokens ``pos`` to ``end``, its header's last at ``last``) as versions:
    ``inits`` holds each changed name's hidden alias of its value before the statement."""
    lets = body.lets
    nodes: list[dict[str, Any]] = []
    for tree in lets.values():
        scan_reads(tree, nodes)
    used: dict[str, int] = {}
    for node in nodes:  # a name changed here, read in the statement: its value before
        name = node["$ref"]
        start = inits.get(name)
        if start is not None:
            node["$ref"] = start
        else:
            used[name] = used.get(name, 0) + 1
    tests: list[list[Any]] = []
    finals = {name: _versions(p, body, name, inits[name], used, tests) for name in body.accs}
    if tests:
        _inline_tests(lets, tests, p.rec)
    aliases, alias_rec = body.aliases, body.alias_rec
    moved = {
        name: final
        for name, final in finals.items()
        if final in lets and not used.get(final) and _movable(lets[final], body.acc_kind[name])
    }
    deep = _depth(p, aliases, inits, nodes) + len(lets)
    run = deep >= MAX_CHAIN or not total(
        lets, {inits[name] for name in body.accs if body.acc_kind[name] == "push"}
    )
    if run:
        deep = 0
        moved = {}  # (the expression statement reads the last versions, not the names)
    rec = p.rec
    for name, tree in lets.items():
        if name in moved.values():
            continue
        aliases[name] = tree
        first, final = pos, end
        span = None if rec is None else rec.get((id(lets), name))
        if span is not None:  # (the tokens of the part of the statement it holds)
            first = max(pos, min(end, bisect_left(p.starts, span[0])))
            final = max(first, min(end, bisect_left(p.ends, span[1])))
        alias_rec.append((name, first, first, final, final))
    if run:  # it runs here, as JavaScript's statement (a failure there is the statement's)
        runs = [ref(finals[name]) for name in body.accs]
        key = f"#expr{len(alias_rec)}"
        aliases[key] = runs[0] if len(runs) == 1 else runs
        alias_rec.append((key, pos, pos, last + 1, end))
    state = body.state
    for name in body.accs:
        aliases[name] = lets[moved[name]] if name in moved else ref(finals[name])
        p.chains[id(aliases[name])] = deep
        state.finals[name] = (body.acc_kind[name], body.acc_let[name])
        alias_rec.append((name, body.acc_tok[name], pos, last + 1, end))


def _depth(
    p: LoopEmitMixin, aliases: dict[str, Any], inits: dict[str, str], nodes: list[dict[str, Any]]
) -> int:
    """How many versions made by straight statements, not run since, the statement's values
    read in a chain (each is computed when read: so deep a chain would be so deep a recursion)."""
    chains = p.chains
    deep = 0
    for name in (*inits.values(), *(node["$ref"] for node in nodes)):
        tree = aliases.get(name)
        if tree is not None:
            deep = max(deep, chains.get(id(tree), 0))
    return deep


def _versions(
    p: LoopEmitMixin,
    body: Body,
    name: str,
    init: str,
    used: dict[str, int],
    tests: list[list[Any]],
) -> str:
    """The versions of ``name`` its statement's changes make, from ``init`` (its value before):
        each a hidden local of ``body`` (:meth:`.loopcheck.Body.version`, which a read in the body
        already made for the changes before it). A change's value read nowhere else is written in
        its version (``_t2 = _t1 + 5``, ``_xs2 = [..._xs1, v]``); ``tests`` receives the versions
    made under a branch's test (``[_if1, v, _t1]``). Returns the last version."""
    lets, rec = body.lets, p.rec
    current = body.current.get(name, init)
    for c in body.pending.pop(name, ()):
        prev = ref(current)
        inline = c.value is not None and not used.get(c.value) and c.value in lets
        value: Any = None
        span: tuple[int, int] | None = None
        if inline:
            assert c.value is not None
            value, span = _unless(lets[c.value], c.reach, rec)
            if span is None and rec is not None:
                span = rec.get((id(lets), c.value))
        out: Any
        if c.kind == "push" and inline and type(value) is list:
            out = [{"$spread": prev}, *value]
        elif c.kind in ("push", "entry", "pop", "set") or c.nested is not None or not inline:
            out, inline = fold_step(c, current, p.fresh, rec), False
        else:
            out = step(c.kind, prev, value)
            if span is not None and rec is not None and out is not value and value is not None:
                rec[(id(out["$op"]), 2)] = span  # (`prev op value`)
        if inline:
            assert c.value is not None
            del lets[c.value]
            if c.reach is not None:
                out = {"$if": [ref(c.reach), out, prev]}
                tests.append(out["$if"])
                if span is not None and rec is not None:
                    rec[(id(out["$if"]), 1)] = span
        hidden = p.fresh(f"_{name}")
        lets[hidden] = out
        if rec is not None:
            rec[(id(lets), hidden)] = c.span
        current = hidden
    body.current[name] = current
    return current


def _inline_tests(
    lets: dict[str, Any],
    tests: list[list[Any]],
    rec: dict[tuple[int, str | int], tuple[int, int]] | None,
) -> None:
    """A branch's hidden boolean read by one version only is written in it: ``_t2 = (x > 3) ?
    7 : _t1``, not ``_if1 = (x > 3) ? true : false; _t2 = _if1 ? 7 : _t1`` (a conditional
    takes its test's truthiness, as the boolean does)."""
    nodes: list[dict[str, Any]] = []
    for tree in lets.values():
        scan_reads(tree, nodes)
    reads: dict[str, int] = {}
    for node in nodes:
        reads[node["$ref"]] = reads.get(node["$ref"], 0) + 1
    for items in tests:
        name = items[0]["$ref"]
        tree = lets.get(name)
        if reads.get(name) != 1 or type(tree) is not dict or list(tree) != ["$if"]:
            continue
        parts = tree["$if"]
        if type(parts) is list and len(parts) == 3 and parts[1] is True and parts[2] is False:
            items[0] = parts[0]
            del lets[name]
            span = None if rec is None else rec.get((id(parts), 0))
            if span is not None and rec is not None:
                rec[(id(items), 0)] = span


def _unless(
    tree: Any, reach: str | None, rec: dict[tuple[int, str | int], tuple[int, int]] | None
) -> tuple[Any, tuple[int, int] | None]:
    """A change's value without its branch's test (``c ? v : null`` is ``v``: its version
    tests ``c``), and its span when it had one there."""
    if reach is None or type(tree) is not dict or list(tree) != ["$if"]:
        return tree, None
    parts = tree["$if"]
    if type(parts) is list and len(parts) == 3 and parts[0] == {"$ref": reach}:
        return parts[1], None if rec is None else rec.get((id(parts), 1))
    return tree, None


#: the trees a name's version may hold itself: none is a value the program made (an array, an
#: object, a Date: a member set or a sort after the statement checks it as the loop's result)
_MOVABLE = frozenset(["$op", "$if", "$ref", "$template", "$get", "$get?"])


def _movable(tree: Any, kind: str) -> bool:
    if type(tree) is list:
        return kind == "push"
    if type(tree) is not dict:
        return True
    return len(tree) == 1 and next(iter(tree)) in _MOVABLE


#: the core forms that never throw in JavaScript on JSON values, whatever their operands
_TOTAL = frozenset(["$ref", "$if", "$get?", "$merge", "$template", "$undefined", "$quote"])
#: the operators that throw on some JSON values (`'a' in 5`)
_THROWING = frozenset(["in", "instanceof"])


def total(lets: dict[str, Any], arrays: set[str]) -> bool:
    """Whether computing the statement's ``lets`` can never throw in JavaScript, nor call a
    function: literals, operators, conditionals, optional member reads, object spreads, and
    array spreads of ``arrays`` (the array versions before the statement) or of the
    statement's own array literals. Such a statement needs no expression statement to run it
    (if nothing reads the name, nothing of it could be seen)."""
    arrays = arrays | {
        name for name, tree in lets.items() if type(tree) is list or _pushed_when(tree)
    }
    stack: list[Any] = list(lets.values())
    while stack:
        node = stack.pop()
        if type(node) is list:
            stack.extend(node)
        elif type(node) is dict:
            if len(node) != 1:
                return False
            ((key, value),) = node.items()
            if key == "$quote":
                continue
            if key == "$spread":
                if not (type(value) is dict and value.get("$ref") in arrays):
                    return False
            elif key == "$object":
                if type(value) is not dict:
                    return False
                stack.extend(value.values())
            elif key == "$op":
                if type(value) is not list or not value or value[0] in _THROWING:
                    return False
                stack.extend(value[1:])
            elif key not in _TOTAL:
                return False
            elif key != "$ref":
                stack.append(value)
    return True


def _pushed_when(tree: Any) -> bool:
    """Whether ``tree`` is a push's items under its branch's test: ``c ? [a] : []``."""
    if type(tree) is not dict or list(tree) != ["$if"] or type(tree["$if"]) is not list:
        return False
    parts = tree["$if"]
    return len(parts) == 3 and type(parts[1]) is list and type(parts[2]) is list
