"""What a tool's ``CallToolResult`` is as a dialectic value, and MCP problems as failures.

The value is ``structuredContent`` when the server sent it; else the text content, parsed as
JSON when it is JSON (one block: its value; several: the list of them); other blocks (images,
audio, resources) are their JSON objects. ``isError`` is a :class:`Failure` carrying the tool's
own message.
"""

from __future__ import annotations

from typing import Any

import orjson
from mcp_types import CallToolResult, TextContent

from dialectic.outcome.errors import Failure

__all__ = [
    "MCP_CALL_FAILED",
    "MCP_SERVER_ERROR",
    "MCP_TOOL_ERROR",
    "result_value",
    "server_failure",
]

MCP_TOOL_ERROR = "mcp_tool_error"
MCP_SERVER_ERROR = "mcp_server_error"
MCP_CALL_FAILED = "mcp_call_failed"
_MESSAGE_LIMIT = 2000


def _text_value(text: str) -> Any:
    stripped = text.strip()
    if stripped[:1] in ("{", "[", '"') or stripped in ("true", "false", "null"):
        try:
            return orjson.loads(stripped)
        except orjson.JSONDecodeError:
            return text
    if stripped[:1].isdigit() or stripped[:1] == "-":
        try:
            return orjson.loads(stripped)
        except orjson.JSONDecodeError:
            return text
    return text


def _block_value(block: Any) -> Any:
    if isinstance(block, TextContent):
        return _text_value(block.text)
    return block.model_dump(mode="json", by_alias=True, exclude_none=True)


def _message(result: CallToolResult) -> str:
    texts = [b.text for b in result.content if isinstance(b, TextContent)]
    text = "\n".join(texts).strip() or "(the tool gave no message)"
    return text if len(text) <= _MESSAGE_LIMIT else text[:_MESSAGE_LIMIT] + "..."


def result_value(result: CallToolResult, label: str) -> Any:
    """The value of a tool's result, or a :class:`Failure` naming the tool ``label``."""
    if result.is_error:
        raise Failure(
            f"the MCP tool {label} reported an error: {_message(result)}",
            hint="The MCP tool reported this error; check its arguments.",
            code=MCP_TOOL_ERROR,
        )
    if result.structured_content is not None:
        return result.structured_content
    blocks = result.content
    if not blocks:
        return None
    if len(blocks) == 1:
        return _block_value(blocks[0])
    return [_block_value(b) for b in blocks]


def server_failure(label: str, server: str, exc: BaseException | str) -> Failure:
    """A failure of the connection (not of the tool): the server died, closed or refused."""
    reason = exc if isinstance(exc, str) else (f"{type(exc).__name__}: {exc}".rstrip(": "))
    return Failure(
        f"the MCP server {server!r} failed while calling {label} ({reason[:_MESSAGE_LIMIT]})",
        hint=f"The server {server!r} stopped, hung or broke the connection; the next call of "
        "its tools starts it again (not sooner than 5 s after a failed restart).",
        code=MCP_SERVER_ERROR,
    )
