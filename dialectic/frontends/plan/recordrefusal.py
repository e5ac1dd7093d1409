"""Why a change of a field of a record inside an object was left as written (SPEC 10,
"Loops"): the parser's refusal of ``o[k].count += 1;`` or ``o[k].names.push(x);`` names the
use of the object that kept :mod:`.recordfields` from reading it, at its place, with what to
write instead."""

from __future__ import annotations

from collections.abc import Sequence

from dialectic.frontends.plan.copyhint import copy_text
from dialectic.frontends.plan.maprecords import map_refusal
from dialectic.frontends.plan.parensets import _same_twice, pure_key
from dialectic.frontends.plan.recordchange import ASSIGN, field_name
from dialectic.frontends.plan.recordfields import refusal
from dialectic.frontends.plan.tokenscan import CLOSE, OPEN

__all__ = ["nested_refusal"]


def nested_refusal(
    kinds: Sequence[str],
    values: Sequence[object],
    pos: int,
    source: str,
    offsets: tuple[Sequence[int], Sequence[int]],
    prefix: bool = False,
) -> tuple[int, str, str] | None:
    """For a statement at token ``pos`` changing a field of a record inside an object
    (``o[k].f += v;``, ``o[k].f.push(x);``) that was left as written: the token at fault,
    the message and the hint, else None (``offsets``: the tokens' starts and ends; ``prefix``:
    after ``++`` or ``--``)."""
    starts, ends = offsets
    if kinds[pos + 1] == "." and values[pos + 2] == "get" and kinds[pos + 3] == "(":
        return _map_refusal(kinds, values, pos, source, offsets, prefix)
    found_heads = _member_heads(kinds, values, pos, prefix)
    if found_heads is None:
        return None
    heads, after = found_heads
    name, first, second, end = values[pos], heads[0], heads[1], pos
    field_end = heads[2] if len(heads) == 3 else after
    text = source[starts[pos] : ends[second - 1]]
    field_text = source[starts[second] : ends[field_end - 1]]
    hint = (
        f"define `const {name} = {{}};`, make each record as `if (!{text}) {text} = {{count: 0, "
        f"items: []}};`, and read `{name}` only through fields (`{text}.count`) until the loop "
        "ends"
    )
    if len(heads) == 3:  # `o[k].f.g += v`
        why = f"a field of `{text}{field_text}` changes"
        hint = f"set the field whole: {text}{field_text} = {{...{text}{field_text}, ...}};"
    elif kinds[first] == "[" and not _same_twice(kinds, first + 1, second - 1):
        why = "its key is computed twice (a call or an operator)"
        hint = f"bind the key first: const k = {source[starts[first + 1] : ends[second - 2]]};"
    elif field_name(kinds, values, second, field_end) is None and not (
        kinds[second] == "[" and pure_key(kinds, values, second + 1, field_end - 1)
    ):
        why = f"the field's key `{field_text}` calls a function (JavaScript computes it once)"
        hint = (
            f"bind the key first: const key = {source[starts[second + 1] : ends[field_end - 2]]};"
            f" {text}[key] = value;"
        )
    else:
        found = refusal(kinds, values, pos - prefix)
        if found is None:
            return None
        end, why = found
        if why.startswith(f"`{name}` is not defined as") and kinds[second] == "[":
            # `g[i][j] = 0` of `const g = input.grid;`: a cell of a row, not a record's field
            return (
                end,
                (
                    f"`{text}{field_text}` changes a cell of a row of `{name}` in place, and "
                    f"`{name}` is not a grid this program made (data the run was given, another "
                    "name's value: JavaScript would change the row everywhere it is held)"
                ),
                (
                    f"copy it where you define it: "
                    f"{copy_text(kinds, values, source, offsets, str(name), end + 1)} (or "
                    f"`Array.from({{length: n}}, () => Array(m).fill(0))` for a new grid)"
                ),
            )
        if "is pushed onto and set" in why:  # (`t[k].items ??= [];` before the push)
            field = why.split("`")[1]
            hint = (
                f"make the list with the record, `{text} ??= {{n: 0, {field}: []}};` (or `if "
                f"(!{text}) {text} = {{..., {field}: []}};`), then only push onto "
                f"`{text}.{field}`"
            )
    return end, f"`{text}{field_text}` changes a record inside `{name}` in place: {why}", hint


def _member_heads(
    kinds: Sequence[str], values: Sequence[object], pos: int, prefix: bool
) -> tuple[list[int], int] | None:
    """The first token of each member after the name at token ``pos`` and the token after the
    last, when the statement changes a member two or three levels down, else None."""
    heads: list[int] = []
    i = pos + 1
    while kinds[i] in (".", "[") and len(heads) < 3:
        if kinds[i] == "." and values[i + 1] == "push" and kinds[i + 2] == "(":
            break
        heads.append(i)
        if kinds[i] == "[":
            i = _after_brackets(kinds, i)
            if i < 0:
                return None
        elif kinds[i + 1] == "name":
            i += 2
        else:
            return None
    op = values[i]
    changes = kinds[i] == "=" or (kinds[i] == "op" and op in (*ASSIGN, "++", "--"))
    if len(heads) < 2 or not (changes or prefix or kinds[i] == "."):
        return None
    return heads, i


def _after_brackets(kinds: Sequence[str], i: int) -> int:
    """The token after the brackets opening at token ``i`` (-1: they never close); walked
    only on the way to a refusal."""
    depth = 0
    while True:
        depth += kinds[i] in OPEN
        depth -= kinds[i] in CLOSE
        if kinds[i] == "eof":
            return -1
        if depth == 0:
            return i + 1
        i += 1


def _map_refusal(
    kinds: Sequence[str],
    values: Sequence[object],
    pos: int,
    source: str,
    offsets: tuple[Sequence[int], Sequence[int]],
    prefix: bool,
) -> tuple[int, str, str] | None:
    """:func:`nested_refusal` for ``M.get(K).f op V;`` (:mod:`.maprecords`)."""
    record = _after_brackets(kinds, pos + 3)
    if record < 0 or kinds[record] not in (".", "["):
        return None
    after = _after_brackets(kinds, record) if kinds[record] == "[" else record + 2
    op = values[after]
    changes = kinds[after] == "=" or (kinds[after] == "op" and op in (*ASSIGN, "++", "--"))
    if after < 0 or not (
        changes or prefix or (kinds[after] == "." and values[after + 1] == "push")
    ):
        return None
    starts, ends = offsets
    name = values[pos]
    text = source[starts[pos] : ends[after - 1]]
    found = map_refusal(kinds, values, pos - prefix)
    at, why = found if found is not None else (pos, "it is not read")
    hint = (
        f"define `const {name} = new Map();`, make each record as `if (!{name}.has(k)) "
        f"{name}.set(k, {{count: 0}});`, and read `{name}` only through `has` and fields "
        f"(`{name}.get(k).count`) until the loop ends; keep lists in an object of records "
        "(`o[k].names.push(x)`)"
    )
    return at, f"`{text}` changes a record inside the Map `{name}` in place: {why}", hint
