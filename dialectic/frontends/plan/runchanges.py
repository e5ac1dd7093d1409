"""Change statements at the top of a block that may throw run in their place, read or not
(SPEC 10, "Semantics"; the table of deliberate differences).

A change statement makes the name's next version (:meth:`.members.MembersMixin.move_version`:
``o.k = v;``, ``o.a.b = v;``, ``o.a.push(x);``, ``xs[i] = v;``, ``xs.sort(f);``, ``delete
o.k;``, ``m.set(k, v);``, ``d.setDate(1);``). An alias runs only when the result needs it
(SPEC 1.3), but JavaScript runs every statement: ``const o = {}; o.a.b = 1; return 'ok';`` is
a TypeError in Node, and so must be a failure here, not ``'ok'``. So each such version whose
tree may throw in JavaScript or call a function (anything but literals, operators, merges,
conditionals and reads of names: :func:`.straight.total`) is also an expression statement of
the block, right after its statement: it runs whether or not anything reads the name, in its
place (after the statements before it, so a failure before a ``return`` fails the program, and
one in a ``try`` block is the block's). A version that cannot throw (``o.k = 2;``) stays
lazy: nothing of it could be seen. A definition whose value is a block of statements (a
function called at once, ``const r = (() => { log(x); o.k = f(); return 1; })();``, and a
loop's or an arrow's local finished by member sets, :mod:`.looplocals`) runs in its place too:
JavaScript runs those statements where the definition stands, read or not.

One walk of the block's records and of each version's tree; one node per statement run.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from dialectic.frontends.plan.straight import total

__all__ = ["holds_statements", "run_changes"]

#: a record of a block's statement: name, name token, first and last token of the value, last
#: token of the statement (:mod:`.statements`)
_Rec = tuple[str, int, int, int, int]


def holds_statements(tree: Any) -> bool:
    """Whether ``tree`` is a block with expression statements (``{"$do": [...], ...}`` holding
    one that is no ``{"$let": ...}`` group): the value of a function called at once, ``const r
    = (() => { o.k = f(x); return 1; })();``, or of a loop's local finished by member sets
    (:mod:`.looplocals`). JavaScript runs its statements where the definition stands."""
    if type(tree) is not dict:
        return False
    items = tree.get("$do")
    if type(items) is not list:
        return False
    return any(not (type(item) is dict and list(item) == ["$let"]) for item in items)


def run_changes(aliases: dict[str, Any], alias_rec: list[_Rec], versions: set[int] | None) -> None:
    """Add to the block (``aliases`` and their records ``alias_rec``, in program order) an
    expression statement ``{"$ref": version}`` after each change statement (its name token in
    ``versions``) whose version may throw, and after each definition whose value holds
    statements (:func:`holds_statements`)."""
    versions = versions or set()
    out: list[_Rec] = []
    waiting: deque[_Rec] = deque()  # runs to add after their statement's last record
    for entry in alias_rec:
        while waiting and entry[1] > waiting[0][4]:
            run = waiting.popleft()
            if entry[0][:1] == "#" and aliases[entry[0]] == aliases[run[0]]:
                del aliases[run[0]]  # (the next statement runs it already: `o;`, decompiled)
            else:
                out.append(run)
        out.append(entry)
        name, at = entry[0], entry[1]
        if name[:1] == "#" or name not in aliases:
            continue
        tree = aliases[name]
        if not holds_statements(tree) and (at not in versions or total({name: tree}, set())):
            continue
        key = f"#run{at}"  # (not an identifier: never an alias's name; one per statement)
        if key in aliases:
            continue
        aliases[key] = {"$ref": name}
        waiting.append((key, at, entry[2], entry[3], entry[4]))
    if len(out) + len(waiting) != len(alias_rec):
        out.extend(waiting)
        alias_rec[:] = out
