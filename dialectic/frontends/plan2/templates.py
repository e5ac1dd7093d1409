"""Plan2 template literals: ``text ${expression} text``.

A template is split into literal text and expression sources. As in a JavaScript template,
``\\${`` is a literal ``${`` and ``$${x}`` is a ``$`` followed by the value of ``x`` (a ``$`` not
followed by ``{`` is literal, and so is a backslash not followed by ``${``). The end of an
expression is the ``}`` that closes its ``${`` (braces, brackets and parentheses nest, and
string literals ``'...'``, ``"..."`` and backtick templates are skipped), so object literals such
as ``${{a: 1}}`` need no escaping.
"""

from __future__ import annotations

from dataclasses import dataclass

_CLOSERS = {")": "(", "]": "[", "}": "{"}


@dataclass(frozen=True, slots=True)
class ExprPart:
    """An expression inside a template: its source and its offset (of the text after ``${``)."""

    source: str
    offset: int


class TemplateError(ValueError):
    def __init__(self, message: str, offset: int, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.hint = hint


def _skip_string(s: str, j: int) -> int:
    """``s[j]`` is a quote; the index after the closing quote, or -1 if unterminated."""
    quote = s[j]
    j += 1
    n = len(s)
    while j < n:
        c = s[j]
        if c == "\\":
            j += 2
            continue
        if c == quote:
            return j + 1
        if quote == "`" and c == "$" and s.startswith("${", j):
            end = find_expression_end(s, j + 2)
            if end < 0:
                return -1
            j = end + 1
            continue
        j += 1
    return -1


def find_expression_end(s: str, i: int) -> int:
    """``i`` is just after ``${``; the index of the closing ``}``, or -1."""
    stack: list[str] = ["{"]
    j = i
    n = len(s)
    while j < n:
        c = s[j]
        if c in "'\"`":
            j = _skip_string(s, j)
            if j < 0:
                return -1
            continue
        if c in "([{":
            stack.append(c)
        elif c in ")]}":
            if stack and stack[-1] == _CLOSERS[c]:
                stack.pop()
            elif c == "}" and "{" in stack:
                while stack[-1] != "{":
                    stack.pop()
                stack.pop()
            if not stack:
                return j
        j += 1
    return -1


def split_template(s: str) -> list[str | ExprPart]:
    """Literal text and expressions, in order; adjacent texts merged, empty texts dropped."""
    parts: list[str | ExprPart] = []
    buf: list[str] = []
    i = 0
    n = len(s)
    while i < n:
        k = s.find("$", i)
        if k < 0:
            buf.append(s[i:])
            break
        buf.append(s[i:k])
        if s.startswith("${", k) and k > i and s[k - 1] == "\\":  # `\${`: a literal `${`
            buf[-1] = buf[-1][:-1]
            buf.append("${")
            i = k + 2
            continue
        if s.startswith("${", k):
            end = find_expression_end(s, k + 2)
            if end < 0:
                raise TemplateError(
                    "unterminated `${`: no matching `}`",
                    k,
                    hint="close the expression with `}` (write `\\${` for a literal `${`)",
                )
            if buf:
                text = "".join(buf)
                if text:
                    parts.append(text)
                buf = []
            expr = s[k + 2 : end]
            if not expr.strip():
                raise TemplateError(
                    "empty expression `${}`", k, hint="write an expression inside ${...}"
                )
            parts.append(ExprPart(expr, k + 2))
            i = end + 1
            continue
        buf.append("$")
        i = k + 1
    text = "".join(buf)
    if text:
        parts.append(text)
    return parts


def escape_text(text: str) -> str:
    """Literal text as template text: every ``${`` becomes ``\\${``. (A text ending in a
    backslash cannot be followed by an expression: the backslash would escape it.)"""
    return text.replace("${", "\\${")
