"""What a model needs to write programs: the catalog and machine-readable specs of it.

Formats (``Runtime.describe(format)``, ``dialectic describe --format ...``):

- ``markdown`` (default): the primer (the language as it is today, in all three notations, and
  what it does not have) and every function, type, conversion and constant, for reference;
- ``compact``: the same in a few kilobytes, for a prompt (the shipped extensions' catalog fits
  in :data:`COMPACT_BUDGET` bytes; a test checks it);
- ``json-schema``: a JSON Schema (2020-12) of Dialect JSON programs over the registry: every
  program as a model may write it (all argument shorthands of SPEC 1.5), hence also its
  canonical form;
- ``openai``, ``anthropic``, ``mcp``: tool specs in each vendor's format: one ``run_program``
  tool (``program`` text and optional ``notation``; its description is the compact catalog),
  or with ``per_function=True`` one tool per registered function (the built-in library, which
  only makes sense inside a program, is left out). A per-function tool call ``(name,
  arguments)`` runs as the program :func:`tool_call_program` builds.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pydantic

from dialectic.registry.descriptions import BUILTIN_TYPES, FunctionDescription
from dialectic.tree.parse import BINARY_OPS, UNARY_OPS
from dialectic.values.jsmethods import GLOBALS

if TYPE_CHECKING:
    from dialectic.runtime import Runtime

FORMATS = ("markdown", "compact", "json-schema", "openai", "anthropic", "mcp")
TOOL_FORMATS = ("openai", "anthropic", "mcp")
#: the compact catalog of the shipped extensions fits in this many bytes (UTF-8)
COMPACT_BUDGET = 6 * 1024
RUN_PROGRAM = "run_program"
NOTATIONS = ("json", "plan", "plan2")

PRIMER = """\
# dialectic: how to write a program

A program composes calls of the functions listed below. Write it in one of three notations:
**Plan** (a strict subset of JavaScript), **Dialect JSON** (the call tree itself) or **Plan2**
(YAML). All three compile to the same call tree, and a run ends in one of three outcomes:
**success** (the value), **failure** (what is wrong, where, and what to do) or **ambiguous** (a
question, with complete programs to choose from: send one of them back).

