"""Shared fixtures for the Plan front-end tests: a seeded generator of strict Plan programs, and
Node.js with the pinned acorn that `python3 tasks.py setup` installs into `.node/`."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NODE_DIR = ROOT / ".node"  # tasks.py's NODE_DIR: `npm install --prefix .node` of the pinned acorn

NAMES = ["a", "b", "x1", "_y", "$z", "flight", "use", "async", "of", "get", "NaN", "data$2"]
CALLEES = ["f", "g", "next", "this", "domainA", "_h", "async", "use"]
PROPS = ["b", "if", "new", "length", "delete", "at", "$p", "_q", "default", "class", "x9"]
METHODS = [p for p in PROPS if not p.startswith("$")]
STRING_CHARS = ["a", "Z", " ", "#", "é", "€", "😀", "中", "$", "{", "}", "`", "/", "*", "\u2028"]
ESCAPES = [
    "\\n",
    "\\t",
    "\\r",
    "\\b",
    "\\f",
    "\\v",
    "\\0",
    "\\\\",
    "\\'",
    '\\"',
    "\\x41",
    "\\xff",
    "\\u00e9",
    "\\u20AC",
    "\\u{1F600}",
    "\\u{41}",
    "\\ud83d\\ude00",
    "\\q",
    "\\$",
    "\\`",
    "\\\n",
    "\\\r\n",
]
NUMBERS = [
    "0",
    "7",
    "42",
    "1234567890",
    "1152921504606846976",
    "1.5",
    "0.1",
    "1e21",
    "1e-7",
    "2.5E+3",
    ".5",
    "5.",
    "0.000001",
    "123.456e-2",
    "0x1F",
    "0o17",
    "0b101",
    "0XfF",
    "1e308",
    "5e-324",
    "100",
    "0.0",
]
SPACES = [" ", "  ", "\t", "\n", "\r\n", " /* c */ ", "\n// line comment\n", "\u00a0", "\u2028"]
TEMPLATE_CHARS = ["a", " ", "{", "}", "é", "'", '"', "😀", "x y"]


def _canonical_key(key: str) -> str:
    """The property name a key token stands for ('a', "a" and a all name `a`)."""
    from dialectic.frontends.plan import js_number_to_string, parse_expression

    if key[0] not in "'\"0123456789":
        return key
    value = parse_expression(key)[0]
    if isinstance(value, str):
        return value
    return js_number_to_string(value)


class PlanGenerator:
    """Random strict Plan programs (valid JavaScript inside an async function).

    With `reorder`, the literal lists are shuffled (seeded): the same choices then meet other
    neighbours, which is how a generator bug (a `$` then `{` in a template's text) showed."""

    def __init__(self, seed: int, *, reorder: bool = False) -> None:
        self.r = random.Random(seed)
        shuffler = random.Random(f"reorder {seed}")

        def pick(values: list[str]) -> list[str]:
            values = list(values)
            if reorder:
                shuffler.shuffle(values)
            return values

        self.names = pick(NAMES)
        self.later: frozenset[str] = frozenset()  # aliases defined after the one being written
        self.callees = pick(CALLEES)
        self.props = pick(PROPS)
        self.methods = pick(METHODS)
        self.string_chars = pick(STRING_CHARS)
        self.escapes = pick(ESCAPES)
        self.numbers = pick(NUMBERS)
        self.spaces = pick(SPACES)
        self.template_chars = pick(TEMPLATE_CHARS)

    def ws(self) -> str:
        return self.r.choice(self.spaces) if self.r.random() < 0.25 else ""

    def string(self) -> str:
        q = self.r.choice("'\"")
        out = []
        for _ in range(self.r.randrange(0, 8)):
            if self.r.random() < 0.35:
                out.append(self.r.choice(self.escapes))
            else:
                c = self.r.choice([*self.string_chars, "'", '"'])
                out.append("\\" + c if c == q else c)
        text = "".join(out)
        if self.r.random() < 0.1:
            text = "\\0"  # \0 not followed by a digit
        return q + text + q

    def template(self, depth: int) -> str:
        out = ["`"]
        for _ in range(self.r.randrange(0, 4)):
            roll = self.r.random()
            if roll < 0.3:
                out.append(self.r.choice(self.escapes))
            elif roll < 0.55:
                out.append("${" + self.ws() + self.expr(depth + 1) + self.ws() + "}")
            elif roll < 0.6:
                out.append("$")  # a dollar not followed by {
            elif roll < 0.65:
                out.append("\n")
            else:
                out.append(self.r.choice(self.template_chars))
        # a bare `$` then the text `{` is `${`, a substitution's start: the program would not be
        # the one meant (most often not JavaScript at all, `${{` holds an object); a space keeps
        # the dollar a character (`$${x}`, a dollar then a substitution, stays: it is JavaScript)
        pieces = [
            "$ " if piece == "$" and i + 1 < len(out) and out[i + 1].startswith("{") else piece
            for i, piece in enumerate(out)
        ]
        return "".join(pieces) + "`"

    def key(self) -> str:
        roll = self.r.random()
        if roll < 0.5:  # (a name key may be a shorthand `{a}`: a read of `a`)
            return self.r.choice([*self.props, *(n for n in self.names if n not in self.later)])
        if roll < 0.8:
            return self.string()
        return self.r.choice(["0", "1", "1.5", "0x10", "1e21", "2"])

    def obj(self, depth: int) -> str:
        entries = []
        seen: set[str] = set()
        for _ in range(self.r.randrange(0, 4)):
            if self.r.random() < 0.15:
                name = self.r.choice(["a", "b", "jfk", "lga", "undefined"])
                if name in seen or name in self.later:  # (a shorthand reads its name)
                    continue
                seen.add(name)
                entries.append(name)
                continue
            k = self.key()
            canon = _canonical_key(k)
            if canon in seen:
                continue
            seen.add(canon)
            entries.append(f"{k}{self.ws()}:{self.ws()}{self.expr(depth + 1)}")
        trailing = "," if entries and self.r.random() < 0.3 else ""
        return "{" + self.ws() + ", ".join(entries) + trailing + self.ws() + "}"

    def primary(self, depth: int) -> str:
        roll = self.r.random()
        if depth > 4:
            roll = roll * 0.5
        if roll < 0.12:
            return self.string()
        if roll < 0.22:
            sign = self.r.choice(["", "", "-", "+"])
            return sign + self.r.choice(self.numbers)
        if roll < 0.28:
            return self.r.choice(["true", "false", "null", "undefined"])
        if roll < 0.42:  # (not an alias defined later: a ReferenceError in JavaScript)
            names = [n for n in self.names if n not in self.later] if self.later else self.names
            return self.r.choice(names) if names else "null"
        if roll < 0.5:
            return self.template(depth)
        if roll < 0.6:
            items = [self.expr(depth + 1) for _ in range(self.r.randrange(0, 4))]
            trailing = "," if items and self.r.random() < 0.3 else ""
            return "[" + ", ".join(items) + trailing + "]"
        if roll < 0.72:
            return self.obj(depth)
        if roll < 0.78:
            return "(" + self.expr(depth + 1) + ")"
        args = [self.expr(depth + 1) for _ in range(self.r.randrange(0, 4))]
        trailing = "," if args and self.r.random() < 0.2 else ""
        return self.r.choice(self.callees) + self.ws() + "(" + ", ".join(args) + trailing + ")"

    def expr(self, depth: int = 0) -> str:
        text = self.primary(depth)
        if text[0] in "-+":
            return text  # a signed number takes no postfix
        if text[0].isdigit() or text[0] == ".":
            text = "(" + text + ")"
        for _ in range(self.r.randrange(0, 3) if depth < 5 else 0):
            roll = self.r.random()
            if roll < 0.4:
                text += self.ws() + "." + self.r.choice(self.props)
            elif roll < 0.7:
                text += "[" + self.expr(depth + 1) + "]"
            else:
                args = [self.expr(depth + 1) for _ in range(self.r.randrange(0, 3))]
                text += "." + self.r.choice(self.methods) + "(" + ", ".join(args) + ")"
        return text

    def program(self) -> str:
        lines = []
        names = self.r.sample(self.names, self.r.randrange(0, 4))
        for i, name in enumerate(names):
            if self.r.random() < 0.1:
                lines.append(";")
            self.later = frozenset(names[i + 1 :])
            lines.append(f"{name}{self.ws()}={self.ws()}{self.expr()};")
        self.later = frozenset()
        if self.r.random() < 0.3:
            lines.append("/* the result */")
        keyword = "use" if self.r.random() < 0.2 else "return"
        lines.append(f"{keyword} {self.expr()};")
        sep = self.r.choice(["\n", "\r\n", " ", "\n\n"])
        return sep.join(lines)


def generate_programs(count: int, seed: int = 1234, *, reorder: bool = False) -> list[str]:
    gen = PlanGenerator(seed, reorder=reorder)
    return [gen.program() for _ in range(count)]


@pytest.fixture(scope="session")
def plan_corpus() -> list[str]:
    return generate_programs(400)


REORDERED_SEEDS = (1, 2, 3, 4, 5)


@pytest.fixture(scope="session")
def reordered_corpus() -> list[str]:
    """More programs: several seeds, each with its literal lists shuffled (a few seconds)."""
    return [p for seed in REORDERED_SEEDS for p in generate_programs(200, seed, reorder=True)]


@pytest.fixture(scope="session")
def node() -> str:
    """The `node` executable. Node.js is a prerequisite of the tests: missing, the test fails."""
    path = shutil.which("node")
    if path is None:
        pytest.fail(
            "Node.js is not installed, and the tests need it (README, Quickstart): install "
            "Node.js 18 or newer, then run `python3 tasks.py setup`",
            pytrace=False,
        )
    return path


@pytest.fixture(scope="session")
def acorn_dir(node: str) -> Path:
    """The folder whose node_modules holds acorn (installed by set-up, never by a test)."""
    if not (NODE_DIR / "node_modules" / "acorn" / "package.json").is_file():
        pytest.fail(
            f"acorn is not installed in {NODE_DIR}: run `python3 tasks.py setup` "
            "(it installs the pinned version with npm)",
            pytrace=False,
        )
    return NODE_DIR
