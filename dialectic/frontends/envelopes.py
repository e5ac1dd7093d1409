"""Envelopes: the shapes models answer in, read as call trees (SPEC.md section 9, "Envelopes and
repairs").

A model asked for a tool call often answers in its vendor's shape rather than in Dialect JSON:

- OpenAI: a function call ``{"name", "arguments"}`` (``arguments`` an object or a JSON string);
  a chat-completions tool call ``{"id"?, "type": "function", "function": {"name", "arguments"}}``;
  an assistant message ``{"role": "assistant", "tool_calls": [...]}``; a Responses API item
  ``{"type": "function_call", "name", "arguments", "call_id"?}``;
- Anthropic: a ``{"type": "tool_use", "id"?, "name", "input"}`` block, or a message whose
  ``content`` is a list of blocks (text and thinking blocks are ignored with a warning);
- a JSON array of any of these: parallel calls, whose value is the list of their results;
- TypeChat programs ``{"@steps": [{"@func": f, "@args": [...]}, ...]}`` with ``{"@ref": n}``;
- NESTFUL sequences ``[{"name", "arguments", "label": "$var_1"}, ...]`` with ``"$var_1.result$"``;
- LLMCompiler plans (text): ``1. f(x="a")`` lines, ``$1``/``${1}`` references, a final ``join()``.

Each becomes the call tree of the same calls, so they run with the normal binding and validation,
and each adds a warning saying what it was read as. Arguments are data: an object or array in
them is quoted (``$quote``), never read as a call.

**Detection never takes Dialect JSON for an envelope.** Only the program's top level (the whole
program, or the elements of a top-level array) is looked at; nothing nested is reinterpreted. A
Dialect JSON call has exactly one key, so no call is ever an envelope; a candidate must match its
shape exactly: the required keys, no keys beyond the documented optional ones, the documented
``type``/``role`` values. The one shape with no such marker, ``{"name", "arguments"}`` (and the
NESTFUL list, whose items add only ``label``), is an envelope only if the named function is
registered (when the caller passes ``functions``; without a registry, as in
``dialectic.compile`` and ``dialectic convert``, the exact shape suffices). If the name is not
registered, the program could be either a call of an unknown function or a data object, and
reading it fails with both readings spelled out, never silently picking one. So does an object
whose marker names a shape its keys do not match (an "almost envelope"): it is neither run nor
returned as data.
"""

from __future__ import annotations

import ast
import io
import keyword
import re
import tokenize
from collections.abc import Collection
from typing import Any

import orjson

from dialectic.frontends.base import FrontEndResult, SourceError
from dialectic.frontends.repair import repair_json, scan
from dialectic.limits import HARD_MAX_DEPTH
from dialectic.outcome.errors import DialecticError, JSONPath, SyntaxProblem, clip
from dialectic.registry.registry import closest, normalize_name

#: NESTFUL's reference to an earlier call's output: ``"$var_1.result$"``, ``"$var1.output_0$"``
NESTFUL_REF = re.compile(r"^\$([A-Za-z_]\w*)\.(\w+)\$$")
_NESTFUL_POSITIONAL = re.compile(r"^arg_(\d+)$")
_IDENT = re.compile(r"^[A-Za-z_][\w.-]*$")

_CHAT_OPTIONAL = {"id", "index"}
_RESPONSES_OPTIONAL = {"call_id", "id", "status"}
_OPENAI_MESSAGE_OPTIONAL = {"content", "refusal", "annotations", "audio", "function_call", "name"}
_ANTHROPIC_MESSAGE_OPTIONAL = {
    "id",
    "type",
    "model",
    "stop_reason",
    "stop_sequence",
    "usage",
    "container",
}
_IGNORED_BLOCKS = {"text", "thinking", "redacted_thinking"}

Functions = Collection[str] | None


class EnvelopeError(DialecticError):
    """A program in a model's answer shape that cannot be read: what is wrong and where."""

    def __init__(
        self,
        message: str,
        path: JSONPath = (),
        *,
        hint: str | None = None,
        details: dict[str, Any] | None = None,
    ) -> None:
        super().__init__("invalid_program", message, path, hint=hint, details=details)


class _Call:
    """One call read from an envelope."""

    __slots__ = ("name", "args", "kind")

    def __init__(self, name: str, args: Any, kind: str) -> None:
        self.name = name
        self.args = args
        self.kind = kind

    @property
    def tree(self) -> dict[str, Any]:
        return {self.name: self.args}


# -- registered names ------------------------------------------------------------------------


class _Names:
    """Whether a name is a registered function (exactly, or up to case and underscores as the
    resolver forgives it); without a registry, whether it is shaped like a function name."""

    def __init__(self, functions: Functions) -> None:
        self.functions = functions
        self._normalized: set[str] | None = None

    @property
    def known(self) -> bool:
        return self.functions is not None

    def has(self, name: str) -> bool:
        """Registered (with a registry), or shaped like a function name (without one)."""
        if self.functions is None:
            return _IDENT.match(name) is not None
        if name in self.functions:
            return True
        if self._normalized is None:
            self._normalized = {normalize_name(n) for n in self.functions}
        return normalize_name(name) in self._normalized


