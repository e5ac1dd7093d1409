"""``xs.sort(c);`` (``reverse()``) as a statement on an array no one else holds though the
program did not name it: a loop's item taken from an array literal, and a function's parameter
when every call passes an array literal (SPEC 10, "Changes outside loops")::

    for (const g of [[3, 1], [2, 0]]) { g.sort((a, b) => a - b); out.push(g[0]); }
    const first = (xs) => { xs.sort(); return xs[0]; };  return first([3, 1, 2]);

JavaScript reorders the array itself; here nothing but the item's (the parameter's) name
reaches that array (an array literal's items are held by the literal alone, and the literal by
the loop; a literal argument by the call alone), so reordering a copy gives the same answer.
Read before parsing, on the tokens:

- ``for (const g of [[...], ...]) { g.sort(c); BODY }`` (each item an array literal), the
  sort the body's first statement, is
  ``for (const _g1 of [...]) { const g = _g1.toSorted(c); BODY }`` (``toReversed()``), when
  the body does not assign ``g`` and the comparator does not read it;
- a function whose body (a block) holds the statement ``p.sort(c);`` for its parameter ``p``
  (a plain parameter list) takes ``_p1`` and starts ``let p = _p1.slice();``, so the statement
  reorders a version of the program's own (:mod:`.reorder`), when the function's name is used
  only to call it with an array literal or a tool's reply in ``p``'s place (``f([3, 1, 2])``,
  ``f(await get(id))``), ``p`` is not
  declared again in the body and the function is declared once.

Anything else is left as written: the resolver refuses the sort where the program reads the
array elsewhere (the caller's array: "reorders `xs` itself in JavaScript")."""

from __future__ import annotations

from collections.abc import Sequence

from dialectic.frontends.plan.lexer import Lexed
from dialectic.frontends.plan.parensets import name_index
from dialectic.frontends.plan.sortreturns import declared_tokens
from dialectic.frontends.plan.tokenscan import OPEN, enclosing, partners, starts_statement
from dialectic.frontends.plan.tokenwrite import TokenWriter

__all__ = ["owned_sorts"]

_COPY = {"sort": "toSorted", "reverse": "toReversed"}
_DECLARE = frozenset(["const", "let", "var"])
#: words that start no tool's call
_WORDS = frozenset(["await", "new", "typeof", "function", "async", "require", "import"])
_COMPARE = frozenset(["==", "===", "!=", "!==", "<=", ">=", "=>"])


class _Scan:
    """The program's tokens and what the passes share."""

    def __init__(self, tokens: Lexed) -> None:
        self.kinds, self.values = tokens.kinds, tokens.values
        self.partner = partners(self.kinds)
        self.encl = enclosing(self.kinds)
        self.index = name_index(self.kinds, self.values)
        self.taken = {str(v) for k, v in zip(self.kinds, self.values, strict=True) if k == "name"}
        self.n = 0
        self._defined: set[object] | None = None
        self.tried: set[int] = set()

    def fresh(self, stem: str) -> str:
        while True:
            self.n += 1
            name = f"_{stem}{self.n}"
            if name not in self.taken:
                self.taken.add(name)
                return name

    def defined(self) -> set[object]:
        """The names the program declares (a tool's name is none of them)."""
        if self._defined is None:
            kinds, values = self.kinds, self.values
            self._defined = {values[j] for j in declared_tokens(kinds, values)}
        return self._defined

    def reads_in(self, name: object, first: int, end: int) -> bool:
        kinds, values = self.kinds, self.values
        return any(
            kinds[j] == "name" and values[j] == name and kinds[j - 1] != "."
            for j in range(first, end)
        )


