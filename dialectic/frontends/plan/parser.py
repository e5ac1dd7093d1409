"""Recursive-descent parser: Plan tokens -> the canonical call tree (SPEC.md section 1).

Every expression function leaves ``self.pos`` after the expression; the caller knows the span
(start of the first token, end of the last consumed token) and records it against the container
and key where it stores the value (``record[(id(container), key)]``). After parsing, one walk over
the tree turns that record into path-keyed spans (see :mod:`.spans`).
"""

from __future__ import annotations

from typing import Any

from ...errors import JSONPath
from .jsnumber import js_number_to_string
from .keywords import LITERAL_WORDS, RESERVED, keyword_hint
from .lexer import LINE_TERMINATORS, LexError, Token, cook, number_value
from .spans import LineIndex, SpanRecord

__all__ = ["Parser", "ParseFailure", "Problem", "op_hint"]

Problem = tuple[str, int, str | None]  # message, offset, hint

_OPEN = frozenset(["(", "[", "{", "tplh"])
_CLOSE = frozenset([")", "]", "}", "tplt"])
_DECLARATORS = frozenset(["const", "let", "var"])
_POSTFIX = frozenset([".", "[", "("])
_MAX_PROBLEMS = 20

_OP_HINTS = {
    "=>": "Plan has no functions (arrow functions); call the functions the runtime provides",
    "...": "Plan has no spread syntax (...); write the elements or arguments out",
    "?.": "Plan has no optional chaining (?.); use `.`",
    "=": "aliases are declared one per statement: `name = expr;`",
    "?": "Plan has no conditional operator (?:); it only composes function calls",
}
_COMPARISONS = frozenset(["==", "===", "!=", "!==", "<", ">", "<=", ">="])
_LOGICAL = frozenset(["&&", "||", "??", "!"])


def op_hint(op: str) -> str:
    """The hint for a JavaScript operator, which Plan does not have."""
    if op in _OP_HINTS:
        return _OP_HINTS[op]
    if op in _COMPARISONS:
        return "Plan has no comparisons; call a function that compares"
    if op in _LOGICAL:
        return "Plan has no logical operators; call a function that decides"
    return f"Plan has no operators like {op}; to join text use a template literal `${{a}}${{b}}`"


class ParseFailure(Exception):
    """A syntax problem at ``offset``; ``fatal`` stops parsing (no resynchronization)."""

    def __init__(self, message: str, offset: int, hint: str | None, fatal: bool = False) -> None:
        super().__init__(message)
        self.problem: Problem = (message, offset, hint)
        self.fatal = fatal


def describe(tok: Token) -> str:
    kind = tok[0]
    if kind == "name":
        return f"`{tok[1]}`"
    if kind == "num":
        return f"the number {tok[1]}"
    if kind == "str":
        return "a string"
    if kind in ("tpl", "tplh"):
        return "a template literal"
    if kind in ("tplm", "tplt"):
        return "`}`"
    if kind == "eof":
        return "the end of the program"
    if kind == "err":
        return "an invalid token"
    return f"`{tok[1]}`"