# -- arguments -------------------------------------------------------------------------------


def _data(value: Any) -> Any:
    """A JSON value as data in the call tree: objects and arrays are quoted."""
    if isinstance(value, dict | list):
        return {"$quote": value}
    return value


def _named(args: dict[str, Any]) -> list[Any]:
    """Named arguments as the one argument object ``f({k: v})``: never a nested call, and an
    unknown key is an ``unknown_parameter`` failure (SPEC 1.5); no arguments are ``f()``."""
    if not args:
        return []
    return [{"$object": {k: _data(v) for k, v in args.items()}}]


def _arguments(value: Any, path: JSONPath, *, strict: bool, warnings: list[str]) -> list[Any]:
    """OpenAI ``arguments``: an object, or a JSON string of one."""
    if isinstance(value, str):
        text = value
        try:
            value = orjson.loads(text) if text.strip() else {}
        except orjson.JSONDecodeError as exc:
            try:
                repaired = repair_json(text, text, strict=strict)
            except SourceError as err:
                first = err.problems[0]
                raise EnvelopeError(
                    f"`arguments` is a JSON string that does not parse: line {first.line}, "
                    f"column {first.column} of the string: {first.message}",
                    path,
                    hint=(first.hint or "")
                    + " `arguments` is a JSON object, or a string holding one.",
                ) from None
            if repaired is None:
                line, column, msg = exc.lineno, exc.colno, exc.msg
                hint = '`arguments` is a JSON object, or a string holding one: "{\\"x\\": 1}".'
                found = scan(text).error
                if found is not None:  # a clearer account: "this `{` is never closed", ...
                    line = text.count("\n", 0, found.offset) + 1
                    column = found.offset - (text.rfind("\n", 0, found.offset) + 1) + 1
                    msg, hint = found.message, found.hint
                raise EnvelopeError(
                    f"`arguments` is a JSON string that does not parse: line {line}, "
                    f"column {column} of the string: {msg}",
                    path,
                    hint=hint,
                ) from None
            value, more = repaired
            warnings.extend(f"in `{_where(path)}`: {w}" for w in more)
    if not isinstance(value, dict):
        raise EnvelopeError(
            f"`arguments` must be a JSON object of named arguments, not {_kind(value)}",
            path,
            hint='Write the arguments as an object: "arguments": {"origin": "SFO"}.',
        )
    return _named(value)


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


def _where(path: JSONPath) -> str:
    return "program" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)


def _name(value: Any, path: JSONPath) -> str:
    if isinstance(value, str) and value and not value.startswith("$"):
        return value
    what = (
        f"`{clip(value)}`, which starts with $ (a core form)"
        if isinstance(value, str) and value
        else ("an empty string" if value == "" else _kind(value))
    )
    raise EnvelopeError(
        f"the function name must be the name of a function, not {what}",
        path,
        hint='Name the function to call: "name": "flights".',
    )


# -- single-call shapes ------------------------------------------------------------------------

#: what each kind is called in warnings
KIND_NAMES = {
    "openai_function": 'an OpenAI function call {"name", "arguments"}',
    "openai_tool_call": "an OpenAI chat-completions tool call",
    "openai_message": "an OpenAI assistant message with tool_calls",
    "openai_function_message": "an OpenAI assistant message with a function_call",
    "responses_function_call": "an OpenAI Responses API function_call item",
    "anthropic_tool_use": "an Anthropic tool_use block",
    "anthropic_message": "an Anthropic assistant message",
    "typechat": "a TypeChat program",
    "nestful": "a NESTFUL sequence",
    "llmcompiler": "an LLMCompiler plan",
}


#: each marked shape: its required keys and the optional ones it may have
SHAPES: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "openai_tool_call": (frozenset({"type", "function"}), frozenset(_CHAT_OPTIONAL)),
    "responses_function_call": (
        frozenset({"type", "name", "arguments"}),
        frozenset(_RESPONSES_OPTIONAL),
    ),
    "anthropic_tool_use": (frozenset({"type", "name", "input"}), frozenset({"id"})),
    "openai_message": (frozenset({"role", "tool_calls"}), frozenset(_OPENAI_MESSAGE_OPTIONAL)),
    "openai_function_message": (
        frozenset({"role", "function_call"}),
        frozenset(_OPENAI_MESSAGE_OPTIONAL - {"function_call"}),
    ),
    "anthropic_message": (frozenset({"role", "content"}), frozenset(_ANTHROPIC_MESSAGE_OPTIONAL)),
    "openai_function": (frozenset({"name", "arguments"}), frozenset()),
}


def _marked(obj: dict[str, Any]) -> str | None:
    """The shape a top-level object's ``type``/``role`` marker names, exact or not."""
    kind = obj.get("type")
    if kind == "function" and "function" in obj:
        return "openai_tool_call"
    if kind == "function_call" and "name" in obj:
        return "responses_function_call"
    if kind == "tool_use" and "name" in obj:
        return "anthropic_tool_use"
    if obj.get("role") == "assistant":
        if "tool_calls" in obj:
            return "openai_message"
        if isinstance(obj.get("function_call"), dict):
            return "openai_function_message"
        if isinstance(obj.get("content"), list):
            return "anthropic_message"
    return None


