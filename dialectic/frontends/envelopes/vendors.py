"""The vendors' tool-call shapes (OpenAI function calls, chat-completions tool calls and
messages, Responses API items; Anthropic tool_use blocks and messages): detection by exact
shape (:func:`classify`), almost-envelopes (:func:`near_miss`), and their calls."""

from __future__ import annotations

from typing import Any

from dialectic.frontends.envelopes.common import (
    KIND_NAMES,
    Call,
    EnvelopeError,
    Names,
    function_name,
    kind_of,
    named_arguments,
    openai_arguments,
)
from dialectic.outcome.errors import JSONPath, clip

__all__ = [
    "SHAPES",
    "UNMARKED",
    "bedrock_calls",
    "bedrock_tool_use",
    "classify",
    "near_miss",
    "single_calls",
    "typed_calls",
    "TypedItems",
]

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
_IGNORED_BLOCKS = frozenset({"text", "thinking", "redacted_thinking"})


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
    "bedrock_message": (frozenset({"role", "content"}), frozenset()),
    "openai_function": (frozenset({"name", "arguments"}), frozenset()),
    "llama_function": (frozenset({"name", "parameters"}), frozenset()),
}

#: the shapes with no ``type``/``role`` marker, and the key of their arguments: an envelope only
#: if the named function is registered (SPEC 9's rule 3)
UNMARKED = {"openai_function": "arguments", "llama_function": "parameters"}


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
        content = obj.get("content")
        if isinstance(content, list):
            if any(type(b) is dict and "toolUse" in b for b in content):
                return "bedrock_message"  # Amazon Bedrock Converse: blocks without a `type`
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
    for kind, key in UNMARKED.items():
        if (
            obj.keys() == {"name", key}
            and isinstance(obj["name"], str)
            and isinstance(obj[key], dict | str)
        ):
            return kind
    return None


