"""A safe YAML reader for Plan2: plain data only, every node with its source location.

The document is read as an event stream (libyaml when available) and composed here, so that:

- anchors, aliases (``&a`` / ``*a``, including ``<<`` merges) and explicit tags other than
  ``!!str`` are refused with a located error (an alias can multiply a document's size; a tag can
  ask for objects that are not data);
- nesting is bounded by ``max_depth`` without recursion;
- duplicate mapping keys are an error (PyYAML silently keeps the last one);
- plain scalars are resolved with a JSON-like schema (YAML 1.2 core, restricted): ``null``/``~``
  and empty, ``true``/``false``, JSON integers and decimals. Everything else is a string, so
  ``NO``, ``on``, ``10:30``, ``2023-10-10`` and ``0123`` stay text (no YAML 1.1 surprises).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import yaml

from dialectic.frontends.budget import Clock, deadline_message
from dialectic.outcome.errors import LimitExceeded, SyntaxProblem, quote

try:  # libyaml is much faster; the pure-Python parser is the fallback
    _Loader: Any = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on the PyYAML build
    _Loader = yaml.SafeLoader

#: YAML events read between two looks at the clock (libyaml reads a few hundred thousand a
#: second: the deadline is missed by milliseconds)
_EVENTS = 1024
_NULL = re.compile(r"^(?:~|null|Null|NULL|)$")
_BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_INT = re.compile(r"^-?(?:0|[1-9][0-9]*)$")
_FLOAT = re.compile(r"^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+(?:[eE][-+]?[0-9]+)?|[eE][-+]?[0-9]+)$")
_STR_TAGS = {"!", "tag:yaml.org,2002:str"}
_INF = float("inf")


_MAX_DECIMAL_DIGITS = 309  # the largest double has 309 digits; longer integers overflow it
_MAX_SAFE_DIGITS = 15  # integers this short are converted without further checks


@dataclass(frozen=True, slots=True)
class OutOfRange:
    """What :func:`resolve_plain` gives for a plain number that does not fit a double (such as
    ``1e999`` or an integer of 400 digits): not a value, an error to report (:func:`compose`
    does). It is not a ``str``, so writers quote such text."""

    text: str


def resolve_plain(text: str) -> Any:
    """The value of a plain (unquoted) scalar under Plan2's JSON-like schema; an
    :class:`OutOfRange` for a number beyond the double range."""
    if _NULL.match(text):
        return None
    if text in _BOOL:
        return _BOOL[text]
    if _INT.match(text):
        digits = len(text) - (text[0] == "-")
        if digits <= _MAX_SAFE_DIGITS:
            return int(text)
        # (int() refuses more than 4300 digits: check the range on the float first)
        if digits > _MAX_DECIMAL_DIGITS or abs(float(text)) == _INF:
            return OutOfRange(text)
        return int(text)
    if _FLOAT.match(text):
        value = float(text)
        if abs(value) == _INF:
            return OutOfRange(text)
        return value
    return text


def _out_of_range(value: OutOfRange, mark: Any) -> SyntaxProblem:
    text = value.text
    shown = text if len(text) <= 40 else text[:20] + "..." + text[-8:]
    return _problem(
        f"the number {shown} does not fit a double (it would be Infinity)",
        mark,
        hint="numbers must be at most about 1.8e308; to pass the text, quote it: "
        + (f"'{text}'" if len(text) <= 40 else "'1000...0'"),
    )


@dataclass(frozen=True, slots=True)
class Mark:
    line: int  # 0-based, as PyYAML
    column: int
    index: int


@dataclass(slots=True)
class YNode:
    """A composed YAML node. ``kind`` is "scalar", "seq" or "map"."""

    kind: str
    start: Mark
    end: Mark
    value: Any = None  # scalar: the resolved value
    text: str = ""  # scalar: the text as read (after YAML unescaping)
    style: str | None = None  # scalar: None (plain), "'", '"', "|", ">"
    items: list[YNode] = field(default_factory=list)  # seq
    pairs: list[tuple[YNode, YNode]] = field(default_factory=list)  # map
    keys: dict[str, YNode] | None = None  # map: each key's first node (duplicates in O(1))


class YamlProblems(Exception):
    """The document is not valid Plan2 YAML; ``problems`` carry the locations."""

    def __init__(self, problems: list[SyntaxProblem]) -> None:
        super().__init__(problems[0].message)
        self.problems = problems


def _mark(m: Any) -> Mark:
    return Mark(m.line, m.column, m.index)


def _problem(message: str, mark: Any, hint: str | None = None) -> SyntaxProblem:
    return SyntaxProblem(message, mark.line + 1, mark.column + 1, hint=hint, offset=mark.index)


def _yaml_error(exc: yaml.YAMLError) -> SyntaxProblem:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    context = getattr(exc, "context", None)
    message = f"invalid YAML: {problem}" + (f" ({context})" if context else "")
    hint = None
    if "mapping values are not allowed" in problem:
        hint = (
            "a value containing ': ' (for example an object literal inside ${...}) must be "
            "quoted: key: '${{a: 1}}'"
        )
    elif "found character '\\t'" in problem or "\\t" in problem:
        hint = "indent with spaces, not tabs"
    if mark is None:
        return SyntaxProblem(message, 1, 1, hint=hint)
    return SyntaxProblem(message, mark.line + 1, mark.column + 1, hint=hint, offset=mark.index)


def compose(
    source: str, *, max_depth: int = 100, max_nodes: int | None = None, clock: Clock | None = None
) -> YNode | None:
    """Compose the single YAML document in ``source``; ``None`` for an empty document.

    ``max_nodes`` (the runtime's limit): a document with more than twice as many values (keys
    aside) cannot compile to a tree within the limit, and is refused as soon as it is seen, not
    after composing a million nodes. ``clock``: the run's deadline, looked at every
    :data:`_EVENTS` events (a problem with ``limit`` "deadline" where the reading stands)."""
    loader = _Loader(source)
    events = 0
    budget = -1 if max_nodes is None else 2 * max_nodes + 64
    stack: list[YNode] = []
    pending_key: list[YNode | None] = []  # per open mapping: the key waiting for its value
    root: YNode | None = None
    documents = 0
    problems: list[SyntaxProblem] = []
    try:
        while True:
            event = loader.get_event()
            if event is None:
                break
            events += 1
            if clock is not None and events % _EVENTS == 0 and clock.past():
                message, hint = deadline_message(clock.deadline)
                late = _problem(message, event.start_mark, hint)
                late.limit = "deadline"
                raise YamlProblems([late])
            if isinstance(event, yaml.DocumentStartEvent):
                documents += 1
                if documents > 1:
                    raise YamlProblems(
                        [
                            _problem(
                                "a Plan2 program is one YAML document; found a second one",
                                event.start_mark,
                                hint="remove the `---` separator and merge the aliases into "
                                "one mapping",
                            )
                        ]
                    )
                continue
            if isinstance(event, yaml.AliasEvent):
                raise YamlProblems(
                    [
                        _problem(
                            f"YAML aliases (`*{event.anchor}`) are not supported in Plan2",
                            event.start_mark,
                            hint="bind the value to a top-level alias and refer to it with ${name}",
                        )
                    ]
                )
            if isinstance(event, yaml.MappingEndEvent | yaml.SequenceEndEvent):
                node = stack.pop()
                pending_key.pop()
                node.end = _mark(event.end_mark)
                _attach(node, stack, pending_key, problems)
                if not stack:
                    root = node
                continue
            if not isinstance(event, yaml.NodeEvent):
                continue
            if budget >= 0 and not (stack and stack[-1].kind == "map" and pending_key[-1] is None):
                budget -= 1
                if budget < 0:
                    assert max_nodes is not None
                    raise LimitExceeded(
                        "max_nodes",
                        f"the program has more than {max_nodes} nodes (counted up to line "
                        f"{event.start_mark.line + 1 if event.start_mark else '?'})",
                    )
            if event.anchor is not None:
                raise YamlProblems(
                    [
                        _problem(
                            f"YAML anchors (`&{event.anchor}`) are not supported in Plan2",
                            event.start_mark,
                            hint="bind the value to a top-level alias and refer to it with ${name}",
                        )
                    ]
                )
            tag = getattr(event, "tag", None)
            if isinstance(event, yaml.ScalarEvent):
                if tag is not None and tag not in _STR_TAGS:
                    raise YamlProblems([_tag_problem(tag, event.start_mark)])
                style = event.style or None  # libyaml reports plain as ''
                value = resolve_plain(event.value) if tag is None and style is None else event.value
                if isinstance(value, OutOfRange):
                    problems.append(_out_of_range(value, event.start_mark))
                    value = None
                node = YNode(
                    "scalar",
                    _mark(event.start_mark),
                    _mark(event.end_mark),
                    value=value,
                    text=event.value,
                    style=style,
                )
                _attach(node, stack, pending_key, problems)
                if not stack:
                    root = node
                continue
            kind = "seq" if isinstance(event, yaml.SequenceStartEvent) else "map"
            if tag is not None and tag not in (
                "tag:yaml.org,2002:seq",
                "tag:yaml.org,2002:map",
            ):
                raise YamlProblems([_tag_problem(tag, event.start_mark)])
            if len(stack) >= max_depth:
                deep = _problem(
                    f"the plan is nested more than {max_depth} levels deep",
                    event.start_mark,
                    hint="flatten the plan: bind inner values to top-level aliases",
                )
                deep.limit = "max_depth"
                raise YamlProblems([deep])
            stack.append(YNode(kind, _mark(event.start_mark), _mark(event.end_mark)))
            pending_key.append(None)
    except yaml.YAMLError as exc:
        problem = _yaml_error(exc)
        if "maximum nesting depth" in problem.message:  # (PyYAML 6.0.4's own bound, met first)
            problem = SyntaxProblem(
                f"the plan is nested more than {max_depth} levels deep",
                problem.line,
                problem.column,
                hint="flatten the plan: bind inner values to top-level aliases",
                offset=problem.offset,
            )
            problem.limit = "max_depth"
        raise YamlProblems([problem]) from None
    finally:
        loader.dispose()
    if problems:
        raise YamlProblems(problems)
    return root


def _tag_problem(tag: str, mark: Any) -> SyntaxProblem:
    short = tag.replace("tag:yaml.org,2002:", "!!")
    return _problem(
        f"YAML tags (`{short}`) are not supported in Plan2: a plan is plain data",
        mark,
        hint="remove the tag; write a conversion as an expression, e.g. ${...}",
    )


def _attach(
    node: YNode,
    stack: list[YNode],
    pending_key: list[YNode | None],
    problems: list[SyntaxProblem],
) -> None:
    if not stack:
        return
    parent = stack[-1]
    if parent.kind == "seq":
        parent.items.append(node)
        return
    key = pending_key[-1]
    if key is None:
        if node.kind != "scalar":
            problems.append(
                SyntaxProblem(
                    "a mapping key must be a plain name, not a list or a mapping",
                    node.start.line + 1,
                    node.start.column + 1,
                    offset=node.start.index,
                )
            )
            node = YNode("scalar", node.start, node.end, value="?", text="?")
        keys = parent.keys
        if keys is None:
            keys = parent.keys = {}
        other = keys.get(node.text)
        if other is None:
            keys[node.text] = node
        else:
            problems.append(
                SyntaxProblem(
                    f"duplicate key {quote(node.text)} (first written at line "
                    f"{other.start.line + 1})",
                    node.start.line + 1,
                    node.start.column + 1,
                    hint="each key may appear once in a mapping; rename or merge them",
                    offset=node.start.index,
                )
            )
        pending_key[-1] = node
        return
    parent.pairs.append((key, node))
    pending_key[-1] = None


def to_data(node: YNode | None) -> Any:
    """Plain Python data for a node (keys as their text); iterative-safe for bounded depth."""
    if node is None:
        return None
    if node.kind == "scalar":
        return node.value
    if node.kind == "seq":
        return [to_data(n) for n in node.items]
    return {k.text: to_data(v) for k, v in node.pairs}