**Plan.** Alias definitions `const name = expr;` (or `name = expr;`), then `return expr;` (the
final answer) or `use expr;` (hand the value back to you, to write the next program). Calls
are awaited implicitly (`await` is accepted and changes nothing). Expressions are JavaScript's:
literals (`'text'`, `42`, `1.5`, `true`, `null`, `undefined`, `[a, ...xs]`, `{key: value, ...o}`),
names (an alias, a constant or a value of the run's context), calls `f(a, b)` or with named
arguments `f({x: 1, y: 2})`, methods `x.m(a)` (JavaScript's array and text methods; any other
`m` is the call `m(x, a)`), member access `a.b`, `a[0]`, `a?.b`, template literals
`` `Hi ${name}!` ``, the operators `+ - * / % ** === !== == != < <= > >= && || ?? !` and
`test ? a : b` (only the branch taken runs), `Math.min/max/round/floor/ceil/abs`,
`Object.keys/values/entries`, `JSON.stringify/parse`, `Number`, `String`, `parseInt`,
`parseFloat`, `Array.isArray`. Arrow functions are arguments of array methods: `map`, `filter`,
`find`, `findIndex`, `some`, `every`, `flatMap`, `reduce`, `toSorted`/`sort` (also `slice`,
`concat`, `includes`, `indexOf`, `join`, `at`, `length`); calls inside one run concurrently for
all items.

```js
const found = flights({origin: 'SFO', destination: 'LAX', departing: next(Thursday)});
const united = found.filter(f => f.airline === 'United');            // filter
const cheapest = found.toSorted((a, b) => a.price_usd - b.price_usd)[0];  // sort and pick
const byAirport = ['SFO', 'OAK'].map(a => flights({origin: a, destination: 'LAX'}).length);
return {
  cheapest: cheapest.flight,
  for_two: cheapest.price_usd * 2,                                    // arithmetic
  united: united.length > 0 ? united.map(f => f.flight) : 'none',     // conditional
  byAirport,                                                          // fan-out with map
};
```

Aliases are not variables: each is defined once, computed at most once and only if the result
needs it, in any order of definition; independent calls run concurrently. When JavaScript's
answer would be a trap for data (`'5' - 2`, `1 == '1'`, `[a] + [b]`, `1 / 0`), the run fails and
says what to write instead.

**Dialect JSON.** An object with exactly one key is a call: `{"f": {"x": 1, "y": 2}}` (named
arguments), `{"f": [1, 2]}` (positional), `{"f": 1}` (the one required argument). Calls nest:
`{"findReferences": {"getCurrentSelection": {}}}`. Any other object is data (values evaluated);
write a one-key data object as `{"$object": {"key": value}}`. Core forms: `{"$ref": "name"}`,
`{"$get": [value, "key", 0]}` (member and index access), `{"$template": ["Hi ", {"$ref": "n"}]}`
(text), `{"$let": {"a": expr}, "$return": expr}` (aliases; `"$use"` instead of `"$return"` at the
top hands the value back), `{"$quote": data}` (data, not evaluated), and the expressions:
`{"$op": ["+", a, b]}`, `{"$if": [test, then, otherwise]}`, `{"$get?": [v, "k"]}`,
`{"$method": [xs, "map", {"$fn": [["x"], body]}]}`, `{"$global": ["Math.max", a, b]}`,
`{"$spread": xs}`, `{"$merge": [o1, o2]}`.

**Plan2 (YAML).** A mapping of aliases; `result` is the program's value. An alias maps
functions (domains) to their named arguments (slots); several functions under one alias run
concurrently, and an alias with one function is that call's result (a one-element list becomes
its element). Every string is a template: `${expr}` holds a Plan expression, and a string that is
exactly `${expr}` keeps the value's type. Plan2 has no `use`.

```yaml
day: ${next(Thursday)}
result:
  flights:
    origin: SFO
    destination: LAX
    departing: ${day}
```

**Not in the language.** Statements other than aliases and the final `return`/`use` (`if`,
`for`, `while`, `switch`, `try`), function declarations and arrow functions outside an array
method, `new`, classes, destructuring, assignment to a member or a second assignment to a name,
`++`, bitwise operators, regular expressions. Write instead: `test ? a : b` for a choice,
`.map`/`.filter`/`.reduce` for loops, a new alias for a new value, `use` to decide in the next
program.

**Values.** Arguments are converted to the declared types automatically: text <-> number,
a single value to a one-element list, a list to text joined with ", ", and the registered
conversions below. Functions are not values: call them. Member access reads JSON data and the
declared fields and properties of the types below.
"""

COMPACT_PRIMER = """\
# dialectic: write a program that calls the functions below

Outcome: success, failure (with what to fix) or ambiguous (with programs to choose from).
- Plan (JavaScript): `const a = f({x: 1});` aliases (each runs at most once, only if needed;
  independent calls run concurrently), then `return expr;` (or `use expr;`: hand the value back).
  Calls `f(a, b)`, `f({name: v})`; JavaScript's operators, `c ? a : b`, `a?.b`, `...xs`,
  templates, Math/Object/JSON helpers and array methods with arrows:
  `fs.filter(f => f.airline === 'UA')`, `fs.toSorted((a, b) => a.price - b.price)[0]`,
  `fs.reduce((s, f) => s + f.price, 0)`, `['SFO', 'OAK'].map(a => flights({origin: a}))`
  (a fan-out). Any other `x.m(a)` is `m(x, a)`. No if/for/while, function, new, classes.
