"""A handler's error read as text (SPEC 10, the `try` bullet): `` `failed: ${e}` ``,
``String(e)``, ``'x: ' + e``, ``e.toString()`` and ``e instanceof Error`` in a ``catch``
block, a ``p.catch(e => ...)`` or a ``p.then(f, e => ...)``.

The error a handler holds is what the program threw (``new Error(m)`` and its kin make
``{name, message}``; a text stays a text) or, for a failing call, ``{name: "Error",
message}``: no JavaScript ``Error``, so each read is written as what JavaScript's
``Error.prototype.toString`` gives, ``name`` when the message is empty, else ``name + ': ' +
message`` (a text: itself). That is Node's answer only when every value the program throws is
an ``Error`` made in place or a text: :func:`plain_throw` finds a ``throw`` of anything else
(``throw {code: 1}``, ``throw x``), and the parser then refuses the read. Any other read of
the error (``JSON.stringify(e)``, which is ``{}`` in Node, ``{error: e}``, ``e.stack``) is
refused at the handler (:func:`error_as_text` gives what it found).
"""

from __future__ import annotations

from typing import Any

from dialectic.values.jsrelations import ERROR_CLASSES

__all__ = [
    "ERRORS",
    "as_text",
    "error_as_text",
    "plain_throw",
    "read_as_text",
    "reason_problem",
    "reasons_as_text",
    "refusal",
    "thrown_problem",
]

#: what `new Error(message)` makes, by name
ERRORS = frozenset(
    ["Error", "TypeError", "RangeError", "SyntaxError", "ReferenceError", "AggregateError"]
)
#: the members of an error a handler may read
_MEMBERS = frozenset(["message", "name"])


def as_text(name: str) -> Any:
    """The tree of ``String(name)`` for the error ``name`` (JavaScript's
    ``Error.prototype.toString``; a thrown text is itself)."""
    return text_of({"$ref": name})


def text_of(ref: Any) -> Any:
    """:func:`as_text` of the error ``ref`` computes (a name, a rejected entry's
    ``r.reason``)."""
    text = {"$op": ["===", {"$op": ["typeof", ref]}, "string"]}
    member = {"$get": [ref, "message"]}
    called = {"$get": [ref, "name"]}
    joined = {"$op": ["+", {"$op": ["+", called, ": "]}, member]}
    return {"$if": [text, ref, {"$if": [{"$op": ["===", member, ""]}, called, joined]}]}


def error_as_text(body: Any, name: str) -> tuple[Any, str | None, bool]:
    """``body`` with each read of the error ``name`` as text written as :func:`as_text`, what
    else reads it (``"stack"``, ``"value"``: the error itself, as a value) or None, and
    whether it wrote a read as text.
    ``name.message``, ``name.name``, ``throw name`` and a ``console`` statement's arguments
    read it as before. A function inside that binds ``name`` again is left as it is, as a
    read (no answer is lost but a clear refusal)."""
    ref = {"$ref": name}
    holder: list[Any] = [body]
    stack: list[tuple[Any, Any]] = [(holder, 0)]
    found: str | None = None
    wrote = False
    # (`typeof e` is JavaScript's: 'object' for an error, 'string' for a thrown text)
    written, typed = as_text(name), {"$op": ["typeof", ref]}
    while stack:
        parent, key = stack.pop()
        node = parent[key]
        if type(node) is list:
            stack.extend((node, k) for k in range(len(node)))
            continue
        if type(node) is not dict:
            continue
        if node == ref:
            found = found or "value"
            continue
        if node in (written, typed):  # (a decompiled program's text, `typeof e`)
            wrote = True
            continue
        if len(node) == 1:
            form, args = next(iter(node.items()))
            text = _text_read(form, args, ref)
            if text is not None:
                parent[key] = text(name)
                wrote = True
                continue
            if form in ("$get", "$get?") and type(args) is list and args[:1] == [ref]:
                if len(args) >= 2 and args[1] in _MEMBERS:
                    stack.extend((args, k) for k in range(2, len(args)))
                else:
                    found = found or ("stack" if args[1:2] == ["stack"] else "value")
                continue
            if form == "$throw" and args == ref:
                continue
            if form == "$template" and type(args) is list:
                for k, part in enumerate(args):
                    if part == ref:
                        args[k] = as_text(name)
                        wrote = True
                    else:
                        stack.append((args, k))
                continue
            if form == "$op" and type(args) is list and len(args) == 3 and args[0] == "+":
                for k in (1, 2):
                    if args[k] == ref:  # (`'x: ' + e`: the error as text, as JavaScript)
                        args[k] = as_text(name)
                        wrote = True
                    else:
                        stack.append((args, k))
                continue
            if form == "$fn" and type(args) is list and len(args) == 2 and name in args[0]:
                if _reads(args[1], name):
                    found = found or "value"
                continue
        for k, v in node.items():
            if k == "$do" and type(v) is list:
                # (an array statement is a `console` statement's: shown, dropped)
                stack.extend((v, j) for j, item in enumerate(v) if type(item) is not list)
            else:
                stack.append((node, k))
    return holder[0], found, wrote


