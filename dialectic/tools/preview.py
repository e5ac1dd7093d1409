"""The preview of a program's effects (SPEC 17): without running any function, the write and
destructive calls it will make, in the order they run, with their arguments as far as they are
known before the run (literals as values, the rest as the Plan expressions that compute them).

``Runtime.preview(program)``, ``Prepared.preview()``, ``dialectic run --dry-run``.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable, Iterator
from typing import Any, TextIO

from dialectic.frontends.plan.decompile import DecompileError, decompile_expression
from dialectic.outcome.errors import format_path
from dialectic.resolve.canonical import canonical
from dialectic.run.approval import Approval, ApprovalRequest
from dialectic.tree.nodes import (
    AliasRef,
    Block,
    Cond,
    ConstRef,
    Invoke,
    Lambda,
    Lit,
    Method,
    Node,
    Op,
)
from dialectic.tree.walking import children

__all__ = ["Preview", "PreviewCall", "TerminalApprover", "preview", "terminal_approver"]

#: operators whose right operand runs only sometimes
_SHORT = ("&&", "||", "??")


class PreviewCall:
    """One effectful call: ``args`` maps each parameter passed to its value (a literal) or
    ``{"expression": "<Plan>"}``; ``conditional``: only if a branch is taken; ``repeated``:
    once per element of a list (inside an arrow function)."""

    __slots__ = (
        "function",
        "effects",
        "scope",
        "idempotent",
        "path",
        "args",
        "conditional",
        "repeated",
    )

    def __init__(
        self, node: Invoke, args: dict[str, Any], conditional: bool, repeated: bool
    ) -> None:
        fn = node.fn
        self.function = fn.name
        self.effects = fn.effects
        self.scope = fn.effect_scope
        self.idempotent = fn.idempotent
        self.path = node.path
        self.args = args
        self.conditional = conditional
        self.repeated = repeated

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "function": self.function,
            "effects": self.effects,
            "scope": self.scope,
            "path": format_path(self.path),
            "args": self.args,
        }
        if self.idempotent:
            out["idempotent"] = True
        if self.conditional:
            out["conditional"] = True
        if self.repeated:
            out["repeated"] = True
        return out

    def text(self) -> str:
        parts = []
        for name, value in self.args.items():
            if isinstance(value, dict) and set(value) == {"expression"}:
                parts.append(f"{name}: {value['expression']}")
            else:
                parts.append(f"{name}: {_literal(value)}")
        notes = [self.effects]
        if self.scope:
            notes.append(f"scope {self.scope}")
        if self.conditional:
            notes.append("if its branch is taken")
        if self.repeated:
            notes.append("for each element")
        return (
            f"{self.function}({', '.join(parts)})  [{', '.join(notes)}] at {format_path(self.path)}"
        )


class Preview:
    """The effectful calls of a program in run order."""

    __slots__ = ("calls",)

    def __init__(self, calls: list[PreviewCall]) -> None:
        self.calls = calls

    def to_json(self) -> list[dict[str, Any]]:
        return [c.to_json() for c in self.calls]

    def text(self) -> str:
        if not self.calls:
            return "The program makes no write or destructive call."
        lines = [f"The program makes {len(self.calls)} write or destructive call(s), in order:"]
        lines += [f"{i}. {c.text()}" for i, c in enumerate(self.calls, 1)]
        return "\n".join(lines)

    def __len__(self) -> int:
        return len(self.calls)


def preview(root: Node) -> Preview:
    """The preview of a resolved program (nothing runs)."""
    calls: list[PreviewCall] = []
    known: dict[int, Any] = {}  # alias slot -> its value, when a literal or a constant
    for node, conditional, repeated in _in_run_order(root, known):
        if type(node) is Block:
            continue
        if type(node) is Invoke and node.fn.changes_things:
            args = {a.param.name: _argument(a.node, known) for a in node.args}
            calls.append(PreviewCall(node, args, conditional, repeated))
    return Preview(calls)


def _in_run_order(root: Node, known: dict[int, Any]) -> Iterator[tuple[Node, bool, bool]]:
    """Every node, each after the nodes it evaluates first (a call after its arguments; a
    block's statements in program order, then its value), with whether it runs only
    sometimes (a branch) or once per element (an arrow's body). Iterative: any depth."""
    stack: list[tuple[Node, bool, bool, bool]] = [(root, False, False, False)]
    while stack:
        node, cond, rep, expanded = stack.pop()
        if expanded:
            yield node, cond, rep
            continue
        stack.append((node, cond, rep, True))
        kids: list[tuple[Node, bool, bool]] = []
        if type(node) is Block:
            for b in node.bindings:
                if b.frame < 0 and _static(b.node):
                    known[b.slot] = _static_value(b.node)
            kids = [(b.node, cond, rep) for b in node.bindings] + [(node.body, cond, rep)]
        elif type(node) is Cond:
            kids = [(node.test, cond, rep), (node.then, True, rep), (node.otherwise, True, rep)]
        elif type(node) is Op and node.op in _SHORT:
            left, right = node.operands
            kids = [(left, cond, rep), (right, True, rep)]
        elif type(node) is Lambda:
            kids = [(node.body, cond, True)]
        else:
            kids = [(k, cond, rep) for k in children(node)]
            if type(node) is Method and node.fallback is not None:
                kids.append((node.fallback, True, rep))
        for kid in reversed(kids):
            stack.append((*kid, False))


def _static(node: Node) -> bool:
    """A value known before the run: a literal, or a constant without a factory."""
    return type(node) is Lit or (type(node) is ConstRef and node.const.factory is None)


def _static_value(node: Node) -> Any:
    return node.value if type(node) is Lit else node.const.value  # type: ignore[attr-defined]


def _argument(node: Node, known: dict[int, Any]) -> Any:
    if _static(node):
        return _static_value(node)
    if type(node) is AliasRef and node.frame < 0 and node.slot in known:
        return known[node.slot]
    try:
        return {"expression": decompile_expression(canonical(node))}
    except (DecompileError, AssertionError, RecursionError):
        return {"expression": "(computed when the program runs)"}


def _literal(value: Any) -> str:
    try:
        return decompile_expression({"$quote": value})
    except (DecompileError, RecursionError):
        return repr(value)


# -- the command line: `dialectic run --dry-run` and `--approve` -------------------------------
def effects_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """The ``run`` options of SPEC 17."""
    import click

    f = click.option(
        "--approve",
        "approve",
        is_flag=True,
        help="Ask on the terminal (y/n/a) before each write or destructive call.",
    )(f)
    return click.option(
        "--dry-run",
        "dry_run",
        is_flag=True,
        help="Run nothing: print the write and destructive calls the program would make.",
    )(f)


def print_preview(rt: Any, text: str, lang: str | None, strict: bool, fmt: str) -> int:
    """``--dry-run``: the preview (exit 0), or the compile error (exit 1)."""
    import click
    import orjson

    from dialectic.outcome.outcome import Outcome

    prepared = rt.prepare(text, lang=lang, strict=strict)
    if prepared.errors:
        failed = prepared.check()
        assert isinstance(failed, Outcome)
        click.echo(orjson.dumps(failed.to_json()).decode() if fmt == "json" else failed.message)
        return 1
    shown = prepared.preview()
    if fmt == "json":
        click.echo(orjson.dumps({"effects": shown.to_json()}, option=orjson.OPT_INDENT_2))
    else:
        click.echo(shown.text())
    return 0


class TerminalApprover:
    """``--approve``: asks on the terminal before each write or destructive call; ``y``
    allows it, ``a`` allows it and the rest of the run, anything else (or the end of the
    input) refuses it."""

    def __init__(self, answers: TextIO | None = None, prompts: TextIO | None = None) -> None:
        self.answers = answers
        self.prompts = prompts if prompts is not None else sys.stderr

    def __call__(self, request: ApprovalRequest) -> Approval:
        args = ", ".join(f"{k}: {_literal(v)}" for k, v in request.args.items())
        scope = f", scope {request.scope}" if request.scope else ""
        self.prompts.write(
            f"Allow {request.function}({args}) [{request.effects}{scope}] at {request.where}?"
            " [y]es / [n]o / [a]ll: "
        )
        self.prompts.flush()
        answers = self.answers if self.answers is not None else sys.stdin
        line = answers.readline().strip().lower()
        if not _is_terminal(answers):  # not typed: show the answer, end the prompt's line
            self.prompts.write(f"{line}\n")
        if line in ("y", "yes"):
            return Approval.ALLOW
        if line in ("a", "all"):
            return Approval.ALLOW_ALL
        return Approval.deny("refused on the terminal" if line else "no answer on the terminal")


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


def terminal_approver(program_from_stdin: bool) -> TerminalApprover:
    """The answers come from standard input, or from the terminal itself when the program
    was read from standard input."""
    if program_from_stdin:
        try:
            return TerminalApprover(open("/dev/tty", encoding="utf-8"))
        except OSError:
            return TerminalApprover(io.StringIO(""))  # no terminal: every call is refused
    return TerminalApprover()
