// Differential oracle: parse each program with acorn (wrapped in `async function plan() {}`)
// and convert the ESTree to dialectic's canonical call tree, independently of the Python code.
// stdin: JSON list of sources; stdout: JSON list of {ok, tree} or {ok: false, error}.
// argv: the folder holding node_modules/acorn, then a JSON object {methods, globals}: the names
// SPEC 1.8 gives JavaScript's meaning (x.m() with m among them is $method, Math.max() $global).
"use strict";
const path = require("path");
const acorn = require(path.join(process.argv[2], "node_modules", "acorn"));
const NAMES = JSON.parse(process.argv[3] || '{"methods": [], "globals": []}');
const METHODS = new Set(NAMES.methods);
const GLOBALS = new Set(NAMES.globals);
const CONSTANTS = new Set(NAMES.constants || []);

class Unsupported extends Error {}
// a `for...of` loop or a change to reduce's accumulator: valid JavaScript (acorn read it), whose
// desugaring (SPEC 10 "Loops", 1.8) is not mirrored here: the test checks that acorn accepts it
const STATEMENT_BODIES = new Set([
  "IfStatement", "ForOfStatement", "ForInStatement", "ForStatement", "TryStatement",
  "SwitchStatement",
]);

// whether a statement holds a `return` (outside functions inside it)
function returns(n) {
  if (n === null || typeof n !== "object") return false;
  if (n.type === "ReturnStatement") return true;
  if (n.type === "ArrowFunctionExpression" || n.type === "FunctionExpression" ||
      n.type === "FunctionDeclaration") return false;
  for (const k of Object.keys(n)) {
    const v = n[k];
    if (Array.isArray(v) ? v.some(returns) : (v && typeof v.type === "string" && returns(v)))
      return true;
  }
  return false;
}

class Loop extends Error {}

function isGet(x) {
  return x !== null && typeof x === "object" && !Array.isArray(x) && "$get" in x;
}

// SPEC 10: `new Set(v)` is only its items (`[...new Set(v)]`, `Array.from(new Set(v))`, a
// spread), count (`.size`) and membership (`.has(x)`): `{"$global": ["new Set", v]}` the items
const isNewSet = (n) =>
  n.type === "NewExpression" && n.callee.type === "Identifier" && n.callee.name === "Set";
function setItems(n) {
  if (n.arguments.length > 1 || n.arguments.some((a) => a.type === "SpreadElement"))
    throw new Unsupported("new Set arguments");
  return { $global: ["new Set", n.arguments.length ? conv(n.arguments[0]) : null] };
}
const element = (e) => e.type !== "SpreadElement" ? conv(e)
  : { $spread: isNewSet(e.argument) ? setItems(e.argument) : conv(e.argument) };

