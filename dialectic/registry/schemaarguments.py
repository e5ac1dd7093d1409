"""``SchemaArguments``: the validator of a function declared by JSON Schema (SPEC 3.1).

It coerces a call's keyword arguments along the schema (:mod:`dialectic.registry.schemavalues`),
then validates them with the ``jsonschema`` library, its pattern keywords in bounded time
(:mod:`dialectic.registry.schemapatterns`); arguments that already fit pass a compiled fast
check (:mod:`dialectic.registry.schemafast`) without the walk. Values nested deeper than
:data:`MAX_VALUE_DEPTH` are refused before any recursion. Built by
:func:`dialectic.registry.jsonschema.function_from_schema`.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Mapping
from typing import Any, Final

import jsonschema
import referencing
from jsonschema.exceptions import ValidationError

from dialectic.outcome.errors import Failure
from dialectic.registry import schemafast, schemapatterns
from dialectic.registry.descriptions import FunctionDescription
from dialectic.registry.schemafast import within_depth
from dialectic.registry.schemaprepare import _deref_top
from dialectic.registry.schemavalues import SchemaCoercer, describe_errors, where

_UNCOMPILED: Final = object()


class SchemaArguments:
    """The validator of a function declared by JSON Schema: coerces the keyword arguments
    along the schema, then validates them (see the module's documentation). The catalog reads
    ``parameter_schemas`` and ``defs``; ``input_schema``/``output_schema`` are the schemas as
    checked (``dialectic describe --format json-schema`` passes them through)."""

    __slots__ = (
        "name",
        "input_schema",
        "output_schema",
        "parameter_schemas",
        "defs",
        "_validator",
        "_coercer",
        "_result_validator",
        "_fast",
    )

    def __init__(
        self, name: str, input_schema: dict[str, Any], output_schema: dict[str, Any] | None
    ) -> None:
        self.name = name
        self.input_schema = input_schema
        self.output_schema = output_schema
        top = _deref_top(input_schema)
        self.parameter_schemas: dict[str, Any] = dict(top.get("properties", {}))
        defs: dict[str, Any] = {}
        for key in ("definitions", "$defs"):
            if isinstance(input_schema.get(key), Mapping):
                defs.update(input_schema[key])
        self.defs = defs
        self._validator = _validator(input_schema)
        self._coercer = SchemaCoercer(input_schema, self._validator)
        self._result_validator = None if output_schema is None else _validator(output_schema)
        #: the fast acceptance check (:mod:`schemafast`), compiled on the first call
        self._fast: Any = _UNCOMPILED

    def __call__(self, kwargs: dict[str, Any]) -> dict[str, Any]:
        fast = self._fast
        if fast is _UNCOMPILED:
            fast = self._fast = schemafast.compile_check(self.input_schema, self._validator)
        # arguments that already fit (no conversion to make) pass without the full walk
        if fast is not None and within_depth(kwargs, MAX_VALUE_DEPTH) and fast(kwargs):
            return kwargs
        deep = _too_deep(kwargs)
        if deep is not None:
            raise _deep_failure(deep, "argument")
        try:
            coerced = self._coercer.coerce_arguments(kwargs)
            deep = _too_deep(coerced)  # (a JSON text read as an object may be deep)
            if deep is not None:
                raise _deep_failure(deep, "argument")
            errors = _first_errors(self._validator, coerced)
        except RecursionError:  # the value and the schema's references together: too deep
            raise Failure(
                f"invalid arguments: they are nested too deeply to be checked against the "
                f"schema of `{self.name}`",
                hint="Pass flatter data.",
                code="invalid_argument",
            ) from None
        if errors:
            message, hint = describe_errors(errors, self.input_schema, "argument")
            raise Failure(f"invalid arguments: {message}", hint=hint, code="invalid_argument")
        return coerced

    def check_result(self, value: Any) -> None:
        """Raise :class:`Failure` when ``value`` does not fit the output schema (an MCP
        client checks a tool's ``structuredContent`` with it)."""
        if self._result_validator is None:
            return
        deep = _too_deep(value)
        if deep is not None:
            raise _deep_failure(deep, "result")
        try:
            errors = _first_errors(self._result_validator, value)
        except RecursionError:
            raise Failure(
                "the result is nested too deeply to be checked against its declared schema"
            ) from None
        if errors:
            message, hint = describe_errors(errors, self.output_schema or {}, "result")
            raise Failure(f"the result does not fit its declared schema: {message}", hint=hint)

    def __deepcopy__(self, memo: dict[int, Any]) -> SchemaArguments:
        return SchemaArguments(
            self.name, copy.deepcopy(self.input_schema), copy.deepcopy(self.output_schema)
        )

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its schemas (a Dask worker rebuilds the validators)."""
        return (SchemaArguments, (self.name, self.input_schema, self.output_schema))


def _validator(schema: dict[str, Any]) -> Any:
    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    safe, checker = _safe_class(cls)
    # an empty registry: a reference is never fetched (prepare_schema allows only local ones)
    return safe(schema, registry=referencing.Registry(), format_checker=checker)


@functools.lru_cache(maxsize=16)
def _safe_class(cls: Any) -> tuple[Any, Any]:
    """The draft's validator class with the keywords that match regular expressions against
    the program's texts replaced by bounded-time ones (:mod:`schemapatterns`)."""
    safe = jsonschema.validators.extend(cls, schemapatterns.keywords())  # type: ignore[no-untyped-call]
    return safe, schemapatterns.format_checker(cls.FORMAT_CHECKER)


#: an argument (or result) checked against a schema may be nested at most this deep (the
#: validation recurses along the value)
MAX_VALUE_DEPTH: Final = 100


def _too_deep(value: Any, limit: int = MAX_VALUE_DEPTH) -> list[Any] | None:
    """The path to a part of ``value`` nested deeper than ``limit``, or None (iterative)."""
    stack: list[tuple[Any, list[Any]]] = [(value, [])]
    while stack:
        v, at = stack.pop()
        if len(at) > limit:
            return at
        t = type(v)
        if t is dict:
            stack.extend((x, [*at, k]) for k, x in v.items() if type(x) in (dict, list, tuple))
        elif t is list or t is tuple:
            stack.extend((x, [*at, i]) for i, x in enumerate(v) if type(x) in (dict, list, tuple))
    return None


def _deep_failure(at: list[Any], what: str) -> Failure:
    shown = where(at[:6], what) + ("..." if len(at) > 6 else "")
    return Failure(
        f"invalid {what}s: `{shown}` is nested more than {MAX_VALUE_DEPTH} levels deep",
        hint=f"Pass flatter data: at most {MAX_VALUE_DEPTH} levels of arrays and objects.",
        code="invalid_argument" if what == "argument" else "failure",
    )


#: at most this many problems are reported for one call
MAX_REPORTED: Final = 5


def _first_errors(validator: Any, value: Any) -> list[ValidationError]:
    errors: list[ValidationError] = []
    for err in validator.iter_errors(value):
        errors.append(err)
        if len(errors) >= MAX_REPORTED:
            break
    errors.sort(key=lambda e: [str(p) for p in e.absolute_path])
    return errors


def schema_arguments(fn: FunctionDescription) -> SchemaArguments | None:
    """The JSON Schema validator of a function declared by JSON Schema, else None."""
    v = fn.validator
    return v if isinstance(v, SchemaArguments) else None