def _text_read(form: str, args: Any, ref: dict[str, str]) -> Any:
    """How a one-key node reads the error ``ref`` as text (a function of its name), or None."""
    if form == "$global" and type(args) is list and args == ["String", ref]:
        return as_text
    if form == "$method" and type(args) is list and args == [ref, "toString"]:
        return as_text
    if form == "$op" and type(args) is list and len(args) == 3 and args[:2] == ["instanceof", ref]:
        made = args[2]
        if type(made) is str and made in ERROR_CLASSES:
            return lambda n: is_instance({"$ref": n}, made)
    return None


def is_instance(ref: Any, made: str) -> Any:
    """The tree of ``ref instanceof made`` for the error ``ref`` and an error class: every
    error but a thrown text is an ``Error``; one of another class is the one named so
    (``new TypeError(m)``; a failing call's is an ``Error``, ``JSON.parse``'s a
    ``SyntaxError``)."""
    error = {"$op": ["!==", {"$op": ["typeof", ref]}, "string"]}
    if made == "Error":
        return error
    return {"$if": [error, {"$op": ["===", {"$get": [ref, "name"]}, made]}, False]}


def _reads(body: Any, name: str) -> bool:
    """Whether ``body`` holds ``{"$ref": name}`` anywhere."""
    stack = [body]
    while stack:
        node = stack.pop()
        if type(node) is list:
            stack.extend(node)
        elif type(node) is dict:
            if node.get("$ref") == name and len(node) == 1:
                return True
            stack.extend(node.values())
    return False


def plain_throw(tree: Any) -> bool:
    """Whether ``tree`` throws (``$throw``) anything but an ``Error`` made in place, a text,
    or a handler's error again (``throw e`` in its handler): the values :func:`as_text` reads
    as JavaScript does."""
    stack: list[tuple[Any, frozenset[str]]] = [(tree, frozenset())]
    while stack:
        node, caught = stack.pop()
        if type(node) is list:
            stack.extend((v, caught) for v in node)
            continue
        if type(node) is not dict:
            continue
        if len(node) == 1 and "$throw" in node:
            value = node["$throw"]
            if not _error_made(value, caught):
                return True
            stack.append((value, caught))
            continue
        parts = node.get("$try") if len(node) == 1 else None
        if type(parts) is list and len(parts) == 2:
            fn = parts[1].get("$fn") if type(parts[1]) is dict and len(parts[1]) == 1 else None
            stack.append((parts[0], caught))
            if type(fn) is list and len(fn) == 2 and type(fn[0]) is list:
                stack.append((fn[1], caught | {p for p in fn[0] if type(p) is str}))
            else:
                stack.append((parts[1], caught))
            continue
        fn = node.get("$fn") if len(node) == 1 else None
        if type(fn) is list and len(fn) == 2 and type(fn[0]) is list:
            stack.append((fn[1], caught - {p for p in fn[0] if type(p) is str}))
            continue
        stack.extend((v, caught) for v in node.values())
    return False


def _error_made(value: Any, caught: frozenset[str]) -> bool:
    if type(value) is str or (type(value) is dict and "$template" in value and len(value) == 1):
        return True
    if type(value) is dict and len(value) == 1 and value.get("$ref") in caught:
        return True
    # (`new Error(m)` is `{"$object": {name, message}}`; the object literal, a plain one)
    made = value.get("$object") if type(value) is dict and len(value) == 1 else None
    return type(made) is dict and set(made) == {"name", "message"} and made["name"] in ERRORS


def refusal(name: str, found: str) -> tuple[str, str]:
    """The message and hint for a read of the error ``name`` :func:`error_as_text` found."""
    if found == "stack":
        return (
            f"`{name}.stack`: a program has no stack trace",
            f"write `String({name})` (the error's name and message) or `{name}.message`",
        )
    return (
        f"`{name}` is the error: Plan reads it as `{name}.message`, `{name}.name` or as text "
        f"(`String({name})`, `${{{name}}}`)",
        f"write `String({name})` or `{name}.message` (`JSON.stringify({name})` is `{{}}` in "
        f"JavaScript, and `{{error: {name}}}` shows as `{{}}`)",
    )


