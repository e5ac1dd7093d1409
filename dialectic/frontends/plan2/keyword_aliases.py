"""Aliases named like JavaScript keywords (the seed's ``return:``): hidden from the Plan
expression parser behind same-length identifiers, and restored in the tree it returns."""

from __future__ import annotations

import re
from typing import Any

__all__ = ["hide_keyword_aliases", "restore_refs"]

_WORD = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")


def hide_keyword_aliases(text: str, aliases: dict[str, str]) -> tuple[str, dict[str, str]]:
    """Replace references to aliases named like keywords (``return``) by same-length placeholder
    identifiers (``$eturn``), outside strings, property names (``x.return``) and object keys."""
    out: list[str] = []
    used: dict[str, str] = {}
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in "'\"`":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i : j + 1])
            i = j + 1
            continue
        m = _WORD.match(text, i) if (c.isalpha() or c in "_$") else None
        if m is None:
            out.append(c)
            i += 1
            continue
        word = m.group(0)
        before = text[:i].rstrip()
        after = text[m.end() :].lstrip()
        placeholder = aliases.get(word)
        if (
            placeholder is not None
            and not before.endswith(".")
            and not after.startswith(":")
            and placeholder not in text
        ):
            out.append(placeholder)
            used[placeholder] = word
        else:
            out.append(word)
        i = m.end()
    return "".join(out), used


def restore_refs(tree: Any, placeholders: dict[str, str]) -> Any:
    if isinstance(tree, list):
        return [restore_refs(v, placeholders) for v in tree]
    if isinstance(tree, dict):
        if set(tree) == {"$ref"} and tree["$ref"] in placeholders:
            return {"$ref": placeholders[tree["$ref"]]}
        if set(tree) == {"$quote"}:
            return tree
        return {k: restore_refs(v, placeholders) for k, v in tree.items()}
    return tree
