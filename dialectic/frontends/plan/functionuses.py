"""The uses of the program's own functions, written out (SPEC 10, "Functions"): a name passed
as an argument becomes the arrow function itself, a call a block that binds the arguments and
then the parameters (:mod:`.functions` has the whole story). Each use copies the definition's
tree with its source map (:meth:`~FunctionUsesMixin._copy`), within a bound on the tokens copied
(:data:`MIN_COPIED`, or four times the program's own); a recursive function's use is a
``$letrec`` instead (:mod:`.recursive`). Nesting past :data:`MAX_NESTING`, a use before a
``const`` definition and a name the body reads captured by a parameter or a local are refused
at the statement that makes the use. The mixin
:class:`FunctionUsesMixin` under :class:`dialectic.frontends.plan.functions.FunctionsMixin`,
which keeps finding the definitions.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from dialectic.frontends.budget import count_nodes, nodes_message
from dialectic.frontends.plan.base import ParseFailure, Problem
from dialectic.frontends.plan.passed import PassedFunctionsMixin
from dialectic.frontends.plan.recursive import RecursiveMixin
from dialectic.frontends.plan.treenames import binders

if TYPE_CHECKING:
    from dialectic.frontends.plan.functions import Function

__all__ = ["MAX_NESTING", "MIN_COPIED", "FunctionUsesMixin"]

#: the message of a read before its definition (:mod:`.order`)
_READ_AHEAD = re.compile(r"`([^`]+)` is read before its definition")
#: how deep functions may call functions (each call is written out inside the one before)
MAX_NESTING = 32
#: the tokens all uses may copy, beyond four times the program's own
MIN_COPIED = 50_000


class FunctionUsesMixin(PassedFunctionsMixin, RecursiveMixin):
    """The uses of the program's functions written out (see the module)."""

    if TYPE_CHECKING:  # provided by the other mixins
        read_limit: int | None

        def on_time(self, pos: int) -> None: ...

    # -- writing out the uses ------------------------------------------------------------------

    def expand_functions(
        self,
        aliases: dict[str, Any],
        rec: list[tuple[str, int, int, int, int]],
        final: tuple[str, Any, int, int],
    ) -> tuple[tuple[str, Any, int, int], bool]:
        """Write out every use of the program's functions in ``aliases`` (in place) and in
        the final statement (``final``: returned, its value perhaps replaced), and whether any
        was. ``rec``: the statements, for the first token of each."""
        functions = self.functions
        if not functions:
            return final, False
        self._copied = 0
        self._budget = max(MIN_COPIED, 4 * len(self.kinds))
        self._any = False
        limit = self.read_limit
        total = 0  # (the nodes of the aliases written out: they are the program's)
        for name, _, first, _, _ in rec:
            self._use_at = first
            tree = aliases[name] = self._expand(aliases[name], frozenset(), ())
            self.on_time(first)
            if limit is not None:
                total += count_nodes(tree, limit - total)
                if total > limit:
                    message, hint = nodes_message(limit)
                    raise ParseFailure(
                        message, self.starts[first], hint, fatal=True, limit="max_nodes"
                    )
        self._use_at = final[2]
        value = self._expand(final[1], frozenset(), ())
        return (final[0], value, final[2], final[3]), self._any

    _use_at: int = 0
    _copied: int = 0
    _budget: int = 0
    _any: bool = False

    def _expand(self, node: Any, bound: frozenset[str], stack: tuple[str, ...]) -> Any:
        t = type(node)
        if t is list:
            for i, x in enumerate(node):
                if type(x) is dict or type(x) is list:
                    new = self._expand(x, bound, stack)
                    if new is not x:
                        node[i] = new
            return node
        if t is not dict:
            return node
        functions = self.functions
        assert functions is not None
        if len(node) == 1:
            key, value = next(iter(node.items()))
            if key == "$ref":
                if value in functions and value not in bound:
                    return self._use(functions[value], None, node, bound, stack)
                return node
            if key == "$quote":
                return node
            if key == "$fn" and type(value) is list and len(value) == 2:
                params = value[0] if type(value[0]) is list else []
                value[1] = self._expand(value[1], bound | set(params), stack)
                return node
            if key in functions and self._function_calls and id(node) in self._function_calls:
                self._expand(value, bound, stack)
                if key in bound:
                    raise self._fail_at(
                        f"`{key}` here is a parameter or a local, not the function `{key}`",
                        "give the parameter or the local another name",
                    )
                return self._use(functions[key], value, node, bound, stack)
        names = binders(node)
        inner = bound | names if names else bound
        if "$object" in node and len(node) == 1 and type(node["$object"]) is dict:
            obj = node["$object"]  # (its values, not its keys)
            for k, v in obj.items():
                if type(v) is dict or type(v) is list:
                    obj[k] = self._expand(v, bound, stack)
            return node
        for k, v in node.items():
            if type(v) is dict and k == "$let":
                for name, x in v.items():
                    if type(x) is dict or type(x) is list:
                        v[name] = self._expand(x, inner, stack)
            elif type(v) is dict or type(v) is list:
                new = self._expand(v, inner, stack)
                if new is not v:
                    node[k] = new
        if "$method" in node or "$method?" in node:
            self.method_arrows(node)  # `xs.sort(by('age'))`
        return node

    def read_through_function(self, problem: Problem) -> Problem:
        """A read before its definition found in a function written out (the statement's text
        does not show it): said as the function's read, with what to write instead."""
        found = _READ_AHEAD.match(problem[0])
        if found is None or not self.functions:
            return problem
        name = found.group(1)
        for fn in self.functions.values():
            if name in fn.free:
                where = self.index.where(self.starts[fn.at])
                return (
                    f"the function `{fn.name}` ({where}) reads `{name}`, which is defined or "
                    "changed after the statement that calls it here (JavaScript would read "
                    "it at the call)",
                    problem[1],
                    f"pass the value as an argument: {fn.name}({name}, ...)",
                )
        return problem

    def _fail_at(self, message: str, hint: str) -> ParseFailure:
        """A problem with a use: it points at the statement that (perhaps through other
        functions) makes it."""
        at = min(self._use_at, len(self.kinds) - 1)
        return ParseFailure(message, self.starts[at], hint)

    def _use(
        self,
        fn: Function,
        args: list[Any] | None,
        old: dict[str, Any],
        bound: frozenset[str],
        stack: tuple[str, ...],
    ) -> Any:
        """The written-out use of ``fn``: its arrow function (``args`` None) or its call."""
        self._any = True
        self.keep.append(old)
        if fn.name in self.find_cycles():  # (SPEC 10, "Recursive functions")
            return self.recursive_use(fn, args, bound)
        where = self.index.where(self.starts[fn.at])
        if fn.name in stack:
            through = stack[stack.index(fn.name) + 1 :]
            via = f" (through `{'`, `'.join(through)}`)" if through else ""
            raise self._fail_at(
                f"the function `{fn.name}` ({where}) calls itself{via}",
                "a recursion the program cannot write out here: use `reduce`, `map` or a loop",
            )
        if len(stack) >= MAX_NESTING:
            raise self._fail_at(
                f"functions call functions more than {MAX_NESTING} deep here",
                "call fewer functions inside one another",
            )
        if not fn.hoisted and self._use_at < fn.first:
            raise self._fail_at(
                f"`{fn.name}` is used before its definition ({where}): JavaScript throws a "
                "ReferenceError there",
                f"define `{fn.name}` before the statement that uses it",
            )
        captured = fn.free & bound
        if captured:
            name = min(captured)
            raise self._fail_at(
                f"the function `{fn.name}` ({where}) reads `{name}` of the top of the program, "
                f"but where it is used here `{name}` is a parameter or a local",
                f"give that parameter or local another name than `{name}`",
            )
        self._charge(fn.last - fn.first + 1, fn.at)
        made = self._copy(fn.tree)
        params, body = made["$fn"]
        inner_stack = (*stack, fn.name)
        if args is None:
            if fn.rest:
                raise self._fail_at(
                    f"the function `{fn.name}` ({where}) has a rest parameter: passed by name "
                    "it would get what the method passes (an item, an index)",
                    f"call it in an arrow function: xs.map(x => {fn.name}(x))",
                )
            if fn.called:  # (a method passes items and indexes: no function)
                raise self._fail_at(
                    f"the function `{fn.name}` ({where}) calls its parameter "
                    f"`{min(fn.called)}`, but passed by name it gets what the method passes "
                    "(an item, an index), not a function",
                    f"call it with the function: xs.map(x => {fn.name}(x, y => ...))",
                )
            made["$fn"][1] = self._expand(body, bound | set(params), inner_stack)
            return made
        return self._apply(fn, made, args, bound, inner_stack)

    def _apply(
        self,
        fn: Function,
        made: dict[str, Any],
        args: list[Any],
        bound: frozenset[str],
        stack: tuple[str, ...],
    ) -> Any:
        params, body = made["$fn"]
        what = f"the function `{fn.name}`"
        if fn.rest:  # `...more`: the arguments from its place, an array (spreads spread in it)
            before = len(params) - 1
            missing = [{"$undefined": None} for _ in range(before - len(args))]
            args = [*args[:before], *missing, list(args[before:])]
        self.check_arguments(what, params, args)
        if fn.called or any(type(a) is dict and ("$fn" in a or "$return" in a) for a in args):
            where = self.index.where(self.starts[fn.at])
            body, passed = self.pass_functions(f"{what} ({where})", params, body, args, fn.called)
        else:
            passed = set()
        body = self._expand(body, bound | set(params), stack)
        return self.bind_arguments(params, body, args, passed, made["$fn"])

    def _charge(self, tokens: int, at: int) -> None:
        """Count ``tokens`` more copied (at the definition at token ``at``; -1: an arrow
        passed, at the statement making the use): too many is a limit breached."""
        self._copied += tokens
        if self._copied > self._budget:
            raise ParseFailure(
                "the program's functions, written out at each use, make it too large "
                f"(over {self._budget} tokens)",
                self.starts[at if at >= 0 else min(self._use_at, len(self.kinds) - 1)],
                "use the functions fewer times (for example once, inside a `map`)",
                fatal=True,
                limit="max_nodes",
            )

    def _copy(self, node: Any) -> Any:
        """A deep copy of ``node`` with the source map and the call marks of its parts."""
        rec = self.rec
        calls = self._function_calls
        keep = self.keep.append  # (a marked call's id stays its own)

        def cp(x: Any) -> Any:
            new: Any
            if type(x) is dict:
                new = {k: cp(v) if type(v) is dict or type(v) is list else v for k, v in x.items()}
                keys: Any = x
            else:
                new = [cp(v) if type(v) is dict or type(v) is list else v for v in x]
                keys = range(len(x))
            if rec is not None:
                old = id(x)
                for k in keys:
                    span = rec.get((old, k))
                    if span is not None:
                        rec[(rec.pin(new), k)] = span
            if calls and id(x) in calls:
                calls.add(id(new))
                keep(new)
            return new

        return cp(node)
