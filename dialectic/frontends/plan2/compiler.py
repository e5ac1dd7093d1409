"""The Plan2 compiler: YAML nodes (aliases -> DomainSets -> slots -> templates) to the call
tree, with a span per path, warnings and every problem found (see :mod:`.parser`)."""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from typing import Any, Literal

from dialectic.frontends.base import SourceError, Span
from dialectic.frontends.budget import Clock, count_nodes, deadline_message, nodes_message
from dialectic.frontends.plan.keywords import LITERAL_WORDS as _LITERAL_WORDS
from dialectic.frontends.plan.keywords import RESERVED as _JS_RESERVED
from dialectic.frontends.plan2.keyword_aliases import hide_keyword_aliases, restore_refs
from dialectic.frontends.plan2.templates import ExprPart, TemplateError, split_template
from dialectic.frontends.plan2.yamlnodes import Mark, YNode
from dialectic.outcome.errors import DialecticError, JSONPath, SyntaxProblem, quote
from dialectic.registry.registry import closest

__all__ = ["Compiler", "ExpressionParser", "LineIndex", "SlotMode"]

SlotMode = Literal["list", "scalar", "as-written"]
ExpressionParser = Callable[..., tuple[Any, dict[JSONPath, Span]]]

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
#: an alias whose whole value makes an ``Intl.NumberFormat``: its ``format`` is the method
_NUMBER_FORMAT = re.compile(
    r"\s*\$\{\s*(?:new\s+)?Intl\s*\.\s*(?:NumberFormat|DateTimeFormat)\s*\("
)