function conv(n) {
  switch (n.type) {
    case "Literal":
      if (typeof n.value === "bigint") throw new Unsupported("bigint");
      if (n.regex)  // SPEC 10, "Regular expressions": the flags left out when none
        return { $global: ["RegExp", n.regex.pattern, ...(n.regex.flags ? [n.regex.flags] : [])] };
      return n.value;
    case "Identifier":
      return n.name === "undefined" ? { $undefined: null } : { $ref: n.name };
    case "ThisExpression":
      return { $ref: "this" };
    case "ArrayExpression":
      if (n.elements.length === 1 && n.elements[0] !== null &&
          n.elements[0].type === "SpreadElement" && isNewSet(n.elements[0].argument))
        return setItems(n.elements[0].argument);
      return n.elements.map((e) => {
        if (e === null) throw new Unsupported("hole");
        return element(e);
      });
    case "ObjectExpression": {
      if (n.properties.some((p) => p.type === "SpreadElement" || p.computed)) {
        const parts = [];
        let run = [];
        const flush = () => {
          if (run.length) parts.push(conv({ type: "ObjectExpression", properties: run }));
          run = [];
        };
        for (const p of n.properties) {
          if (p.type === "SpreadElement") {
            flush();
            parts.push(conv(p.argument));
          } else if (p.computed && p.kind === "init" && !p.method) {
            // `[k]: v` is the part `...Object.fromEntries([[k, v]])`
            flush();
            parts.push({ $global: ["Object.fromEntries", [[conv(p.key), conv(p.value)]]] });
          } else run.push(p);
        }
        flush();
        return { $merge: parts };
      }
      const o = Object.create(null);
      let count = 0;
      let dollar = false;
      for (const p of n.properties) {
        if (p.type !== "Property" || p.computed || p.method || p.kind !== "init")
          throw new Unsupported("property kind");
        const key = p.key.type === "Identifier" ? p.key.name : String(p.key.value);
        if (key in o) throw new Unsupported("duplicate key");
        o[key] = conv(p.value);
        count += 1;
        if (key.startsWith("$")) dollar = true;
      }
      return count !== 1 && !dollar ? o : { $object: o };
    }
    case "UnaryExpression":
      if ((n.operator === "-" || n.operator === "+") && n.argument.type === "Literal" &&
          typeof n.argument.value === "number")
        return n.operator === "-" ? -n.argument.value : n.argument.value;
      if (["-", "+", "!", "~", "typeof"].includes(n.operator))
        return { $op: [n.operator, conv(n.argument)] };
      throw new Unsupported("unary " + n.operator);
    case "BinaryExpression":
    case "LogicalExpression":
      if (n.operator === "instanceof") {  // (the constructor's name, as a text: SPEC 1.7)
        if (n.right.type !== "Identifier") throw new Unsupported("instanceof of an expression");
        return { $op: [n.operator, conv(n.left), n.right.name] };
      }
      return { $op: [n.operator, conv(n.left), conv(n.right)] };
    case "ConditionalExpression":
      return { $if: [conv(n.test), conv(n.consequent), conv(n.alternate)] };
    case "AwaitExpression":
      return conv(n.argument);
    case "ChainExpression":
      return conv(n.expression);
    case "ArrowFunctionExpression": {
      // destructuring parameters: valid JavaScript, their reads checked against Node itself
      // (tests/expressions/test_model_idioms.py, test_nested_parameters.py)
      if (n.params.some((p) => p.type !== "Identifier")) throw new Loop("pattern params");
      const params = n.params.map((p) => p.name);
      if (n.expression) return { $fn: [params, conv(n.body)] };
      const bindings = Object.create(null);
      let count = 0;
      let result;
      for (const s of n.body.body) {
        if (s.type === "VariableDeclaration" && s.declarations.length === 1 &&
            s.declarations[0].id.type === "Identifier" && s.declarations[0].init) {
          bindings[s.declarations[0].id.name] = conv(s.declarations[0].init);
          count += 1;
        } else if (s.type === "ReturnStatement" && s.argument) {
          result = conv(s.argument);
        } else if (s.type === "ExpressionStatement") {
          // `acc[k] = v;`, `acc.push(x);` in reduce's arrow (SPEC 1.8): desugared, like a loop
          throw new Loop("accumulator change");
        } else if (STATEMENT_BODIES.has(s.type)) {
          // a body with `if`/loops, read as a function's body (SPEC 1.8): checked against Node
          // itself (tests/expressions/test_arrow_statement_bodies.py)
          throw new Loop("statement body");
        } else if (s.type === "VariableDeclaration" &&
                   s.declarations.some((d) => d.id.type !== "Identifier")) {
          // a destructuring `const` (SPEC 1.8): valid JavaScript, its reads checked against Node
          // itself (tests/expressions/test_destructuring.py, test_model_tasks.py)
          throw new Loop("pattern declaration");
        } else throw new Unsupported("arrow body " + s.type);
      }
      return { $fn: [params, count ? { $let: bindings, $return: result } : result] };
    }
    case "TemplateLiteral": {
      const parts = [];
      const pushText = (t) => {
        if (t === "") return;
        if (parts.length && typeof parts[parts.length - 1] === "string")
          parts[parts.length - 1] += t;
        else parts.push(t);
      };
      n.quasis.forEach((q, i) => {
        pushText(q.value.cooked);
        if (i < n.expressions.length) {
          const e = conv(n.expressions[i]);
          if (typeof e === "string") pushText(e);
          else parts.push(e);
        }
      });
      if (parts.length === 0) return "";
      if (parts.length === 1 && typeof parts[0] === "string") return parts[0];
      return { $template: parts };
    }
    case "NewExpression": {
      // SPEC 10, "Maps and Sets": a Map or a Set as a value (SPEC 1.8: a RegExp, a Date)
      const c = n.callee;
      if (c.type === "MemberExpression" && c.object.name === "Intl")
        // a run value whose `format` is its method (SPEC 1.8): checked against Node itself
        // (tests/expressions/test_locale_numbers.py)
        throw new Loop("Intl");
      if (c.type === "Identifier" && c.name === "Promise")
        // a wait, `{"sleep": [ms]}` (SPEC 17, "Waiting"): checked against Node itself
        // (tests/effects/test_waiting.py)
        throw new Loop("Promise");
      const made = ["Map", "Set", "RegExp", "Date", "URL", "URLSearchParams"];
      if (c.type !== "Identifier" || !made.includes(c.name)) throw new Unsupported("new");
      if (["RegExp", "Date", "URL", "URLSearchParams"].includes(c.name))
        return { $global: [c.name, ...n.arguments.map(conv)] };
      if (c.name === "Set")
        return { $global: ["Set", n.arguments.length ? conv(n.arguments[0]) : null] };
      return { $global: ["Map", ...n.arguments.map(conv)] };
    }
    case "MemberExpression": {
      if (isNewSet(n.object) && !n.computed && !n.optional && n.property.name === "size")
        return { $get: [setItems(n.object), "length"] };
      if (!n.computed && !n.optional && n.object.type === "Identifier" &&
          CONSTANTS.has(n.object.name + "." + n.property.name))
        return globalThis[n.object.name][n.property.name];  // Math.PI: the number (SPEC 10)
      const target = conv(n.object);
      const key = n.computed ? conv(n.property) : n.property.name;
      if (n.optional) return { "$get?": [target, key] };
      if (isGet(target)) {
        target.$get.push(key);
        return target;
      }
      if (target !== null && typeof target === "object" && "$get?" in target) {
        target["$get?"].push(key);
        return target;
      }
      return { $get: [target, key] };
    }
    case "CallExpression": {
      // an optional call `f?.(x)`, `o.m?.(x)` (SPEC 10): desugared (a hidden alias and a
      // test), checked against Node itself (tests/expressions/test_small_gaps.py)
      if (n.optional) throw new Loop("optional call");
      const c = n.callee;
      if (c.type === "MemberExpression" && !c.computed && c.property.name === "then")
        // a promise's `then` (SPEC 10): desugared, checked against Node itself
        // (tests/expressions/test_promise_methods.py)
        throw new Loop("then");
      if (c.type === "MemberExpression" && !c.computed &&
          (c.property.name === "catch" || c.property.name === "allSettled" ||
           c.property.name === "reject"))
        // a promise's failures (SPEC 10): desugared as `$try`, `$throw`, checked against Node
        // itself (tests/expressions/test_failure_handling.py)
        throw new Loop(c.property.name);
      if (c.type === "MemberExpression" && !c.computed && !c.optional && isNewSet(c.object) &&
          c.property.name === "has" && n.arguments.length === 1)
        return { $method: [setItems(c.object), "includes", conv(n.arguments[0])] };
      const fromSet = c.type === "MemberExpression" && c.object.type === "Identifier" &&
        c.object.name === "Array" && c.property.name === "from" && n.arguments.length &&
        isNewSet(n.arguments[0]);
      const args = n.arguments.map((a, i) =>
        fromSet && i === 0 ? setItems(a) : element(a));
      if (fromSet && args.length === 1) return args[0];
      if (c.type === "Identifier") {
        if (GLOBALS.has(c.name)) return { $global: [c.name, ...args] };
        return { [c.name]: args };
      }
      if (c.type === "ThisExpression") return { this: args };
      if (c.type === "MemberExpression" && !c.computed && c.property.name === "apply" &&
          c.object.type === "MemberExpression" && !c.object.computed &&
          c.object.object.type === "Identifier" && c.object.object.name === "Math" &&
          ["max", "min"].includes(c.object.property.name) && n.arguments.length === 2)
        // `Math.max.apply(null, xs)` (SPEC 10): `Math.max(...xs)`
        return { $global: ["Math." + c.object.property.name, { $spread: args[1] }] };
      if (c.type === "MemberExpression" && !c.computed && c.optional) {
        // `x?.m(a)` (SPEC 1.2): the `?.` is on the callee
        return { "$method?": [conv(c.object), c.property.name, ...args] };
      }
      if (c.type === "MemberExpression" && !c.computed) {
        const name = c.property.name;
        if (c.object.type === "Identifier") {
          const space = c.object.name;
          if (space === "Promise" && name === "all" && args.length === 1) return args[0];
          if (space === "Array" && name === "from" && args.length === 2)
            return { $method: [{ $global: ["Array.from", args[0]] }, "map", args[1]] };
          if (GLOBALS.has(space + "." + name)) return { $global: [space + "." + name, ...args] };
        }
        if (METHODS.has(name)) return { $method: [conv(c.object), name, ...args] };
        return { [name]: [conv(c.object), ...args] };
      }
      if ((c.type === "ArrowFunctionExpression" || c.type === "FunctionExpression") &&
          !c.params.length && !n.arguments.length) {
        // `(() => { ...; return e; })()` (SPEC 10): the arrow's body
        const made = conv({ ...c, type: "ArrowFunctionExpression",
                            expression: c.type === "ArrowFunctionExpression" && c.expression });
        return made.$fn[1];
      }
      throw new Unsupported("callee " + c.type);
    }
    default:
      throw new Unsupported(n.type);
  }
}