def classify(obj: Any) -> str | None:
    """The envelope kind a top-level object's shape is, exactly, or None (Dialect JSON). Only
    the keys and the ``type``/``role`` markers are looked at."""
    if not isinstance(obj, dict) or len(obj) < 2:
        return None  # a call of Dialect JSON has one key
    kind = _marked(obj)
    if kind is not None:
        required, optional = SHAPES[kind]
        if not (required <= obj.keys() and obj.keys() <= required | optional):
            return None
        if kind == "anthropic_message" and obj.get("type", "message") != "message":
            return None
        return kind
    if (
        obj.keys() == {"name", "arguments"}
        and isinstance(obj["name"], str)
        and isinstance(obj["arguments"], dict | str)
    ):
        return "openai_function"
    return None


def _near_miss(obj: Any, names: _Names, path: JSONPath) -> EnvelopeError | None:
    """A top-level object that is almost an envelope: its marker names a shape its keys do not
    match (or, with a registry, ``{"name": <a registered function>, "arguments", ...more}``). It
    could be a tool call or data, so it is neither (SPEC 9's rule)."""
    if not isinstance(obj, dict) or len(obj) < 2:
        return None
    kind = _marked(obj)
    if kind is None:
        name = obj.get("name")
        if not (names.known and "arguments" in obj and isinstance(name, str) and names.has(name)):
            return None
        kind = "openai_function"
    required, optional = SHAPES[kind]
    extra = sorted(obj.keys() - required - optional)
    missing = sorted(required - obj.keys())
    wrong = []
    if extra:
        wrong.append("the keys " + ", ".join(f"`{clip(k)}`" for k in extra[:5]) + " are not in it")
    if missing:
        wrong.append("it lacks " + ", ".join(f"`{k}`" for k in missing))
    if not wrong and kind == "anthropic_message":
        wrong.append(f"its `type` is {clip(str(obj.get('type')))!r}, not 'message'")
    if not wrong and kind == "openai_function":
        wrong.append(
            f"its `arguments` is {_kind(obj['arguments'])}, not an object of named arguments "
            "or a JSON string of one"
        )
    return EnvelopeError(
        f"this object looks like {KIND_NAMES[kind]}, but not exactly: "
        + "; ".join(wrong)
        + ". It is neither run as a tool call nor returned as data",
        path,
        hint=f"Send {KIND_NAMES[kind]} with exactly the keys "
        + ", ".join(f"`{k}`" for k in sorted(required))
        + (
            " (and optionally " + ", ".join(f"`{k}`" for k in sorted(optional)) + ")"
            if optional
            else ""
        )
        + ', or a Dialect JSON program; to return the object as data, write {"$quote": {...}}.',
        details={"readings": [{"description": "the object as data", "program": {"$quote": obj}}]},
    )


def _single(
    obj: dict[str, Any], kind: str, path: JSONPath, *, strict: bool, warnings: list[str]
) -> list[_Call]:
    """The calls of one enveloped object of ``kind`` (a message may hold several)."""
    if kind == "openai_function" or kind == "responses_function_call":
        name = _name(obj["name"], (*path, "name"))
        args = _arguments(obj["arguments"], (*path, "arguments"), strict=strict, warnings=warnings)
        return [_Call(name, args, kind)]
    if kind == "openai_tool_call" or kind == "openai_function_message":
        key = "function" if kind == "openai_tool_call" else "function_call"
        fn = obj[key]
        fpath = (*path, key)
        if not isinstance(fn, dict) or fn.keys() != {"name", "arguments"}:
            raise EnvelopeError(
                f'`{key}` of {KIND_NAMES[kind]} must be {{"name": ..., "arguments": ...}}',
                fpath,
                hint=f'Write "{key}": {{"name": "f", "arguments": "{{}}"}}.',
            )
        name = _name(fn["name"], (*fpath, "name"))
        args = _arguments(fn["arguments"], (*fpath, "arguments"), strict=strict, warnings=warnings)
        return [_Call(name, args, kind)]
    if kind == "anthropic_tool_use":
        name = _name(obj["name"], (*path, "name"))
        value = obj["input"]
        if not isinstance(value, dict):
            raise EnvelopeError(
                f"`input` of a tool_use block must be a JSON object, not {_kind(value)}",
                (*path, "input"),
                hint='Write the arguments as an object: "input": {"origin": "SFO"}.',
            )
        return [_Call(name, _named(value), kind)]
    if kind == "openai_message":
        calls = obj["tool_calls"]
        cpath = (*path, "tool_calls")
        if not isinstance(calls, list) or not calls:
            raise EnvelopeError(
                "the assistant message has no tool calls: nothing to run",
                cpath,
                hint="Send the calls to run as tool_calls, or a Dialect JSON program.",
            )
        out: list[_Call] = []
        for i, call in enumerate(calls):
            if classify(call) != "openai_tool_call":
                raise EnvelopeError(
                    "each entry of `tool_calls` must be "
                    '{"id": ..., "type": "function", "function": {"name": ..., "arguments": ...}}',
                    (*cpath, i),
                )
            out.extend(
                _single(call, "openai_tool_call", (*cpath, i), strict=strict, warnings=warnings)
            )
        content = obj.get("content")
        if isinstance(content, str) and content.strip():
            warnings.append(
                f"ignored the message's text content ({clip(content.strip(), 60)!r}); "
                "only its tool calls run"
            )
        return out
    assert kind == "anthropic_message"
    blocks = obj["content"]
    out = []
    ignored: list[str] = []
    for i, block in enumerate(blocks):
        bpath = (*path, "content", i)
        if not isinstance(block, dict):
            raise EnvelopeError(
                f"each content block must be an object, not {_kind(block)}",
                bpath,
            )
        btype = block.get("type")
        if btype in _IGNORED_BLOCKS:
            ignored.append(str(btype))
            continue
        if classify(block) != "anthropic_tool_use":
            raise EnvelopeError(
                f"cannot run a content block of type {clip(str(btype))!r}; only tool_use blocks "
                "run (text and thinking blocks are ignored)",
                bpath,
                hint='A tool_use block is {"type": "tool_use", "id": ..., "name": ..., "input": '
                "{...}}.",
            )
        out.extend(_single(block, "anthropic_tool_use", bpath, strict=strict, warnings=warnings))
    if not out:
        raise EnvelopeError(
            "the assistant message has no tool_use block: nothing to run",
            (*path, "content"),
            hint="Send the calls to run as tool_use blocks, or a Dialect JSON program.",
        )
    if ignored:
        counts = {t: ignored.count(t) for t in dict.fromkeys(ignored)}
        listed = ", ".join(f"{n} {t} block{'s' if n > 1 else ''}" for t, n in counts.items())
        warnings.append(f"ignored {listed} of the message; only its tool_use blocks run")
    return out


