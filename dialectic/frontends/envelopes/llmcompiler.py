"""LLMCompiler plans (text): numbered calls ``1. f(x="a")``, ``$1`` references, ``join()``."""

from __future__ import annotations

import bisect
import re
from typing import Any

from dialectic.frontends.base import FrontEndResult, SourceError
from dialectic.frontends.envelopes.common import KIND_NAMES, listing, refs, sequence
from dialectic.frontends.envelopes.llmc_args import ArgumentError, call_tree
from dialectic.outcome.errors import SyntaxProblem

__all__ = ["looks_like_llmcompiler", "parse_llmcompiler"]

_LLMC_START = re.compile(
    r"(?:\s*(?:```|~~~|[Tt]hought:)[^\n]*\n)*\s*1[ \t]*\.[ \t]*[A-Za-z_]\w*[ \t]*\("
)
_CALL_START = re.compile(r"[ \t]*(\d+)[ \t]*\.[ \t]*([A-Za-z_]\w*)[ \t]*\(")
#: what the scan for a call's closing `)` stops at: brackets, strings, comments
_SCAN = re.compile(r"[()\[\]{}#'\"]")
_STRING = re.compile(
    r"'''(?:[^'\\]|\\[\s\S]|'(?!''))*'''"
    r'|"""(?:[^"\\]|\\[\s\S]|"(?!""))*"""'
    r"|'(?:[^'\\\n]|\\[\s\S])*'"
    r'|"(?:[^"\\\n]|\\[\s\S])*"'
)
_OPENERS = {")": "(", "]": "[", "}": "{"}


def looks_like_llmcompiler(text: str) -> bool:
    """Whether the first meaningful line of ``text`` (after fences and ``Thought:`` lines) is
    ``1. name(`` (no JSON, Plan or Plan2 program starts so). Looks only at the start."""
    return _LLMC_START.match(text) is not None


def _call_end(text: str, pos: int) -> int | None:
    """The offset of the bracket that ends the argument list starting at ``pos`` (just after
    its ``(``): the matching ``)``, or the first closing bracket that matches nothing (Python's
    parser then explains it); None if the list is never closed. Strings and comments are
    skipped; one linear pass."""
    stack: list[str] = []
    while True:
        m = _SCAN.search(text, pos)
        if m is None:
            return None
        c = m.group()
        pos = m.end()
        if c in "([{":
            stack.append(c)
        elif c in ")]}":
            if not stack or stack.pop() != _OPENERS[c]:
                return m.start()
        elif c == "#":
            newline = text.find("\n", pos)
            if newline < 0:
                return None
            pos = newline
        else:
            s = _STRING.match(text, m.start())
            if s is not None:  # else an unterminated string: Python's parser reports it
                pos = s.end()


class _Lines:
    """The plan's lines (as ``str.splitlines`` cuts them; fence lines blanked, every offset
    kept) and offset -> line:column."""

    def __init__(self, text: str) -> None:
        self.starts = [0]
        self.lines: list[str] = []  # without their line breaks
        kept: list[str] = []
        for line in text.splitlines(keepends=True):
            self.starts.append(self.starts[-1] + len(line))
            body = line.splitlines()[0] if line.splitlines() else ""
            if body.strip().startswith(("```", "~~~")):
                line = " " * len(body) + line[len(body) :]
                body = ""
            kept.append(line)
            self.lines.append(body)
        self.text = "".join(kept)

    def locate(self, offset: int) -> tuple[int, int]:
        i = max(min(bisect.bisect_right(self.starts, offset) - 1, len(self.lines) - 1), 0)
        return i + 1, offset - self.starts[i] + 1

    def problem(self, message: str, offset: int, hint: str | None = None) -> SyntaxProblem:
        line, column = self.locate(offset)
        return SyntaxProblem(message, line, column, hint=hint, offset=offset)


