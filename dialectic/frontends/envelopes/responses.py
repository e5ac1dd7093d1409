"""Whole answers of the vendors' APIs, sent as they came: an OpenAI chat completion or Responses
API response, a Google Gemini response, its content or its ``functionCall`` parts, an Amazon
Bedrock Converse response or its ``toolUse`` blocks. Each is read as
the calls of its one answer (SPEC 9's table); an answer with several choices (candidates) fails
with each as a program, since which one is meant cannot be known.

The markers are the vendors' own: ``"object": "chat.completion"`` or ``"response"``, Gemini's
``candidates`` of ``content`` with ``parts``, ``"role": "model"``, a ``functionCall`` part,
Bedrock's ``stopReason`` beside an ``output`` object, a ``toolUse`` block. Beside
the marker, a whole response's other keys are its metadata (``id``, ``model``, ``usage``, ...):
they are not read, whatever they are. A one-key object is read as Gemini's only when its key is
no registered function: every program that would run as Dialect JSON still does."""

from __future__ import annotations

from typing import Any

from dialectic.frontends.envelopes.common import (
    Call,
    EnvelopeError,
    Names,
    function_name,
    kind_of,
    named_arguments,
)
from dialectic.frontends.envelopes.vendors import (
    TypedItems,
    bedrock_calls,
    bedrock_tool_use,
    classify,
    single_calls,
    typed_calls,
)
from dialectic.outcome.errors import JSONPath, clip

__all__ = ["part_calls", "read_response"]

#: Gemini: the keys a part with a function call may have, and those of its ``functionCall``
_PART_KEYS = frozenset({"functionCall", "thoughtSignature", "thought"})
_CALL_KEYS = frozenset({"name", "args", "id"})
#: Responses API output items that are not calls, ignored with a warning
_IGNORED_ITEMS = frozenset({"message", "reasoning"})


def gemini_part(obj: Any, names: Names) -> bool:
    """Whether ``obj`` is a Gemini part holding a function call, ``{"functionCall": {"name",
    "args"?, "id"?}, "thoughtSignature"?}``: with a registry, only if no function is called
    ``functionCall`` (else the one-key object is its Dialect JSON call)."""
    if type(obj) is not dict or "functionCall" not in obj or not obj.keys() <= _PART_KEYS:
        return False
    call = obj["functionCall"]
    if type(call) is not dict or "name" not in call or not call.keys() <= _CALL_KEYS:
        return False
    return names.known and not names.has("functionCall")


def part_calls(items: list[Any], names: Names) -> tuple[str, list[Call]] | None:
    """The calls of a top-level array of Gemini functionCall parts or of Bedrock toolUse blocks
    (parallel calls), and what they were read as; None when it is neither."""
    if all(gemini_part(item, names) for item in items):
        return "Gemini functionCall parts", [
            _gemini_call(item, (i,)) for i, item in enumerate(items)
        ]
    if names.known and not names.has("toolUse") and all(bedrock_tool_use(i) for i in items):
        return "Bedrock toolUse blocks", bedrock_calls(items, (), [])
    return None


def _gemini_call(part: dict[str, Any], path: JSONPath) -> Call:
    call = part["functionCall"]
    cpath = (*path, "functionCall")
    name = function_name(call["name"], (*cpath, "name"))
    args = call.get("args", {})
    if not isinstance(args, dict):
        raise EnvelopeError(
            f"`args` of a Gemini functionCall must be a JSON object, not {kind_of(args)}",
            (*cpath, "args"),
            hint='Write the arguments as an object: "args": {"origin": "SFO"}.',
        )
    return Call(name, named_arguments(args), "gemini_part")


def _gemini_content(content: Any, path: JSONPath, names: Names, warnings: list[str]) -> list[Call]:
    """The calls of a Gemini content ``{"role": "model", "parts": [...]}`` (text parts are
    ignored with a warning; any other part is an error)."""
    if not isinstance(content, dict) or not isinstance(content.get("parts"), list):
        raise EnvelopeError(
            "a Gemini candidate's `content` must be an object with a list of `parts`",
            path,
            hint='Send the content as {"role": "model", "parts": [{"functionCall": ...}]}.',
        )
    out: list[Call] = []
    texts = 0
    for i, part in enumerate(content["parts"]):
        ppath = (*path, "parts", i)
        if isinstance(part, dict) and "functionCall" in part and part.keys() <= _PART_KEYS:
            out.append(_gemini_call(part, ppath))
        elif isinstance(part, dict) and "text" in part:
            texts += 1
        else:
            what = (
                "`" + "`, `".join(clip(str(k)) for k in list(part)[:3]) + "`"
                if isinstance(part, dict) and part
                else kind_of(part)
            )
            raise EnvelopeError(
                f"cannot run this part of the Gemini content ({what}); only functionCall parts "
                "run (text parts are ignored)",
                ppath,
                hint='A function call part is {"functionCall": {"name": "f", "args": {...}}}.',
            )
    if not out:
        raise EnvelopeError(
            "the Gemini content has no functionCall part: nothing to run",
            (*path, "parts"),
            hint="Send the calls to run as functionCall parts, or a Dialect JSON program.",
        )
    if texts:
        warnings.append(
            f"ignored {texts} text part{'s' if texts > 1 else ''} of the content; only its "
            "functionCall parts run"
        )
    return out


