"""An LLMCompiler call's argument list (Python call syntax, literal arguments, ``$N``
references) as the call's tree. The text may span lines; every error carries the offset in the
argument text where it is."""

from __future__ import annotations

import ast
import io
import keyword
import re
import tokenize
from collections.abc import Callable
from typing import Any

from dialectic.limits import HARD_MAX_DEPTH

__all__ = ["ArgumentError", "call_tree"]

_REF = re.compile(r"\$\{(\d+)\}|\$(\d+)")
_PLACEHOLDER = re.compile(r"__dialectic_ref_(\d+)__")
_KEYWORD = re.compile(r"__dialectic_kw_(\w+)__")
_LITERALS_HINT = (
    'Write literal arguments: search(query="x", limit=3), with $1 for call 1\'s result.'
)

#: where a node starts, as an offset in the argument text
Locate = Callable[[ast.AST], int]


class ArgumentError(Exception):
    """A problem in an argument list: ``offset`` is relative to the argument text."""

    def __init__(self, message: str, offset: int = 0, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.hint = hint


def call_tree(name: str, args: str, number: int) -> Any:
    """The tree of call ``number``, ``name(args)``; raises :class:`ArgumentError`."""
    source, origin = _substitute_refs(args, number)
    source, origin = _rename_keywords(source, origin)
    node, at = _parse(source, origin)
    if node.args and node.keywords:
        raise ArgumentError(
            "arguments are given both by position and by name",
            hint='Write all of them by name (query="x") or all by position.',
        )
    for a in node.args:
        if isinstance(a, ast.Starred):
            raise ArgumentError("`*` arguments are not allowed", at(a))
    if node.keywords:
        named: dict[str, Any] = {}
        for kw in node.keywords:
            if kw.arg is None:
                raise ArgumentError("`**` arguments are not allowed", at(kw))
            renamed = _KEYWORD.fullmatch(kw.arg)
            named[renamed.group(1) if renamed else kw.arg] = _literal(kw.value, 1, at)
        return {name: [{"$object": named}]}
    return {name: [_literal(a, 1, at) for a in node.args]}


def _substitute_refs(args: str, number: int) -> tuple[str, list[int]]:
    """``$N``/``${N}`` replaced by identifiers Python reads (in strings too: templates), and
    for each character of the new text (and its end) the offset in ``args`` it comes from."""
    if "__dialectic_" in args:
        raise ArgumentError("the text `__dialectic_` cannot be used in a plan")
    parts: list[str] = []
    origin: list[int] = []
    last = 0
    for m in _REF.finditer(args):
        ref = int(m.group(1) or m.group(2))
        if not 1 <= ref < number:
            raise ArgumentError(
                f"`{m.group()}` refers to call {ref}, which is not an earlier call",
                m.start(),
                "A reference $N names the result of an earlier numbered call.",
            )
        parts.append(args[last : m.start()])
        origin.extend(range(last, m.start()))
        new = f"__dialectic_ref_{ref}__"
        parts.append(new)
        origin.extend([m.start()] * len(new))
        last = m.end()
    parts.append(args[last:])
    origin.extend(range(last, len(args) + 1))
    return "".join(parts), origin


def _rename_keywords(source: str, origin: list[int]) -> tuple[str, list[int]]:
    """Argument names that are Python keywords (``from="SFO"``) renamed so that Python's parser
    reads them (strings are found by the tokenizer, so their text is never touched)."""
    if not any(k in source for k in keyword.kwlist):
        return source, origin
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError):
        return source, origin  # the parser reports it
    starts = [0]
    for line in source.split("\n"):
        starts.append(starts[-1] + len(line) + 1)
    out: list[str] = []
    new_origin: list[int] = []
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
            new_origin.extend(origin[last:at])
            new = f"__dialectic_kw_{tok.string}__"
            out.append(new)
            new_origin.extend([origin[at]] * len(new))
            last = at + len(tok.string)
    out.append(source[last:])
    new_origin.extend(origin[last:])
    return "".join(out), new_origin


def _parse(source: str, origin: list[int]) -> tuple[ast.Call, Locate]:
    """The call ``f(source)`` as Python reads it, and where each of its nodes is."""
    text = f"f({source}\n)"  # the line break: a trailing comment cannot hide the `)`
    lines = text.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)

    def back(offset: int) -> int:
        """An offset of ``text`` as an offset of the argument text."""
        return origin[min(max(offset - 2, 0), len(origin) - 1)]

    def at(node: ast.AST) -> int:
        lineno, col = getattr(node, "lineno", 1), getattr(node, "col_offset", 0)
        line = lines[lineno - 1]
        chars = len(line.encode()[:col].decode(errors="ignore"))  # col_offset counts bytes
        return back(starts[lineno - 1] + chars)

    try:
        node = ast.parse(text, mode="eval").body
    except SyntaxError as exc:
        lineno = min(max(exc.lineno or 1, 1), len(lines))
        raise ArgumentError(
            f"the arguments are not a Python-style argument list: {exc.msg}",
            back(starts[lineno - 1] + max((exc.offset or 1) - 1, 0)),
            _LITERALS_HINT,
        ) from None
    except (RecursionError, MemoryError):
        raise ArgumentError("the arguments are nested too deeply") from None
    except ValueError as exc:  # a NUL character
        raise ArgumentError(
            f"the arguments cannot be read: {exc.args[0] if exc.args else exc}",
            hint='Write literal arguments: search(query="x"), one call per line.',
        ) from None
    assert isinstance(node, ast.Call)
    return node, at


def _literal(v: ast.expr, depth: int, at: Locate) -> Any:
    """The tree of one literal argument (strings with references are templates)."""
    if depth > HARD_MAX_DEPTH:
        raise ArgumentError("the arguments are nested too deeply")
    if isinstance(v, ast.Constant) and (
        v.value is None or isinstance(v.value, str | int | float | bool)
    ):
        return _template(v.value) if isinstance(v.value, str) else v.value
    if isinstance(v, ast.UnaryOp) and isinstance(v.op, ast.USub | ast.UAdd):
        inner = _literal(v.operand, depth + 1, at)
        if isinstance(inner, int | float) and not isinstance(inner, bool):
            return -inner if isinstance(v.op, ast.USub) else inner
    if isinstance(v, ast.List | ast.Tuple):
        return [_literal(e, depth + 1, at) for e in v.elts]
    if isinstance(v, ast.Dict):
        out: dict[str, Any] = {}
        for k, e in zip(v.keys, v.values, strict=True):
            if not (isinstance(k, ast.Constant) and isinstance(k.value, str)):
                raise ArgumentError("object keys must be strings", at(k) if k else at(e))
            out[k.value] = _literal(e, depth + 1, at)
        return {"$object": out}
    if isinstance(v, ast.Name):
        ref = _PLACEHOLDER.fullmatch(v.id)
        if ref is not None:
            return {"$ref": f"step_{ref.group(1)}"}
        raise ArgumentError(
            f"`{v.id}` is not a value",
            at(v),
            f'Write text in quotes ("{v.id}"), or $N for the result of call N.',
        )
    raise ArgumentError(
        "only literals (strings, numbers, True, False, None, lists, dicts) and $N references "
        "can be arguments",
        at(v),
    )


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