# -- TypeChat ----------------------------------------------------------------------------------


def _typechat(obj: dict[str, Any]) -> Any:
    steps = obj["@steps"]
    if not isinstance(steps, list) or not steps:
        raise EnvelopeError(
            "`@steps` must be a non-empty array of steps",
            ("@steps",),
            hint='Write {"@steps": [{"@func": "f", "@args": [...]}]}.',
        )
    bindings: dict[str, Any] = {}

    def expr(value: Any, path: JSONPath, step: int, depth: int) -> Any:
        if depth > HARD_MAX_DEPTH:
            raise EnvelopeError("the program is nested too deeply", path)
        if isinstance(value, list):
            return [expr(v, (*path, i), step, depth + 1) for i, v in enumerate(value)]
        if not isinstance(value, dict):
            return value
        if "@ref" in value:
            ref = value["@ref"]
            if value.keys() != {"@ref"} or type(ref) is not int or not 0 <= ref < step:
                earlier = f"0 to {step - 1}" if step else "the first step has none"
                raise EnvelopeError(
                    f"`@ref` must be the index of an earlier step ({earlier}), "
                    f"not {clip(str(ref))}",
                    path,
                    hint='{"@ref": 0} is the result of the first step.',
                )
            return {"$ref": f"step_{ref + 1}"}
        if "@func" in value:
            return call(value, path, step, depth + 1)
        return {"$object": {k: expr(v, (*path, k), step, depth + 1) for k, v in value.items()}}

    def call(value: Any, path: JSONPath, step: int, depth: int) -> Any:
        if not isinstance(value, dict) or not {"@func"} <= value.keys() <= {"@func", "@args"}:
            raise EnvelopeError(
                'a TypeChat step must be {"@func": name, "@args": [...]}',
                path,
            )
        name = _name(value["@func"], (*path, "@func"))
        args = value.get("@args", [])
        if not isinstance(args, list):
            raise EnvelopeError("`@args` must be an array", (*path, "@args"))
        return {name: [expr(a, (*path, "@args", i), step, depth) for i, a in enumerate(args)]}

    for i, step in enumerate(steps):
        bindings[f"step_{i + 1}"] = call(step, ("@steps", i), i, 0)
    return _sequence(bindings, [f"step_{len(steps)}"])


def _sequence(bindings: dict[str, Any], result: list[str]) -> Any:
    """A block of the steps returning ``result`` (one alias, or the list of several)."""
    value: Any = {"$ref": result[0]} if len(result) == 1 else [{"$ref": name} for name in result]
    if len(bindings) == 1 and len(result) == 1:
        return next(iter(bindings.values()))
    return {"$let": bindings, "$return": value}


def _refs(tree: Any) -> set[str]:
    """The aliases a tree reads (iterative; quoted data is skipped)."""
    out: set[str] = set()
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, dict):
            if node.keys() == {"$ref"} and isinstance(node["$ref"], str):
                out.add(node["$ref"])
            elif node.keys() != {"$quote"}:
                stack.extend(node.values())
    return out


def _unused(bindings: dict[str, Any], result: list[str]) -> list[str]:
    """The steps the result does not need, directly or through other steps (they do not run)."""
    needed: set[str] = set()
    todo = [r for r in result if r in bindings]
    while todo:
        name = todo.pop()
        if name in needed:
            continue
        needed.add(name)
        todo.extend(r for r in _refs(bindings[name]) if r in bindings)
    return [n for n in bindings if n not in needed]