- Dialect JSON: a one-key object is a call: `{"f": {"x": 1}}`, `{"f": [1, 2]}`, `{"f": 1}`; calls
  nest. Forms: `{"$ref": "a"}`, `{"$get": [v, "key", 0]}`, `{"$template": ["Hi ", v]}`,
  `{"$let": {"a": v}, "$return": v}` (or `"$use"`), `{"$object": {"k": v}}`, `{"$quote": v}`,
  `{"$op": ["+", a, b]}`, `{"$if": [c, a, b]}`, `{"$method": [xs, "map", {"$fn": [["x"], e]}]}`.
- Plan2 (YAML): alias -> function -> named arguments; `result` is the value; every string is a
  template, `${expr}` alone keeps the type: `result: {f: {x: SFO, y: '${a.b}'}}`.
Arguments convert to the declared types (text <-> number, value -> [value], list -> text joined
with ", ").
"""


def primer(compact: bool = False) -> str:
    """The language primer (SPEC sections 1, 10, 11 in brief)."""
    return COMPACT_PRIMER if compact else PRIMER


# -- parameters and their types ----------------------------------------------------------------


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
    type describes it."""
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
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        target = defs.get(ref.removeprefix("#/$defs/"))
        if isinstance(target, Mapping):
            return target
    return schema


_FORMAT_NAMES = {"date": "ISO date", "date-time": "ISO date-time", "time": "ISO time"}


def schema_text(schema: Mapping[str, Any], defs: Mapping[str, Any], depth: int = 0) -> str:
    """A JSON Schema written as a short type: ``'a' | 'b'``, ``string[]``, ``{x: number}``."""
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
        if isinstance(from_model, dict) and p.type not in reg.types:
            schema = {k: v for k, v in from_model.items() if k != "default"}
            shown = schema_text(schema, defs)
            if shown == "any":
                shown = p.type
        else:
            schema = type_schema(rt, p.type)
            shown = p.type
        if described:
            about = schema.get("description")
            schema = {**schema, "description": f"{described} ({about})" if about else described}
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


def _is_builtin(rt: Runtime, name: str) -> bool:
    check = getattr(rt.registry, "is_builtin", None)
    return bool(check(name)) if check is not None else False


def _same_as(rt: Runtime, fns: Iterable[FunctionDescription]) -> dict[str, list[str]]:
    """Functions registered under several names (the same implementation and parameters):
    the main name (the first whose description does not say "same as") -> the others."""
    groups: dict[tuple[int, tuple[Any, ...]], list[FunctionDescription]] = {}
    for fn in fns:
        key = (id(fn.implementation), tuple(rt.registry.params(fn)))
        groups.setdefault(key, []).append(fn)
    out = {}
    for group in groups.values():
        main = next((f for f in group if not _SAME_AS.search(f.description)), group[0])
        out[main.name] = [f.name for f in group if f is not main]
    return out


def compact_signature(rt: Runtime, fn: FunctionDescription) -> str:
    """A signature for the compact catalog: parameters of type ``any`` without a type."""
    params, _ = parameters(rt, fn)
    parts = [
        f"{p.name}{'?' if p.optional else ''}" + ("" if p.shown == "any" else f": {p.shown}")
        for p in params
    ]
    return f"{fn.name}({', '.join(parts)}) -> {fn.returns}"