def thrown_problem(offset: int) -> tuple[str, int, str]:
    """The problem of a program that reads an error as text (at ``offset``) and throws a
    value :func:`plain_throw` found."""
    return (
        "the handler reads the error as text, and the program throws a value that is neither "
        "an `Error` made where it is thrown nor a text: JavaScript's text of it is not one "
        "Plan can tell from an error's",
        offset,
        "throw errors made where they are thrown (`throw new Error('what went wrong')`), or "
        "read `e.message`",
    )


def read_as_text(tree: Any) -> bool:
    """Whether ``tree`` reads an error as text (:func:`as_text`'s test ``typeof e ===
    'string'``; also such a test written by hand: only a refusal more)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if type(node) is list:
            stack.extend(node)
        elif type(node) is dict:
            if _typeof_text(node):
                return True
            stack.extend(node.values())
    return False


def _typeof_text(test: Any) -> bool:
    op = test.get("$op") if type(test) is dict and len(test) == 1 else None
    if not (type(op) is list and len(op) == 3 and op[0] in ("===", "!==") and op[2] == "string"):
        return False
    inner = op[1].get("$op") if type(op[1]) is dict and len(op[1]) == 1 else None
    return type(inner) is list and len(inner) == 2 and inner[0] == "typeof"


def reason_problem(offset: int) -> tuple[str, int, str]:
    """The problem of a program that reads a rejected entry's ``reason`` other than as text,
    ``reason.message`` or ``reason.name`` (at ``offset``, its first read as text)."""
    return (
        "a rejected entry's `reason` is the error: Plan reads it as `reason.message`, "
        "`reason.name` or as text (`String(r.reason)`, `${r.reason}`)",
        offset,
        "write `String(r.reason)` or `r.reason.message` (the error is no JavaScript `Error` here)",
    )


def reasons_as_text(tree: Any) -> tuple[Any, bool]:
    """``tree`` with each read of a rejected entry's ``reason`` as text (``String(r.reason)``,
    `` `${r.reason}` ``, ``'x: ' + r.reason``, ``r.reason.toString()``, ``r.reason instanceof
    TypeError``) written as :func:`text_of` and :func:`is_instance`, and whether a ``reason``
    is read otherwise (whole: refused, it is no JavaScript ``Error``). One walk."""
    holder: list[Any] = [tree]
    stack: list[tuple[Any, Any]] = [(holder, 0)]
    other = False
    while stack:
        parent, key = stack.pop()
        node = parent[key]
        if type(node) is list:
            stack.extend((node, k) for k in range(len(node)))
            continue
        if type(node) is not dict:
            continue
        if _reason(node):
            other = True
            continue
        if len(node) == 1:
            form, args = next(iter(node.items()))
            made = _reason_text(form, args)
            if made is not None:
                parent[key] = made
                continue
            member = form in ("$get", "$get?") and type(args) is list and len(args) >= 2
            if member and _reason(args[0]) and args[1] in _MEMBERS:  # (`r.reason?.message`)
                inner = args[0].get("$get", args[0].get("$get?"))
                stack.extend((args, k) for k in range(2, len(args)))
                stack.append((inner, 0))
                continue
            if form in ("$template", "$op") and type(args) is list:
                plus = form == "$template" or (len(args) == 3 and args[0] == "+")
                for k, part in enumerate(args):
                    if plus and _reason(part):
                        args[k] = text_of(part)
                    else:
                        stack.append((args, k))
                continue
        stack.extend((node, k) for k in node)
    return holder[0], other


def _reason(node: Any) -> bool:
    """Whether ``node`` is ``x.reason`` (also ``x?.reason``)."""
    if type(node) is not dict or len(node) != 1:
        return False
    args = node.get("$get", node.get("$get?"))
    return type(args) is list and len(args) == 2 and args[1] == "reason"


def _reason_text(form: str, args: Any) -> Any:
    """The tree of a one-key node reading a ``reason`` as text, or None."""
    if type(args) is not list:
        return None
    if form == "$global" and len(args) == 2 and args[0] == "String" and _reason(args[1]):
        return text_of(args[1])
    if form == "$method" and len(args) == 2 and args[1] == "toString" and _reason(args[0]):
        return text_of(args[0])
    if form == "$op" and len(args) == 3 and args[0] == "instanceof" and _reason(args[1]):
        made = args[2]
        return is_instance(args[1], made) if made in ERROR_CLASSES else None
    return None
