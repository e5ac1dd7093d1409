"""What the envelope readers share: the error, a read call, registered names, arguments as
data, and the block a sequence of steps becomes."""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any

import orjson

from dialectic.frontends.base import SourceError
from dialectic.frontends.duplicates import duplicate_key
from dialectic.frontends.repair import repair_json, scan
from dialectic.outcome.errors import DialecticError, JSONPath, clip
from dialectic.registry.registry import normalize_name

__all__ = [
    "KIND_NAMES",
    "Call",
    "EnvelopeError",
    "Functions",
    "Names",
    "as_data",
    "function_name",
    "kind_of",
    "listing",
    "named_arguments",
    "openai_arguments",
    "refs",
    "sequence",
    "unused",
    "where",
]

_IDENT = re.compile(r"^[A-Za-z_][\w.-]*$")

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


class Call:
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


class Names:
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
        if "__" in name and "." not in name and name.replace("__", ".", 1) in self.functions:
            return True  # `memory__read_graph`: a vendor tool's name, as the resolver reads it
        if self._normalized is None:
            # a namespaced function's bare name too (`lookup` for `memory.lookup`, SPEC 2.2):
            # the resolver calls it when one namespace has it, and names the candidates else
            self._normalized = {normalize_name(n) for n in self.functions} | {
                normalize_name(n.split(".", 1)[1]) for n in self.functions if "." in n
            }
        return normalize_name(name) in self._normalized


# -- arguments -------------------------------------------------------------------------------


def as_data(value: Any) -> Any:
    """A JSON value as data in the call tree: objects and arrays are quoted."""
    if isinstance(value, dict | list):
        return {"$quote": value}
    return value


def named_arguments(args: dict[str, Any]) -> list[Any]:
    """Named arguments as the one argument object ``f({k: v})``: never a nested call, and an
    unknown key is an ``unknown_parameter`` failure (SPEC 1.5); no arguments are ``f()``."""
    if not args:
        return []
    return [{"$object": {k: as_data(v) for k, v in args.items()}}]


def openai_arguments(value: Any, path: JSONPath, *, strict: bool, warnings: list[str]) -> list[Any]:
    """OpenAI ``arguments`` (Llama ``parameters``: the key is ``path``'s last): an object, or
    a JSON string of one."""
    key = path[-1] if path and isinstance(path[-1], str) else "arguments"
    if isinstance(value, str):
        text = value
        try:
            value = orjson.loads(text) if text.strip() else {}
            twice = duplicate_key(text, value)
            if twice is not None:  # (the first value would be dropped without a word)
                raise EnvelopeError(
                    f"`{key}` is a JSON string with {twice.message}: line {twice.line}, "
                    f"column {twice.column} of the string",
                    path,
                    hint=twice.hint,
                )
        except orjson.JSONDecodeError as exc:
            try:
                repaired = repair_json(text, text, strict=strict)
            except SourceError as err:
                first = err.problems[0]
                what = (
                    "with" if first.message.startswith("duplicate key") else "that does not parse:"
                )
                raise EnvelopeError(
                    f"`{key}` is a JSON string {what} line {first.line}, "
                    f"column {first.column} of the string: {first.message}",
                    path,
                    hint=(first.hint or "")
                    + f" `{key}` is a JSON object, or a string holding one.",
                ) from None
            if repaired is None:
                line, column, msg = exc.lineno, exc.colno, exc.msg
                hint = f'`{key}` is a JSON object, or a string holding one: "{{\\"x\\": 1}}".'
                found = scan(text).error
                if found is not None:  # a clearer account: "this `{` is never closed", ...
                    line = text.count("\n", 0, found.offset) + 1
                    column = found.offset - (text.rfind("\n", 0, found.offset) + 1) + 1
                    msg, hint = found.message, found.hint
                raise EnvelopeError(
                    f"`{key}` is a JSON string that does not parse: line {line}, "
                    f"column {column} of the string: {msg}",
                    path,
                    hint=hint,
                ) from None
            value, more = repaired
            warnings.extend(f"in `{where(path)}`: {w}" for w in more)
    if not isinstance(value, dict):
        raise EnvelopeError(
            f"`{key}` must be a JSON object of named arguments, not {kind_of(value)}",
            path,
            hint=f'Write the arguments as an object: "{key}": {{"origin": "SFO"}}.',
        )
    return named_arguments(value)


def kind_of(value: Any) -> str:
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


def where(path: JSONPath) -> str:
    return "program" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)


def function_name(value: Any, path: JSONPath) -> str:
    if isinstance(value, str) and value and not value.startswith("$"):
        return value
    what = (
        f"`{clip(value)}`, which starts with $ (a core form)"
        if isinstance(value, str) and value
        else ("an empty string" if value == "" else kind_of(value))
    )
    raise EnvelopeError(
        f"the function name must be the name of a function, not {what}",
        path,
        hint='Name the function to call: "name": "flights".',
    )


#: what each kind is called in warnings
KIND_NAMES = {
    "openai_function": 'an OpenAI function call {"name", "arguments"}',
    "openai_tool_call": "an OpenAI chat-completions tool call",
    "openai_message": "an OpenAI assistant message with tool_calls",
    "openai_function_message": "an OpenAI assistant message with a function_call",
    "responses_function_call": "an OpenAI Responses API function_call item",
    "anthropic_tool_use": "an Anthropic tool_use block",
    "anthropic_message": "an Anthropic assistant message",
    "openai_completion": "an OpenAI chat completion",
    "responses_response": "an OpenAI Responses API response",
    "gemini_response": "a Gemini response",
    "gemini_content": "a Gemini model content",
    "gemini_part": "a Gemini functionCall part",
    "bedrock_message": "a Bedrock Converse assistant message",
    "bedrock_tool_use": "a Bedrock Converse toolUse block",
    "bedrock_response": "a Bedrock Converse response",
    "llama_function": 'a Llama JSON tool call {"name", "parameters"}',
    "typechat": "a TypeChat program",
    "nestful": "a NESTFUL sequence",
    "llmcompiler": "an LLMCompiler plan",
}


def sequence(bindings: dict[str, Any], result: list[str]) -> Any:
    """A block of the steps returning ``result`` (one alias, or the list of several)."""
    value: Any = {"$ref": result[0]} if len(result) == 1 else [{"$ref": name} for name in result]
    if len(bindings) == 1 and len(result) == 1:
        return next(iter(bindings.values()))
    return {"$let": bindings, "$return": value}


def refs(tree: Any) -> set[str]:
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


def unused(bindings: dict[str, Any], result: list[str]) -> list[str]:
    """The steps the result does not need, directly or through other steps (they do not run)."""
    needed: set[str] = set()
    todo = [r for r in result if r in bindings]
    while todo:
        name = todo.pop()
        if name in needed:
            continue
        needed.add(name)
        todo.extend(r for r in refs(bindings[name]) if r in bindings)
    return [n for n in bindings if n not in needed]


def listing(items: list[str], limit: int = 10) -> str:
    """``a, b, c``; a long list is cut: ``a, b, ... (and 990 more)``."""
    shown = ", ".join(items[:limit])
    return shown + (f", ... ({len(items) - limit} more)" if len(items) > limit else "")