def owned_sorts(source: str, tokens: Lexed) -> Lexed | None:
    """``tokens`` with those statements written so (None: there is none)."""
    scan = _Scan(tokens)
    kinds, values = scan.kinds, scan.values
    edits: dict[int, tuple[int, list[tuple[str, object] | int]]] = {}  # at -> (end, tokens)
    for i in range(len(kinds) - 3):
        if not (
            kinds[i] == "name"
            and kinds[i + 1] == "."
            and values[i + 2] in _COPY
            and kinds[i + 3] == "("
            and (i == 0 or kinds[i - 1] != ".")
            and starts_statement(kinds, values, scan.partner, i)
        ):
            continue
        close = scan.partner.get(i + 3, -1)
        if (
            close < 0
            or kinds[close + 1] not in (";", "}")
            or scan.reads_in(values[i], i + 4, close)
        ):
            continue
        _loop_item(scan, i, close, edits) or _parameter(scan, i, edits)
    if not edits:
        return None
    out = TokenWriter(tokens)
    done = 0
    for at in sorted(edits):
        end, new = edits[at]
        if at < done:
            continue
        out.copy(done, at)
        for item in new:
            if type(item) is int:
                out.copy(item, item + 1)
            else:
                assert type(item) is tuple
                out.put(item[0], item[1], at)
        done = end
    out.copy(done, len(kinds))
    return out.lexed(source)


def _loop_item(
    scan: _Scan, i: int, close: int, edits: dict[int, tuple[int, list[tuple[str, object] | int]]]
) -> bool:
    """``for (const N of [...]) { N.sort(c); ...`` with the sort at token ``i``."""
    kinds, values, partner = scan.kinds, scan.values, scan.partner
    body = i - 1
    if kinds[body] != "{" or kinds[body - 1] != ")":
        return False
    head = partner.get(body - 1, -1)
    name = values[i]
    if not (
        head > 0
        and values[head - 1] == "for"
        and values[head + 1] in ("const", "let")
        and values[head + 2] == name
        and values[head + 3] == "of"
        and kinds[head + 4] == "["
        and partner.get(head + 4) == body - 2
    ):
        return False
    end = partner.get(body, -1)
    if end < 0 or _assigned(kinds, values, name, close, end):
        return False
    if not _literal_items(kinds, partner, head + 4):
        return False
    hidden = scan.fresh(str(name))
    edits[head + 2] = (head + 3, [("name", hidden)])
    method = _COPY[str(values[i + 2])]
    decl = values[head + 1]
    new: list[tuple[str, object] | int] = [("name", decl), i, ("=", "="), ("name", hidden)]
    new += [(".", "."), ("name", method), *range(i + 3, close + 1)]
    edits[i] = (close + 1, new)
    return True


def _literal_items(kinds: Sequence[str], partner: dict[int, int], opened: int) -> bool:
    """Whether each item of the array literal opening at ``opened`` is an array literal (a
    name or a spread there is an array another name holds: JavaScript reorders it)."""
    close = partner.get(opened, -1)
    k = opened + 1
    while k < close:
        if kinds[k] != "[":
            return False
        k = partner.get(k, close) + 1
        if kinds[k] == ",":
            k += 1
        elif k != close:
            return False
    return close > 0


def _assigned(kinds: Sequence[str], values: Sequence[object], name: object, a: int, b: int) -> bool:
    """Whether a token from ``a`` to ``b`` assigns ``name`` (``name =``, ``name += ...``)."""
    for j in range(a, b):
        if kinds[j] == "name" and values[j] == name and kinds[j - 1] != ".":
            after, op = kinds[j + 1], values[j + 1]
            if after == "=" or (after == "op" and str(op).endswith("=") and op not in _COMPARE):
                return True
            if after == "op" and values[j + 1] in ("++", "--"):
                return True
    return False


def _parameter(
    scan: _Scan, i: int, edits: dict[int, tuple[int, list[tuple[str, object] | int]]]
) -> bool:
    """A function's parameter ``N`` sorted at token ``i``, a statement of the body."""
    kinds, values, partner = scan.kinds, scan.values, scan.partner
    body = scan.encl[i]
    if body < 1 or kinds[body] != "{" or body in scan.tried:
        return False
    scan.tried.add(body)  # (each body is looked at once: linear in the tokens)
    params_close = body - 2 if values[body - 1] == "=>" else body - 1
    if kinds[params_close] != ")":
        return False
    opened = partner.get(params_close, -1)
    params = list(range(opened + 1, params_close, 2))
    if opened < 0 or not all(kinds[p] == "name" for p in params):
        return False
    if not all(kinds[p + 1] in (",", ")") for p in params):
        return False
    name = values[i]
    at = next((k for k, p in enumerate(params) if values[p] == name), -1)
    fn = _function_name(kinds, values, opened, body)
    if at < 0 or fn is None:
        return False
    end = partner.get(body, -1)
    if end < 0 or _declares(scan, name, body, end):
        return False
    if not _called_with_literals(scan, fn, at, opened):
        return False
    hidden = scan.fresh(str(name))
    edits[params[at]] = (params[at] + 1, [("name", hidden)])
    new: list[tuple[str, object] | int] = [body, ("name", "let"), ("name", name), ("=", "=")]
    new += [("name", hidden), (".", "."), ("name", "slice"), ("(", "("), (")", ")"), (";", ";")]
    edits[body] = (body + 1, new)
    return True


