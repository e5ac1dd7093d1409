"""Converting programs between notations: Dialect JSON, Plan and Plan2.

``convert(source, source_lang, target_lang, **options) -> str``. Every conversion goes through the
call tree: the source front end compiles to it, and the target is written from it (Plan with the
Plan front end's decompiler, Plan2 with :func:`tree_to_plan2`, JSON as indented JSON).

Plan -> Plan2 follows the seed's recipe: an alias bound to a call whose arguments are named (an
argument object, or a single object literal ``f({a: 1})``) becomes a DomainSet ``alias: {f: {a:
1}}``; everything else becomes a template (``${...}``). What is lost or changed:

- comments (Plan ``//`` and ``/* */``, YAML ``#``) and layout are not kept;
- Plan2 has no ``use``: a Plan program ending in ``use`` becomes one with ``result`` and a
  comment saying so;
- with single-domain lifting (``lift=True``, Plan2's default) a DomainSet alias's value is the
  call's result *except that a one-element array result becomes its element*: a Plan alias bound
  to such a call would change meaning. ``exact=True`` keeps such calls as templates
  (``${f({a: 1})}``) instead; ``lift=False`` converts them to DomainSets and rewrites every
  reference ``a`` to ``a.f`` (exact, and what the converter's property test checks);
- an alias that Plan names ``result`` is renamed ``result_1`` if the program returns something
  else (Plan2's ``result`` is the program's value).
"""

from __future__ import annotations

import re
from typing import Any

import orjson

from dialectic.frontends.plan2 import DEFAULT_LIFT, dump_plan2, escape_text, parse_plan2
from dialectic.outcome.errors import DialecticError

LANGS = ("json", "plan", "plan2")


class ConversionError(DialecticError):
    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__("conversion_error", message, hint=hint)


def _plan() -> Any:
    try:
        from dialectic.frontends import plan
    except ImportError:  # pragma: no cover - the Plan front end ships with dialectic
        raise ConversionError("the Plan front end is not available") from None
    return plan


def to_tree(source: str, lang: str, *, warnings: list[str] | None = None, **options: Any) -> Any:
    """The call tree of ``source``. Dialect JSON is read as ``dialectic run`` reads it (a fence
    removed, repairs, envelopes such as an OpenAI tool call: SPEC 9); an LLMCompiler plan (text)
    is read whatever ``lang`` says. What was repaired or read is appended to ``warnings``."""
    from dialectic.frontends import to_tree as front_tree
    from dialectic.frontends.envelopes import looks_like_llmcompiler

    if lang == "json" or (lang in LANGS and looks_like_llmcompiler(source)):
        front = front_tree(source, "json", strict=bool(options.get("strict", False)))
        if warnings is not None:
            warnings.extend(front.warnings)
        return front.tree
    if lang == "plan":
        return _plan().parse_plan(source).tree
    if lang == "plan2":
        kwargs = {k: v for k, v in options.items() if k in ("lift", "slots", "strict")}
        return parse_plan2(source, **kwargs).tree
    raise ConversionError(f"unknown notation {lang!r}", hint=f"use one of {', '.join(LANGS)}")


def from_tree(tree: Any, lang: str, **options: Any) -> str:
    if lang == "json":
        return orjson.dumps(tree, option=orjson.OPT_INDENT_2).decode() + "\n"
    if lang == "plan":
        text: str = _plan().decompile(tree_for_plan(tree))
        return text if text.endswith("\n") else text + "\n"
    if lang == "plan2":
        kwargs = {k: v for k, v in options.items() if k in ("lift", "exact")}
        return tree_to_plan2(tree, **kwargs)
    raise ConversionError(f"unknown notation {lang!r}", hint=f"use one of {', '.join(LANGS)}")


_IDENT = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$]*$")


def _replace_unwrap(tree: Any) -> Any:
    if isinstance(tree, list):
        return [_replace_unwrap(v) for v in tree]
    if isinstance(tree, dict):
        if set(tree) == {"$quote"}:
            return tree
        if set(tree) == {"$unwrap"}:
            return {"unwrap": [_replace_unwrap(tree["$unwrap"])]}
        return {k: _replace_unwrap(v) for k, v in tree.items()}
    return tree


