"""The copy to write when a change to a part of a value is refused because the value may be
held elsewhere (data the run was given, another name's value: :mod:`.nestedchanges`,
:mod:`.matrixloops`): ``const g = structuredClone(input.grid);``, the name's own definition
wrapped, which Plan follows part by part (SPEC 10, "Changes outside loops")."""

from __future__ import annotations

from collections.abc import Sequence

from dialectic.frontends.plan.base import DECLARATORS, ParserBase

__all__ = ["copy_hint", "copy_text"]

#: a definition longer than this is shown as `...`
_LONGEST = 60


def copy_hint(p: ParserBase, name: str, pos: int) -> str:
    """``const NAME = structuredClone(DEFINITION);`` for the last definition of ``name``
    before token ``pos`` (read only when the refusal is made, once)."""
    return copy_text(p.kinds, p.values, p.source, (p.starts, p.ends), name, pos)


def copy_text(
    kinds: Sequence[str],
    values: Sequence[object],
    source: str,
    offsets: tuple[Sequence[int], Sequence[int]],
    name: str,
    pos: int,
) -> str:
    """:func:`copy_hint` on the tokens (``offsets``: their starts and ends)."""
    starts, ends = offsets
    text = "..."
    for j in range(pos - 1, 0, -1):
        if (
            kinds[j] == "name"
            and values[j] == name
            and kinds[j + 1] == "="
            and kinds[j - 1] == "name"
            and values[j - 1] in DECLARATORS
        ):
            end, depth = j + 2, 0
            while kinds[end] != "eof" and not (depth == 0 and kinds[end] in (";", "}")):
                if kinds[end] in ("(", "[", "{", "tplh"):
                    depth += 1
                elif kinds[end] in (")", "]", "}", "tplt"):
                    depth -= 1
                end += 1
            if end > j + 2:
                written = source[starts[j + 2] : ends[end - 1]]
                if len(written) <= _LONGEST and "\n" not in written:
                    text = written
            break
    return f"const {name} = structuredClone({text});"
