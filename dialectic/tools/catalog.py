"""The catalog as text: parameters and their types, and the markdown and compact catalogs."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pydantic

from dialectic.registry.descriptions import BUILTIN_TYPES, FunctionDescription
from dialectic.tools.primer import primer

if TYPE_CHECKING:
    from dialectic.runtime import Runtime


@dataclass(frozen=True)
class ParamInfo:
    """One parameter as the catalog shows it."""

    name: str
    type: str
    optional: bool
    description: str
    #: what a value of it looks like, as JSON Schema (from pydantic for ``@function``)
    schema: dict[str, Any]
    #: the type shown in signatures (``string``, ``'hotel' | 'hostel'``, ``{name: string}``)
    shown: str


def _model_schemas(fn: FunctionDescription) -> tuple[dict[str, Any], dict[str, Any]]:
    """JSON Schemas of a decorated function's parameters, from the pydantic argument model on
    ``fn.validator.model`` (parameter -> schema, and the ``$defs`` they refer to). A parameter
    whose hint pydantic cannot describe (a registered type's class) is left out: its declared
    type describes it. A function declared by JSON Schema (``SchemaArguments``) gives its
    property schemas and definitions as they are."""
    declared = getattr(fn.validator, "parameter_schemas", None)
    if isinstance(declared, Mapping):
        return dict(declared), dict(getattr(fn.validator, "defs", None) or {})
    fields = getattr(getattr(fn.validator, "model", None), "model_fields", None)
    if not isinstance(fields, Mapping):
        return {}, {}
    out: dict[str, Any] = {}
    defs: dict[str, Any] = {}
    for name, info in fields.items():
        rebuild = getattr(info, "rebuild_annotation", None)
        hint: Any = rebuild() if callable(rebuild) else getattr(info, "annotation", None)
        try:
            schema = pydantic.TypeAdapter(hint).json_schema()
        except Exception:  # not describable (an arbitrary class): the declared type is used
            continue
        defs.update(schema.pop("$defs", {}))
        out[name] = schema
    return _strip_titles(out), _strip_titles(defs)


def _strip_titles(schema: Any) -> Any:
    """A pydantic JSON Schema without its generated ``title`` keys (they repeat the names)."""
    if isinstance(schema, dict):
        return {
            k: _strip_titles(v)
            for k, v in schema.items()
            if not (k == "title" and isinstance(v, str))
        }
    if isinstance(schema, list):
        return [_strip_titles(v) for v in schema]
    return schema


def _deref(schema: Mapping[str, Any], defs: Mapping[str, Any]) -> Mapping[str, Any]:
    ref = schema.get("$ref")
    for prefix in ("#/$defs/", "#/definitions/"):
        if isinstance(ref, str) and ref.startswith(prefix):
            target = defs.get(ref.removeprefix(prefix))
            if isinstance(target, Mapping):
                return target
    return schema


_FORMAT_NAMES = {"date": "ISO date", "date-time": "ISO date-time", "time": "ISO time"}


def schema_text(schema: Mapping[str, Any], defs: Mapping[str, Any], depth: int = 0) -> str:
    """A JSON Schema written as a short type: ``'a' | 'b'``, ``string[]``, ``{x: number}``."""
    if not isinstance(schema, Mapping):
        return "any"
    schema = _deref(schema, defs)
    if depth > 3:
        return "object"
    if "enum" in schema:
        return " | ".join(_literal(v) for v in schema["enum"])
    if "const" in schema:
        return _literal(schema["const"])
    for key in ("anyOf", "oneOf"):
        if key in schema:
            parts = [schema_text(s, defs, depth + 1) for s in schema[key]]
            kept = [p for p in parts if p != "null"] or parts  # optional shows as `name?`
            return " | ".join(dict.fromkeys(kept))
    type_ = schema.get("type")
    if isinstance(type_, list) and "null" in type_ and len(type_) == 2:
        inner = schema_text({**schema, "type": next(t for t in type_ if t != "null")}, defs, depth)
        return f"{inner} | null"
    if type_ == "array":
        items = schema.get("items")
        inner = schema_text(items, defs, depth + 1) if isinstance(items, Mapping) else "any"
        return f"({inner})[]" if " " in inner else f"{inner}[]"
    if type_ == "object" and isinstance(schema.get("properties"), Mapping):
        required = set(schema.get("required", ()))
        fields = ", ".join(
            f"{k}{'' if k in required else '?'}: {schema_text(v, defs, depth + 1)}"
            for k, v in schema["properties"].items()
        )
        return "{" + fields + "}"
    if isinstance(type_, str):
        fmt = schema.get("format")
        if type_ == "string" and fmt in _FORMAT_NAMES:
            return f"string ({_FORMAT_NAMES[fmt]})"
        return type_
    if isinstance(type_, list):
        return " | ".join(str(t) for t in type_)
    return "any"


def _literal(value: Any) -> str:
    if isinstance(value, str):
        return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def type_schema(rt: Runtime, type_name: str, _seen: frozenset[str] = frozenset()) -> dict[str, Any]:
    """A JSON Schema of the JSON values a parameter of a declared type accepts as data."""
    if type_name == "any":
        return {}
    if type_name in BUILTIN_TYPES:
        return {"type": type_name}
    reg = rt.registry
    td = reg.types.get(type_name)
    if td is None:
        return {}
    ctor = reg.functions.get(type_name)
    fields: dict[str, Any] = {}
    required: list[str] = []
    if ctor is not None:
        for p in reg.params(ctor):
            inner = p.type not in _seen and p.type != type_name
            fields[p.name] = type_schema(rt, p.type, _seen | {type_name}) if inner else {}
            if not p.optional:
                required.append(p.name)
    options: list[dict[str, Any]] = [
        {"type": source}
        for source, target in sorted(reg.conversions)
        if target == type_name and source in BUILTIN_TYPES and source != "any"
    ]
    options.append(
        {"type": "object", "properties": fields, "required": required}
        if fields
        else {"type": "object"}
    )
    described = f"a `{type_name}`: {td.description}"
    if len(options) == 1:
        return {**options[0], "description": described}
    return {"anyOf": options, "description": described}


def parameters(rt: Runtime, fn: FunctionDescription) -> tuple[list[ParamInfo], dict[str, Any]]:
    """The catalog's view of a function's parameters, and the ``$defs`` their schemas use."""
    reg = rt.registry
    props, defs = _model_schemas(fn)
    out = []
    for p in reg.params(fn):
        described = fn.parameter_descriptions.get(p.name, "")
        from_model = props.get(p.name)
        declared = hasattr(fn.validator, "parameter_schemas")
        if isinstance(from_model, dict) and p.type not in reg.types:
            # a JSON Schema parameter's default is its function's (shown); pydantic's is not
            schema = (
                from_model if declared else {k: v for k, v in from_model.items() if k != "default"}
            )
            shown = schema_text(schema, defs)
            if shown == "any":
                shown = p.type
        else:
            schema = type_schema(rt, p.type)
            shown = p.type
        if described:
            about = schema.get("description")
            if not isinstance(about, str) or " ".join(about.split()) != described:
                text = f"{described} ({about})" if about else described
                schema = {**schema, "description": text}
        out.append(ParamInfo(p.name, p.type, p.optional, described, schema, shown))
    return out, defs


def signature(rt: Runtime, fn: FunctionDescription) -> str:
    """``name(a: string, b?: 'x' | 'y') -> type``: the registry's signature, with the choices,
    fields and item types a decorated function's hints give."""
    params, _ = parameters(rt, fn)
    if all(p.shown == p.type for p in params):
        return rt.registry.signature(fn)
    parts = [f"{p.name}{'?' if p.optional else ''}: {p.shown}" for p in params]
    return f"{fn.name}({', '.join(parts)}) -> {fn.returns}"


# -- the catalog -----------------------------------------------------------------------------


def _functions(rt: Runtime) -> list[FunctionDescription]:
    """Registered functions that are not type constructors, by name."""
    reg = rt.registry
    return [reg.functions[n] for n in sorted(reg.functions) if n not in reg.types]


def is_builtin(rt: Runtime, name: str) -> bool:
    check = getattr(rt.registry, "is_builtin", None)
    return bool(check(name)) if check is not None else False


def _same_as(rt: Runtime, fns: Iterable[FunctionDescription]) -> dict[str, list[str]]:
    """Functions registered under several names (the same implementation and parameters):
    the main name (the first whose description does not say "same as") -> the others."""
    groups: dict[tuple[Any, ...], list[FunctionDescription]] = {}
    for fn in fns:
        # functions declared by JSON Schema (tools of a server) are never one another's names
        declared = id(fn.validator) if hasattr(fn.validator, "parameter_schemas") else None
        key = (id(fn.implementation), tuple(rt.registry.params(fn)), fn.namespace, declared)
        groups.setdefault(key, []).append(fn)
    out = {}
    for group in groups.values():
        main = next((f for f in group if not _SAME_AS.search(f.description)), group[0])
        out[main.name] = [*main.aliases, *(f.name for f in group if f is not main)]
    return out


def synonyms_text(fn: FunctionDescription) -> str:
    """`` (also from = origin, to = destination)``: a function's parameter synonyms."""
    if not fn.parameter_aliases:
        return ""
    return " (also " + ", ".join(f"{k} = {v}" for k, v in fn.parameter_aliases.items()) + ")"


def compact_signature(rt: Runtime, fn: FunctionDescription) -> str:
    """A signature for the compact catalog: parameters of type ``any`` without a type."""
    params, _ = parameters(rt, fn)
    parts = [
        f"{p.name}{'?' if p.optional else ''}" + ("" if p.shown == "any" else f": {p.shown}")
        for p in params
    ]
    return f"{fn.name}({', '.join(parts)}) -> {fn.returns}"


def by_namespace(
    fns: Iterable[FunctionDescription],
) -> list[tuple[str | None, list[FunctionDescription]]]:
    """Functions grouped by namespace (SPEC 2.2): those without one first, then each
    namespace's, by name."""
    groups: dict[str | None, list[FunctionDescription]] = {}
    for fn in fns:
        groups.setdefault(fn.namespace, []).append(fn)
    return sorted(groups.items(), key=lambda g: (g[0] is not None, g[0] or ""))


def namespace_heading(namespace: str, count: int) -> str:
    return (
        f"Namespace `{namespace}` ({count} function{'s' * (count != 1)}; call "
        f"`{namespace}.f(...)`, or `f(...)` when no other namespace has an `f`)"
    )


def effects_text(fn: FunctionDescription) -> str:
    """`` [write]``, `` [destructive, idempotent]``: what a call changes (SPEC 17); nothing for
    the default, ``read``, or ``pure``."""
    if not fn.changes_things:
        return ""
    scope = f", scope {fn.scope}" if fn.scope else ""
    return f" [{fn.effects}{', idempotent' if fn.idempotent else ''}{scope}]"


def _function_lines(rt: Runtime, fn: FunctionDescription) -> list[str]:
    lines = [f"- `{signature(rt, fn)}`{effects_text(fn)}: {fn.description}"]
    if fn.aliases:
        lines.append("  - also called " + ", ".join(f"`{a}`" for a in fn.aliases))
    params, _ = parameters(rt, fn)
    for p in params:
        default = p.schema.get("default", _NO_DEFAULT) if p.optional else _NO_DEFAULT
        shown_default = "" if default is _NO_DEFAULT else f" (default: {_literal(default)})"
        if p.description or shown_default:
            about = p.description or "optional"
            lines.append(f"  - `{p.name}`: {about}{shown_default}")
    for synonym, own in fn.parameter_aliases.items():
        lines.append(f"  - `{synonym}`: another name of `{own}`")
    for example in fn.examples:
        lines.append(f"  - e.g. `{example}`")
    return lines


_NO_DEFAULT = object()


def catalog_markdown(rt: Runtime) -> str:
    reg = rt.registry
    lines = [primer(), "## Functions", ""]
    for namespace, fns in by_namespace(_functions(rt)):
        if namespace is not None:
            lines += ["", f"### {namespace_heading(namespace, len(fns))}", ""]
        for fn in fns:
            lines += _function_lines(rt, fn)
    if reg.types:
        lines += ["", "## Types", ""]
        for name in sorted(reg.types):
            td = reg.types[name]
            ctor = signature(rt, reg.functions[name])
            lines.append(f"- `{name}`: {td.description} Constructor: `{ctor}`.")
            if td.properties:
                props = ", ".join(f"`.{p}`" for p in td.properties)
                lines.append(f"  - properties: {props}")
    if reg.conversions:
        lines += ["", "## Conversions (applied automatically)", ""]
        for (a, b), conv in sorted(reg.conversions.items()):
            lines.append(f"- `{a}` -> `{b}`: {conv.description}")
    if reg.constants:
        lines += ["", "## Constants", ""]
        for name in sorted(reg.constants):
            c = reg.constants[name]
            lines.append(f"- `{name}` ({c.returns}): {c.description}")
    lines += [
        "",
        "Built-in types: " + ", ".join(f"`{t}`" for t in BUILTIN_TYPES) + ".",
        "",
    ]
    return "\n".join(lines)


_PARENS = re.compile(r"\s+\([^()]*\)")
_SENTENCE_END = re.compile(r"(?<!\be\.g\.)(?<!\bi\.e\.)(?<=[.!?])\s")
_SAME_AS = re.compile(r"\bsame\b.*\bas `?([A-Za-z_][\w]*)`?", re.IGNORECASE)


def short(text: str, limit: int = 75) -> str:
    """The first sentence of a description, without parenthetical remarks, at most ``limit``
    characters (cut at a word)."""
    text = " ".join(text.split())
    first = _SENTENCE_END.split(text, maxsplit=1)[0]
    first = _PARENS.sub("", first).strip()
    if len(first) > limit:
        cut = first[:limit]
        clause = max(cut.rfind(", "), cut.rfind("; "))
        cut = cut[:clause] if clause > limit // 2 else cut.rsplit(" ", 1)[0]
        cut = re.sub(r"(,? e\.g\.?|[,;:])$", "", cut.rstrip())
        first = cut + "..."
    return first


def catalog_compact(rt: Runtime) -> str:
    """The catalog for a prompt: the short primer, one line per function, type, conversion and
    group of constants."""
    reg = rt.registry
    fns = _functions(rt)
    builtins = [fn for fn in fns if is_builtin(rt, fn.name)]
    others = [fn for fn in fns if not is_builtin(rt, fn.name)]
    aliases = _same_as(rt, others)
    lines = [primer(compact=True), "Functions (a parameter shown without a type takes any value):"]
    for namespace, group in by_namespace(others):
        if namespace is not None:
            lines.append(namespace_heading(namespace, len(group)) + ":")
        for fn in group:
            if fn.name not in aliases:
                continue
            also = f" (also {', '.join(aliases[fn.name])})" if aliases[fn.name] else ""
            lines.append(
                f"- {compact_signature(rt, fn)}{also}{effects_text(fn)}: "
                f"{short(fn.description)}{synonyms_text(fn)}"
            )
    if builtins:
        lines.append(
            "Built-in: "
            + ", ".join(
                f"{fn.name}({', '.join(p.name + '?' * p.optional for p in reg.params(fn))})"
                for fn in builtins
                if fn.name != "convert"
            )
        )
    if reg.types:
        lines.append("Types (constructor: description; members: its parameters and those listed):")
        for name in sorted(reg.types):
            td = reg.types[name]
            params = {p.name for p in reg.params(reg.functions[name])}
            members = [m for m in td.properties if m not in params]
            made = compact_signature(rt, reg.functions[name]).removesuffix(f" -> {name}")
            lines.append(
                f"- {made}: "
                + short(td.description, 60).rstrip(".")
                + (f"; .{', .'.join(members)}" if members else "")
            )
    if reg.conversions:
        lines.append(f"Automatic conversions: {_conversions(reg.conversions)}.")
    if reg.constants:
        lines.extend(_compact_constants(reg))
    return "\n".join(lines) + "\n"


def _conversions(pairs: Iterable[tuple[str, str]]) -> str:
    """The automatic conversions by the type converted: ``string->date/place``."""
    targets: dict[str, list[str]] = {}
    for a, b in sorted(pairs):
        targets.setdefault(a, []).append(b)
    return ", ".join(f"{a}->{'/'.join(bs)}" for a, bs in targets.items())


def _compact_constants(reg: Any) -> list[str]:
    """The constants, a line per group of the same type and description (``day/days``: two
    spellings of one), under a heading per type."""
    lines = []
    names = sorted(reg.constants)
    spellings: dict[str, list[str]] = {n: [n] for n in names}
    for n in names:  # "The same unit as `day`.": days is another spelling of day
        m = _SAME_AS.search(reg.constants[n].description)
        if m and m.group(1) in spellings and m.group(1) != n:
            spellings[m.group(1)].append(n)
            del spellings[n]
    groups: dict[tuple[str, str], list[str]] = {}
    for n, spelled in spellings.items():
        c = reg.constants[n]
        groups.setdefault((c.returns, short(c.description, 60)), []).append("/".join(spelled))
    by_type: dict[str, list[tuple[str, str]]] = {}
    for (returns, text), members in sorted(groups.items(), key=lambda g: g[1][0]):
        by_type.setdefault(returns, []).append((", ".join(members), text))
    for returns, group in by_type.items():
        lines.append(f"Constants ({returns}):")
        lines.extend(f"- {members}: {text}" for members, text in group)
    return lines


def search_functions(
    registry_or_runtime: Any, query: str = "", namespace: str | None = None, limit: int = 20
) -> list[dict[str, Any]]:
    """The catalog entries of the functions matching ``query``, best first (see
    :func:`dialectic.tools.search.search_functions`, which this calls)."""
    from dialectic.tools.search import search_functions as search

    return search(registry_or_runtime, query, namespace, limit)