def tree_for_plan(tree: Any) -> Any:
    """The call tree made writable in Plan: ``{"$unwrap": x}`` (no Plan syntax) becomes the call
    ``unwrap(x)`` of the standard function, and top-level aliases whose names Plan cannot write
    (JavaScript keywords such as Plan2's ``return:``) are renamed ``name_``."""
    return _rename_keyword_aliases(_replace_unwrap(tree))


def _rename_keyword_aliases(tree: Any) -> Any:
    from dialectic.frontends.plan.keywords import LITERAL_WORDS, RESERVED

    if not (isinstance(tree, dict) and isinstance(tree.get("$let"), dict)):
        return tree
    bindings = tree["$let"]
    taken = set(bindings)
    renames: dict[str, Any] = {}
    for name in bindings:
        if name in RESERVED or name in LITERAL_WORDS or name == "this" or not _IDENT.match(name):
            base = re.sub(r"\W", "_", name) + "_"
            new = base if base not in taken else _fresh(base, taken)
            taken.add(new)
            renames[name] = {"$ref": new}
    if not renames:
        return tree
    out = _rename_refs({k: v for k, v in tree.items() if k != "$let"}, renames)
    out["$let"] = {
        (renames[k]["$ref"] if k in renames else k): _rename_refs(v, renames)
        for k, v in bindings.items()
    }
    return {"$let": out.pop("$let"), **out}


def convert(
    source: str,
    source_lang: str,
    target_lang: str,
    *,
    warnings: list[str] | None = None,
    **options: Any,
) -> str:
    """Convert ``source`` from one notation to another (``json``, ``plan``, ``plan2``).

    Options: ``lift`` (Plan2 single-domain lifting, both when reading and writing Plan2; default
    True), ``exact`` (Plan2 output: keep calls whose lifted meaning could differ as templates),
    ``slots`` (how Plan2 input reads slot values; default "as-written"). A Dialect JSON source in
    a model's answer shape (an OpenAI or Anthropic tool call, ...: SPEC 9) converts to the
    program it was read as; ``warnings`` (a list) receives what was repaired or read."""
    tree = to_tree(source, source_lang, warnings=warnings, **options)
    return from_tree(tree, target_lang, **options)


# -- call tree -> Plan2 ------------------------------------------------------------------------


def _is_call(expr: Any) -> bool:
    return isinstance(expr, dict) and len(expr) == 1 and not next(iter(expr)).startswith("$")


def _slots_of(args: Any) -> dict[str, Any] | None:
    """The named arguments of a call's ARGS when they can be written as Plan2 slots."""
    if isinstance(args, dict):
        if any(k.startswith("$") for k in args):
            return None
        return dict(args)
    if isinstance(args, list):
        if not args:
            return {}
        if len(args) == 1 and isinstance(args[0], dict):
            only = args[0]
            if set(only) == {"$object"} and isinstance(only["$object"], dict):
                fields = only["$object"]
                if any(k.startswith("$") for k in fields):
                    return None
                # (a one-key `f({k: v})` reads back as `{f: {k: v}}`: named argument `k` when
                # `k` is a parameter of `f`, as SPEC 1.5 reads the original; documented)
                return dict(fields)
            if len(only) > 1 and not any(k.startswith("$") for k in only):
                return dict(only)
    return None


def _expr_text(expr: Any) -> str:
    text: str = _plan().decompile_expression(expr)
    return "${" + text + "}"


def _value(expr: Any) -> Any:
    """A slot value as YAML data that Plan2 (slots="as-written") reads back as ``expr``."""
    if isinstance(expr, str):
        return escape_text(expr)
    if isinstance(expr, bool | int | float) or expr is None:
        return expr
    if isinstance(expr, list):
        return [_value(v) for v in expr]
    if isinstance(expr, dict):
        if set(expr) == {"$template"} and isinstance(expr["$template"], list):
            merged: list[Any] = []  # adjacent texts join first: "$" + "{" must be escaped whole
            for part in expr["$template"]:
                if isinstance(part, str) and merged and isinstance(merged[-1], str):
                    merged[-1] += part
                else:
                    merged.append(part)
            parts = [p for p in merged if p != ""]
            if len(parts) == 1 and not isinstance(parts[0], str):
                return _expr_text(expr)  # `${x}` alone would keep x's type: write `${`${x}`}`
            if any(
                isinstance(p, str) and p.endswith("\\") and not isinstance(q, str)
                for p, q in zip(parts, parts[1:], strict=False)
            ):
                return _expr_text(expr)  # "\\" right before `${` would escape it in Plan2 text
            return "".join(escape_text(p) if isinstance(p, str) else _expr_text(p) for p in parts)
        if set(expr) == {"$object"} and isinstance(expr["$object"], dict):
            return {k: _value(v) for k, v in expr["$object"].items()}
        if len(expr) > 1 and not any(k.startswith("$") for k in expr):
            return {k: _value(v) for k, v in expr.items()}
    return _expr_text(expr)


