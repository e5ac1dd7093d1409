"""More shapes for the program generator (`program_generator.py`): numbers as text (computed
floats through `String`, templates, `JSON.stringify`, `toFixed`, `join`), `-0` made by
`Math` and arithmetic, destructuring parameters, `reduce` into objects with computed keys,
`Object.entries(...).map(([k, v]) => ...)`, arrow functions with block bodies, optional
chains through methods, comparators that disagree with themselves, and `if` statements."""

from __future__ import annotations

import random

from .program_generator import (
    ANUM,
    AOBJ,
    ASTR,
    BOOL,
    NUM,
    OBJ,
    STR,
    TYPES,
    Generator,
    Scope,
    base_scope,
)

#: computed numbers whose text JavaScript writes in its own way
FLOATS = [
    "0.1 * 3", "1 / 3", "2 / 3", "1e21 + 1", "123456789 * 1e13", "-1e-7 * 3", "5e-324 * 2",
    "0.000001 * 0.1", "1.7976931348623157e308", "2 ** 53 + 2", "0 * -1", "Math.round(-0.4)",
    "Math.trunc(-0.5)", "Math.ceil(-0.5)", "-0 + 0", "-0 - 0", "0.1 + 0.2", "100 / 3",
    "1e-7", "1.5e-7 * 10", "123e-20", "2 ** 70", "2 ** -3", "-(2 ** 31)", "1e16 + 1",
    "9.95", "1.005 * 1000", "-1.5", "0.5 - 1", "Math.sqrt(2)", "Math.max(-0, 0)",
    "Math.min(0, -0)", "4.35 * 100", "1 - 0.9", "(-7) % 2", "7 % -2", "(-0) % 5", "1e300 * 10",
    "parseFloat('1e-7')", "Number('  -0 ')", "Number('0x10') / 3", "parseInt('-0')",
    "Math.abs(-0)", "Math.sign(-3) * 0", "-1e21", "1e21 / 10", "999999999999999999999",
    "0.1 ** 2", "3 ** 0.5", "(-8) ** 2", "10 ** 21", "10 ** -7", "Math.round(2.5)",
    "Math.round(-2.5)", "Math.round(0.49999999999999994)",
]  # fmt: skip
FORMATS = [
    "String({})", "§`${{{}}}`", "JSON.stringify({})", "JSON.stringify([{}])", "({}).toFixed(2)",
    "({}).toFixed(0)", "({}).toFixed(20)", "[{}, 1].join(';')", "'' + ({})", "({}) + ''",
    "String([{}].at(0))", "JSON.stringify({{v: {}}})", "§`${{[{}]}}`", "({}).toFixed(1)",
]  # fmt: skip
COMPARATORS = [
    "(a, b) => a > b ? 1 : -1", "(a, b) => a < b ? -1 : 1", "(a, b) => 1", "(a, b) => -1",
    "(a, b) => 0", "(a, b) => (a % 3) - (b % 3)", "(a, b) => b - a", "(a, b) => a - b",
    "(a, b) => a === b ? 0 : a > b ? -1 : 1", "(a, b) => Math.sign(a - b)",
]  # fmt: skip
DUPLICATES = [
    "[3, 1, 3, 2, 1]",
    "[2, 2, 1, 1, 3, 3, 0]",
    "nums.concat(nums)",
    "[5, 4, 3, 2, 1, 0, -1]",
]


#: member names read where the data may be missing: own, missing and inherited ones
MEMBERS = ["length", "map", "trim", "toFixed", "zz", "name", "at", "valueOf", "0", "age"]