class LineIndex:
    """Offsets <-> 1-based line/column."""

    def __init__(self, source: str) -> None:
        self.starts = [0]
        for i, c in enumerate(source):
            if c == "\n":
                self.starts.append(i + 1)

    def locate(self, offset: int) -> tuple[int, int]:
        lo, hi = 0, len(self.starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1, offset - self.starts[lo] + 1


class Compiler:
    def __init__(
        self,
        source: str,
        *,
        lift: bool,
        slots: SlotMode,
        strict: bool,
        expression_parser: ExpressionParser,
        inserted: list[int] | None = None,
    ) -> None:
        #: the text as written (fence blanked); YAML marks come from the repaired text, whose
        #: ``inserted`` characters (quotes added by the repair) ``back`` removes from offsets
        self.source = source
        self.inserted = inserted or []
        self.lift = lift
        self.slots = slots
        self.strict = strict
        self.parse_expression = expression_parser
        self.index = LineIndex(source)
        self.spans: dict[JSONPath, Span] = {}
        self.warnings: list[str] = []
        self.problems: list[SyntaxProblem] = []
        #: aliases named like JavaScript keywords (the seed's `return:`), and the same-length
        #: identifiers that stand for them while the Plan expression parser reads `${...}`
        self.keyword_aliases: dict[str, str] = {}
        #: the aliases bound to an ``Intl.NumberFormat`` (``fmt.format(x)`` is its method)
        self.formats: frozenset[str] = frozenset()
        #: the runtime's `max_nodes` and deadline while reading (None: not bounded), and the
        #: nodes of the aliases read so far (:mod:`dialectic.frontends.budget`)
        self.max_nodes: int | None = None
        self.clock: Clock | None = None
        self.read_nodes = 0

    # -- helpers -----------------------------------------------------------------------------

    def back(self, offset: int) -> int:
        """An offset of the (repaired) YAML text as an offset of the text as written."""
        if not self.inserted:
            return offset
        return min(offset - bisect.bisect_left(self.inserted, offset), len(self.source))

    def start(self, node: YNode) -> int:
        return self.back(node.start.index)

    def end(self, node: YNode) -> int:
        return self.back(node.end.index)

    def span_of(self, node: YNode) -> Span:
        start, end = self.start(node), self.end(node)
        line, column = self.index.locate(start)
        end_line, end_column = self.index.locate(end)
        return Span(line, column, end_line, end_column, start, end)

    def problem(
        self, node: YNode | Mark, where: str, message: str, hint: str | None = None
    ) -> None:
        mark = node.start if isinstance(node, YNode) else node
        offset = self.back(mark.index)
        line, column = self.index.locate(offset)
        prefix = f"in {quote(where)}: " if where else ""
        self.problems.append(
            SyntaxProblem(prefix + message, line, column, hint=hint, offset=offset)
        )

    def warn(self, node: YNode, message: str) -> None:
        line, column = self.index.locate(self.start(node))
        self.warnings.append(f"line {line}, column {column}: {message}")

    # -- program -----------------------------------------------------------------------------

    def program(self, root: YNode | None) -> Any:
        if root is None:
            self.problems.append(
                SyntaxProblem(
                    "the Plan2 program is empty",
                    1,
                    1,
                    hint="write a YAML mapping of aliases with a `result` alias, e.g. "
                    "`result: ${1}`",
                )
            )
            return None
        if root.kind != "map":
            self.problem(
                root,
                "",
                "a Plan2 program is a YAML mapping of aliases (name: DomainSet or string), "
                f"not a {'list' if root.kind == 'seq' else 'single value'}",
                hint="write `result:` followed by the plan's value",
            )
            return None
        bindings: dict[str, Any] = {}
        names = [k.text for k, _ in root.pairs]
        self.keyword_aliases = {
            n: "$" + n[1:] for n in names if n in _JS_RESERVED and n not in _LITERAL_WORDS
        }
        self.formats = frozenset(
            k.text
            for k, v in root.pairs
            if v.kind == "scalar" and type(v.value) is str and _NUMBER_FORMAT.match(v.value)
        )
        for key, value in root.pairs:
            name = key.text
            if not _IDENT.match(name):
                self.problem(
                    key,
                    name,
                    f"alias name `{name}` is not an identifier (letters, digits and `_`, not "
                    "starting with a digit), so no expression could refer to it",
                    hint="rename the alias, e.g. `" + (re.sub(r"\W", "_", name) or "a") + "`",
                )
                continue
            self.spans[("$let", name)] = self.span_of(value)
            bindings[name] = self.alias(value, name, ("$let", name))
            if self._too_long(bindings[name], key):
                return None
        if "result" not in names:
            close = closest("result", names, 1, substrings=False)
            hint = (
                f"did you mean `{close[0]}`? The alias must be spelt `result`."
                if close
                else "add `result:` with the plan's value (a DomainSet or a template such as "
                "`${[a, b]}`)"
            )
            self.problem(
                root,
                "",
                "a Plan2 program must define the `result` alias (its value is the plan's value)"
                f"; found {', '.join(f'`{n}`' for n in names) or 'no aliases'}",
                hint=hint,
            )
            return None
        self.spans[("$return",)] = self.span_of(root)
        if self.lift:
            self._check_lifted_access(bindings)
        return {"$let": bindings, "$return": {"$ref": "result"}}

    def _too_long(self, tree: Any, key: YNode) -> bool:
        """Whether the aliases read so far (the last one's tree ``tree``) pass ``max_nodes``,
        or the reading its deadline: then a ``limit_exceeded`` problem at the alias ``key``
        (their trees are the program's ``$let``: the count is a lower bound of its)."""
        limit, clock = self.max_nodes, self.clock
        found: tuple[str, str, str] | None = None
        if limit is not None:
            self.read_nodes += count_nodes(tree, limit - self.read_nodes)
            if self.read_nodes > limit:
                found = (*nodes_message(limit), "max_nodes")
        if found is None and clock is not None and clock.tick():
            found = (*deadline_message(clock.deadline), "deadline")
        if found is None:
            return False
        message, hint, name = found
        offset = self.start(key)
        line, column = self.index.locate(offset)
        problem = SyntaxProblem(message, line, column, hint=hint, offset=offset)
        problem.limit = name
        self.problems.insert(0, problem)
        return True

    def _check_lifted_access(self, bindings: dict[str, Any]) -> None:
        """Warn about ``${A.flights...}`` where ``A`` is lifted to flights' result itself."""
        lifted = {
            name: next(iter(tree["$unwrap"]))
            for name, tree in bindings.items()
            if isinstance(tree, dict)
            and set(tree) == {"$unwrap"}
            and isinstance(tree["$unwrap"], dict)
            and len(tree["$unwrap"]) == 1
        }
        if not lifted:
            return
        stack: list[tuple[Any, JSONPath]] = [(t, ("$let", n)) for n, t in bindings.items()]
        while stack:
            node, path = stack.pop()
            if isinstance(node, list):
                stack.extend((v, (*path, i)) for i, v in enumerate(node))
                continue
            if not isinstance(node, dict) or set(node) == {"$quote"}:
                continue
            get = node.get("$get") if len(node) == 1 else None
            if isinstance(get, list) and len(get) >= 2 and isinstance(get[0], dict):
                alias = get[0].get("$ref") if set(get[0]) == {"$ref"} else None
                if isinstance(alias, str) and lifted.get(alias) == get[1]:
                    span = self.spans.get(path)
                    where = f"line {span.line}, column {span.column}: " if span else ""
                    self.warnings.append(
                        f"{where}`{alias}.{get[1]}`: with single-domain lifting `{alias}` is "
                        f"already the result of `{get[1]}` (one-element lists unwrapped); write "
                        f"`{alias}.<field>`, or run with lift=False"
                    )
            stack.extend((v, (*path, k)) for k, v in node.items())

    def alias(self, node: YNode, where: str, path: JSONPath) -> Any:
        if node.kind == "map":
            return self.domain_set(node, where, path)
        if node.kind == "seq":
            if self.strict:
                self.problem(
                    node,
                    where,
                    "an alias binds a DomainSet (a mapping of domains) or a string, not a list",
                    hint="write a list as an expression: `${[a, b]}`",
                )
                return None
            self.warn(node, f"alias {quote(where)} is a YAML list: read as an array of values")
            return self.value(node, where, path)
        if node.value is None:
            self.problem(
                node,
                where,
                "the alias has no value",
                hint="bind it to a DomainSet (domain: {slot: value}) or a string",
            )
            return None
        return self.value(node, where, path)

    def domain_set(self, node: YNode, where: str, path: JSONPath) -> Any:
        if not node.pairs:
            self.problem(
                node,
                where,
                "the DomainSet is empty",
                hint="name at least one domain, e.g. `flights: {origin: SFO}`",
            )
            return None
        if self.lift and len(node.pairs) == 1:
            key, slots = node.pairs[0]
            inner = (*path, "$unwrap")
            self.spans[inner] = self.span_of(key)
            return {"$unwrap": self.domain(key, slots, f"{where}.{key.text}", inner)}
        fields: dict[str, Any] = {}
        base = (*path, "$object")
        for key, slots in node.pairs:
            self.spans[(*base, key.text)] = self.span_of(key)
            fields[key.text] = self.domain(key, slots, f"{where}.{key.text}", (*base, key.text))
        return {"$object": fields}

    def domain(self, key: YNode, slots: YNode, where: str, path: JSONPath) -> Any:
        name = key.text
        if not name or name.startswith("$"):
            self.problem(
                key,
                where,
                f"`{name}` is not a domain name",
                hint="a domain is the name of a function, such as `flights`",
            )
            return None
        call_path = (*path, name)
        if slots.kind == "map":
            args: dict[str, Any] = {}
            for slot_key, slot_value in slots.pairs:
                slot = slot_key.text
                slot_where = f"{where}.{slot}"
                if not slot or slot.startswith("$"):
                    self.problem(
                        slot_key,
                        slot_where,
                        f"`{slot}` is not a slot name",
                        hint="slot names are parameter names; they may not start with `$`",
                    )
                    continue
                self.spans[(*call_path, slot)] = self.span_of(slot_value)
                args[slot] = self.slot(slot_value, slot_where, (*call_path, slot))
            return {name: args}
        if slots.kind == "seq":  # positional arguments
            return {name: self.value(slots, where, call_path)}
        if slots.value is None:  # `domain:` with nothing: a call without arguments
            return {name: {}}
        return {name: [self.value(slots, where, (*call_path, 0))]}

    def slot(self, node: YNode, where: str, path: JSONPath) -> Any:
        if node.kind == "scalar" and node.style is None and isinstance(node.value, str):
            items = self._dash_list(node)
            if items is not None:
                if self.strict:
                    self.problem(
                        node,
                        where,
                        "this looks like a YAML list written without a space after `-`",
                        hint="write `- value` (dash, space, value) for each list item",
                    )
                else:
                    self.warn(
                        node,
                        f"{quote(where)}: read `-value` lines as a list (YAML needs `- value`)",
                    )
                    values = [
                        self.template(t, node, f"{where}[{i}]", (*path, i), exact=False)
                        for i, t in enumerate(items)
                    ]
                    return values if self.slots != "scalar" or len(values) != 1 else values[0]
        if self.slots == "list" and node.kind != "seq":
            return [self.value(node, where, (*path, 0))]
        if self.slots == "scalar" and node.kind == "seq" and len(node.items) == 1:
            return self.value(node.items[0], f"{where}[0]", path)
        return self.value(node, where, path)

    def _dash_list(self, node: YNode) -> list[str] | None:
        before = self.source[: self.start(node)]
        if "\n" not in before[len(before.rstrip()) :]:
            return None  # `slot: -x` on the key's line is a string; only `slot:\n  -x` lists
        raw = self.source[self.start(node) : self.end(node)]
        lines = [ln.strip() for ln in raw.split("\n") if ln.strip()]
        if not lines or not all(
            ln.startswith("-") and len(ln) > 1 and ln[1] not in " -" for ln in lines
        ):
            return None
        return [ln[1:] for ln in lines]

    def value(self, node: YNode, where: str, path: JSONPath) -> Any:
        if node.kind == "seq":
            out = []
            for i, item in enumerate(node.items):
                self.spans[(*path, i)] = self.span_of(item)
                out.append(self.value(item, f"{where}[{i}]", (*path, i)))
            return out
        if node.kind == "map":
            fields: dict[str, Any] = {}
            for key, item in node.pairs:
                p = (*path, "$object", key.text)
                self.spans[p] = self.span_of(item)
                fields[key.text] = self.value(item, f"{where}.{key.text}", p)
            return {"$object": fields}
        if isinstance(node.value, str):
            return self.template(node.value, node, where, path, exact=True)
        return node.value

    # -- templates ----------------------------------------------------------------------------

    def _base_offset(self, node: YNode, text: str, exact: bool) -> int | None:
        """Source offset of ``text[0]`` if the scalar's text appears verbatim in the source."""
        start, end = self.start(node), self.end(node)
        if not exact:
            found = self.source.find(text, start, end)
            return found if found >= 0 else None
        if node.style is None and self.source[start:end] == text:
            return start
        if node.style in ("'", '"') and self.source[start + 1 : end - 1] == text:
            return start + 1
        return None

    def template(self, text: str, node: YNode, where: str, path: JSONPath, *, exact: bool) -> Any:
        self.spans.setdefault(path, self.span_of(node))
        base = self._base_offset(node, text, exact)
        try:
            parts = split_template(text)
        except TemplateError as exc:
            offset = base + exc.offset if base is not None else self.start(node)
            line, column = self.index.locate(offset)
            self.problems.append(
                SyntaxProblem(
                    f"in {quote(where)}: {exc.message}", line, column, hint=exc.hint, offset=offset
                )
            )
            return None
        if not parts:
            return ""
        if len(parts) == 1 and isinstance(parts[0], str):
            return parts[0]
        if len(parts) == 1 and isinstance(parts[0], ExprPart):
            return self.expression(parts[0], text, node, base, where, path)
        out: list[Any] = []
        for i, part in enumerate(parts):
            if isinstance(part, str):
                out.append(part)
            else:
                out.append(self.expression(part, text, node, base, where, (*path, "$template", i)))
        return {"$template": out}

    def expression(
        self, part: ExprPart, text: str, node: YNode, base: int | None, where: str, path: JSONPath
    ) -> Any:
        if base is None:
            found = self.source.find("${" + part.source + "}", self.start(node), self.end(node))
            base = found + 2 - part.offset if found >= 0 else None
        offset = base + part.offset if base is not None else self.start(node)
        line, column = self.index.locate(offset)
        expr_source = part.source
        placeholders: dict[str, str] = {}
        if self.keyword_aliases:
            expr_source, placeholders = hide_keyword_aliases(expr_source, self.keyword_aliases)
        try:
            if self.formats and "format" in expr_source:  # `fmt.format(x)` of an alias
                tree, spans = self.parse_expression(
                    expr_source, line=line, column=column, offset=offset, formats=self.formats
                )
            else:
                tree, spans = self.parse_expression(
                    expr_source, line=line, column=column, offset=offset
                )
            if placeholders:
                tree = restore_refs(tree, placeholders)
        except SourceError as exc:
            for p in exc.problems:
                self.problems.append(
                    SyntaxProblem(
                        f"in {quote(where)}: {p.message}",
                        p.line,
                        p.column,
                        hint=p.hint,
                        offset=p.offset,
                        limit=p.limit,
                    )
                )
            return None
        except DialecticError as exc:
            self.problems.append(
                SyntaxProblem(
                    f"in {quote(where)}: {exc.message}", line, column, hint=exc.hint, offset=offset
                )
            )
            return None
        for sub, span in spans.items():
            self.spans[path + tuple(sub)] = span
        return tree
