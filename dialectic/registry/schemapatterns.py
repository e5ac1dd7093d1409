"""Regular expressions of a JSON Schema against values from a model (SPEC 3.1, 8).

A schema's ``pattern`` and ``patternProperties`` come from configuration, but the texts they
are matched against (an argument, an object's keys) come from the program, which may be
hostile: Python's ``re`` backtracks, and ``^(a+)+$`` against 30 ``a`` and a ``!`` takes
minutes. So these patterns are matched with RE2 (``google-re2``: linear time, and compiling
has a memory budget); a pattern RE2 cannot compile (a lookaround, a backreference) is matched
with the ``regex`` module under a time limit (:data:`REGEX_TIMEOUT`) when that is installed.
A text that cannot be checked safely (neither engine, or the time limit passed) does not match,
and the validation says so. ``format: regex`` compiles the argument with Python's ``re``
(compiling does not backtrack), and a pattern too deeply nested to compile is simply not a
valid regex.

The keywords here replace the ``jsonschema`` library's ``pattern``, ``patternProperties`` and
``additionalProperties`` (which reads ``patternProperties``), and ``enum`` (a lookup in
constant time for a scalar, not a comparison with each of maybe 100,000 values); a schema using
``unevaluatedProperties`` together with ``patternProperties`` is refused when it is imported
(the library would match those patterns with ``re``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Any, Final

from jsonschema import FormatChecker
from jsonschema.exceptions import ValidationError

from dialectic.registry.schemavalues import enum_index

re2: Any
regex: Any
try:
    import re2  # type: ignore[import-untyped,no-redef,unused-ignore]  # (google-re2: untyped)
except ImportError:  # pragma: no cover - google-re2 comes with the ide extension's tools
    re2 = None
try:
    import regex  # type: ignore[import-untyped,no-redef,unused-ignore]
except ImportError:  # pragma: no cover
    regex = None

__all__ = ["REGEX_TIMEOUT", "UNCHECKED", "format_checker", "keywords", "search"]

#: seconds the ``regex`` module may take for one match (a pattern RE2 cannot run)
REGEX_TIMEOUT: Final = 0.1
#: memory RE2 may use to compile one pattern
PATTERN_MEMORY: Final = 8 << 20
#: the answer of :func:`search` for a text that could not be checked safely
UNCHECKED: Final = None


@functools.lru_cache(maxsize=512)
def _compiled(pattern: str) -> tuple[str, Any]:
    """(engine, compiled pattern): ``re2``, ``regex`` or ``none`` (no safe engine)."""
    if re2 is not None:
        options = re2.Options()
        options.max_mem = PATTERN_MEMORY
        options.log_errors = False
        try:
            return "re2", re2.compile(pattern, options)
        except Exception:  # (re2.error; any other refusal means: try the next engine)
            pass
    if regex is not None:
        try:
            return "regex", regex.compile(pattern)
        except Exception:
            return "none", None
    return "none", None


def search(pattern: str, text: str) -> bool | None:
    """Whether ``pattern`` matches somewhere in ``text`` (JSON Schema's ``pattern`` is not
    anchored); :data:`UNCHECKED` (None) when that cannot be found out in bounded time."""
    engine, compiled = _compiled(pattern)
    try:
        if engine == "re2":
            return compiled.search(text) is not None
        if engine == "regex":
            return compiled.search(text, timeout=REGEX_TIMEOUT) is not None
    except Exception:  # the time limit (TimeoutError), or RE2 refusing the text
        return UNCHECKED
    return UNCHECKED


def _why(pattern: str) -> str:
    if _compiled(pattern)[0] == "none":
        return "it cannot be checked safely here (install google-re2)"
    return "checking it took too long"


def _pattern(validator: Any, patrn: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "string") or not isinstance(patrn, str):
        return
    found = search(patrn, instance)
    if found is UNCHECKED:
        yield ValidationError(f"the text could not be matched against {patrn!r}: {_why(patrn)}")
    elif not found:
        yield ValidationError(f"{_short(instance)} does not match {patrn!r}")


def _short(text: str) -> str:
    return repr(text) if len(text) <= 60 else repr(text[:57] + "...")


def _pattern_properties(
    validator: Any, patterns: Any, instance: Any, schema: Any
) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "object") or not isinstance(patterns, dict):
        return
    for patrn, subschema in patterns.items():
        for key, value in instance.items():
            found = search(patrn, key)
            if found is UNCHECKED:
                yield ValidationError(
                    f"the key {_short(key)} could not be matched against {patrn!r}: {_why(patrn)}"
                )
            elif found:
                yield from validator.descend(value, subschema, path=key, schema_path=patrn)


def _extra_keys(instance: dict[str, Any], schema: dict[str, Any]) -> list[str]:
    props = schema.get("properties", {})
    patterns = schema.get("patternProperties", {})
    return [
        k
        for k in instance
        if k not in props and not any(search(p, k) for p in patterns)
        # (a key no pattern could be checked against: its patternProperties error is reported)
    ]


def _additional_properties(
    validator: Any, extra: Any, instance: Any, schema: Any
) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "object"):
        return
    extras = _extra_keys(instance, schema)
    if validator.is_type(extra, "object"):
        for key in extras:
            yield from validator.descend(instance[key], extra, path=key)
    elif not extra and extras:
        shown = ", ".join(repr(k) for k in sorted(extras))
        yield ValidationError(
            f"Additional properties are not allowed ({shown} "
            f"{'was' if len(extras) == 1 else 'were'} unexpected)"
        )


def _enum(validator: Any, enums: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    """``enum`` in constant time for a scalar (the library compares with each value, and
    writes them all into its message)."""
    if not isinstance(enums, list):
        return
    if not enum_index(enums).find(instance)[0]:
        yield ValidationError(f"the value is not one of the {len(enums)} allowed")


def keywords() -> dict[str, Any]:
    """The keyword implementations that replace the library's (for ``validators.extend``)."""
    return {
        "enum": _enum,
        "pattern": _pattern,
        "patternProperties": _pattern_properties,
        "additionalProperties": _additional_properties,
    }


def _is_regex(instance: object) -> bool:
    if not isinstance(instance, str):
        return True
    re.compile(instance)
    return True


def format_checker(base: FormatChecker) -> FormatChecker:
    """``base`` with ``format: regex`` checked without a traceback for any text (a pattern
    nested too deeply for Python's parser is not a valid regex)."""
    checker = FormatChecker(list(base.checkers))
    if "regex" in checker.checkers:
        checker.checks("regex", raises=(re.error, RecursionError, OverflowError, ValueError))(
            _is_regex
        )
    return checker