class MoreGenerator(Generator):
    """The base shapes, and now and then one of these."""

    def program(self) -> str:
        if self.chance(0.15):
            return self.if_program()
        if self.chance(0.08):
            return self.alias_with_arrow_locals()
        return super().program()

    def alias_with_arrow_locals(self) -> str:
        """An alias whose arrow has aliases of its own, read inside another arrow."""
        p = self.param()
        inner = base_scope().with_name(p, NUM).with_name("y", NUM)
        body = self.expr(NUM, inner, 1)
        call = self.pick(["echo", "later", ""])
        use = self.pick(["v0", "v0.length", "v0[0]", "v0.concat(q)"])
        return (
            f"const v0 = nums.map({p} => {{ const y = {p} * 2; return {body}; }});\n"
            f"return [1, 2].map(q => {call}({use}));"
        )

    def bool_(self, scope: Scope, d: int) -> str:
        if self.chance(0.1):
            target = self.expr(self.pick(TYPES), scope, d)
            name = self.pick(MEMBERS)
            read = f"{target}[{name}]" if name.isdigit() else f"{target}.{name}"
            return self.pick(
                [f"typeof {read} === 'undefined'", f"!{read}", f"({read} ?? 1) === 1",
                 f"{read} === undefined", f"({read} ? true : false)"]
            )  # fmt: skip
        return super().bool_(scope, d)

    def if_program(self) -> str:
        scope = base_scope()
        test = self.expr(BOOL, scope, 2)
        typ = self.pick(TYPES)
        first = self.expr(typ, scope, 2)
        inner = scope.with_name("w", typ)
        second = self.expr(self.pick(TYPES), inner, 2)
        rest = self.expr(typ, scope, 2)
        return f"if ({test}) {{\n  const w = {first};\n  return [{second}, w];\n}}\nreturn {rest};"

    def num(self, scope: Scope, d: int) -> str:
        if self.chance(0.15):
            return self.pick(FLOATS)
        if self.chance(0.05):
            return self.pick(["Math.max()", "Math.min(...[])", "Math.max(...nums, ...[])"])
        return super().num(scope, d)

    def str_(self, scope: Scope, d: int) -> str:
        if self.chance(0.25):
            number = self.pick(FLOATS) if self.chance(0.7) else self.expr(NUM, scope, d)
            return self.pick(FORMATS).format(number)
        if self.chance(0.1):
            return self.pick(
                [
                    "Object.entries(data).map(([k, v]) => k + '=' + typeof v).join('&')",
                    "people.map(({name, age}) => `${name}:${age}`).join(',')",
                    "people.map(({name: n}, i) => n.repeat(i)).join('|')",
                    f"{self.expr(STR, scope, d)}?.toUpperCase?.() ?? 'none'",
                    "people[5]?.name ?? 'nobody'",
                    f"[...{self.expr(STR, scope, d)}].toReversed().join('')",
                    "people.map(p => { const n = p.name.toLowerCase(); return n + n.length; })"
                    ".join()",
                ]
            )
        return super().str_(scope, d)

    def array(self, typ: str, scope: Scope, d: int) -> str:
        if typ == ANUM and self.chance(0.15):
            fn = self.pick(["toSorted", "toSorted", "sort"])
            return f"{self.pick(DUPLICATES)}.{fn}({self.pick(COMPARATORS)})"
        if typ == AOBJ and self.chance(0.1):
            cmp = self.pick(
                ["(a, b) => a.age - b.age", "(a, b) => b.tags.length - a.tags.length",
                 "(a, b) => (a.city ?? '') < (b.city ?? '') ? -1 : 1", "(a, b) => 0"]
            )  # fmt: skip
            return f"[...people, ...people].toSorted({cmp})"
        if typ == ASTR and self.chance(0.1):
            return self.pick(
                [
                    "Object.entries(data).filter(([k, v]) => typeof v === 'number')"
                    ".map(([k]) => k)",
                    "Object.keys(people.reduce((acc, p) => ({...acc, [p.name]: p.age}), {}))",
                    "people.flatMap(({tags}) => tags)",
                    "people.map(p => p.city?.toLowerCase() ?? '-')",
                    "[...'héllo😀']",
                ]
            )
        return super().array(typ, scope, d)

    def obj(self, scope: Scope, d: int) -> str:
        if self.chance(0.15):
            return self.pick(
                [
                    "people.reduce((acc, p) => ({...acc, [p.name]: p.age}), {})",
                    "Object.fromEntries(people.map(({name, tags}) => [name, tags.length]))",
                    "Object.fromEntries(Object.entries(data).filter(([k, v]) => v !== null))",
                    "people.reduce((acc, {city}) => ({...acc, [city ?? 'none']: true}), {})",
                    f"{{...data.d, e: {self.expr(NUM, scope, d)}}}",
                    "{name: people[0].name, ...people[1], age: undefined}",
                    "people.map(p => ({...p, tags: undefined})).at(0)",
                ]
            )
        return super().obj(scope, d)


def more_programs(seed: int, count: int) -> list[str]:
    gen = MoreGenerator(random.Random(seed))
    return [gen.program() for _ in range(count)]


__all__ = ["OBJ", "MoreGenerator", "more_programs"]