# -- NESTFUL -----------------------------------------------------------------------------------


def _is_nestful(items: list[Any]) -> bool:
    return bool(items) and all(
        isinstance(i, dict) and i.keys() == {"name", "arguments", "label"} for i in items
    )


def nestful_calls(calls: list[Any], *, positional: bool = True) -> Any:
    """The call tree of a NESTFUL sequence: each call is an alias named by its label (``$var_1``
    -> ``var_1``); an argument that is exactly ``"$var_1.result$"`` is ``{"$ref": "var_1"}`` (a
    call's value stands for its single output); the value is the last call's. With
    ``positional``, arguments named ``arg_0, arg_1, ...`` in order are passed by position (the
    corpus's convention); otherwise arguments are named."""
    bindings: dict[str, Any] = {}

    def arg(value: Any, path: JSONPath, depth: int) -> Any:
        if depth > HARD_MAX_DEPTH:
            raise EnvelopeError("the program is nested too deeply", path)
        if isinstance(value, str):
            m = NESTFUL_REF.match(value)
            if m is None:
                return value
            if m.group(1) not in bindings:
                raise EnvelopeError(
                    f"{value!r} refers to `${m.group(1)}`, which no earlier call is labelled",
                    path,
                    hint="A reference names the label of an earlier call: "
                    + (_listing([f'"${b}.result$"' for b in bindings]) or "(none yet)"),
                )
            return {"$ref": m.group(1)}
        if isinstance(value, list):
            return [arg(v, (*path, i), depth + 1) for i, v in enumerate(value)]
        if isinstance(value, dict):
            return {"$object": {k: arg(v, (*path, k), depth + 1) for k, v in value.items()}}
        return value

    last = ""
    for i, call in enumerate(calls):
        path: JSONPath = (i,)
        if not isinstance(call, dict):
            raise EnvelopeError("a NESTFUL call must be an object", path)
        name = _name(call.get("name"), (*path, "name"))
        label = call.get("label") or f"$step_{i + 1}"
        if not isinstance(label, str) or not re.match(r"^\$?[A-Za-z_]\w*$", label):
            raise EnvelopeError(
                f"a NESTFUL label must look like `$var_1`, not {clip(str(label))!r}",
                (*path, "label"),
            )
        alias = label.lstrip("$")
        if alias in bindings:
            raise EnvelopeError(f"the label `{label}` is used twice", (*path, "label"))
        args = call.get("arguments") or {}
        apath = (*path, "arguments")
        if not isinstance(args, dict):
            raise EnvelopeError(
                f"`arguments` must be an object, not {_kind(args)}",
                apath,
            )
        keys = list(args)
        if positional and all(
            (m := _NESTFUL_POSITIONAL.match(k)) is not None and int(m.group(1)) == j
            for j, k in enumerate(keys)
        ):
            tree: Any = [arg(v, (*apath, k), 1) for k, v in args.items()]
        else:
            tree = (
                [{"$object": {k: arg(v, (*apath, k), 1) for k, v in args.items()}}] if keys else []
            )
        bindings[alias] = {name: tree}
        last = alias
    if not last:
        raise EnvelopeError("the NESTFUL sequence is empty: nothing to run", ())
    return _sequence(bindings, [last])


# -- LLMCompiler -------------------------------------------------------------------------------

_LLMC_START = re.compile(
    r"(?:\s*(?:```|~~~|[Tt]hought:)[^\n]*\n)*\s*1[ \t]*\.[ \t]*[A-Za-z_]\w*[ \t]*\("
)
_LLMC_LINE = re.compile(r"^(\s*)(\d+)\s*\.\s*([A-Za-z_]\w*)\s*\((.*)\)\s*(?:<END_OF_PLAN>)?\s*$")
_LLMC_REF = re.compile(r"\$\{(\d+)\}|\$(\d+)")
_PLACEHOLDER = re.compile(r"__dialectic_ref_(\d+)__")


def looks_like_llmcompiler(text: str) -> bool:
    """Whether the first meaningful line of ``text`` (after fences and ``Thought:`` lines) is
    ``1. name(`` (no JSON, Plan or Plan2 program starts so). Looks only at the start."""
    return _LLMC_START.match(text) is not None


def _strip_fences(text: str) -> list[str]:
    return [("" if line.strip().startswith(("```", "~~~")) else line) for line in text.splitlines()]