def _one_of(answers: Any, key: str, what: str, path: JSONPath, program_of: Any) -> Any:
    """The one answer of a response (``choices`` or ``candidates``): several fail with each as a
    program (``details.readings``)."""
    if not isinstance(answers, list) or not answers:
        raise EnvelopeError(
            f"the response's `{key}` is {kind_of(answers) if answers != [] else 'empty'}: "
            "nothing to run",
            (*path, key),
            hint=f"Send a response with one {what}, or a Dialect JSON program.",
        )
    if len(answers) > 1:
        readings = [
            {"description": f"{what} {i}", "program": program_of(a)} for i, a in enumerate(answers)
        ]
        raise EnvelopeError(
            f"the response holds {len(answers)} {what}s, each a different answer; which one "
            "is meant cannot be known, so none runs",
            (*path, key),
            hint=f"Send one {what} (details.readings has each as a program).",
            details={"readings": readings},
        )
    return answers[0]


def _chat_completion(
    tree: dict[str, Any], *, strict: bool, warnings: list[str]
) -> tuple[str, list[Call]]:
    def message_of(choice: Any) -> Any:
        return choice.get("message") if isinstance(choice, dict) else choice

    choice = _one_of(tree["choices"], "choices", "choice", (), message_of)
    path: JSONPath = ("choices", 0, "message")
    message = message_of(choice)
    kind = classify(message)
    if kind not in ("openai_message", "openai_function_message"):
        content = message.get("content") if isinstance(message, dict) else None
        said = f" (it says {clip(content.strip(), 60)!r})" if isinstance(content, str) else ""
        raise EnvelopeError(
            "the chat completion's message holds no tool calls: nothing to run" + said,
            path,
            hint="Send a completion whose message has tool_calls, or a Dialect JSON program.",
        )
    return "openai_completion", single_calls(message, kind, path, strict=strict, warnings=warnings)


def _responses_response(
    tree: dict[str, Any], *, strict: bool, warnings: list[str]
) -> tuple[str, list[Call]]:
    items = tree["output"]
    if not isinstance(items, list):
        raise EnvelopeError(
            f"the response's `output` must be a list of items, not {kind_of(items)}",
            ("output",),
        )
    shape = TypedItems(
        "responses_function_call",
        _IGNORED_ITEMS,
        "output item",
        "the response",
        "message and reasoning",
    )
    calls = typed_calls(items, ("output",), shape, strict=strict, warnings=warnings)
    return "responses_response", calls


def _bedrock_response(tree: dict[str, Any], warnings: list[str]) -> tuple[str, list[Call]]:
    """An Amazon Bedrock Converse response ``{"output": {"message": M}, "stopReason", ...}``."""
    message = tree["output"].get("message")
    path: JSONPath = ("output", "message")
    if classify(message) != "bedrock_message":
        content = message.get("content") if isinstance(message, dict) else None
        texts = [b["text"] for b in content or () if isinstance(b, dict) and "text" in b]
        said = f" (it says {clip(str(texts[0]).strip(), 60)!r})" if texts else ""
        raise EnvelopeError(
            "the Converse response's message holds no toolUse block: nothing to run" + said,
            path,
            hint="Send a response whose message has toolUse blocks, or a Dialect JSON program.",
        )
    return "bedrock_response", bedrock_calls(message["content"], (*path, "content"), warnings)


def _gemini_candidates(answers: Any) -> bool:
    """Whether ``answers`` is a Gemini response's ``candidates``: objects with a ``content`` of
    ``parts``."""
    return (
        isinstance(answers, list)
        and bool(answers)
        and all(
            isinstance(a, dict)
            and isinstance(a.get("content"), dict)
            and isinstance(a["content"].get("parts"), list)
            for a in answers
        )
    )


def read_response(
    tree: dict[str, Any], names: Names, *, strict: bool, warnings: list[str]
) -> tuple[str, list[Call]] | None:
    """The kind and the calls of a whole API answer, or None when ``tree`` is none."""
    marker = tree.get("object")
    if marker == "chat.completion" and "choices" in tree:
        return _chat_completion(tree, strict=strict, warnings=warnings)
    if marker == "response" and "output" in tree:
        return _responses_response(tree, strict=strict, warnings=warnings)
    if marker == "chat.completion.chunk":
        raise EnvelopeError(
            "this is one chunk of a streamed chat completion: its tool calls come in pieces "
            "over many chunks",
            ("object",),
            hint="Join the stream's chunks first (each tool call's `arguments` pieces in order), "
            "and send the assistant message, or a Dialect JSON program.",
        )
    if "stopReason" in tree and isinstance(tree.get("output"), dict):
        return _bedrock_response(tree, warnings)
    if not names.known:
        return None  # Gemini's shapes have no marker value: without a registry, Dialect JSON
    if "candidates" in tree and _gemini_candidates(tree["candidates"]):
        if len(tree) == 1 and names.has("candidates"):
            return None
        candidate = _one_of(
            tree["candidates"], "candidates", "candidate", (), lambda a: a.get("content")
        )
        path: JSONPath = ("candidates", 0, "content")
        return "gemini_response", _gemini_content(candidate["content"], path, names, warnings)
    if tree.get("role") == "model" and tree.keys() == {"role", "parts"}:
        return "gemini_content", _gemini_content(tree, (), names, warnings)
    if gemini_part(tree, names):
        return "gemini_part", [_gemini_call(tree, ())]
    if bedrock_tool_use(tree) and not names.has("toolUse"):
        return "bedrock_tool_use", bedrock_calls([tree], (), warnings)
    return None
