// Programs that lean on JavaScript's corners, run by tests/expressions/test_trap_programs.py
// against Node.js with the context of tests/expressions/program_generator.py (nums, words,
// people, data, n, s). Each follows a line `// ---`.
// ---
const byCity = {}; for (const p of people) { const k = p.city ?? 'none'; (byCity[k] ||= []).push(p.name); } return byCity;
// ---
return people.map(p => p.age).sort();
// ---
return [...nums].sort((a, b) => b > a);
// ---
return nums.reduce((a, b) => Math.max(a, b));
// ---
return [].reduce((a, b) => a + b);
// ---
return words.filter(Boolean).map(w => w[0].toUpperCase() + w.slice(1).toLowerCase()).join(' ');
// ---
return Object.entries(data).filter(([k, v]) => typeof v === 'number').map(([k, v]) => `${k}=${v.toFixed(2)}`);
// ---
return [1.005.toFixed(2), (2.5).toFixed(0), (-1.5).toFixed(0), Math.round(-0.5), Math.round(2.5), (1e21).toFixed(2)];
// ---
const m = new Map(); for (const w of words) m.set(w.length, (m.get(w.length) || 0) + 1); return [...m.entries()];
// ---
const s2 = new Set(people.flatMap(p => p.tags)); return [...s2].sort();
// ---
return Array.from({length: 5}, (_, i) => i * i);
// ---
return s.split(', ').map(x => x.split('').reverse().join(''));
// ---
return s.replace(/(\w+), (\w+)/, '$2 $1');
// ---
return s.split('', 3);
// ---
return JSON.stringify(data, null, 2).length;
// ---
return [nums.at(-1), words.at(0), nums.indexOf(0), nums.includes(NaN), [NaN].includes(NaN), [NaN].indexOf(NaN)];
// ---
return people.find(p => p.age > 100)?.name ?? 'nobody';
// ---
let best = null; for (const p of people) { if (!best || p.age > best.age) best = p; } return best.name;
// ---
const { a, b = 5, z = 9, ...rest } = data; return [a, b, z, Object.keys(rest)];
// ---
return [...'héllo'].length + '👍'.length;
// ---
return Object.assign({}, data.d, { e: 1 }, null);
// ---
return [[1, [2, [3, [4]]]].flat(Infinity), [1, [2, [3]]].flat()];
// ---
return 'x' in data ? 1 : 'a' in data ? 2 : 3;
// ---
return words.slice().sort((a, b) => a.localeCompare(b));
// ---
return words.map(w => w.padStart(6, '*').padEnd(8, '-'));
// ---
return [parseInt('08'), parseInt('0x1f'), parseFloat('3.14abc'), Number(''), Number(' 12 '), Number('1e3'), +[], +{}];
// ---
return [typeof null, typeof [], typeof undefined, typeof NaN, Array.isArray(nums)];
// ---
const total = people.reduce((acc, p) => acc + p.age, 0) / people.length; return Math.round(total * 100) / 100;
// ---
return nums.filter((x, i, arr) => arr.indexOf(x) === i).length;
// ---
let out = ''; for (let i = 0; i < 3; i++) { out += i; if (i < 2) out += ','; } return out;
// ---
const counts = words.reduce((acc, w) => { acc[w.length] = (acc[w.length] ?? 0) + 1; return acc; }, {}); return counts;
// ---
return Object.keys({b: 1, a: 2, 10: 3, 2: 4, '-1': 5});
// ---
return [10, 9, 1, 100].sort();
// ---
return [3, 1, 2].toSorted().concat([3, 1, 2].toReversed());
// ---
const x = nums.findLast(n => n > 2); const i = nums.findLastIndex(n => n > 2); return [x, i];
// ---
return people.map(({ name, age }) => ({ name, adult: age >= 18 }));
// ---
return Object.fromEntries(people.map(p => [p.name.toLowerCase(), p.tags.length]));
// ---
return words.join() + '|' + nums.join('-') + '|' + [null, undefined, 1].join();
// ---
return String([1, [2, 3]]) + String(null) + String(undefined) + `${[1,2]}`;
// ---
return [0.1 + 0.2, 0.1 * 3, 1 / 3, 2 ** 53 + 1, 5 % -3, -5 % 3, 2 ** -1];
// ---
return [1 < 2 < 3, 3 > 2 > 1, '10' < '9', 10 < 9, null >= 0, undefined == null, NaN != NaN];
// ---
return ['a', 'b'].entries().next ? 1 : 2;
// ---
const arr = [5, 1, 4]; arr.sort((a, b) => a - b); arr.reverse(); return arr;
// ---
const o = {}; o.list = []; o.list.push(1, 2); o.count = o.list.length; return o;
// ---
const name = people[0].name; const greeting = `Hi ${name}, you are ${people[0].age}`; return greeting.toUpperCase();
// ---
const res = []; for (const [i, p] of people.entries()) res.push(`${i}:${p.name}`); return res;
// ---
const res = []; for (const k in data) res.push(k); return res;
// ---
const res = []; for (const ch of 'abc') res.push(ch.charCodeAt(0)); return res;
// ---
let i = 0, sum = 0; while (i < nums.length) { sum += nums[i]; i++; } return sum;
// ---
let i = 10; do { i -= 3; } while (i > 0); return i;
// ---
const r = []; for (let i = 0; i < 10; i++) { if (i % 2) continue; if (i > 6) break; r.push(i); } return r;
// ---
return s.match(/o/g).length + (s.match(/z/) === null ? 100 : 0);
// ---
return [s.search(/World/), s.lastIndexOf('o'), s.startsWith('Hell'), s.endsWith('d'), s.trim().length];
// ---
return [...s.matchAll(/(\w)o/g)].map(m => m[1] + m.index);
// ---
return 'a-b_c d'.split(/[-_ ]/);
// ---
return [Math.max(), Math.min(), Math.max(...[]), Math.max(1, '3', null), Math.min(undefined, 1)];
// ---
return [Number.isInteger(5.0), Number.isSafeInteger(2 ** 53), (255).toString(16), (0.000001234).toString(), (123.456).toPrecision(4)];
// ---
return [new Date('2024-03-10T12:00:00Z').toISOString(), new Date(0).getTime(), Date.UTC(2020, 0, 31)];
// ---
const d = new Date('2024-01-31T00:00:00Z'); d.setUTCMonth(1); return d.toISOString();
// ---
return [encodeURIComponent('a b&c/d'), decodeURIComponent('%E2%9C%93'), escape ? 1 : 0];
// ---
return words.map(w => w.length).reduce((a, b) => a + b, 0) / words.length;
// ---
const groups = {}; people.forEach(p => { p.tags.forEach(t => { groups[t] = groups[t] || []; groups[t].push(p.name); }); }); return groups;
// ---
return people.sort((a, b) => a.name < b.name ? 1 : -1).map(p => p.name);
// ---
return people.toSorted((a, b) => a.age - b.age || a.name.localeCompare(b.name)).map(p => p.name);
// ---
const sum = (...xs) => xs.reduce((a, b) => a + b, 0); return sum(1, 2, 3) + sum();
// ---
function clamp(x, lo = 0, hi = 10) { return Math.min(hi, Math.max(lo, x)); } return nums.map(n => clamp(n));
// ---
const key = 'name'; return people.map(p => p[key]).filter(n => n !== 'Bo');
// ---
return [..."abc"].map((c, i, a) => a.length - i + c);
// ---
return [1, 2, 3].map(parseInt);
// ---
return ['1', '2', '3'].map(Number).map(String);
// ---
return nums.some(n => n < 0) && nums.every(n => typeof n === 'number');
// ---
return Object.values(data).filter(v => v && typeof v === 'object').length;
// ---
const copy = JSON.parse(JSON.stringify(people)); copy[0].name = 'X'; return [copy[0].name, people[0].name];
// ---
const copy = structuredClone(data.d); copy.e = 5; return [copy, data.d];
// ---
return nums.map(n => n > 2 ? 'big' : n < 0 ? 'neg' : 'small');
// ---
const t = words.filter(w => /^[a-z]+$/i.test(w)); return t;
// ---
return ['b', 'a', 'C'].sort().concat(['b', 'a', 'C'].sort((x, y) => x.toLowerCase().localeCompare(y.toLowerCase())));
// ---
return [undefined, null, 0, '', NaN, [], {}].map(v => !!v);
// ---
return [1, 2, 3, 4, 5].slice(-2).concat([1, 2, 3].splice ? [9] : []);
// ---
const a1 = [1, 2, 3]; const removed = a1.splice(1, 1, 'x', 'y'); return [a1, removed];
// ---
const q = [3, 1, 2]; const first = q.shift(); q.unshift(0); const last = q.pop(); return [first, last, q];
// ---
return nums.filter(n => n % 2 === 0).map(n => n / 2);
// ---
return `${nums.length} items: ${nums.slice(0, 2)} ... total ${nums.reduce((a, b) => a + b)}`;
// ---
const r = {}; for (const [k, v] of Object.entries(data)) { if (Array.isArray(v)) r[k] = v.length; else if (v === null) r[k] = 'null'; else r[k] = typeof v; } return r;
// ---
const fns = []; for (let i = 0; i < 3; i++) fns.push(i * 2); return fns;
// ---
outer: for (const a of [1, 2, 3]) { for (const b of [1, 2, 3]) { if (b === 2) continue outer; if (a === 3) break outer; } } return 1;
// ---
return [5 & 3, 5 | 3, 5 ^ 3, ~5, 1 << 31, -1 >>> 28, -9 >> 1];
// ---
return [2 ** 3 ** 2, (-2) ** 2, -(2 ** 2)];
// ---
return [7.5 % 2, -7.5 % 2, 0.3 % 0.1];
// ---
return [Math.trunc(-4.7), Math.sign(-3), Math.cbrt(27), Math.hypot(3, 4), Math.log10(1000), Math.fround(5.5)];
// ---
return [(10).toString(2), (255).toString(36), (-255).toString(16), (0.5).toString(2), (3.14159).toFixed(3)];
// ---
return JSON.stringify({a: undefined, b: null, c: [undefined, 1], d: 'x\ny', e: '\u2028'});
// ---
return JSON.stringify([new Date(0)]);
// ---
return 'a,b,,c'.split(',').filter(x => x).length + 'abc'.split('').length;
// ---
return 'x1y22z333'.split(/(\d+)/);
// ---
return 'aaa'.replaceAll('a', (m, i) => i);
// ---
return 'hello world'.replace(/o/g, m => m.toUpperCase()).replace(/(?<=w)o/i, '0');
// ---
return ['2024-02-30', '2024-13-01', 'nope'].map(d => isNaN(new Date(d)) ? 'invalid' : new Date(d).toISOString());
// ---
return new Date('2024-03-10').toISOString();
// ---
return new Date(2024, 0, 31, 10, 30).getMonth();
// ---
return [String(123n === undefined), 1];
// ---
return [[1, 2, 3].includes('2'), [1, 2, 3].indexOf(2, -1), 'abc'.at(-1), 'abc'.charAt(5), 'abc'[5]];
// ---
return [[3, 20, 100].sort(), ['b', undefined, 'a'].sort(), [3, undefined, 1].sort((a, b) => a - b)];
// ---
return [null + 1, undefined + 1 === undefined, '5' * '2', '5' + 2, '5' - 2, true + 1, [] + [], [1] + [2]];
// ---
return [1 == '1', 0 == '', null == 0, '0' == false, [1] == 1, [] == false];
// ---
return ['a' < 'B', 'a'.localeCompare('B'), 'Z' > 'a', '2' > '12', 2 > '12'];
// ---
return [Number.MAX_SAFE_INTEGER + 2, 9007199254740993, 0.1 * 0.2, 1e-7, 123456789012345680000, 1e21 + 1];
// ---
return [String(1e-7), String(1e21), String(-0), (-0).toFixed(1), JSON.stringify(-0), Object.is(-0, 0)];
// ---
const o = {x: 1}; const k = 'x'; return {...o, [k + '2']: 2, [`${k}3`]: 3};
// ---
const arr = [1, 2, 3]; const [a, , b = 5, c = 9] = arr; return [a, b, c];
// ---
const {length} = 'hello'; return length;
// ---
const [first, ...others] = 'abc'; return [first, others];
// ---
return Object.entries('hi').concat(Object.keys([4, 5]));
// ---
return [...new Set('mississippi')].join('');
// ---
return Array.from(new Map([[1, 'a'], [2, 'b']]).values());
// ---
const m = new Map([['a', 1]]); m.set('b', 2).set('a', 3); m.delete('b'); return [m.size, [...m.keys()], m.has('b')];
// ---
return [Array(3).join('-'), new Array(2, 3), Array.of(7), [,].length];
// ---
return [1, 2, 3, 4].findIndex(x => x > 5) + [1, 2].lastIndexOf(2);
// ---
return ['x', 'y'].map((v, i, a) => a.length * i + v).reverse().join();
// ---
return [[1, 2], [3, 4]].map(([a, b]) => a * b).reduceRight((acc, x) => acc + '-' + x, 'r');
// ---
return Math.max(...[1, 5, 3].map(x => x * 2), 0);
// ---
return [..."ab"].flatMap(c => [c, c.toUpperCase()]);
// ---
const s1 = 'The Quick Brown'; return s1.split(' ').map(w => w[0]).join('') + s1.toLowerCase().split(' ').join('_');
// ---
return 'camelCaseString'.replace(/([A-Z])/g, '_$1').toLowerCase();
// ---
return 'snake_case_here'.split('_').map((w, i) => i ? w[0].toUpperCase() + w.slice(1) : w).join('');
// ---
return '  padded  '.trimStart() + '|' + '  padded  '.trimEnd() + '|';
// ---
return ['abc'.substring(2, 0), 'abc'.substr(-2, 1), 'abc'.slice(-2, -1), 'abcdef'.substring(-1, 2)];
// ---
return 'a-b-c'.split('-', 2).concat('abc'.repeat(2), 'x'.codePointAt(0), String.fromCharCode(65, 66));
// ---
return [parseInt('12px'), parseInt('px12'), parseInt('1e3'), parseFloat('1e3'), parseInt(' 42 '), parseInt('-0'), Number('0b101'), Number('0o17')];
// ---
return [isFinite('12'), Number.isFinite('12'), isNaN('abc'), Number.isNaN('abc')];
// ---
return [Math.round(1.4999999999999999), Math.round(-1.5), Math.round(0.49999999999999994), (1.45).toFixed(1), (8.345).toFixed(2)];
// ---
let x = 5; x ||= 10; let y = 0; y ||= 10; let z = null; z ??= 3; let w = 1; w &&= 7; return [x, y, z, w];
// ---
let a = 1; const b = (a += 2, a * 10); return [a, b];
// ---
return [void 0, typeof void 0, typeof typeof 1];
// ---
const t = [1, 2, 3]; return t.length = 0 || t;
// ---
return (() => { const v = 3; return v * 2; })();
// ---
const obj = {a: 1, b: {c: 2}}; const {b: {c: cc}} = obj; return cc;
// ---
const f = ({a = 1, b} = {}) => [a, b]; return [f(), f({b: 2}), f({a: null})];
// ---
const f = (x, y = x * 2, ...r) => [x, y, r]; return [f(1), f(1, undefined, 3, 4)];
// ---
return [[1, [2]], [3]].toString() + String({}) ;
// ---
return [1, 2, 3].join(undefined) + [1, 2].join(null);
// ---
return 'abc'.localeCompare('abd') + 'a'.localeCompare('a') + ''.localeCompare('a');
// ---
return [Number('12abc'), Number(null), Number(undefined), Number([]), Number(['7']), Number(true), Number(false)];
// ---
return [Boolean('false'), Boolean(0n === 1), !!'0', !!NaN];
// ---
const counts = {}; for (const c of 'hello') counts[c] = -~counts[c]; return counts;
// ---
return Object.keys({}).length === 0 && Object.keys([]).length === 0;
// ---
return [[0, 1].map(x => x ? 'y' : 'n'), ['', 'a'].map(x => x || 'empty'), [null, 0].map(x => x ?? 'dflt')];
// ---
return nums.map((n, i) => n * i).filter(Number.isInteger);
// ---
return words.map(w => w.normalize('NFD').length);
// ---
return words.sort().reverse().slice(0, 3);
// ---
return people.reduce((m, p) => p.age > m.age ? p : m).name;
// ---
const ages = people.map(p => p.age); return [Math.min(...ages), ages.indexOf(Math.min(...ages))];
// ---
return s.toUpperCase().split('').filter(c => 'AEIOU'.includes(c)).length;
// ---
return data.c.map(String).map(x => x.padStart(3, '0'));
// ---
return Object.entries(data.d).map(([k, v]) => `${k}:${v}`).join(';');
// ---
return [n.toString().padStart(3, '0'), n / 2 | 0, ~~(n / 2), Math.floor(-n / 2), -n >> 1];