def catalog_markdown(rt: Runtime) -> str:
    reg = rt.registry
    lines = [primer(), "## Functions", ""]
    for fn in _functions(rt):
        lines.append(f"- `{signature(rt, fn)}`: {fn.description}")
        params, _ = parameters(rt, fn)
        for p in params:
            if p.description:
                lines.append(f"  - `{p.name}`: {p.description}")
        for example in fn.examples:
            lines.append(f"  - e.g. `{example}`")
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
    builtins = [fn for fn in fns if _is_builtin(rt, fn.name)]
    others = [fn for fn in fns if not _is_builtin(rt, fn.name)]
    aliases = _same_as(rt, others)
    lines = [primer(compact=True), "Functions (a parameter shown without a type takes any value):"]
    for fn in others:
        if fn.name not in aliases:
            continue
        also = f" (also {', '.join(aliases[fn.name])})" if aliases[fn.name] else ""
        lines.append(f"- {compact_signature(rt, fn)}{also}: {short(fn.description)}")
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
        lines.append("Types (constructor: description; members):")
        for name in sorted(reg.types):
            td = reg.types[name]
            members = [p.name for p in reg.params(reg.functions[name])] + list(td.properties)
            lines.append(
                f"- {compact_signature(rt, reg.functions[name])}: "
                + short(td.description, 60).rstrip(".")
                + (f"; .{', .'.join(members)}" if members else "")
            )
    if reg.conversions:
        pairs = ", ".join(f"{a}->{b}" for a, b in sorted(reg.conversions))
        lines.append(f"Automatic conversions: {pairs}.")
    if reg.constants:
        lines.append("Constants:")
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
        for (returns, text), members in sorted(groups.items(), key=lambda g: g[1][0]):
            lines.append(f"- {', '.join(members)} ({returns}): {text}")
    return "\n".join(lines) + "\n"


# -- JSON Schema of programs -------------------------------------------------------------------

_SCALAR = {"type": ["string", "number", "boolean", "null"]}
_NOT_FORM = {"pattern": "^[^$]"}
_ONE_KEY = {"minProperties": 1, "maxProperties": 1}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/$defs/{name}"}


def _only(key: str, value: Any) -> dict[str, Any]:
    return {"type": "object", "properties": {key: value}, "required": [key], "minProperties": 1}


def _args_schema(rt: Runtime, fn: FunctionDescription) -> dict[str, Any]:
    """Every shape of a call's arguments that binds (SPEC 1.5), as JSON Schema."""
    reg = rt.registry
    params = reg.params(fn)
    names = [p.name for p in params]
    required = [p.name for p in params if not p.optional]
    expr = _ref("expr")
    descriptions = fn.parameter_descriptions
    named: dict[str, Any] = {
        "type": "object",
        "properties": {
            p.name: {**expr, "description": f"{p.type}: {descriptions[p.name]}"}
            if descriptions.get(p.name)
            else {**expr, "description": p.type}
            for p in params
        },
        "required": required,
        "additionalProperties": False,
    }
    arg_objects: list[dict[str, Any]] = [named]
    holder = params[0] if len(params) == 1 else None
    if holder is None and len(required) == 1:
        holder = next(p for p in params if not p.optional)
    if holder is not None and (holder.type in ("object", "any") or holder.type in reg.types):
        # an object none of whose keys is a parameter is that parameter's value
        arg_objects.append(
            {
                "type": "object",
                "minProperties": 2,
                "propertyNames": {**_NOT_FORM, "not": {"enum": names}},
                "additionalProperties": expr,
            }
        )
    shapes: list[dict[str, Any]] = [
        *arg_objects,
        {
            "description": "positional arguments: required parameters first, then optional ones",
            "type": "array",
            "items": expr,
            "minItems": len(required),
            "maxItems": len(params),
        },
        {
            "description": "one object literal: the argument object",
            "type": "array",
            "prefixItems": [
                {
                    "anyOf": [
                        # a plain one-key object is a call, not an object literal
                        {"allOf": [{"anyOf": arg_objects}, {"not": _ONE_KEY}]},
                        _only("$object", {"anyOf": arg_objects}),
                    ]
                }
            ],
            "minItems": 1,
            "maxItems": 1,
        },
    ]
    if params and len(required) <= 1:
        # a nested call, a scalar or a core form: the one required (or first) parameter's value
        shapes.append(
            {"anyOf": [_SCALAR, _ref("call"), _ref("form"), _ref("block")]},
        )
    return {"anyOf": shapes}