class Parser:
    """Parses one token list; see :func:`parse_program` and :func:`parse_expression`."""

    def __init__(
        self,
        source: str,
        tokens: list[Token],
        index: LineIndex,
        *,
        strict: bool,
        max_depth: int,
        record: bool = True,
    ) -> None:
        self.source = source
        self.toks = tokens
        self.index = index
        self.strict = strict
        self.max_depth = max_depth
        self.pos = 0
        self.rec: SpanRecord | None = {} if record else None
        self.extra: dict[JSONPath, tuple[int, int]] = {}
        self.keep: list[Any] = []  # containers dropped while parsing: their ids stay unique
        self.problems: list[Problem] = []
        self.warnings: list[str] = []

    # -- helpers -------------------------------------------------------------------------------

    def fail(self, message: str, offset: int, hint: str | None = None) -> ParseFailure:
        return ParseFailure(message, offset, hint)

    def warn(self, offset: int, message: str) -> None:
        self.warnings.append(f"{self.index.where(offset)}: {message}")

    def unexpected(self, tok: Token, expected: str) -> ParseFailure:
        kind = tok[0]
        if kind == "err":
            message, hint = tok[1]
            return self.fail(message, tok[2], hint)
        if kind == "=" and self.pos > 0 and self.toks[self.pos - 1][0] == "name" and (
            self.newline_before(self.pos - 1)
        ):
            name = self.toks[self.pos - 1]
            return self.fail(
                f"expected {expected}, found the start of a new statement `{name[1]} = ...`",
                name[2], "the statement before this line is unfinished: check for a missing "
                "`)`, `]`, `}` or `;`",
            )
        if kind in ("op", "+", "-", "="):
            return self.fail(f"Plan has no operator `{tok[1]}` (expected {expected})", tok[2],
                             op_hint(tok[1]))
        if kind == "name" and tok[1] in RESERVED:
            return self.fail(
                f"expected {expected}, found the keyword `{tok[1]}`", tok[2], keyword_hint(tok[1])
            )
        hint = None
        if kind == ",":
            hint = "remove the extra comma"
        elif kind == ")" or kind == "]" or kind == "}":
            prev = self.toks[self.pos - 1] if self.pos else None
            if prev is not None and prev[0] == ",":
                hint = "remove the extra comma"
            else:
                hint = "check that brackets are balanced"
        elif kind in ("name", "str", "num", "tpl", "tplh"):
            hint = "separate arguments and elements with `,` and end statements with `;`"
        elif kind == "eof":
            hint = "the program ended early: check that brackets, quotes and templates are closed"
        return self.fail(f"expected {expected}, found {describe(tok)}", tok[2], hint)

    def string(self, tok: Token) -> str:
        try:
            return cook(tok[1][1:-1], False)
        except LexError as e:
            raise self.fail(e.message, tok[2] + 1 + e.offset, e.hint)

    def number(self, tok: Token) -> int | float:
        try:
            return number_value(tok[1])
        except LexError as e:
            raise self.fail(e.message, tok[2] + e.offset, e.hint)

    def newline_before(self, i: int) -> bool:
        """Whether a line break separates token ``i`` from the token before it."""
        if i == 0:
            return False
        found = LINE_TERMINATORS.search(self.source, self.toks[i - 1][3], self.toks[i][2])
        return found is not None

    # -- expressions ---------------------------------------------------------------------------

    def expr(self, depth: int) -> Any:
        if depth > self.max_depth:
            tok = self.toks[self.pos]
            raise ParseFailure(
                f"the program is nested more than {self.max_depth} levels deep", tok[2],
                "bind inner parts to aliases (`part = f(x);`) to flatten it", fatal=True
            )
        toks = self.toks
        tok = toks[self.pos]
        kind = tok[0]
        start = tok[2]
        self.pos += 1
        callee: str | None = None
        node: Any
        if kind == "name":
            word = tok[1]
            if word in LITERAL_WORDS:
                node = {"$undefined": None} if word == "undefined" else (
                    True if word == "true" else False if word == "false" else None
                )
                callee = word  # only to say that it is not a function
            elif word in RESERVED:
                self.pos -= 1
                raise self.fail(
                    f"Plan has no `{word}`" if word not in _DECLARATORS
                    else f"`{word}` can only start an alias definition",
                    start, keyword_hint(word),
                )
            else:
                node = {"$ref": word}
                callee = word
        elif kind == "str":
            raw = tok[1]
            node = raw[1:-1] if "\\" not in raw else self.string(tok)
        elif kind == "num":
            raw = tok[1]
            if raw.isdigit() and len(raw) < 16 and (raw[0] != "0" or len(raw) == 1):
                node = int(raw)
            else:
                node = self.number(tok)
        elif kind == "tpl":
            node = tok[1]
        elif kind == "[":
            node = self.array(depth)
        elif kind == "{":
            node = self.obj(depth)
        elif kind == "tplh":
            node = self.template(tok, depth)
        elif kind == "-" or kind == "+":
            num = toks[self.pos]
            if num[0] != "num":
                self.pos -= 1
                raise self.fail(
                    f"Plan has no operator `{kind}`", start,
                    "a sign is only allowed directly before a number, as in -3; "
                    "Plan has no arithmetic",
                )
            self.pos += 1
            node = self.number(num)
            if kind == "-":
                node = -node
            nxt = toks[self.pos][0]
            if nxt == "." or nxt == "[" or nxt == "(":
                raise self.fail(
                    "a signed number cannot be followed by `.`, `[` or `(`", toks[self.pos][2],
                    f"wrap it in parentheses: ({self.source[start:num[3]]})",
                )
            return node
        elif kind == "(":
            node = self.expr(depth + 1)
            if toks[self.pos][0] != ")":
                raise self.unexpected(toks[self.pos], "`)`")
            self.pos += 1
        elif kind == "err":
            self.pos -= 1
            message, hint = tok[1]
            raise self.fail(message, start, hint)
        else:
            self.pos -= 1
            raise self.unexpected(tok, "an expression")
        # postfix: member access, index, call
        if toks[self.pos][0] not in _POSTFIX:
            return node
        keys: list[Any] | None = None  # the list of the `$get` being extended
        method_end = -1  # end of the target before the last `.name` (for a method call)
        last_end = toks[self.pos - 1][3]
        rec = self.rec
        while True:
            tok = toks[self.pos]
            kind = tok[0]
            if kind == ".":
                name = toks[self.pos + 1]
                if name[0] != "name":
                    raise self.unexpected(name, "a property name after `.`")
                if keys is None:
                    keys = self.start_get(node, start, last_end)
                    node = {"$get": keys} if keys[0] is node else node
                method_end = last_end
                if rec is not None:
                    rec[(id(keys), len(keys))] = (name[2], name[3])
                keys.append(name[1])
                self.pos += 2
                callee = None
            elif kind == "[":
                self.pos += 1
                if keys is None:
                    keys = self.start_get(node, start, last_end)
                    node = {"$get": keys} if keys[0] is node else node
                key_start = toks[self.pos][2]
                key = self.expr(depth + 1)
                if rec is not None:
                    rec[(id(keys), len(keys))] = (key_start, toks[self.pos - 1][3])
                keys.append(key)
                if toks[self.pos][0] != "]":
                    raise self.unexpected(toks[self.pos], "`]`")
                self.pos += 1
                method_end = -1
                callee = None
            elif kind == "(":
                if callee is not None:
                    if callee in LITERAL_WORDS:
                        raise self.fail(f"`{callee}` is not a function", start)
                    args: list[Any] = []
                    fn = callee
                elif method_end >= 0 and keys is not None:
                    fn = keys.pop()
                    args = []
                    if len(keys) == 1:
                        receiver = keys[0]
                        if rec is not None:
                            rec[(id(args), 0)] = rec[(id(keys), 0)]
                        self.keep.append(keys)
                    else:
                        receiver = node
                        if rec is not None:
                            rec[(id(args), 0)] = (start, method_end)
                    args.append(receiver)
                else:
                    raise self.fail(
                        "only a function name or a method can be called", tok[2],
                        "functions are not values in Plan: call a function by its name, "
                        "`f(x)`, or as a method, `x.f()`",
                    )
                if fn[:1] == "$":
                    raise self.fail(
                        f"a function name cannot start with `$` (`{fn}`)", tok[2],
                        "in the call tree, keys starting with `$` are core forms such as $ref",
                    )
                self.pos += 1
                self.arguments(args, depth)
                node = {fn: args}
                keys = None
                callee = None
                method_end = -1
            else:
                return node
            last_end = toks[self.pos - 1][3]

    def start_get(self, node: Any, start: int, end: int) -> list[Any]:
        """The key list to extend: that of ``node`` if it is a ``$get`` (``(a.b).c``)."""
        if type(node) is dict and "$get" in node:
            keys: list[Any] = node["$get"]
            return keys
        keys = [node]
        rec = self.rec
        if rec is not None:
            rec[(id(keys), 0)] = (start, end)
        return keys

    def arguments(self, args: list[Any], depth: int) -> None:
        """Parse ``a, b)`` (after the ``(``) into ``args``."""
        toks = self.toks
        rec = self.rec
        depth += 1
        while True:
            tok = toks[self.pos]
            if tok[0] == ")":
                self.pos += 1
                return
            start = tok[2]
            value = self.expr(depth)
            if rec is not None:
                rec[(id(args), len(args))] = (start, toks[self.pos - 1][3])
            args.append(value)
            tok = toks[self.pos]
            if tok[0] == ",":
                self.pos += 1
            elif tok[0] != ")":
                raise self.unexpected(tok, "`,` or `)` in the argument list")

    def array(self, depth: int) -> list[Any]:
        toks = self.toks
        rec = self.rec
        items: list[Any] = []
        depth += 1
        while True:
            tok = toks[self.pos]
            kind = tok[0]
            if kind == "]":
                self.pos += 1
                return items
            if kind == ",":
                raise self.fail("empty array element", tok[2],
                                "write null for a missing value, or remove the extra comma")
            start = tok[2]
            value = self.expr(depth)
            if rec is not None:
                rec[(id(items), len(items))] = (start, toks[self.pos - 1][3])
            items.append(value)
            tok = toks[self.pos]
            if tok[0] == ",":
                self.pos += 1
            elif tok[0] != "]":
                raise self.unexpected(tok, "`,` or `]` in the array")

    def obj(self, depth: int) -> Any:
        toks = self.toks
        rec = self.rec
        out: dict[str, Any] = {}
        first_seen: dict[str, int] = {}
        dollar = False
        depth += 1
        while True:
            tok = toks[self.pos]
            kind = tok[0]
            if kind == "}":
                self.pos += 1
                break
            if kind == "name":
                key = tok[1]
            elif kind == "str":
                key = self.string(tok)
            elif kind == "num":
                key = js_number_to_string(self.number(tok))
            elif kind == "[":
                raise self.fail("computed keys ([expr]: value) are not supported", tok[2],
                                "write the key literally: {key: value} or {'some key': value}")
            elif kind == "op" and tok[1] == "...":
                raise self.fail("Plan has no spread syntax (...)", tok[2],
                                "write each key: {a: x.a, b: x.b}")
            else:
                raise self.unexpected(tok, "a property name or `}`")
            if key in first_seen:
                raise self.fail(
                    f"duplicate key `{key}` in the object literal (first at "
                    f"{self.index.where(first_seen[key])})", tok[2],
                    "each key may appear only once",
                )
            first_seen[key] = tok[2]
            if key[:1] == "$":
                dollar = True
            self.pos += 1
            nxt = toks[self.pos]
            if nxt[0] == ":":
                self.pos += 1
                start = toks[self.pos][2]
                value = self.expr(depth)
                if rec is not None:
                    rec[(id(out), key)] = (start, toks[self.pos - 1][3])
            elif kind == "name" and (nxt[0] == "," or nxt[0] == "}"):
                if key in RESERVED or key == "this":
                    raise self.fail(f"`{key}` cannot be a shorthand property", tok[2],
                                    f"write it in full: {{{key}: value}}")
                value = {"$undefined": None} if key == "undefined" else {"$ref": key}
                if rec is not None:
                    rec[(id(out), key)] = (tok[2], tok[3])
            elif nxt[0] == "(":
                raise self.fail("Plan has no methods in object literals", nxt[2],
                                "write key: value pairs")
            elif nxt[0] == "=":
                raise self.fail("expected `:` after the property name, found `=`", nxt[2],
                                "object literals are written {key: value}")
            else:
                raise self.unexpected(nxt, "`:` after the property name")
            out[key] = value
            tok = toks[self.pos]
            if tok[0] == ",":
                self.pos += 1
            elif tok[0] != "}":
                raise self.unexpected(tok, "`,` or `}` in the object literal")
        if len(out) == 1 or dollar:
            return {"$object": out}
        return out

    def template(self, head: Token, depth: int) -> Any:
        """A template with substitutions; string literals inside ``${}`` merge into the text."""
        toks = self.toks
        rec = self.rec
        parts: list[Any] = []
        text: str = head[1]
        text_start: int | None = head[2] + 1
        text_end = head[3] - 2
        depth += 1
        while True:
            tok = toks[self.pos]
            if tok[0] == "tplm" or tok[0] == "tplt":
                raise self.fail("empty substitution ${}", tok[2], "put an expression in ${...}")
            start = tok[2]
            value = self.expr(depth)
            end = toks[self.pos - 1][3]
            if type(value) is str:
                if text_start is None:
                    text_start = start
                text += value
                text_end = end
            else:
                if text:
                    if rec is not None:
                        rec[(id(parts), len(parts))] = (text_start or 0, text_end)
                    parts.append(text)
                if rec is not None:
                    rec[(id(parts), len(parts))] = (start, end)
                parts.append(value)
                text = ""
                text_start = None
            tok = toks[self.pos]
            kind = tok[0]
            if kind != "tplm" and kind != "tplt":
                raise self.unexpected(tok, "`}` to close the ${ substitution")
            self.pos += 1
            if text_start is None:
                text_start = tok[2] + 1
            text += tok[1]
            text_end = tok[3] - (1 if kind == "tplt" else 2)
            if kind == "tplt":
                break
        if text:
            if rec is not None:
                rec[(id(parts), len(parts))] = (text_start or 0, text_end)
            parts.append(text)
        if not parts:
            return ""
        if len(parts) == 1 and type(parts[0]) is str:
            return parts[0]
        return {"$template": parts}

    # -- statements ----------------------------------------------------------------------------

    def end_statement(self, what: str) -> None:
        """Consume the `;` ending a statement (lenient: insert it at a line end or the end)."""
        tok = self.toks[self.pos]
        if tok[0] == ";":
            self.pos += 1
            return
        if not self.strict and (tok[0] == "eof" or self.newline_before(self.pos)):
            end = self.toks[self.pos - 1][3]
            self.warn(end, f"added the missing `;` after the {what}")
            return
        if tok[0] == "eof" or self.newline_before(self.pos):
            end = self.toks[self.pos - 1][3]
            raise self.fail(f"missing `;` after the {what}", end,
                            "end each statement with `;`")
        raise self.unexpected(tok, f"`;` after the {what}")

    def at_end(self) -> bool:
        """Whether only empty statements remain."""
        i = self.pos
        toks = self.toks
        while toks[i][0] == ";":
            i += 1
        return toks[i][0] == "eof"

    def resync(self, first: int, failed: int) -> None:
        """Skip the rest of the statement that started at token ``first`` (error at ``failed``):
        to just after a `;` outside brackets, or to a line that starts a new statement."""
        toks = self.toks
        depth = 0
        i = first
        while True:
            tok = toks[i]
            kind = tok[0]
            if kind == "eof":
                break
            if i > first and self.newline_before(i) and self.starts_statement(i):
                break
            if i >= failed and kind == ";" and depth <= 0:
                i += 1
                break
            if kind in _OPEN:
                depth += 1
            elif kind in _CLOSE:
                depth -= 1
            i += 1
        self.pos = max(i, first + 1) if toks[first][0] != "eof" else first

    def starts_statement(self, i: int) -> bool:
        tok = self.toks[i]
        if tok[0] != "name":
            return False
        if tok[1] in ("return", "use", "const", "let", "var"):
            return True
        return self.toks[i + 1][0] == "="

    def program(self) -> Any:
        toks = self.toks
        aliases: dict[str, Any] = {}
        alias_at: dict[str, int] = {}
        alias_rec: list[tuple[str, int, int]] = []
        final: tuple[str, Any, int, int] | None = None
        after_final_reported = False
        first_alias = last_alias = -1
        while True:
            tok = toks[self.pos]
            kind = tok[0]
            if kind == "eof":
                break
            if kind == ";":
                self.pos += 1
                continue
            first = self.pos
            try:
                if final is not None and not after_final_reported:
                    after_final_reported = True
                    self.problems.append((
                        f"statements after `{final[0][1:]}` are not allowed", tok[2],
                        f"`{final[0][1:]} expr;` must be the last statement; move alias "
                        "definitions before it",
                    ))
                word = tok[1] if kind == "name" else None
                if word in _DECLARATORS and toks[self.pos + 1][0] == "name":
                    if self.strict:
                        self.problems.append((
                            f"`{word}` is not used in Plan", tok[2],
                            "declare aliases as `name = expr;`",
                        ))
                    else:
                        self.warn(tok[2], f"removed `{word}`: aliases are declared as "
                                          "`name = expr;`")
                    self.pos += 1
                    tok = toks[self.pos]
                    word = tok[1]
                    if toks[self.pos + 1][0] != "=":
                        raise self.unexpected(toks[self.pos + 1], f"`=` after `{word}`")
                if word == "return" or (word == "use" and toks[self.pos + 1][0] != "="):
                    assert word is not None
                    self.pos += 1
                    if self.newline_before(self.pos) and toks[self.pos][0] != ";":
                        if self.strict:
                            raise self.fail(
                                f"the value must start on the same line as `{word}`",
                                toks[self.pos][2],
                                f"JavaScript ends the statement at the line break; write "
                                f"`{word} expr;` on one line",
                            )
                        self.warn(toks[self.pos][2],
                                  f"joined the value on the next line to `{word}`")
                    start = toks[self.pos][2]
                    value = self.expr(0)
                    end = toks[self.pos - 1][3]
                    self.end_statement(f"`{word}` statement")
                    if final is None:
                        final = ("$" + word, value, start, end)
                elif word is not None and toks[self.pos + 1][0] == "=":
                    if word in RESERVED or word in ("this", "undefined"):
                        raise self.fail(
                            f"`{word}` cannot be an alias name", tok[2],
                            "choose another name" if word not in RESERVED
                            else keyword_hint(word),
                        )
                    self.pos += 2
                    start = toks[self.pos][2]
                    value = self.expr(0)
                    end = toks[self.pos - 1][3]
                    self.end_statement(f"definition of `{word}`")
                    if word in alias_at:
                        self.problems.append((
                            f"the alias `{word}` is defined twice ("
                            f"{self.index.where(alias_at[word])} and {self.index.where(tok[2])})",
                            tok[2],
                            "give each alias its own name; aliases are not variables and "
                            "cannot be reassigned",
                        ))
                        continue
                    aliases[word] = value
                    alias_at[word] = tok[2]
                    alias_rec.append((word, start, end))
                    self.extra[("$let", word, "$name")] = (tok[2], tok[3])
                    if first_alias < 0:
                        first_alias = tok[2]
                    last_alias = toks[self.pos - 1][3]
                else:
                    start = tok[2]
                    value = self.expr(0)
                    end = toks[self.pos - 1][3]
                    self.end_statement("expression")
                    if not self.at_end():
                        self.problems.append((
                            "the value of this expression is not used", start,
                            "bind it to an alias (`name = expr;`) or make it the final "
                            "`return expr;`",
                        ))
                    elif self.strict:
                        self.problems.append((
                            "missing `return` before the final expression", start,
                            "write `return expr;`",
                        ))
                    elif final is None:
                        self.warn(start, "added `return` before the final expression")
                        final = ("$return", value, start, end)
            except ParseFailure as failure:
                self.problems.append(failure.problem)
                if failure.fatal or len(self.problems) >= _MAX_PROBLEMS:
                    break
                self.resync(first, self.pos)
        if final is None and not self.problems:
            end = toks[-1][2]
            self.problems.append((
                "the program has no `return` statement", end,
                "end the program with `return expr;` (or `use expr;`)",
            ))
        if self.problems:
            return None
        assert final is not None
        rec = self.rec
        tree: dict[str, Any] = {}
        if aliases:
            tree["$let"] = aliases
            if rec is not None:
                rec[(id(tree), "$let")] = (first_alias, last_alias)
            for name, start, end in alias_rec:
                if rec is not None:
                    rec[(id(aliases), name)] = (start, end)
        tree[final[0]] = final[1]
        if rec is not None:
            rec[(id(tree), final[0])] = (final[2], final[3])
        return tree
