"""Envelopes: the shapes models answer in, read as call trees (SPEC.md section 9, "Envelopes and
repairs").

A model asked for a tool call often answers in its vendor's shape rather than in Dialect JSON:

- OpenAI: a function call ``{"name", "arguments"}`` (``arguments`` an object or a JSON string);
  a chat-completions tool call ``{"id"?, "type": "function", "function": {"name", "arguments"}}``;
  an assistant message ``{"role": "assistant", "tool_calls": [...]}``; a Responses API item
  ``{"type": "function_call", "name", "arguments", "call_id"?}``;
- Anthropic: a ``{"type": "tool_use", "id"?, "name", "input"}`` block, or a message whose
  ``content`` is a list of blocks (text and thinking blocks are ignored with a warning);
- whole API responses: an OpenAI chat completion (``"object": "chat.completion"``) or Responses
  API response (``"object": "response"``), a Gemini response (``candidates``), model content
  (``"role": "model"``) or ``functionCall`` part: the calls of the one answer
  (:mod:`.responses`);
- Llama: a JSON tool call ``{"name", "parameters"}`` (``parameters`` as OpenAI's ``arguments``);
- a JSON array of any of these: parallel calls, whose value is the list of their results;
- TypeChat programs ``{"@steps": [{"@func": f, "@args": [...]}, ...]}`` with ``{"@ref": n}``;
- NESTFUL sequences ``[{"name", "arguments", "label": "$var_1"}, ...]`` with ``"$var_1.result$"``;
- LLMCompiler plans (text): ``1. f(x="a")`` lines (an argument list may span lines), ``$1``/``${1}``
  references, a final ``join()``.

Each becomes the call tree of the same calls, so they run with the normal binding and validation,
and each adds a warning saying what it was read as. Arguments are data: an object or array in
them is quoted (``$quote``), never read as a call.

**Detection never takes Dialect JSON for an envelope.** Only the program's top level (the whole
program, or the elements of a top-level array) is looked at; nothing nested is reinterpreted. A
Dialect JSON call has exactly one key, so no call of a registered function is ever an envelope
(Gemini's one-key shapes are read only when their key is no registered function); a candidate
must match its shape exactly: the required keys, no keys beyond the documented optional ones, the
documented ``type``/``role`` values (a whole API response: its marker; its other keys are
metadata). The shapes with no such marker, ``{"name", "arguments"}`` and
``{"name", "parameters"}`` (and the NESTFUL list, whose items add only ``label``), are envelopes
only if the named function is
registered (when the caller passes ``functions``; without a registry, as in
``dialectic.compile`` and ``dialectic convert``, the exact shape suffices). If the name is not
registered, the program could be either a call of an unknown function or a data object, and
reading it fails with both readings spelled out, never silently picking one. So does an object
whose marker names a shape its keys do not match (an "almost envelope"): it is neither run nor
returned as data.
"""

from dialectic.frontends.envelopes.common import KIND_NAMES, EnvelopeError
from dialectic.frontends.envelopes.detect import read_envelope
from dialectic.frontends.envelopes.llmcompiler import looks_like_llmcompiler, parse_llmcompiler
from dialectic.frontends.envelopes.steps import NESTFUL_REF, nestful_calls
from dialectic.frontends.envelopes.vendors import classify

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