def parse_llmcompiler(text: str) -> FrontEndResult:
    """An LLMCompiler plan: numbered calls ``1. search(query="x")`` (Python call syntax, literal
    arguments), ``$1``/``${1}`` the result of call 1 (a whole argument, or inside a string: a
    template), ``Thought:`` lines ignored, a final ``join()`` ending the plan. The value is the
    result of every call no later call uses (one: its value; several: the list, in order), so
    every call runs, as LLMCompiler runs them all before joining."""
    problems: list[SyntaxProblem] = []
    bindings: dict[str, Any] = {}
    joined = False
    count = 0  # the number of the last numbered line
    for n, raw in enumerate(_strip_fences(text), start=1):
        line = raw.strip()
        if not line or line.lower().startswith("thought:") or line == "<END_OF_PLAN>":
            continue
        m = _LLMC_LINE.match(raw)
        if joined:
            problems.append(
                SyntaxProblem(
                    "a line after `join()`: the plan ends at join()",
                    n,
                    len(raw) - len(raw.lstrip()) + 1,
                    hint="Remove it, or number it before join().",
                )
            )
            break
        if m is None:
            problems.append(
                SyntaxProblem(
                    'expected a numbered call such as `2. search(query="x")`',
                    n,
                    len(raw) - len(raw.lstrip()) + 1,
                    hint="Each line of an LLMCompiler plan is `N. tool(arguments)`, a "
                    "`Thought: ...` line, or the final `N. join()`.",
                )
            )
            continue
        number, name, args = int(m.group(2)), m.group(3), m.group(4)
        col = m.start(4) + 1
        expected = count + 1
        count = number
        if number != expected:
            problems.append(
                SyntaxProblem(
                    f"call number {number} where {expected} was expected",
                    n,
                    m.start(2) + 1,
                    hint="Number the calls 1, 2, 3, ... in order.",
                )
            )
            continue
        if name == "join":
            if args.strip():
                problems.append(
                    SyntaxProblem("`join()` takes no arguments", n, col, hint="Write join().")
                )
            joined = True
            continue
        try:
            bindings[f"step_{number}"] = _llmc_call(name, args, number)
        except _LineError as exc:
            problems.append(SyntaxProblem(exc.message, n, col + exc.offset, hint=exc.hint))
    if not bindings and not problems:
        problems.append(SyntaxProblem("the plan has no calls", 1, 1, hint="Write `1. f(x=1)`."))
    if problems:
        raise SourceError("llmcompiler", text, problems)
    used = _used(bindings)
    sinks = [name for name in bindings if name not in used]
    warnings = [
        f"read as {KIND_NAMES['llmcompiler']} of {len(bindings)} "
        f"call{'s' if len(bindings) > 1 else ''} "
        f"({_listing([next(iter(c)) for c in bindings.values()])}); its value is the result of "
        + (
            sinks[0]
            if len(sinks) == 1
            else "the calls no other call uses, as a list: " + _listing(sinks)
        )
        + ("" if joined else " (the plan has no final join())")
    ]
    return FrontEndResult(_sequence(bindings, sinks), "plan", text, {}, warnings)


def _used(bindings: dict[str, Any]) -> set[str]:
    """The steps some other step reads."""
    used: set[str] = set()
    for tree in bindings.values():
        used |= _refs(tree)
    return used