def program_schema(rt: Runtime) -> dict[str, Any]:
    """A JSON Schema (2020-12) of valid Dialect JSON programs over this registry.

    It accepts programs as written (named, positional and single arguments, nested calls,
    argument objects bound whole: SPEC 1.5), so also their canonical form (SPEC 1.6). It checks
    the structure, the function names (exactly as registered) and the parameter names; values
    are any expression, since arguments are converted to their types when the program runs.
    """
    reg = rt.registry
    expr = _ref("expr")
    defs: dict[str, Any] = {}
    calls: dict[str, Any] = {}
    for name in sorted(reg.functions):
        fn = reg.functions[name]
        key = f"args:{name}"
        defs[key] = {"description": f"{reg.signature(fn)}: {fn.description}"}
        defs[key].update(_args_schema(rt, fn))
        calls[name] = _ref(key)
    defs["call"] = {
        "description": "a call: an object whose one key is a function's name",
        "type": "object",
        "minProperties": 1,
        "maxProperties": 1,
        "propertyNames": {"enum": sorted(calls)} if calls else False,
        "properties": calls,
    }
    forms = {
        "$ref": {"type": "string", "minLength": 1},
        "$get": {"type": "array", "items": expr, "minItems": 2},
        "$object": {"type": "object", "additionalProperties": expr},
        "$quote": {},
        "$template": {"type": "array", "items": expr},
        "$undefined": {},
        "$unwrap": expr,
    }
    forms["$op"] = {
        "description": "a JavaScript operator and its operands",
        "anyOf": [
            {
                "type": "array",
                "prefixItems": [{"enum": sorted(UNARY_OPS)}, expr],
                "minItems": 2,
                "maxItems": 2,
            },
            {
                "type": "array",
                "prefixItems": [{"enum": sorted(BINARY_OPS)}, expr, expr],
                "minItems": 3,
                "maxItems": 3,
            },
        ],
    }
    forms["$if"] = {
        "description": "[test, then, otherwise]: only the branch taken runs",
        "type": "array",
        "items": expr,
        "minItems": 3,
        "maxItems": 3,
    }
    forms["$get?"] = {"type": "array", "items": expr, "minItems": 2}
    forms["$fn"] = {
        "description": "[[parameter, ...], body]: an arrow function, as a method's argument",
        "type": "array",
        "prefixItems": [{"type": "array", "items": {"type": "string", "minLength": 1}}, expr],
        "minItems": 2,
        "maxItems": 2,
    }
    forms["$method"] = {
        "description": "[target, method, argument, ...]: JavaScript's array and text methods",
        "type": "array",
        "prefixItems": [expr, {"type": "string", "minLength": 1}],
        "items": expr,
        "minItems": 2,
    }
    forms["$global"] = {
        "description": "[name, argument, ...]: Math.max, Object.keys, Number, ...",
        "type": "array",
        "prefixItems": [{"enum": sorted(GLOBALS)}],
        "items": expr,
        "minItems": 1,
    }
    forms["$spread"] = expr
    forms["$merge"] = {"type": "array", "items": expr}
    defs["form"] = {
        "description": "a core form: an object whose one key is one of these",
        "type": "object",
        "minProperties": 1,
        "maxProperties": 1,
        "propertyNames": {"enum": sorted(forms)},
        "properties": forms,
    }
    defs["data"] = {
        "description": "an object with zero or two or more keys: data, values evaluated",
        "type": "object",
        "not": _ONE_KEY,
        "propertyNames": _NOT_FORM,
        "additionalProperties": expr,
    }
    bindings = {"type": "object", "propertyNames": _NOT_FORM, "additionalProperties": expr}
    defs["block"] = {
        "description": "aliases and the block's value",
        "type": "object",
        "properties": {"$let": bindings, "$return": expr},
        "required": ["$return"],
        "additionalProperties": False,
    }
    defs["top"] = {
        "description": "the program's block; `$use` hands the value back to the model",
        "type": "object",
        "properties": {"$let": bindings, "$use": expr},
        "required": ["$use"],
        "additionalProperties": False,
    }
    defs["expr"] = {
        "anyOf": [
            _SCALAR,
            {"type": "array", "items": expr},
            _ref("call"),
            _ref("form"),
            _ref("block"),
            _ref("data"),
        ]
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "dialectic program",
        "anyOf": [expr, _ref("top")],
        "$defs": defs,
    }