def _alias_value(expr: Any) -> Any:
    """A string-valued alias: literal text, a number, or a template."""
    if isinstance(expr, str):
        return escape_text(expr)
    if isinstance(expr, bool | int | float):
        return expr
    if isinstance(expr, dict) and set(expr) == {"$template"}:
        return _value(expr)
    return _expr_text(expr)


def _domain_set(expr: Any, lift: bool) -> dict[str, Any] | None:
    """The DomainSet an alias expression is, exactly, when Plan2 (with ``lift``) compiles it back
    to the same tree."""
    inner = None
    if isinstance(expr, dict) and set(expr) == {"$unwrap"}:
        inner = expr["$unwrap"]
    elif (
        isinstance(expr, dict)
        and set(expr) == {"unwrap"}
        and isinstance(expr["unwrap"], list)
        and len(expr["unwrap"]) == 1
    ):
        inner = expr["unwrap"][0]  # Plan's `unwrap(f({...}))`
    if lift and inner is not None and _is_call(inner):
        ((name, args),) = inner.items()
        slots = _slots_of(args)
        return None if slots is None else {name: slots}
    fields = None
    if isinstance(expr, dict) and set(expr) == {"$object"} and isinstance(expr["$object"], dict):
        fields = expr["$object"]
    elif isinstance(expr, dict) and len(expr) > 1 and not any(k.startswith("$") for k in expr):
        fields = expr
    if fields is None or (lift and len(fields) == 1) or not fields:
        return None
    out: dict[str, Any] = {}
    for key, call in fields.items():
        if not _is_call(call) or next(iter(call)) != key:
            return None
        slots = _slots_of(call[key])
        if slots is None:
            return None
        out[key] = slots
    return out


def _rename_refs(tree: Any, renames: dict[str, Any]) -> Any:
    """Replace ``{"$ref": old}`` by ``renames[old]`` (a tree, or with a trailing key list for
    ``$get``), respecting nested blocks that rebind a name, and never inside ``$quote``."""
    if isinstance(tree, list):
        return [_rename_refs(v, renames) for v in tree]
    if not isinstance(tree, dict):
        return tree
    if set(tree) == {"$quote"}:
        return tree
    if set(tree) == {"$ref"} and tree["$ref"] in renames:
        return renames[tree["$ref"]]
    if (
        set(tree) == {"$get"}
        and isinstance(tree["$get"], list)
        and tree["$get"]
        and isinstance(tree["$get"][0], dict)
        and set(tree["$get"][0]) == {"$ref"}
        and tree["$get"][0]["$ref"] in renames
    ):
        target = renames[tree["$get"][0]["$ref"]]
        keys = [_rename_refs(k, renames) for k in tree["$get"][1:]]
        if isinstance(target, dict) and set(target) == {"$get"}:
            return {"$get": [*target["$get"], *keys]}
        return {"$get": [target, *keys]}
    if "$let" in tree and isinstance(tree["$let"], dict):
        inner = {k: v for k, v in renames.items() if k not in tree["$let"]}
        return {k: _rename_refs(v, inner) for k, v in tree.items()}
    return {k: _rename_refs(v, renames) for k, v in tree.items()}


