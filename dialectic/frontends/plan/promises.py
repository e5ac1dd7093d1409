"""A promise's methods and ``Promise``'s other functions (SPEC 10, "Mapping to the call tree").

Every call of a registered function (and of the program's own ``async`` functions) is a
promise in JavaScript, which Plan awaits where its value is used; so is ``Promise.all(...)``.
On such a value:

- ``p.then(v => body)`` is the arrow applied to the value: ``[p].map(v => body)[0]``;
- ``p.catch(h)`` is the core's ``$try`` of ``p`` and ``h``, as ``try``/``catch``;
  ``p.then(f, h)`` is ``$try([0, p], e => [1, h(e)])``, then ``f`` applied to the value when
  it is tagged ``0`` (``h`` handles only ``p``'s failure, :mod:`.rejections`); ``p.finally(h)``
  is refused;
- ``Promise.resolve(v)`` is ``v``; ``Promise.reject(e)`` is ``$throw`` (:mod:`.trywrite`
  rewrites it); ``Promise.race`` and ``Promise.any`` are refused with what to write (the first
  call to end is not a value a program can count on).

On anything else (data, an awaited value: ``(await f()).then(...)``) ``then`` is not a method,
as in JavaScript.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from dialectic.frontends.plan.anyof import any_of, tagged
from dialectic.frontends.plan.base import ParserBase
from dialectic.frontends.plan.errortext import error_as_text, reason_problem, refusal
from dialectic.frontends.plan.rejections import failure_places, settled_entry

__all__ = ["PromisesMixin"]

#: the methods a promise has
PROMISE_METHODS = frozenset(["then", "catch", "finally"])


def is_call(tree: Any) -> bool:
    """Whether ``tree`` is a call of a registered function or of the program's own: a promise
    in JavaScript."""
    if type(tree) is not dict or len(tree) != 1:
        return False
    key = next(iter(tree))
    return type(key) is str and key[:1] != "$"


class PromisesMixin(ParserBase):
    """``p.then(f)`` and its kin, ``Promise.resolve(v)`` and the refused ``Promise`` functions."""

    #: ids of trees that are promises in JavaScript (``Promise.all(...)``), not calls
    _promises: set[int] | None = None
    #: ids of trees an `await` gave (their value is no promise any more)
    _settled: set[int] | None = None
    #: ``p.then(f)`` by its tree's id: ``p`` and ``f``'s body (:meth:`_unordered`)
    _chains: dict[int, tuple[Any, ...]] | None = None
    #: the offset of the first handler that reads its error as text (:meth:`note_error_text`)
    error_text_at: int | None = None
    #: where the program first reads a rejected entry's `reason` as text (:meth:`_reads_reasons`)
    reason_text_at: int | None = None
    #: the program's names, read once (:meth:`_facts`)
    _names: _Names | None = None
    #: how many ``try`` blocks the parser is in (:meth:`awaited_promise`)
    in_try = 0
    #: ``const`` definitions by name (:meth:`_held`)
    _definitions: dict[str, Any] | None = None

    if TYPE_CHECKING:  # provided by the other mixins

        def fresh(self, prefix: str) -> str: ...

    def note_promise(self, tree: Any) -> Any:
        if self._promises is None:
            self._promises = set()
        self._promises.add(id(tree))
        self.keep.append(tree)  # (its id stays its own: a mark of this tree only)
        return tree

    def note_awaited(self, tree: Any) -> Any:
        if self._settled is None:
            self._settled = set()
        self._settled.add(id(tree))
        self.keep.append(tree)
        return tree

    def is_promise(self, tree: Any) -> bool:
        settled = self._settled
        if settled is not None and id(tree) in settled:
            return False
        promises = self._promises
        if is_call(tree) or (promises is not None and id(tree) in promises):
            return True
        choice = tree.get("$if") if type(tree) is dict and len(tree) == 1 else None
        # (`(t ? f(x) : g(x)).catch(h)`: a promise either way)
        return type(choice) is list and len(choice) == 3 and all(map(self.is_promise, choice[1:]))

    def promise_method(self, fn: str, args: list[Any], at: int) -> Any:
        """``args[0].fn(args[1:])`` for a promise ``args[0]`` (``at``: the token of ``fn``)."""
        offset = self.starts[at]
        if fn == "then" and len(args) in (2, 3):
            arrow = self._callback(args[1], offset, "v")
            if len(args) == 2:
                # (a promise too: `f(x).then(...).then(...)`)
                return self._chained(args[0], arrow)
            # `p.then(f, h)`: `h` handles only `p`'s failure, `f` runs on its value
            handler = self._handler(args[0], args[2], offset)
            name = self.fresh("_then")
            tagged = {"$try": [[0, args[0]], {"$fn": [handler["$fn"][0], [1, handler["$fn"][1]]]}]}
            ref = {"$ref": name}
            done = {"$op": ["===", {"$get": [ref, 0]}, 0]}
            value = {"$get": [ref, 1]}
            applied = {"$get": [{"$method": [[value], "map", arrow]}, 0]}
            pick = {"$fn": [[name], {"$if": [done, applied, value]}]}
            made = {"$get": [{"$method": [[tagged], "map", pick]}, 0]}
            # (`p`, then `h` or `f`: each may fail only after `p` ended, :meth:`_unordered`)
            self._chain(made, (args[0], handler["$fn"][1], arrow["$fn"][1]))
            return self.note_promise(made)
        if fn == "catch" and len(args) == 2:
            return self.note_promise({"$try": [args[0], self._handler(args[0], args[1], offset)]})
        raise self.fail(
            _refused(fn),
            offset,
            "await the promise inside `try { ... } finally { ... }`, or drop the handler",
        )

    def _callback(self, arrow: Any, offset: int, param: str) -> Any:
        """``arrow``, an arrow function of at most one parameter, or a failure."""
        if type(arrow) is not dict or "$fn" not in arrow or len(arrow["$fn"][0]) > 1:
            raise self.fail(
                f"a promise's handler here is an arrow function: ({param}) => ...",
                offset,
                f"write it where it is used: p.then(v => ...), p.catch(e => ...), or await it "
                f"in `try`: const {param} = await p;",
            )
        return arrow

    def _chained(self, promise: Any, arrow: Any) -> Any:
        made = {"$get": [{"$method": [[promise], "map", arrow]}, 0]}
        self._chain(made, (promise, arrow["$fn"][1]))
        return self.note_promise(made)

    def _chain(self, made: Any, parts: tuple[Any, ...]) -> None:
        if self._chains is None:
            self._chains = {}
        self._chains[id(made)] = parts
        self.keep.append(made)  # (its id stays its own)

    def _handler(self, promise: Any, handler: Any, offset: int) -> Any:
        """The handler of ``promise``'s failure (``p.catch(h)``, ``p.then(f, h)``): an arrow
        function that reads its error only as ``e.message``, ``e.name`` or ``throw e``; when
        it reads it, the promise holds one place that may fail, or a ``then`` chain of such
        (SPEC 10, :mod:`.rejections`)."""
        handler = self._callback(handler, offset, "e")
        params = handler["$fn"][0]
        if not params:
            return handler
        name = params[0]
        body, found, wrote = error_as_text(handler["$fn"][1], name)
        if found is not None:
            message, hint = refusal(name, found)
            raise self.fail(message, offset, hint)
        if wrote:
            self.note_error_text(offset)
        handler["$fn"][1] = body
        if self._unordered(promise):
            raise self.fail(
                "the handler reads the error, and the promise holds several calls that may "
                "fail: dialectic may run them at once, so the failure caught might not be the "
                "one JavaScript meets first",
                offset,
                "give each call its own `.catch`, or do not read the error in the handler",
            )
        return handler

    def _unordered(self, promise: Any) -> bool:
        """Whether ``promise`` holds two places that may fail that may run at once (a ``then``
        runs its arrow after its promise: each part is counted alone)."""
        chains = self._chains or {}
        stack = [promise]
        while stack:
            tree = stack.pop()
            chain = chains.get(id(tree))
            if chain is not None:
                stack.extend(chain)
            elif failure_places(tree) > 1:
                return True
        return False

    def _error_reads(self, handler: Any, at: int) -> None:
        """A ``catch`` block's reads of its error (``handler``, the arrow function written for
        it, at token ``at``), as :meth:`_handler` reads a promise's handler's."""
        fn = handler.get("$fn") if type(handler) is dict else None
        if type(fn) is not list or len(fn[0]) != 1 or type(fn[0][0]) is not str:
            return
        fn[1], found, wrote = error_as_text(fn[1], fn[0][0])
        if found is not None:
            message, hint = refusal(fn[0][0], found)
            raise self.fail(message, self.starts[at], hint)
        if wrote:
            self.note_error_text(self.starts[at])

    def note_error_text(self, offset: int) -> None:
        """Record a handler that reads its error as text (:mod:`.errortext`: the program may
        then throw only errors and texts)."""
        if self.error_text_at is None:
            self.error_text_at = offset

    def note_definition(self, name: str, value: Any, declarator: str | None) -> None:
        """Record ``const name = value;`` (:meth:`all_settled` reads a name's promises)."""
        if declarator == "const":
            if self._definitions is None:
                self._definitions = {}
            self._definitions[name] = value

    def all_settled(self, promises: Any) -> Any:
        """``Promise.allSettled(xs)``: each element's ``{status, value}``, or ``{status:
        'rejected', reason}`` when it fails as JavaScript throws, for an array written in
        place (``[f(a), g(b)]``, ``xs.map(x => f(x))``, spreads of those) or held in a
        ``const`` the program reads only here (its promises are written in its place); a name
        whose value may fail and is read elsewhere too is refused (:meth:`_held`). The
        program reads a ``reason`` only as ``reason.message`` or ``reason.name``."""
        reason = self.fresh("_reason")
        bodies: list[Any] = []
        made = self._settled_all(self._held(promises, "allSettled"), reason, bodies)
        self._reads_reasons(bodies)
        return self.note_promise(made)

    def _settled_all(self, promises: Any, reason: str, bodies: list[Any]) -> Any:
        def entry(p: Any) -> Any:
            bodies.append(p)
            return settled_entry(p, reason)

        return self._each(promises, entry, "allSettled")

    def _each(self, promises: Any, entry: Callable[[Any], Any], fn: str) -> Any:
        """``promises`` (an array written in place: elements, spreads, ``xs.map(f)``) with
        ``entry`` of each promise; an array held in a name, each element as it is."""
        if type(promises) is list:
            out: list[Any] = []
            for p in promises:
                if type(p) is dict and len(p) == 1 and "$spread" in p:
                    inner = self._each(self._held(p["$spread"], fn), entry, fn)
                    out.extend(inner) if type(inner) is list else out.append({"$spread": inner})
                else:
                    out.append(entry(self._held(p, fn)))
            return out
        if type(promises) is dict and "$method" in promises:
            receiver, method, *more = promises["$method"]
            arrow = more[0] if len(more) == 1 else None
            if method == "map" and type(arrow) is dict and "$fn" in arrow:
                params, body = arrow["$fn"]
                return {"$method": [receiver, "map", {"$fn": [params, entry(body)]}]}
        return {"$method": [promises, "map", {"$fn": [["_p"], entry({"$ref": "_p"})]}]}

    def _held(self, promises: Any, fn: str = "allSettled") -> Any:
        """The promises a name holds, written in its place when its value may fail (a
        ``const`` read nowhere else: Node's rejected promises become rejected entries); the
        name itself when it cannot fail; else a failure (the name's failure would end the
        run where Node gives a rejected entry)."""
        name = promises.get("$ref") if type(promises) is dict and len(promises) == 1 else None
        if type(name) is not str:
            return promises
        value = (self._definitions or {}).get(name)
        if value is None and name not in self._facts().declared:
            return promises  # (an input of the context: data)
        if value is not None and failure_places(value, 1) == 0:
            return promises
        if value is None or self._reads(name) != 2:
            raise self.fail(
                f"`Promise.{fn}` of `{name}`, a name whose promises may fail"
                + ("" if value is None else " and that the program reads elsewhere too")
                + ": Plan computes a name's value whole, so one failure would end the run "
                "where JavaScript gives a rejected entry",
                self.starts[self.pos - 1],
                f"write the promises in the call, Promise.{fn}(xs.map(x => f(x))), or "
                f"hold them in a `const` read only there (const {name} = xs.map(x => f(x)); "
                f"... Promise.{fn}({name}))",
            )
        return value

    def _reads(self, name: str) -> int:
        """How many times the program names ``name`` (not as a member: ``o.name``)."""
        return self._facts().reads.get(name, 0)

    def _facts(self) -> _Names:
        """The program's names (:class:`_Names`), read once."""
        if self._names is None:
            self._names = _Names(self.kinds, self.values)
        return self._names

    def awaited_promise(self, tree: Any) -> Any:
        """``await p`` of a ``const`` holding a promise the program reads only there: the
        promise, written in its place (so that in a ``try`` its failure is the handler's, as
        JavaScript's ``await p`` throws there); else ``tree``."""
        name = tree.get("$ref") if type(tree) is dict and len(tree) == 1 else None
        value = (self._definitions or {}).get(name) if type(name) is str else None
        if value is None and self.in_try and type(name) is str and self._parameter(name):
            raise self.fail(
                f"`await {name}` in a `try` block, of a function's parameter: a promise passed "
                "to a function is computed at the call, so its failure would not reach this "
                "handler",
                self.starts[self.pos - 1],
                "pass what the call needs and make the call inside the `try` (`try { return "
                "await f(x); } catch (e) { ... }`), or handle the failure where the promise "
                "is made: f(x).catch(e => ...)",
            )
        if value is None or not self.is_promise(value) or self._reads(str(name)) != 2:
            return tree
        return value

    def _parameter(self, name: str) -> bool:
        """Whether the program declares ``name`` as a parameter (``(a, name) =>``, ``function
        f(name)``, ``name =>``)."""
        return name in self._facts().parameters

    def held_promise(self, tree: Any, at: int) -> Any:
        """The promise a ``const`` holds, for ``p.catch(h)`` and ``p.then(f, h)`` of its
        name ``tree`` (``at``: the method's token): written in the method's place, so that
        its failure is the handler's, when the program reads the name only there; None when
        ``tree`` names no promise. A name read elsewhere too is refused (its failure would
        end the run where JavaScript runs the handler)."""
        name = tree.get("$ref") if type(tree) is dict and len(tree) == 1 else None
        value = (self._definitions or {}).get(name) if type(name) is str else None
        if value is None or not self.is_promise(value):
            return None
        if self._reads(str(name)) != 2:
            raise self.fail(
                f"`{name}.{self.values[at]}(...)` of a promise the program reads elsewhere "
                "too: Plan computes a name's value whole, so its failure would end the run "
                "where JavaScript runs the handler",
                self.starts[at],
                f"chain the handler where the promise is made (const {name} = f(x).catch(e "
                f"=> ...);), or read `{name}` only in `{name}.{self.values[at]}(...)`",
            )
        return value

    def _reads_reasons(self, promises: list[Any]) -> None:
        """Refuse a program that reads a ``reason`` other than as ``r.reason.message``,
        ``r.reason.name`` (also ``?.``), or whose promises may fail at two places at once while
        it reads one (the reason must be the failure JavaScript meets first)."""
        kinds, values = self.kinds, self.values
        read = False
        for i, value in enumerate(values):
            if value != "reason" or kinds[i] != "name":
                continue
            if kinds[i + 1] == ":" and kinds[i - 1] in ("{", ","):
                continue  # (a key of the program's own object)
            read = True
            step = kinds[i + 1] == "." or values[i + 1] == "?."
            if self._reason_as_text(i):  # (written in the tree: :func:`.reasons_as_text`)
                self.reason_text_at = self.reason_text_at or self.starts[i]
                continue
            if not (step and values[i + 2] in ("message", "name")):
                raise self.fail(*reason_problem(self.starts[i]))
        if read and any(self._unordered(p) for p in promises):
            raise self.fail(
                "the program reads a rejected entry's `reason`, and an element holds several "
                "calls that may fail: dialectic may run them at once, so the reason might not "
                "be the failure JavaScript meets first",
                self.starts[self.pos - 1],
                "give each call its own element, or read only `status`",
            )

    def _race(self, promises: Any, at: int) -> Any:
        """``Promise.race(xs)``: the first element, in the array's order, that does not wait
        (``sleep(ms)``, ``new Promise(r => setTimeout(r, ms))``: a timer settles after the
        calls), its value or its failure; the others are not awaited, so their calls are not
        made (a value nothing reads; SPEC 10, deliberate differences: Node's is the first to
        settle in time)."""
        if type(promises) is list:
            for p in promises:
                if type(p) is dict and "$spread" in p:
                    raise self.fail(
                        "`Promise.race` of a spread: Plan takes the first element of an array "
                        "written in place",
                        self.starts[at],
                        "write the promises in the array: Promise.race([f(x), g(y)])",
                    )
                if not _waits(p):
                    return p
        elif type(promises) is dict and "$method" in promises:
            receiver, method, *more = promises["$method"]
            arrow = more[0] if len(more) == 1 else None
            if method == "map" and type(arrow) is dict and "$fn" in arrow and not _waits(arrow):
                first = {"$method": [receiver, "slice", 0, 1]}  # (the others' not made)
                return {"$get": [{"$method": [first, "map", arrow]}, 0]}
        elif type(promises) is dict and len(promises) == 1 and "$ref" in promises:
            return {"$get": [promises, 0]}  # (data: no promise fails)
        raise self.fail(
            "`Promise.race` here: Plan takes the first element, in the array's order, that "
            "does not wait (a timer settles after the calls), of an array written in place or "
            "`xs.map(f)`",
            self.starts[at],
            "write the promises in the array (Promise.race([f(x), sleep(5000).then(() => "
            "null)])), or take all: const [first] = await Promise.all([f(), g()]);",
        )

    def _reason_as_text(self, i: int) -> bool:
        """Whether the ``reason`` at token ``i`` may be read as text (``String(r.reason)``,
        `` `${r.reason}` ``, ``'x: ' + r.reason``, ``r.reason.toString()``, ``r.reason
        instanceof C``): the tree says whether it is (:func:`.reasons_as_text`)."""
        kinds, values = self.kinds, self.values
        after = kinds[i + 1]
        j = i - 1
        while j > 0 and (kinds[j] in (".", "name") or values[j] == "?."):
            j -= 1  # (the member's receiver, `r.reason`: `'x: ' + r.reason`)
        if after in (")", "tplm", "tplt", "+") or kinds[j] == "+":
            return True
        if after == "name" and values[i + 1] == "instanceof":
            return True
        return after == "." and values[i + 2] == "toString"

    def promise_function(self, fn: str, args: list[Any], at: int) -> Any:
        """``Promise.fn(args[1:])`` other than ``all`` and ``allSettled``."""
        if fn == "resolve" and len(args) <= 2:
            return args[1] if len(args) == 2 else {"$undefined": None}
        if fn == "any" and len(args) == 2:  # (:mod:`.anyof`)
            error = self.fresh("_error")
            entries = self._each(self._held(args[1], fn), lambda p: tagged(p, error), fn)
            made = any_of(entries, self.fresh("_any"))
            self._chain(made, (made["$get"][0]["$method"][2]["$fn"][1]["$if"][2],))
            return self.note_promise(made)
        if fn == "race" and len(args) == 2:
            return self.note_promise(self._race(self._held(args[1], fn), at))
        hints = {"reject": "write Promise.reject(new Error('what went wrong'))"}
        raise self.fail(
            f"`Promise.{fn}` is not supported",
            self.starts[at],
            hints.get(fn, "Promise.all([...]) runs calls side by side and gives their values"),
        )


def _waits(tree: Any) -> bool:
    """Whether ``tree`` calls ``sleep`` (a wait: ``new Promise(r => setTimeout(r, ms))`` is
    read as it)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if type(node) is list:
            stack.extend(node)
        elif type(node) is dict:
            if "sleep" in node:
                return True
            stack.extend(node.values())
    return False


class _Names:
    """The names of a token list, read in one pass: how many times each is named (not as a
    member: ``o.name``), those a declaration binds (``const``, ``let``, ``var``, a
    parameter) and the parameters (``name =>``, ``(a, name) =>``, ``function f(name) {``; also
    ``if (name) {``: only a refusal more)."""

    __slots__ = ("declared", "parameters", "reads")

    def __init__(self, kinds: Sequence[str], values: Sequence[Any]) -> None:
        self.reads: dict[Any, int] = {}
        self.declared: set[Any] = set()
        self.parameters: set[Any] = set()
        reads, declared, parameters = self.reads, self.declared, self.parameters
        for i in range(len(kinds) - 1):
            kind = kinds[i]
            if kind == "name":
                name = values[i]
                if i == 0 or kinds[i - 1] != ".":
                    reads[name] = reads.get(name, 0) + 1
                if i > 0 and values[i - 1] in ("const", "let", "var"):
                    declared.add(name)
                if kinds[i + 1] == "=>":
                    parameters.add(name)
            elif kind == ")" and kinds[i + 1] in ("=>", "{"):
                j = i - 1  # (each run of names and commas ends at one `)`: linear)
                while j >= 0 and kinds[j] in ("name", ","):
                    j -= 1
                if j >= 0 and kinds[j] == "(":
                    parameters.update(values[k] for k in range(j + 1, i) if kinds[k] == "name")
        declared |= parameters


def _refused(fn: str) -> str:
    if fn == "finally":
        return "Plan has no `finally` on a promise"
    return f"`{fn}` takes one handler here"