# -- tool specs --------------------------------------------------------------------------------


def run_program_parameters() -> dict[str, Any]:
    """The parameters of the ``run_program`` tool."""
    return {
        "type": "object",
        "properties": {
            "program": {
                "type": "string",
                "description": "The program's text, in the notation given by `notation`.",
            },
            "notation": {
                "type": "string",
                "enum": list(NOTATIONS),
                "description": "json (Dialect JSON), plan (the JavaScript subset) or plan2 "
                "(YAML); detected from the text when omitted.",
            },
        },
        "required": ["program"],
        "additionalProperties": False,
    }


def function_parameters(rt: Runtime, fn: FunctionDescription) -> dict[str, Any]:
    """A function's parameters as a JSON Schema of tool-call arguments (JSON data)."""
    params, defs = parameters(rt, fn)
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {p.name: p.schema for p in params},
        "required": [p.name for p in params if not p.optional],
        "additionalProperties": False,
    }
    if defs:
        schema["$defs"] = defs
    return schema


def tool_call_program(name: str, arguments: Mapping[str, Any]) -> dict[str, Any]:
    """The Dialect JSON program a per-function tool call runs: ``name`` called with the
    arguments as data (``$quote``: a one-key object in them is not read as a call)."""
    return {name: {k: {"$quote": v} for k, v in arguments.items()}}


def _tool(fmt: str, name: str, description: str, schema: dict[str, Any]) -> dict[str, Any]:
    if fmt == "openai":
        return {
            "type": "function",
            "function": {"name": name, "description": description, "parameters": schema},
        }
    if fmt == "anthropic":
        return {"name": name, "description": description, "input_schema": schema}
    if fmt == "mcp":
        return {"name": name, "description": description, "inputSchema": schema}
    raise ValueError(f"unknown tool format {fmt!r}; use one of {', '.join(TOOL_FORMATS)}")


def tool_specs(rt: Runtime, fmt: str, *, per_function: bool = False) -> list[dict[str, Any]]:
    """Tool specs in the vendor format ``fmt``: one ``run_program`` tool, or one per function."""
    if not per_function:
        description = (
            "Run a dialectic program and get its outcome (success with the value, failure with "
            "what to fix, or ambiguous with programs to choose from).\n\n" + catalog_compact(rt)
        )
        return [_tool(fmt, RUN_PROGRAM, description, run_program_parameters())]
    reg = rt.registry
    out = []
    for name in sorted(reg.functions):
        if _is_builtin(rt, name):
            continue
        fn = reg.functions[name]
        description = f"{fn.description} Returns {fn.returns}."
        out.append(_tool(fmt, name, description, function_parameters(rt, fn)))
    return out


def describe(rt: Runtime, format: str = "markdown", *, per_function: bool = False) -> Any:
    """The catalog in ``format`` (one of :data:`FORMATS`): text, or JSON data."""
    if per_function and format not in TOOL_FORMATS:
        raise ValueError(f"per_function applies to the tool formats {', '.join(TOOL_FORMATS)}")
    if format == "markdown":
        return catalog_markdown(rt)
    if format == "compact":
        return catalog_compact(rt)
    if format in ("json-schema", "schema"):
        return program_schema(rt)
    if format in TOOL_FORMATS:
        return tool_specs(rt, format, per_function=per_function)
    raise ValueError(f"unknown format {format!r}; use one of {', '.join(FORMATS)}")