def parse_llmcompiler(text: str) -> FrontEndResult:
    """An LLMCompiler plan: numbered calls ``1. search(query="x")`` (Python call syntax, literal
    arguments; an argument list may span lines), ``$1``/``${1}`` the result of call 1 (a whole
    argument, or inside a string: a template), ``Thought:`` lines ignored, a final ``join()``
    ending the plan. The value is the result of every call no later call uses (one: its value;
    several: the list, in order), so every call runs, as LLMCompiler runs them all before
    joining."""
    plan = _Plan(_Lines(text))
    plan.read()
    problems, bindings = plan.problems, plan.bindings
    if not bindings and not problems:
        problems.append(SyntaxProblem("the plan has no calls", 1, 1, hint="Write `1. f(x=1)`."))
    if problems:
        raise SourceError("llmcompiler", text, problems)
    used = _used(bindings)
    sinks = [name for name in bindings if name not in used]
    warnings = [
        f"read as {KIND_NAMES['llmcompiler']} of {len(bindings)} "
        f"call{'s' if len(bindings) > 1 else ''} "
        f"({listing([next(iter(c)) for c in bindings.values()])}); its value is the result of "
        + (
            sinks[0]
            if len(sinks) == 1
            else "the calls no other call uses, as a list: " + listing(sinks)
        )
        + ("" if plan.joined else " (the plan has no final join())")
    ]
    return FrontEndResult(sequence(bindings, sinks), "plan", text, {}, warnings)


class _Plan:
    """The reading of a plan, line by line (a call's arguments may take several lines)."""

    def __init__(self, lines: _Lines) -> None:
        self.lines = lines
        self.problems: list[SyntaxProblem] = []
        self.bindings: dict[str, Any] = {}
        self.joined = False
        self.count = 0  # the number of the last numbered call

    def read(self) -> None:
        lines = self.lines
        i = 0
        while i < len(lines.lines):
            raw = lines.lines[i]
            line = raw.strip()
            start = lines.starts[i] + len(raw) - len(raw.lstrip())
            if not line or line.lower().startswith("thought:") or line == "<END_OF_PLAN>":
                i += 1
                continue
            if self.joined:
                self.problems.append(
                    lines.problem(
                        "a line after `join()`: the plan ends at join()",
                        start,
                        "Remove it, or number it before join().",
                    )
                )
                return
            m = _CALL_START.match(raw)
            if m is None:
                self.problems.append(
                    lines.problem(
                        'expected a numbered call such as `2. search(query="x")`',
                        start,
                        "Each line of an LLMCompiler plan is `N. tool(arguments)`, a "
                        "`Thought: ...` line, or the final `N. join()`.",
                    )
                )
                i += 1
                continue
            i = self.numbered(m, lines.starts[i])
            if i < 0:
                return

    def numbered(self, m: re.Match[str], base: int) -> int:
        """Read the call ``m`` matched on the line at offset ``base``; the index of the line
        after it, or -1 if the rest of the plan cannot be read."""
        lines = self.lines
        open_at = base + m.end() - 1
        end = _call_end(lines.text, open_at + 1)
        if end is None:
            self.problems.append(
                lines.problem(
                    f"the `(` of call {m.group(1)} is never closed",
                    open_at,
                    "Close the argument list with `)`; it may span lines.",
                )
            )
            return -1
        last = lines.locate(end)[0] - 1  # the line the call ends on
        rest = lines.text[end + 1 : lines.starts[last] + len(lines.lines[last])]
        if rest.strip() not in ("", "<END_OF_PLAN>"):
            self.problems.append(
                lines.problem(
                    "unexpected text after the call",
                    end + 1 + len(rest) - len(rest.lstrip()),
                    "Write one call per line: `N. tool(arguments)`.",
                )
            )
        else:
            self.call(int(m.group(1)), m.group(2), base + m.start(1), open_at + 1, end)
        return last + 1

    def call(self, number: int, name: str, at: int, start: int, end: int) -> None:
        """Call ``number`` (written at offset ``at``): ``name``, its arguments from ``start``
        to ``end``."""
        args = self.lines.text[start:end]
        expected = self.count + 1
        self.count = number
        if number != expected:
            self.problems.append(
                self.lines.problem(
                    f"call number {number} where {expected} was expected",
                    at,
                    "Number the calls 1, 2, 3, ... in order.",
                )
            )
            return
        if name == "join":
            if args.strip():
                self.problems.append(
                    self.lines.problem("`join()` takes no arguments", start, "Write join().")
                )
            self.joined = True
            return
        try:
            self.bindings[f"step_{number}"] = call_tree(name, args, number)
        except ArgumentError as exc:
            self.problems.append(self.lines.problem(exc.message, start + exc.offset, exc.hint))


def _used(bindings: dict[str, Any]) -> set[str]:
    """The steps some other step reads."""
    used: set[str] = set()
    for tree in bindings.values():
        used |= refs(tree)
    return used
