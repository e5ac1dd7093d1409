"""Duplicate keys in a Dialect JSON program (SPEC 9): refused, as Plan refuses them in an object
literal and Plan2 in a mapping.

A JSON reader keeps the last value of a key written twice in one object, so the first would be
dropped without a word: a second alias of the same name in ``$let``, an argument given twice.

The check costs next to nothing: the text is read again only when it has more colons than the
compact JSON of the tree read from it. Each key of the text is followed by a colon, and every
colon in a string of the tree is one written in the text (unless written ``\\u003a``: then the
text is read again), so a text with no more colons has no more keys than the tree: no key is
written twice. A text with more colons is read again by the ``json`` module, with a hook that
sees each object's keys as written. A text that needs repairs (comments, unquoted keys:
:mod:`dialectic.frontends.repair`) is checked by the repairs' scan as it reads each key."""

from __future__ import annotations

import json
import re
from typing import Any

import orjson

from dialectic.outcome.errors import SyntaxProblem


class _Found(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _pairs(pairs: list[tuple[str, Any]]) -> None:
    """``object_pairs_hook``: stops at an object that has a key twice (values are not kept)."""
    if len(pairs) > 1:
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Found(key)
            seen.add(key)


def duplicate_key(text: str, tree: Any) -> SyntaxProblem | None:
    """The problem of the first key written twice in one object of ``text`` (from which
    ``tree`` was read), at its second writing; None if there is none."""
    colons = text.count(":")
    if not colons:
        return None
    try:
        compact = orjson.dumps(tree)
    except orjson.JSONEncodeError:  # (not from JSON text: nothing to compare)
        return None
    if colons <= compact.count(b":") and "\\u003a" not in text and "\\u003A" not in text:
        return None
    try:
        json.loads(text, object_pairs_hook=_pairs)
    except _Found as found:
        return _problem(text, found.key)
    except (ValueError, RecursionError):  # (a text orjson reads and json does not)
        return None
    return None


#: a JSON text's strings (a key: followed by its colon) and brackets, in order
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"(\s*:)?|[{}\[\]]')


def _second_writing(text: str, key: str) -> int:
    """Where ``key`` is written the second time in one object of ``text`` (an offset)."""
    objects: list[set[str] | None] = []
    for m in _TOKEN.finditer(text):
        token = m.group()
        first = token[0]
        if first == "{":
            objects.append(set())
        elif first == "[":
            objects.append(None)
        elif first in "}]":
            if objects:
                objects.pop()
        elif m.group(1) and objects and objects[-1] is not None:
            written = json.loads(token[: m.start(1) - m.start()])
            if written == key and key in objects[-1]:
                return m.start()
            objects[-1].add(written)
    return 0


def _problem(text: str, key: str) -> SyntaxProblem:
    at = _second_writing(text, key)
    line = text.count("\n", 0, at) + 1
    column = at - (text.rfind("\n", 0, at) + 1) + 1
    message, hint = duplicate_words(key)
    return SyntaxProblem(message, line, column, hint=hint)


def duplicate_words(key: str) -> tuple[str, str]:
    """What is wrong with ``key`` written twice in one object, and what to write instead."""
    shown = key if len(key) <= 40 else key[:40] + "..."
    return (
        f"duplicate key `{shown}` in one object: JSON keeps only the last value, and the "
        "first would be dropped without a word",
        "write each key once in an object: two aliases or arguments need two names; "
        "merge the values if both are meant",
    )