def near_miss(obj: Any, names: Names, path: JSONPath) -> EnvelopeError | None:
    """A top-level object that is almost an envelope: its marker names a shape its keys do not
    match (or, with a registry, ``{"name": <a registered function>, "arguments" or
    "parameters", ...more}``). It
    could be a tool call or data, so it is neither (SPEC 9's rule)."""
    if not isinstance(obj, dict) or len(obj) < 2:
        return None
    kind = _marked(obj)
    if kind is None:
        name = obj.get("name")
        kind = next((k for k, key in UNMARKED.items() if key in obj), None)
        if not (names.known and kind and isinstance(name, str) and names.has(name)):
            return None
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
    if not wrong and kind in UNMARKED:
        key = UNMARKED[kind]
        wrong.append(
            f"its `{key}` is {kind_of(obj[key])}, not an object of named arguments "
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


#: Amazon Bedrock Converse: the blocks of a message that are not calls, and a toolUse's keys
_BEDROCK_IGNORED = frozenset({"text", "reasoningContent"})
_TOOL_USE_KEYS = frozenset({"toolUseId", "name", "input"})


def bedrock_tool_use(obj: Any) -> bool:
    """Whether ``obj`` is a Bedrock Converse block ``{"toolUse": {"toolUseId"?, "name",
    "input"}}``."""
    if type(obj) is not dict or obj.keys() != {"toolUse"}:
        return False
    use = obj["toolUse"]
    return type(use) is dict and {"name", "input"} <= use.keys() <= _TOOL_USE_KEYS


def bedrock_calls(blocks: list[Any], path: JSONPath, warnings: list[str]) -> list[Call]:
    """The calls of a Bedrock Converse message's ``content`` (text and reasoning blocks are
    ignored with a warning; any other block is an error)."""
    out: list[Call] = []
    ignored = 0
    for i, block in enumerate(blocks):
        bpath = (*path, i)
        if bedrock_tool_use(block):
            use = block["toolUse"]
            name = function_name(use["name"], (*bpath, "toolUse", "name"))
            value = use["input"]
            if not isinstance(value, dict):
                raise EnvelopeError(
                    f"`input` of a toolUse block must be a JSON object, not {kind_of(value)}",
                    (*bpath, "toolUse", "input"),
                    hint='Write the arguments as an object: "input": {"origin": "SFO"}.',
                )
            out.append(Call(name, named_arguments(value), "bedrock_tool_use"))
        elif type(block) is dict and len(block) == 1 and block.keys() <= _BEDROCK_IGNORED:
            ignored += 1
        else:
            raise EnvelopeError(
                "cannot run this content block; only toolUse blocks run (text and "
                "reasoningContent blocks are ignored)",
                bpath,
                hint='A toolUse block is {"toolUse": {"toolUseId": ..., "name": "f", "input": '
                "{...}}}.",
            )
    if ignored:
        warnings.append(
            f"ignored {ignored} text or reasoning block{'s' if ignored > 1 else ''} of the "
            "message; only its toolUse blocks run"
        )
    return out


def single_calls(
    obj: dict[str, Any], kind: str, path: JSONPath, *, strict: bool, warnings: list[str]
) -> list[Call]:
    """The calls of one enveloped object of ``kind`` (a message may hold several)."""
    if kind in UNMARKED or kind == "responses_function_call":
        key = UNMARKED.get(kind, "arguments")
        name = function_name(obj["name"], (*path, "name"))
        args = openai_arguments(obj[key], (*path, key), strict=strict, warnings=warnings)
        return [Call(name, args, kind)]
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
        name = function_name(fn["name"], (*fpath, "name"))
        args = openai_arguments(
            fn["arguments"], (*fpath, "arguments"), strict=strict, warnings=warnings
        )
        return [Call(name, args, kind)]
    if kind == "anthropic_tool_use":
        name = function_name(obj["name"], (*path, "name"))
        value = obj["input"]
        if not isinstance(value, dict):
            raise EnvelopeError(
                f"`input` of a tool_use block must be a JSON object, not {kind_of(value)}",
                (*path, "input"),
                hint='Write the arguments as an object: "input": {"origin": "SFO"}.',
            )
        return [Call(name, named_arguments(value), kind)]
    if kind == "openai_message":
        calls = obj["tool_calls"]
        cpath = (*path, "tool_calls")
        if not isinstance(calls, list) or not calls:
            raise EnvelopeError(
                "the assistant message has no tool calls: nothing to run",
                cpath,
                hint="Send the calls to run as tool_calls, or a Dialect JSON program.",
            )
        out: list[Call] = []
        for i, call in enumerate(calls):
            if classify(call) != "openai_tool_call":
                raise EnvelopeError(
                    "each entry of `tool_calls` must be "
                    '{"id": ..., "type": "function", "function": {"name": ..., "arguments": ...}}',
                    (*cpath, i),
                )
            out.extend(
                single_calls(
                    call, "openai_tool_call", (*cpath, i), strict=strict, warnings=warnings
                )
            )
        content = obj.get("content")
        if isinstance(content, str) and content.strip():
            warnings.append(
                f"ignored the message's text content ({clip(content.strip(), 60)!r}); "
                "only its tool calls run"
            )
        return out
    if kind == "bedrock_message":
        return bedrock_calls(obj["content"], (*path, "content"), warnings)
    assert kind == "anthropic_message"
    return typed_calls(
        obj["content"],
        (*path, "content"),
        TypedItems(
            "anthropic_tool_use",
            _IGNORED_BLOCKS,
            "content block",
            "the assistant message",
            "text and thinking",
        ),
        strict=strict,
        warnings=warnings,
    )


class TypedItems:
    """A list of items told apart by their ``type``, such as an Anthropic message's content
    blocks or a Responses API response's output items: the ``kind`` whose items run, the types
    ``ignored`` with a warning (``skipped`` says them), what an item is called (``noun``, and
    ``short`` in warnings) and what holds them (``holder``)."""

    __slots__ = ("kind", "ignored", "noun", "short", "holder", "skipped")

    def __init__(
        self, kind: str, ignored: frozenset[str], noun: str, holder: str, skipped: str
    ) -> None:
        self.kind = kind
        self.ignored = ignored
        self.noun = noun
        self.short = noun.split()[-1]
        self.holder = holder
        self.skipped = skipped


def typed_calls(
    items: list[Any], path: JSONPath, shape: TypedItems, *, strict: bool, warnings: list[str]
) -> list[Call]:
    """The calls of ``items`` (``shape``): an item of another type is an error, and no call at
    all is "nothing to run"."""
    run = shape.kind
    runs = _RUN_TYPE[run]
    noun, short = shape.noun, shape.short
    out: list[Call] = []
    ignored: list[str] = []
    for i, item in enumerate(items):
        ipath = (*path, i)
        if not isinstance(item, dict):
            raise EnvelopeError(f"each {noun} must be an object, not {kind_of(item)}", ipath)
        itype = item.get("type")
        if itype in shape.ignored:
            ignored.append(str(itype))
            continue
        if classify(item) != run:
            raise EnvelopeError(
                f"cannot run {_article(noun)} of type {clip(str(itype))!r}; only {runs} "
                f"{short}s run ({shape.skipped} {short}s are ignored)",
                ipath,
                hint=f"A {runs} {short} is {_RUN_EXAMPLE[run]}.",
            )
        out.extend(single_calls(item, run, ipath, strict=strict, warnings=warnings))
    if not out:
        raise EnvelopeError(
            f"{shape.holder} has no {runs} {short}: nothing to run",
            path,
            hint=f"Send the calls to run as {runs} {short}s, or a Dialect JSON program.",
        )
    if ignored:
        counts = {t: ignored.count(t) for t in dict.fromkeys(ignored)}
        listed = ", ".join(f"{n} {t} {short}{'s' if n > 1 else ''}" for t, n in counts.items())
        holder = shape.holder.split()[-1]
        warnings.append(f"ignored {listed} of the {holder}; only its {runs} {short}s run")
    return out


def _article(noun: str) -> str:
    return ("an " if noun[:1] in "aeiou" else "a ") + noun


#: the ``type`` of the items :func:`typed_calls` runs, and how one is written
_RUN_TYPE = {"anthropic_tool_use": "tool_use", "responses_function_call": "function_call"}
_RUN_EXAMPLE = {
    "anthropic_tool_use": '{"type": "tool_use", "id": ..., "name": ..., "input": {...}}',
    "responses_function_call": '{"type": "function_call", "name": "f", "arguments": "{...}", '
    '"call_id": ...}',
}
