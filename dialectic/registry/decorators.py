"""``@function``: a FunctionDescription derived from a Python signature and docstring.

Parameter types come from the type hints (``str`` -> string, ``int`` -> integer, ``float`` ->
number, ``bool`` -> boolean, ``list[...]`` -> array, ``dict[...]`` -> object, a registered
type's class -> that type; a default or ``X | None`` makes a parameter optional). A parameter
annotated ``RunContext`` receives the run's context. When a hint says more than the schema can
(``list[int]``, ``Literal[...]``, ``Annotated`` constraints, pydantic models, ``datetime.date``/
``datetime``/``time``, declared ``string``: ISO text), pydantic builds the argument validator once,
at decoration time, and the runtime applies it after coercion.
"""

from __future__ import annotations

import datetime
import inspect
import re
import types
import typing
from collections.abc import Callable
from typing import Any, Literal

import pydantic

from dialectic.outcome.errors import Failure
from dialectic.registry.descriptions import FunctionDescription, Optional, RunContext
from dialectic.registry.registry import PYTHON_TYPE_NAMES

_SIMPLE = PYTHON_TYPE_NAMES


def _schema_type(hint: Any) -> tuple[Any, bool, bool]:
    """(type name or class, optional, needs pydantic validation) for one hint."""
    origin = typing.get_origin(hint)
    if origin is typing.Annotated:
        inner, _, _ = _schema_type(typing.get_args(hint)[0])
        return inner, False, True
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        optional = len(args) < len(typing.get_args(hint))
        if len(args) == 1:
            inner, _, complex_ = _schema_type(args[0])
            return inner, optional, complex_
        return "any", optional, True
    if origin is Literal:
        values = typing.get_args(hint)
        if all(isinstance(v, str) for v in values):
            return "string", False, True
        if all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
            return "number", False, True
        return "any", False, True
    if origin in (list, tuple, set, frozenset) or hint in (tuple, set, frozenset):
        return "array", False, bool(typing.get_args(hint)) or hint is not list
    if origin is dict:
        return "object", False, True
    if hint in _SIMPLE:
        return _SIMPLE[hint], False, False
    if hint in (datetime.date, datetime.datetime, datetime.time):
        return "string", False, True  # ISO text; pydantic's validator makes the Python value
    if isinstance(hint, type) and issubclass(hint, pydantic.BaseModel):
        return "object", False, True
    if isinstance(hint, type):
        return hint, False, False  # a registered type's class, resolved at registration
    return "any", False, True


def _docstring_parts(doc: str | None) -> tuple[str, dict[str, str]]:
    if not doc:
        return "", {}
    text = inspect.cleandoc(doc)
    paragraphs = re.split(r"\n\s*\n", text)
    summary = " ".join(paragraphs[0].split())
    params: dict[str, str] = {}
    for m in re.finditer(r":param\s+(\w+):\s*(.+)", text):
        params[m.group(1)] = m.group(2).strip()
    section = re.search(r"(?:Args|Arguments|Parameters):\s*\n((?:[ \t]+.+\n?)+)", text)
    if section:
        for m in re.finditer(r"^\s+(\w+)(?:\s*\([^)]*\))?:\s*(.+)$", section.group(1), re.M):
            params.setdefault(m.group(1), m.group(2).strip())
    return summary, params


def function(
    fn: Callable[..., Any] | None = None,
    *,
    name: str | None = None,
    description: str | None = None,
    returns: str | None = None,
    blocking: bool = False,
    max_concurrency: int | None = None,
    timeout: float | None = None,
    effects: str = "read",
    idempotent: bool = False,
    scope: str | None = None,
) -> Any:
    """Decorate a Python function to make it a FunctionDescription (still callable);
    ``effects``, ``idempotent`` and ``scope`` as for FunctionDescription (SPEC 17)."""

    def build(f: Callable[..., Any]) -> FunctionDescription:
        sig = inspect.signature(f)
        hints = typing.get_type_hints(f, include_extras=True)
        summary, param_docs = _docstring_parts(f.__doc__)
        parameters: dict[str, Any] = {}
        fields: dict[str, Any] = {}
        needs_validator = False
        pass_context = False
        for pname, param in sig.parameters.items():
            hint = hints.get(pname, Any)
            if hint is RunContext:
                if pname != "ctx":
                    raise TypeError(f"{f.__name__}: the RunContext parameter must be named ctx")
                pass_context = True
                continue
            if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
                raise TypeError(f"{f.__name__}: *args and **kwargs cannot be declared parameters")
            type_, optional, complex_ = _schema_type(hint)
            optional = optional or param.default is not inspect.Parameter.empty
            needs_validator = needs_validator or complex_
            parameters[pname] = Optional(type_) if optional else type_
            default = param.default if param.default is not inspect.Parameter.empty else ...
            fields[pname] = (hint, default)
        validator = None
        if needs_validator:
            model = pydantic.create_model(
                f"{f.__name__}_arguments",
                __config__=pydantic.ConfigDict(arbitrary_types_allowed=True),
                **fields,
            )
            validator = _make_validator(f.__name__, model)
        ret = returns
        if ret is None:
            hint = hints.get("return", Any)
            ret_type, _, _ = _schema_type(hint)
            ret = (
                ret_type
                if isinstance(ret_type, str)
                else getattr(ret_type, "__dialectic_type__", ret_type.__name__.lower())
            )
        return FunctionDescription(
            name or f.__name__,
            description or summary or f"{f.__name__}",
            f,
            parameters,
            ret,
            blocking=blocking,
            pass_context=pass_context,
            max_concurrency=max_concurrency,
            timeout=timeout,
            parameter_descriptions=param_docs,
            validator=validator,
            effects=effects,
            idempotent=idempotent,
            scope=scope,
        )

    if fn is not None:
        return build(fn)
    return build


def _make_validator(fname: str, model: type[pydantic.BaseModel]) -> ArgumentValidator:
    return ArgumentValidator(fname, model)


class ArgumentValidator:
    """A decorated function's argument validator: applies the pydantic ``model`` built from its
    hints (``dialectic describe`` reads the model's JSON Schema to show ``Literal`` choices,
    model fields and item types)."""

    __slots__ = ("name", "model")

    def __init__(self, name: str, model: type[pydantic.BaseModel]) -> None:
        self.name = name
        self.model = model

    def __call__(self, kwargs: dict[str, Any]) -> dict[str, Any]:
        try:
            m = self.model.model_validate(kwargs)
        except pydantic.ValidationError as exc:
            problems = "; ".join(
                f"`{'.'.join(str(p) for p in e['loc'])}`: {e['msg']}" for e in exc.errors()
            )
            raise Failure(f"invalid arguments: {problems}") from None
        return {k: getattr(m, k) for k in kwargs}