class _LineError(Exception):
    def __init__(self, message: str, offset: int = 0, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.hint = hint


def _llmc_call(name: str, args: str, number: int) -> Any:
    if "__dialectic_ref_" in args:
        raise _LineError("the text `__dialectic_ref_` cannot be used in a plan")
    shifts: list[tuple[int, int]] = []  # (offset in the new text, columns it is ahead)
    parts: list[str] = []
    last = 0
    ahead = 0
    for m in _LLMC_REF.finditer(args):
        ref = int(m.group(1) or m.group(2))
        if not 1 <= ref < number:
            raise _LineError(
                f"`{m.group()}` refers to call {ref}, which is not an earlier call",
                m.start(),
                "A reference $N names the result of an earlier numbered call.",
            )
        parts.append(args[last : m.start()])
        new = f"__dialectic_ref_{ref}__"
        parts.append(new)
        ahead += len(new) - len(m.group())
        shifts.append((sum(len(p) for p in parts), ahead))
        last = m.end()
    parts.append(args[last:])
    source = "".join(parts)

    def back(offset: int) -> int:
        delta = 0
        for at, d in shifts:
            if offset >= at:
                delta = d
        return offset - delta

    try:
        source = _rename_keywords(source)
        node = ast.parse(f"f({source})", mode="eval").body
    except SyntaxError as exc:
        raise _LineError(
            f"the arguments are not a Python-style argument list: {exc.msg}",
            max(back((exc.offset or 3) - 3), 0),
            'Write literal arguments: search(query="x", limit=3), with $1 for call 1\'s result.',
        ) from None
    except (RecursionError, MemoryError):
        raise _LineError("the arguments are nested too deeply") from None
    except (ValueError, tokenize.TokenError) as exc:  # a NUL character, an unclosed bracket
        raise _LineError(
            f"the arguments cannot be read: {exc.args[0] if exc.args else exc}",
            hint='Write literal arguments: search(query="x"), one call per line.',
        ) from None
    assert isinstance(node, ast.Call)

    def value(v: ast.expr, depth: int) -> Any:
        if depth > HARD_MAX_DEPTH:
            raise _LineError("the arguments are nested too deeply")
        if isinstance(v, ast.Constant) and (
            v.value is None or isinstance(v.value, str | int | float | bool)
        ):
            if isinstance(v.value, str):
                return _template(v.value)
            return v.value
        if isinstance(v, ast.UnaryOp) and isinstance(v.op, ast.USub | ast.UAdd):
            inner = value(v.operand, depth + 1)
            if isinstance(inner, int | float) and not isinstance(inner, bool):
                return -inner if isinstance(v.op, ast.USub) else inner
        if isinstance(v, ast.List | ast.Tuple):
            return [value(e, depth + 1) for e in v.elts]
        if isinstance(v, ast.Dict):
            out: dict[str, Any] = {}
            for k, e in zip(v.keys, v.values, strict=True):
                if not (isinstance(k, ast.Constant) and isinstance(k.value, str)):
                    raise _LineError(
                        "object keys must be strings", back(getattr(k, "col_offset", 2) - 2)
                    )
                out[k.value] = value(e, depth + 1)
            return {"$object": out}
        if isinstance(v, ast.Name):
            ref = _PLACEHOLDER.fullmatch(v.id)
            if ref is not None:
                return {"$ref": f"step_{ref.group(1)}"}
            raise _LineError(
                f"`{v.id}` is not a value",
                back(v.col_offset - 2),
                f'Write text in quotes ("{v.id}"), or $N for the result of call N.',
            )
        raise _LineError(
            "only literals (strings, numbers, True, False, None, lists, dicts) and $N references "
            "can be arguments",
            back(v.col_offset - 2),
        )

    if node.args and node.keywords:
        raise _LineError(
            "arguments are given both by position and by name",
            hint='Write all of them by name (query="x") or all by position.',
        )
    for a in node.args:
        if isinstance(a, ast.Starred):
            raise _LineError("`*` arguments are not allowed", back(a.col_offset - 2))
    if node.keywords:
        named: dict[str, Any] = {}
        for kw in node.keywords:
            if kw.arg is None:
                raise _LineError("`**` arguments are not allowed", back(kw.col_offset - 2))
            keyword = _KEYWORD.fullmatch(kw.arg)
            named[keyword.group(1) if keyword else kw.arg] = value(kw.value, 1)
        return {name: [{"$object": named}]}
    return {name: [value(a, 1) for a in node.args]}


_KEYWORD = re.compile(r"__dialectic_kw_(\w+)__")


def _rename_keywords(source: str) -> str:
    """Argument names that are Python keywords (``from="SFO"``) renamed so that Python's parser
    reads them (strings are found by the tokenizer, so their text is never touched)."""
    if not any(k in source for k in keyword.kwlist):
        return source
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    out: list[str] = []
    lines = source.splitlines(keepends=True) or [""]
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    last = 0
    for tok, nxt in zip(tokens, tokens[1:], strict=False):
        if (
            tok.type == tokenize.NAME
            and keyword.iskeyword(tok.string)
            and tok.string not in ("True", "False", "None")
            and nxt.type == tokenize.OP
            and nxt.string == "="
        ):
            at = starts[tok.start[0] - 1] + tok.start[1]
            out.append(source[last:at])
            out.append(f"__dialectic_kw_{tok.string}__")
            last = at + len(tok.string)
    out.append(source[last:])
    return "".join(out)


def _template(text: str) -> Any:
    """A string with ``$N`` references: a reference alone, or a template."""
    refs = list(_PLACEHOLDER.finditer(text))
    if not refs:
        return text
    if len(refs) == 1 and refs[0].group() == text:
        return {"$ref": f"step_{refs[0].group(1)}"}
    parts: list[Any] = []
    last = 0
    for m in refs:
        parts.append(text[last : m.start()])
        parts.append({"$ref": f"step_{m.group(1)}"})
        last = m.end()
    parts.append(text[last:])
    return {"$template": parts}


# -- detection ---------------------------------------------------------------------------------


def _ambiguous(what: str, name: str, path: JSONPath, names: _Names, program: Any) -> EnvelopeError:
    """Both readings of a shape without a marker whose function is not registered; ``details``
    has each as a program (``readings``: the data, quoted, and the call of each close name)."""
    near = closest(name, list(names.functions or ()), 3)
    did = f" (did you mean {' or '.join(f'`{n}`' for n in near)}?)" if near else ""
    readings: list[dict[str, Any]] = [
        {"description": "the object as data", "program": {"$quote": program}}
    ]
    if isinstance(program, dict) and set(program) == {"name", "arguments"}:
        for n in near:
            readings.append(
                {
                    "description": f"a call of `{n}`",
                    "program": {**program, "name": n},
                }
            )
    return EnvelopeError(
        f"this program could be read two ways: as {what} of `{clip(name)}`, but no function "
        f"`{clip(name)}` is registered{did}; or as a data object, which it is in Dialect JSON. "
        "Neither reading is picked for you",
        path,
        hint="To call a function, name a registered one (or write the call in Dialect JSON: "
        '{"f": {"x": 1}}); to return the object as data, write {"$quote": {...}}.',
        details={"readings": readings},
    )


def read_envelope(
    tree: Any, *, functions: Functions = None, strict: bool = False
) -> tuple[Any, list[str]] | None:
    """The call tree of a program written in a model's answer shape, and the warnings saying
    what it was read as; None when ``tree`` is Dialect JSON (see the module's detection rule).

    ``functions``: the registered function names (None: no registry, the shape decides)."""
    names = _Names(functions)
    warnings: list[str] = []
    if isinstance(tree, dict):
        if tree.keys() == {"@steps"} and not (names.known and names.has("@steps")):
            steps = tree["@steps"]
            if isinstance(steps, list) and all(isinstance(s, dict) and "@func" in s for s in steps):
                out = _typechat(tree)
                unused = _unused_steps(out)
                warnings.append(
                    f"read as {KIND_NAMES['typechat']} of {len(steps)} "
                    f"step{'s' if len(steps) > 1 else ''}; its value is the last step's"
                    + _unused_note(unused)
                )
                return out, warnings
            return None
        kind = classify(tree)
        if kind is None:
            miss = _near_miss(tree, names, ())
            if miss is not None:
                raise miss
            return None
        if kind == "openai_function" and not names.has(tree["name"]):
            if not names.known:
                return None  # `{"name": "Ada Lovelace", ...}`: data
            raise _ambiguous(KIND_NAMES[kind], tree["name"], ("name",), names, tree)
        calls = _single(tree, kind, (), strict=strict, warnings=warnings)
        warnings.insert(0, _read_as(kind, calls))
        if len(calls) == 1:
            return calls[0].tree, warnings
        return [c.tree for c in calls], warnings
    if isinstance(tree, list) and tree:
        if _is_nestful(tree):
            for i, item in enumerate(tree):
                name = item["name"]
                if not isinstance(name, str) or not names.has(name):
                    if not names.known:
                        return None
                    raise _ambiguous(
                        "a call in " + KIND_NAMES["nestful"], str(name), (i, "name"), names, tree
                    )
            out = nestful_calls(tree)
            warnings.append(
                f"read as {KIND_NAMES['nestful']} of {len(tree)} call"
                f"{'s' if len(tree) > 1 else ''}; its value is the last call's"
                + _unused_note(_unused_steps(out))
            )
            return out, warnings
        kinds = [classify(item) for item in tree]
        if not names.known:  # without a registry, {"name": "Ada Lovelace", ...} is data
            kinds = [
                None if k == "openai_function" and not names.has(item["name"]) else k
                for item, k in zip(tree, kinds, strict=True)
            ]
        for i, (item, k) in enumerate(zip(tree, kinds, strict=True)):
            miss = _near_miss(item, names, (i,)) if k is None else None
            if miss is not None:
                raise miss
        if all(k is None for k in kinds):
            return None
        plain = [i for i, k in enumerate(kinds) if k is None]
        if plain:
            first = next(i for i, k in enumerate(kinds) if k is not None)
            raise EnvelopeError(
                f"element {first} of this array is {KIND_NAMES[kinds[first] or '']}, but element "
                f"{plain[0]} is not: an array of tool calls must hold only tool calls, and "
                "Dialect JSON is not mixed with them",
                (plain[0],),
                hint="Send only tool calls, or the whole program in Dialect JSON "
                '([{"f": {...}}, {"g": {...}}]; an object meant as data is {"$quote": {...}}).',
            )
        calls = []
        for i, (item, kind) in enumerate(zip(tree, kinds, strict=True)):
            assert kind is not None
            if kind == "openai_function" and not names.has(item["name"]):
                raise _ambiguous(KIND_NAMES[kind], item["name"], (i, "name"), names, tree)
            calls.extend(_single(item, kind, (i,), strict=strict, warnings=warnings))
        used = sorted({k for k in kinds if k is not None}, key=list(KIND_NAMES).index)
        warnings.insert(
            0,
            f"read as {len(calls)} parallel call{'s' if len(calls) > 1 else ''} "
            f"({', '.join(KIND_NAMES[k] for k in used)}): "
            + _listing([f"`{c.name}`" for c in calls])
            + "; the value is the list of their results",
        )
        return [c.tree for c in calls], warnings
    return None


def _listing(items: list[str], limit: int = 10) -> str:
    """``a, b, c``; a long list is cut: ``a, b, ... (and 990 more)``."""
    shown = ", ".join(items[:limit])
    return shown + (f", ... ({len(items) - limit} more)" if len(items) > limit else "")


def _read_as(kind: str, calls: list[_Call]) -> str:
    listed = _listing([f"`{c.name}`" for c in calls])
    if len(calls) == 1:
        return f"read as {KIND_NAMES[kind]}: the call {listed}"
    return (
        f"read as {KIND_NAMES[kind]} of {len(calls)} parallel calls ({listed}); the value is the "
        "list of their results"
    )


def _unused_steps(tree: Any) -> list[str]:
    if isinstance(tree, dict) and "$let" in tree:
        ret = tree["$return"]
        return _unused(tree["$let"], [ret["$ref"]] if isinstance(ret, dict) else [])
    return []


def _unused_note(unused: list[str]) -> str:
    if not unused:
        return ""
    return (
        f" (step{'s' if len(unused) > 1 else ''} {', '.join(unused)} "
        f"{'are' if len(unused) > 1 else 'is'} not used by it and do"
        f"{'' if len(unused) > 1 else 'es'} not run)"
    )


__all__ = [
    "KIND_NAMES",
    "NESTFUL_REF",
    "EnvelopeError",
    "classify",
    "looks_like_llmcompiler",
    "nestful_calls",
    "parse_llmcompiler",
    "read_envelope",
]