function program(source) {
  const ast = acorn.parse("async function plan() {\n" + source + "\n}", {
    ecmaVersion: "latest",
    sourceType: "script",
  });
  return block(ast.body[0].body.body, false);
}

// SPEC 10: `if (test) { ...; return a; } else ...` whose branches end in return is
// `{$if: [test, a, b]}`; without `else`, the statements after the `if` are the other branch.
function ifStatement(s, rest) {
  const branch = (n) => {
    if (n.type === "BlockStatement") return block(n.body, true);
    if (n.type === "ReturnStatement" && n.argument !== null) return conv(n.argument);
    throw new Unsupported("if branch " + n.type);
  };
  let other;
  if (s.alternate === null) other = block(rest, true);
  else if (s.alternate.type === "IfStatement") other = ifStatement(s.alternate, rest);
  else other = branch(s.alternate);
  return { $if: [conv(s.test), branch(s.consequent), other] };
}

// The statements of the program (nested: of an `if` branch, whose value is its return value
// when it defines no alias).
function block(statements, nested) {
  const aliases = Object.create(null);
  let nAliases = 0;
  const order = []; // alias names and (SPEC 17) expression statements, in program order
  let result = null;
  let returned = false;
  const lets = new Set();
  for (const s of statements) {
    if (s.type === "VariableDeclaration" && s.kind !== "const")
      for (const d of s.declarations) if (d.id.type === "Identifier") lets.add(d.id.name);
  }
  for (let i = 0; i < statements.length; i++) {
    const s = statements[i];
    if (s.type === "EmptyStatement") continue;
    if (returned) throw new Unsupported("statement after return");
    if (s.type === "ReturnStatement") {
      if (s.argument === null) throw new Unsupported("empty return");
      result = conv(s.argument);
      returned = true;
    } else if (s.type === "IfStatement" && !returns(s)) {
      // changes outside a loop (SPEC 10): a one-item loop, checked against Node itself
      // (tests/expressions/test_changes_outside_loops.py)
      throw new Loop("if without return");
    } else if (s.type === "ExpressionStatement" && (
      (s.expression.type === "AssignmentExpression" && s.expression.operator !== "=") ||
      s.expression.type === "UpdateExpression" ||
      (s.expression.type === "AssignmentExpression" && s.expression.left.type === "Identifier" &&
       lets.has(s.expression.left.name)) ||
      // `[a, b] = [b, a];` (SPEC 10, swapsets): assignments, checked against Node itself
      (s.expression.type === "AssignmentExpression" && s.expression.left.type === "ArrayPattern"))) {
      throw new Loop("a let assigned again");
    } else if (s.type === "VariableDeclaration" && s.declarations.length === 1 &&
               s.declarations[0].init === null && s.kind !== "const") {
      throw new Loop("let without a value");
    } else if (s.type === "IfStatement") {
      result = ifStatement(s, statements.slice(i + 1));
      returned = true;
      let last = s;
      while (last.alternate !== null && last.alternate.type === "IfStatement") last = last.alternate;
      if (last.alternate === null) break; // the rest was the last `else`
    } else if (s.type === "ExpressionStatement" && s.expression.type === "AssignmentExpression" &&
               s.expression.operator === "=" && s.expression.left.type === "Identifier") {
      order.push(s.expression.left.name); aliases[s.expression.left.name] = conv(s.expression.right);
      nAliases += 1;
    } else if (s.type === "VariableDeclaration" && s.declarations.length === 1 &&
               s.declarations[0].init) {
      const d = s.declarations[0];
      if (d.id.type === "Identifier" && d.init.type === "ArrowFunctionExpression" && !nested) {
        throw new Loop("function"); // a function of the program (SPEC 10, "Functions")
      }
      if (d.id.type === "Identifier") {
        order.push(d.id.name); aliases[d.id.name] = conv(d.init);
        nAliases += 1;
      } else if (d.id.type === "ArrayPattern" || d.id.type === "ObjectPattern") {
        // SPEC 10: a hidden alias `_partsN` holds the value; each name reads its part
        let n = 1;
        while (("_parts" + n) in aliases) n += 1;
        const hidden = "_parts" + n;
        order.push(hidden); aliases[hidden] = conv(d.init);
        nAliases += 1;
        // each name reads its part: nested patterns a part of a part, holes skip an index;
        // a default applies when the part is undefined (`part === undefined ? dflt : part`), a
        // defaulted nested pattern reads a hidden alias, an array pattern reads `[...part]`
        // (JavaScript iterates it: a text by code points)
        const read = (src, path) => path.length ? { $get: [{ $ref: src }, ...path] } : { $ref: src };
        const nextHidden = () => {
          let m = 1;
          while (("_parts" + m) in aliases) m += 1;
          return "_parts" + m;
        };
        const define = (name, value) => {
          order.push(name); aliases[name] = value;
          nAliases += 1;
        };
        const bind = (pat, src, path, outer) => {
          if (pat.type === "AssignmentPattern") {
            const value = { $if: [{ $op: ["===", read(src, path), { $undefined: null }] },
              conv(pat.right), read(src, path)] };
            if (pat.left.type === "Identifier") return define(pat.left.name, value);
            const h = nextHidden();
            define(h, value);
            return bind(pat.left, h, [], false);
          }
          if (pat.type === "Identifier") {
            define(pat.name, read(src, path));
          } else if (pat.type === "ArrayPattern") {
            {  // JavaScript iterates the value: a text by code points (SPEC 10)
              const h = nextHidden();
              define(h, [{ $spread: read(src, path) }]);
              src = h;
              path = [];
            }
            pat.elements.forEach((e, i) => {
              if (e === null) return;
              if (e.type === "RestElement" && outer && e.argument.type === "Identifier") {
                // the items after the named ones, as an array: [...v].slice(i)
                const items = [[{ $spread: { $ref: hidden } }], "slice", i];
                define(e.argument.name, { $method: items });
                return;
              }
              bind(e, src, [...path, i], false);
            });
          } else if (pat.type === "ObjectPattern") {
            for (const p of pat.properties) {
              if (p.type !== "Property" || p.computed) throw new Unsupported("pattern property");
              const key = p.key.type === "Identifier" ? p.key.name : String(p.key.value);
              bind(p.value, src, [...path, key], false);
            }
          } else throw new Unsupported("pattern element");
        };
        bind(d.id, hidden, [], true);
      } else throw new Unsupported("declaration pattern");
    } else if (s.type === "ExpressionStatement" && (
      (s.expression.type === "CallExpression" && s.expression.callee.type === "MemberExpression" &&
       !s.expression.callee.computed &&
       (["forEach", "set", "add", "delete", "append", "sort", "reverse", "push"].includes(
         s.expression.callee.property.name) ||
        /^set(UTC)?(FullYear|Month|Date|Hours|Minutes|Seconds|Milliseconds)$|^setTime$/.test(
         s.expression.callee.property.name))) ||
      (s.expression.type === "AssignmentExpression" && s.expression.left.type === "MemberExpression"))) {
      // a forEach loop, a member set, a Map's or Set's change, a sort statement, a Date's
      // setter, a push (a new version of the array; consecutive pushes one version,
      // frontends/plan/pushruns.py): JavaScript, checked against Node itself
      // (tests/expressions/test_loop_forms.py, test_member_changes.py, test_collections.py,
      // test_reorder_statements.py, test_date_setters.py, test_push_runs.py)
      throw new Loop("forEach or member set");
    } else if (s.type === "ExpressionStatement") {
      order.push({ expr: conv(s.expression) });
    } else if (
      s.type === "ForOfStatement" || s.type === "ForStatement" ||
      s.type === "WhileStatement" || s.type === "DoWhileStatement"
    ) {
      throw new Loop("for...of");
    } else if (s.type === "SwitchStatement") {
      throw new Loop("switch"); // cases that return (SPEC 10): tests/expressions/test_switch.py
    } else if (s.type === "FunctionDeclaration") {
      throw new Loop("function"); // written out at each use (SPEC 10, "Functions")
    } else {
      throw new Unsupported(s.type);
    }
  }
  if (!returned) throw new Unsupported(nested ? "if branch without return" : "no return");
  if (order.some((o) => typeof o !== "string")) {
    const items = [];
    let group = null;
    for (const o of order) {
      if (typeof o !== "string") {
        items.push(o.expr);
        group = null;
      } else {
        if (group === null) {
          group = Object.create(null);
          items.push({ $let: group });
        }
        group[o] = aliases[o];
      }
    }
    return { $do: items, $return: result };
  }
  if (nAliases) return { $let: aliases, $return: result };
  return nested ? result : { $return: result };
}

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (d) => (input += d));
process.stdin.on("end", () => {
  const out = JSON.parse(input).map((source) => {
    try {
      return { ok: true, tree: program(source) };
    } catch (e) {
      if (e instanceof Loop) return { ok: true, tree: null, loop: true };
      return { ok: false, error: (e instanceof Unsupported ? "unsupported: " : "") + e.message };
    }
  });
  process.stdout.write(JSON.stringify(out));
});