def _function_name(
    kinds: Sequence[str], values: Sequence[object], opened: int, body: int
) -> tuple[str, int] | None:
    """The name of the function whose parameters open at ``opened`` and its declaring token:
    ``function NAME(``, ``const NAME = (...) => {``, ``const NAME = async (...) => {``."""
    if values[body - 1] != "=>":
        if kinds[opened - 1] == "name" and values[opened - 2] == "function":
            return str(values[opened - 1]), opened - 1
        return None
    start = opened - 1 if values[opened - 1] == "async" else opened
    if kinds[start - 1] == "=" and kinds[start - 2] == "name" and values[start - 3] in _DECLARE:
        return str(values[start - 2]), start - 2
    return None


def _declares(scan: _Scan, name: object, a: int, b: int) -> bool:
    """Whether tokens ``a`` to ``b`` declare ``name`` (a declaration, a function's or an
    arrow's parameter, a ``catch``'s name)."""
    kinds, values, partner = scan.kinds, scan.values, scan.partner
    for j in range(a + 1, b):
        if kinds[j] != "name" or values[j] != name or kinds[j - 1] == ".":
            continue
        if values[j - 1] in _DECLARE or values[j - 1] == "function":
            return True
        if kinds[j + 1] == "op" and values[j + 1] == "=>":
            return True
        group = scan.encl[j]
        if group > 0 and kinds[group] == "(":
            after = partner.get(group, -1) + 1
            if values[after] == "=>" or "function" in (values[group - 1], values[group - 2]):
                return True
            if values[group - 1] == "catch":
                return True
    return False


def _called_with_literals(scan: _Scan, fn: tuple[str, int], at: int, opened: int) -> bool:
    """Whether every use of the function ``fn`` (its name, its declaring token) but its
    declaration calls it with an array literal as argument ``at``."""
    kinds, values, partner = scan.kinds, scan.values, scan.partner
    name, declared = fn
    uses = [j for j in scan.index.get(name, ()) if j != declared]
    if not uses:
        return False
    for j in uses:
        if kinds[j - 1] in (".", "?.") or values[j - 1] in _DECLARE or values[j - 1] == "function":
            return False
        if kinds[j + 1] != "(":
            return False
        close = partner.get(j + 1, -1)
        arg, k = 0, j + 2
        while k < close and arg < at:
            if kinds[k] in OPEN:
                k = partner.get(k, close)
            elif kinds[k] == "op" and values[k] == "...":
                return False
            elif kinds[k] == ",":
                arg += 1
            k += 1
        if arg != at:
            return False
        after = _fresh_argument(scan, k, close)
        if after < 0 or kinds[after] not in (",", ")"):
            return False
    return opened > 0


def _fresh_argument(scan: _Scan, k: int, close: int) -> int:
    """The token after the argument at token ``k`` when it is a new array nothing else holds:
    an array literal, or the reply of a tool (``await get(...)``, a name the program does not
    define: a function's result is new data, SPEC 1.8); else -1."""
    kinds, values, partner = scan.kinds, scan.values, scan.partner
    if kinds[k] == "[":
        return partner.get(k, close) + 1
    call = k + 1 if values[k] == "await" else k
    name = values[call]
    if kinds[call] != "name" or kinds[call + 1] != "(" or not str(name)[:1].islower():
        return -1
    if name in scan.defined() or name in _WORDS:
        return -1
    return partner.get(call + 1, close) + 1