def _statements_as_aliases(tree: Any, notes: list[str]) -> Any:
    """A ``$do`` block (SPEC 17) as aliases in the same order: Plan2 has no expression
    statements, and runs an alias nobody reads only when it calls a write or destructive
    function or ``sleep`` (a pure or read-only expression statement then does not run)."""
    if not (isinstance(tree, dict) and isinstance(tree.get("$do"), list)):
        return tree
    bindings = dict(tree.get("$let") or {})
    groups = [i["$let"] for i in tree["$do"] if isinstance(i, dict) and set(i) == {"$let"}]
    taken = set(bindings).union(*groups) | {"result"}
    for item in tree["$do"]:
        if isinstance(item, dict) and set(item) == {"$let"} and isinstance(item["$let"], dict):
            bindings.update(item["$let"])
        else:
            bindings[_fresh("step", taken)] = item
    notes.append(
        "the expression statements became the aliases step_N, in the same order: Plan2 runs "
        "such an alias only when it calls a write or destructive function or `sleep`"
    )
    return {"$let": bindings, **{k: v for k, v in tree.items() if k in ("$return", "$use")}}


def _fresh(name: str, taken: set[str]) -> str:
    n = 1
    while f"{name}_{n}" in taken:
        n += 1
    taken.add(f"{name}_{n}")
    return f"{name}_{n}"


def _plain_call(expr: Any) -> tuple[str, dict[str, Any]] | None:
    if not _is_call(expr):
        return None
    ((fname, args),) = expr.items()
    slots = _slots_of(args)
    return None if slots is None else (fname, slots)


def tree_to_plan2(tree: Any, *, lift: bool = DEFAULT_LIFT, exact: bool = False) -> str:
    """Plan2 YAML for a call tree (read it back with ``parse_plan2(text, lift=lift)``)."""
    notes: list[str] = []
    tree = _statements_as_aliases(tree, notes)
    tree = _rename_keyword_aliases(tree)  # expressions are written with the Plan decompiler
    if (
        isinstance(tree, dict)
        and ("$return" in tree or "$use" in tree)
        and set(tree) <= {"$let", "$return", "$use"}
    ):
        bindings = dict(tree.get("$let") or {})
        if "$use" in tree:
            body = tree["$use"]
            notes.append(
                "converted from a program that ends with `use`: Plan2 has no `use`, this plan "
                "returns its result"
            )
        else:
            body = tree["$return"]
    else:
        bindings, body = {}, tree
    taken = set(bindings) | {"result"}
    plain_result = (
        not lift
        and "result" in bindings
        and _domain_set(bindings["result"], lift) is None
        and _plain_call(bindings["result"]) is not None
    )
    if "result" in bindings and (body != {"$ref": "result"} or plain_result):
        new = _fresh("result", taken)
        ren: dict[str, Any] = {"result": {"$ref": new}}
        bindings = {
            (new if k == "result" else k): _rename_refs(v, ren) for k, v in bindings.items()
        }
        body = _rename_refs(body, ren)
    lift_calls = lift and not exact
    domain_sets: dict[str, dict[str, dict[str, Any]]] = {}
    exprs: dict[str, Any] = {}
    plain: dict[str, str] = {}  # alias -> domain of a plain call made a DomainSet (lift=False)
    order: list[str] = []

    def bind(name: str, expr: Any) -> None:
        order.append(name)
        ds = _domain_set(expr, lift)
        if ds is None and (lift_calls or not lift):
            found = _plain_call(expr)
            if found is not None:
                ds = {found[0]: found[1]}
                if not lift:
                    plain[name] = found[0]
        if ds is not None:
            domain_sets[name] = ds
        else:
            exprs[name] = expr

    for name, expr in bindings.items():
        bind(name, expr)
    if not (body == {"$ref": "result"} and "result" in bindings):
        found = _plain_call(body) if _domain_set(body, lift) is None else None
        if found is not None and not lift:
            alias = _fresh(found[0], taken)
            bind(alias, body)
            bind("result", {"$ref": alias})
        else:
            bind("result", body)
    if plain:
        ren = {a: {"$get": [{"$ref": a}, f]} for a, f in plain.items()}
        exprs = {k: _rename_refs(v, ren) for k, v in exprs.items()}
        domain_sets = {
            k: {d: {s: _rename_refs(v, ren) for s, v in slots.items()} for d, slots in ds.items()}
            for k, ds in domain_sets.items()
        }
    data: dict[str, Any] = {}
    for name in [n for n in order if n != "result"] + ["result"]:
        if name in domain_sets:
            data[name] = {
                d: {s: _value(v) for s, v in slots.items()}
                for d, slots in domain_sets[name].items()
            }
        else:
            data[name] = _alias_value(exprs[name])
    return dump_plan2(data, header="\n".join(notes) or None)
