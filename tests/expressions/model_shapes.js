// Programs in the shapes GPT-4-class and Claude-class models write when they chain tool calls
// and post-process the replies in JavaScript: `async function main()` bodies, Promise.all over
// `.map(async x => ...)`, destructuring with defaults and renames, optional chaining and `??`,
// templates, the array and text methods, Object.*, spread, for...of with continue and break,
// try/catch, JSON, Math, Number/String/parseInt, Set and Map, labelled results, console.log
// and early returns; run by tests/expressions/test_model_shapes.py against Node.js. Each
// follows a line `// === name`.
// === main_wrapper_basic
async function main() {
  const user = await get_user(1);
  return { name: user.name, email: user.email };
}
return await main();
// === main_wrapper_no_await
async function main() {
  const users = await list_users();
  return users.filter(u => u.active).length;
}
return main();
// === main_wrapper_args
async function main(city = "Paris") {
  const w = await get_weather(city);
  return `${w.city}: ${w.tempC}°C, ${w.conditions}`;
}
return await main("Tokyo");
// === main_helper_functions
async function fetchUser(id) {
  const u = await get_user(id);
  return { id: u.id, name: u.name };
}
async function main() {
  const ids = [1, 2, 3];
  const users = await Promise.all(ids.map(fetchUser));
  return users;
}
return await main();
// === main_try_catch
async function main() {
  try {
    const u = await get_user(42);
    return u.name;
  } catch (err) {
    return { error: err.message };
  }
}
return await main();
// === promise_all_async_map
const ids = [1, 2, 4];
const users = await Promise.all(ids.map(async (id) => {
  const u = await get_user(id);
  return { id, city: u.city };
}));
return users;
// === promise_all_async_map_orders
const users = await list_users();
const withOrders = await Promise.all(users.map(async (u) => {
  const orders = await get_orders(u.id);
  return { name: u.name, orderCount: orders.length };
}));
return withOrders.filter(x => x.orderCount > 0);
// === promise_all_destructure
const [paris, london] = await Promise.all([get_weather("Paris"), get_weather("London")]);
return paris.tempC > london.tempC ? "Paris is warmer" : "London is warmer";
// === promise_all_three_kinds
const [user, orders, events] = await Promise.all([get_user(2), get_orders(2), list_events()]);
return {
  user: user.name,
  orders: orders.map(o => o.id),
  meetings: events.filter(e => e.attendees.includes(user.email)).length,
};
// === promise_all_object_entries
const symbols = { apple: "AAPL", microsoft: "MSFT" };
const entries = await Promise.all(
  Object.entries(symbols).map(async ([name, sym]) => [name, (await get_stock_price(sym)).price])
);
return Object.fromEntries(entries);
// === destructure_defaults
const { name, role = "guest", nickname = "none" } = await get_user(3);
return `${name} (${role}, ${nickname})`;
// === destructure_rename
const { tempC: temperature, humidity: hum } = await get_weather("London");
return { temperature, hum };
// === destructure_nested
const { manager: { name: bossName } } = await get_user(2);
return bossName;
// === destructure_nested_default
const u = await get_user(1);
const { manager: { name: bossName } = { name: "nobody" } } = { ...u, manager: u.manager ?? undefined };
return bossName;
// === destructure_array_rest
const [first, second, ...rest] = (await list_tickets({ limit: 10 })).tickets;
return { first: first.id, second: second.id, rest: rest.length };
// === destructure_params
const users = await list_users();
return users.map(({ name, age, city = "?" }) => `${name} ${age} ${city}`);
// === destructure_params_rename
const products = await search_products({ category: "jackets" });
return products.map(({ name: title, price: cost }) => ({ title, cost }));
// === optional_chain_manager
const users = await list_users();
return users.map(u => u.manager?.name ?? "(none)");
// === optional_chain_index
const pages = await search_web({ query: "haskell" });
return pages[0]?.title ?? "no results";
// === optional_chain_call
const tickets = (await list_tickets({ limit: 10 })).tickets;
return tickets.map(t => t.assignee?.split("@")[0] ?? "unassigned");
// === nullish_zero
const ps = await search_products();
return ps.map(p => p.stock ?? "n/a");
// === nullish_vs_or
const u = await get_user(1);
const a = u.manager ?? "default";
const b = u.manager || "default";
return [a, b];
// === ternary_chain
const ps = await search_products();
return ps.map(p => p.price > 200 ? "premium" : p.price > 50 ? "mid" : "budget");
// === template_multiline
const w = await get_weather("Paris");
return `Weather report
City: ${w.city}
Temp: ${w.tempC.toFixed(1)}C
Humidity: ${w.humidity}%`;
// === template_nested
const users = await list_users();
return `Users: ${users.map(u => `${u.name} <${u.email}>`).join("; ")}`;
// === filter_map_chain
const products = await search_products();
return products.filter(p => p.stock > 0).map(p => p.name).slice(0, 3);
// === reduce_sum
const orders = await get_orders(1);
const total = orders.reduce((sum, o) => sum + o.items.reduce((s, i) => s + i.price * i.qty, 0), 0);
return Math.round(total * 100) / 100;
// === sort_numbers_desc
const products = await search_products();
return [...products].sort((a, b) => b.price - a.price).map(p => p.id);
// === sort_strings_locale
const users = await list_users();
return users.map(u => u.city).sort((a, b) => a.localeCompare(b));
// === sort_multi_key
const tickets = (await list_tickets({ limit: 10 })).tickets;
const rank = { critical: 0, high: 1, medium: 2, low: 3 };
return tickets
  .slice()
  .sort((a, b) => rank[a.priority] - rank[b.priority] || a.id.localeCompare(b.id))
  .map(t => t.id);
// === find_user
const users = await list_users();
const grace = users.find(u => u.name.startsWith("Grace"));
return grace ? grace.email : null;
// === find_missing
const users = await list_users();
const x = users.find(u => u.city === "Paris");
return x?.name ?? "nobody in Paris";
// === find_index
const users = await list_users();
return users.findIndex(u => u.role === "support");
// === some_every
const ps = await search_products();
return { anyOut: ps.some(p => p.stock === 0), allRated: ps.every(p => p.rating >= 4) };
// === flatmap_tags
const users = await list_users();
return [...new Set(users.flatMap(u => u.tags))];
// === slice_join
const pages = await search_web({ query: "python javascript rust", limit: 5 });
return pages.slice(0, 2).map(p => p.title).join(" | ");
// === includes_array
const allowed = ["admin", "engineer"];
const users = await list_users();
return users.filter(u => allowed.includes(u.role)).map(u => u.id);
// === includes_string
const pages = await search_web({ query: "guide", limit: 5 });
return pages.filter(p => p.snippet.toLowerCase().includes("async")).length;
// === indexof_string
const notes = await read_file("/data/notes.md");
return notes.indexOf("TODO");
// === indexof_array
const cities = ["Paris", "London", "Tokyo"];
return cities.indexOf("Tokyo") + cities.indexOf("Berlin");
// === object_entries_loop
const rates = { EUR: 0.92, GBP: 0.79 };
const out = [];
for (const [cur, rate] of Object.entries(rates)) {
  out.push(`${cur}=${rate}`);
}
return out.join(",");
// === object_keys_count
const w = await get_weather("Tokyo");
return Object.keys(w).length;
// === object_values_sum
const counts = { a: 3, b: 4, c: 5 };
return Object.values(counts).reduce((a, b) => a + b, 0);
// === object_assign_merge
const u = await get_user(4);
const merged = Object.assign({}, u, { active: false, note: "checked" });
return { active: merged.active, note: merged.note, name: merged.name };
// === object_spread_override
const u = await get_user(2);
const { email, ...publicInfo } = u;
return { ...publicInfo, tags: publicInfo.tags.length };
// === object_fromentries_map
const ps = await search_products();
return Object.fromEntries(ps.map(p => [p.id, p.price]));
// === spread_arrays
const [a, b] = await Promise.all([get_orders(1), get_orders(2)]);
return [...a, ...b].map(o => o.id);
// === spread_math_max
const w = await get_weather("Paris");
return Math.max(...w.forecast.map(d => d.high));
// === for_of_continue
const users = await list_users();
const names = [];
for (const u of users) {
  if (!u.active) continue;
  names.push(u.name.split(" ")[0]);
}
return names;
// === for_of_break
const tickets = (await list_tickets({ limit: 10 })).tickets;
let found = null;
for (const t of tickets) {
  if (t.priority === "critical") {
    found = t;
    break;
  }
}
return found ? found.id : "none";
// === for_of_await_calls
const ids = [1, 2, 3];
const out = [];
for (const id of ids) {
  const orders = await get_orders(id);
  out.push({ id, n: orders.length });
}
return out;
// === for_of_accumulate_total
const orders = await get_orders(2);
let total = 0;
for (const o of orders) {
  for (const item of o.items) {
    total += item.qty * item.price;
  }
}
return total.toFixed(2);
// === for_index_loop
const ps = await search_products();
const lines = [];
for (let i = 0; i < ps.length; i++) {
  lines.push(`${i + 1}. ${ps[i].name}`);
}
return lines;
// === try_catch_per_item
const cities = ["Paris", "Atlantis", "Tokyo"];
const results = [];
for (const city of cities) {
  try {
    const w = await get_weather(city);
    results.push({ city, temp: w.tempC });
  } catch (e) {
    results.push({ city, error: e.message });
  }
}
return results;
// === try_catch_fallback
let user;
try {
  user = await get_user(99);
} catch (e) {
  user = { name: "unknown" };
}
return user.name;
// === try_catch_map_async
const ids = [1, 99, 2];
const results = await Promise.all(ids.map(async id => {
  try {
    return (await get_user(id)).name;
  } catch {
    return null;
  }
}));
return results.filter(Boolean);
// === json_stringify_pretty
const u = await get_user(1);
return JSON.stringify({ id: u.id, tags: u.tags }, null, 2);
// === json_parse_file
const cfg = JSON.parse(await read_file("/data/config.json"));
return { retries: cfg.retries, api: cfg.endpoints.api, n: cfg.features.length };
// === json_parse_body
const r = await fetch_url("https://api.example.com/version");
const { major, minor } = JSON.parse(r.body);
return `v${major}.${minor}`;
// === math_functions
const w = await get_weather("London");
const highs = w.forecast.map(d => d.high);
return {
  avg: Math.round(highs.reduce((a, b) => a + b, 0) / highs.length),
  min: Math.min(...highs),
  floor: Math.floor(w.tempC),
  ceil: Math.ceil(w.tempC),
  abs: Math.abs(-w.tempC),
};
// === math_pow_sqrt
const nums = [3, 4];
return Math.sqrt(nums.map(n => Math.pow(n, 2)).reduce((a, b) => a + b));
// === number_conversions
return [Number("42"), String(42), Boolean(""), Boolean("x"), parseInt("12px"), parseFloat("3.5kg")];
// === parseint_ids
const tickets = (await list_tickets({ limit: 10 })).tickets;
return Math.max(...tickets.map(t => parseInt(t.id.replace("T-", ""), 10)));
// === number_is_integer
const ps = await search_products();
return ps.filter(p => Number.isInteger(p.price)).map(p => p.id);
// === string_split_trim
const csv = await read_file("/data/sales.csv");
const [header, ...rows] = csv.trim().split("\n");
return { columns: header.split(","), rows: rows.length };
// === string_padstart
const ids = [1, 23, 456];
return ids.map(n => String(n).padStart(5, "0"));
// === string_replace_all
const t = "a-b-c-d";
return [t.replace("-", "+"), t.replaceAll("-", "+")];
// === string_case
const users = await list_users();
return users.map(u => u.role.toUpperCase() + ":" + u.name.toLowerCase());
// === string_localecompare_sort
const ps = await search_products();
return ps.map(p => p.brand).sort((a, b) => a.localeCompare(b));
// === string_startswith_endswith
const files = await list_files("/data");
return files.filter(f => f.name.endsWith(".csv") || f.name.startsWith("notes")).map(f => f.name);
// === string_charat_slice
const u = await get_user(2);
return u.name.charAt(0) + u.name.slice(1, 4) + u.name.substring(5);
// === tofixed_percent
const ps = await search_products();
const inStock = ps.filter(p => p.stock > 0).length;
return `${((inStock / ps.length) * 100).toFixed(1)}%`;
// === tofixed_prices
const q = await get_stock_price("MSFT");
return `${q.symbol}: $${q.price.toFixed(2)} (${q.change_pct > 0 ? "+" : ""}${q.change_pct.toFixed(2)}%)`;
// === date_parse_sort
const events = await list_events();
return events
  .slice()
  .sort((a, b) => new Date(b.start) - new Date(a.start))
  .map(e => e.title);
// === date_duration_minutes
const events = await list_events();
return events.map(e => ({
  title: e.title,
  minutes: (new Date(e.end).getTime() - new Date(e.start).getTime()) / 60000,
}));
// === date_iso_slice
const events = await list_events();
return [...new Set(events.map(e => e.start.slice(0, 10)))];
// === date_toisostring
const d = new Date("2024-05-06T09:00:00Z");
d.setUTCDate(d.getUTCDate() + 7);
return d.toISOString();
// === set_dedupe
const orders = [...(await get_orders(1)), ...(await get_orders(2))];
const skus = new Set();
for (const o of orders) for (const i of o.items) skus.add(i.sku);
return [...skus].sort();
// === set_size
const users = await list_users();
return new Set(users.map(u => u.role)).size;
// === set_has
const admins = new Set((await list_users()).filter(u => u.role === "admin").map(u => u.id));
const orders = await get_orders(1);
return orders.filter(o => admins.has(o.userId)).length;
// === map_count
const tickets = (await list_tickets({ limit: 10 })).tickets;
const counts = new Map();
for (const t of tickets) counts.set(t.status, (counts.get(t.status) ?? 0) + 1);
return Object.fromEntries(counts);
// === map_get_default
const users = await list_users();
const byId = new Map(users.map(u => [u.id, u]));
return [1, 5].map(id => byId.get(id)?.name ?? "missing");
// === map_size
const users = await list_users();
const byCity = new Map(users.map(u => [u.city, u.id]));
return byCity.size;
// === labelled_result
const users = await list_users();
const items = users.filter(u => u.active).map(u => u.name);
const total = items.length;
return { total, items };
// === labelled_result_summary
const products = await search_products();
const inStock = products.filter(p => p.stock > 0);
const totalValue = inStock.reduce((s, p) => s + p.price * p.stock, 0);
return { count: inStock.length, totalValue, cheapest: inStock.reduce((a, b) => (a.price < b.price ? a : b)).name };
// === console_log_then_return
const u = await get_user(1);
console.log("fetched", u.name);
return u.id;
// === console_log_template
const ps = await search_products({ category: "shoes" });
console.log(`found ${ps.length} shoes`);
console.log(JSON.stringify(ps));
return ps.map(p => p.id);
// === early_return_empty
const pages = await search_web({ query: "cobol" });
if (pages.length === 0) {
  return { found: false };
}
return { found: true, top: pages[0].title };
// === early_return_guard
const u = await get_user(3);
if (!u.active) return `${u.name} is inactive`;
const orders = await get_orders(u.id);
return orders.length;
// === early_return_in_loop
const cities = ["London", "Paris", "Tokyo"];
for (const c of cities) {
  const w = await get_weather(c);
  if (w.conditions === "Sunny") return c;
}
return null;
// === send_email_loop
const users = await list_users();
const sent = [];
for (const u of users.filter(x => x.role === "admin")) {
  const r = await send_email({ to: u.email, subject: "Weekly report", body: "See attached." });
  sent.push(r.id);
}
return sent;
// === send_email_promise_all
const users = (await list_users()).filter(u => u.active);
const receipts = await Promise.all(
  users.map(u => send_email(u.email, "Hello", `Hi ${u.name.split(" ")[0]}`))
);
return receipts.map(r => r.status);
// === pagination_while
let cursor = null;
const all = [];
do {
  const page = await list_tickets({ cursor, limit: 3 });
  all.push(...page.tickets);
  cursor = page.next_cursor;
} while (cursor);
return all.map(t => t.id);
// === pagination_while_true_break
let cursor;
const ids = [];
while (true) {
  const page = await list_tickets({ cursor, limit: 2 });
  for (const t of page.tickets) ids.push(t.id);
  if (!page.next_cursor) break;
  cursor = page.next_cursor;
}
return ids.length;
// === convert_currency_many
const amounts = [10, 25.5, 100];
const converted = await Promise.all(amounts.map(a => convert_currency(a, "USD", "EUR")));
return converted.map(c => c.converted);
// === exchange_rate_calc
const rate = await get_exchange_rate("USD", "JPY");
return Math.round(49.99 * rate);
// === group_by_reduce
const ps = await search_products();
const byCat = ps.reduce((acc, p) => {
  acc[p.category] = acc[p.category] || [];
  acc[p.category].push(p.name);
  return acc;
}, {});
return byCat;
// === group_by_loop
const users = await list_users();
const groups = {};
for (const u of users) {
  if (!groups[u.role]) groups[u.role] = [];
  groups[u.role].push(u.name);
}
return groups;
// === count_by_object
const tickets = (await list_tickets({ limit: 10 })).tickets;
const counts = {};
for (const t of tickets) {
  counts[t.priority] = (counts[t.priority] || 0) + 1;
}
return counts;
// === top_n
const ps = await search_products();
const top = [...ps].sort((a, b) => b.rating - a.rating).slice(0, 3);
return top.map(p => `${p.name} (${p.rating})`);
// === average_rounded
const ps = await search_products();
const avg = ps.reduce((s, p) => s + p.price, 0) / ps.length;
return Number(avg.toFixed(2));
// === length_method_text
const u = await get_user(1);
return u.name.length();
// === length_method_array
const users = await list_users();
return users.length();
// === length_method_in_template
const ps = await search_products();
return `found ${ps.filter(p => p.stock > 0).length()} products`;
// === size_method_set
const users = await list_users();
return new Set(users.map(u => u.city)).size();
// === size_method_map
const users = await list_users();
const m = new Map(users.map(u => [u.id, u]));
return m.size();
// === length_property_ok
const u = await get_user(1);
return [u.name.length, u.tags.length];
// === keys_values_array_methods
const xs = ["a", "b"];
return [[...xs.keys()], [...xs.values()], [...xs.entries()]];
// === keys_method_on_object
const u = await get_user(1);
return u.keys();
// === count_method_array
const users = await list_users();
return users.count();
// === sum_method_array
const xs = [1, 2, 3];
return xs.sum();
// === string_upper_method
const u = await get_user(1);
return u.name.upper();
// === array_first_method
const users = await list_users();
return users.first();
// === to_string_method
const n = 42;
return [n.toString(), [1, 2].toString(), (3.5).toString()];
// === array_join_default
return [1, [2, 3], null].join();
// === optional_chain_length
const pages = await search_web({ query: "cobol" });
return pages?.length ?? 0;
// === async_arrow_iife
return await (async () => {
  const u = await get_user(2);
  return u.role;
})();
// === async_arrow_whole_program
async () => {
  const users = await list_users();
  return users.map(u => u.id);
};
// === nested_async_helper_loop
async function enrich(order) {
  const user = await get_user(order.userId);
  return { ...order, userName: user.name, items: order.items.length };
}
const orders = await get_orders(2);
const enriched = await Promise.all(orders.map(enrich));
return enriched.map(({ id, userName, items }) => ({ id, userName, items }));
// === filter_boolean
const users = await list_users();
return users.map(u => u.manager && u.manager.name).filter(Boolean);
// === array_includes_nan_free
const ratings = (await search_products()).map(p => p.rating);
return ratings.includes(4.8);
// === string_includes_case
const q = "PYTHON";
const pages = await search_web({ query: "python", limit: 5 });
return pages.filter(p => p.title.toLowerCase().includes(q.toLowerCase())).map(p => p.url);
// === string_split_map_number
const line = "12, 7, 30";
return line.split(",").map(s => Number(s.trim())).reduce((a, b) => a + b, 0);
// === string_replace_template
const tmpl = "Hello {name}, you have {n} tickets";
const u = await get_user(1);
const n = (await list_tickets({ limit: 10 })).tickets.filter(t => t.assignee === u.email).length;
return tmpl.replace("{name}", u.name).replace("{n}", String(n));
// === object_keys_sort
const w = await get_weather("Paris");
return Object.keys(w).sort();
// === object_entries_filter_fromentries
const u = await get_user(1);
return Object.fromEntries(Object.entries(u).filter(([k, v]) => typeof v === "string"));
// === object_entries_sort_values
const counts = { a: 3, b: 7, c: 1 };
return Object.entries(counts).sort(([, x], [, y]) => y - x).map(([k]) => k);
// === typeof_checks
const u = await get_user(2);
return Object.entries(u).map(([k, v]) => `${k}:${Array.isArray(v) ? "array" : v === null ? "null" : typeof v}`);
// === array_isarray
const r = await list_tickets({ limit: 2 });
return Array.isArray(r) ? r.length : Array.isArray(r.tickets) ? r.tickets.length : -1;
// === chained_optional_defaults
const cfg = JSON.parse(await read_file("/data/config.json"));
const timeout = cfg.timeout ?? 30;
const retries = cfg.retries ?? 1;
const api = cfg.endpoints?.api ?? "none";
return { timeout, retries, api };
// === reduce_max_by
const ps = await search_products();
const best = ps.reduce((best, p) => (p.rating > best.rating ? p : best), ps[0]);
return best.name;
// === reduce_object_counts_spread
const users = await list_users();
return users.reduce((acc, u) => ({ ...acc, [u.role]: (acc[u.role] ?? 0) + 1 }), {});
// === flat_array
const orders = await get_orders(1);
return orders.map(o => o.items.map(i => i.sku)).flat();
// === array_from_set
const users = await list_users();
return Array.from(new Set(users.map(u => u.role)));
// === array_from_map_fn
return Array.from({ length: 5 }, (_, i) => i * i);
// === string_repeat_bar
const ps = await search_products();
return ps.map(p => `${p.id} ${"#".repeat(Math.round(p.rating))}`);
// === number_tolocale_string
const ps = await search_products();
const total = ps.reduce((s, p) => s + p.price * p.stock, 0);
return total.toLocaleString();
// === math_random_free_minmax
const xs = [5, 3, 9, 1];
return [Math.min(...xs), Math.max(...xs), Math.min(), Math.max(0, ...xs)];
// === boolean_coercion_filters
const vals = [0, 1, "", "a", null, [], {}];
return vals.map(v => Boolean(v));
// === string_number_concat
const n = 5;
return ["n=" + n, n + 1 + "x", "x" + n + 1, `${n}` + 1];
// === equality_loose_strict
const u = await get_user(1);
return [u.id === 1, u.id == "1", u.id !== "1", null == undefined];
// === switch_status
const tickets = (await list_tickets({ limit: 10 })).tickets;
return tickets.map(t => {
  switch (t.status) {
    case "open":
      return "O";
    case "closed":
      return "C";
    default:
      return "?";
  }
});
// === nested_loops_pairs
const cities = ["Paris", "London"];
const days = ["Mon", "Tue"];
const out = [];
for (const c of cities) {
  const w = await get_weather(c);
  for (const d of days) {
    const f = w.forecast.find(x => x.day === d);
    out.push(`${c}/${d}:${f.high}`);
  }
}
return out;
// === promise_allsettled_results
const cities = ["Paris", "Nowhere"];
const results = await Promise.allSettled(cities.map(c => get_weather(c)));
return results.map(r => (r.status === "fulfilled" ? r.value.tempC : r.reason.message));
// === then_chain
const name = await get_user(2).then(u => u.name.toUpperCase());
return name;
// === let_reassign_conditional
const u = await get_user(4);
let label = "user";
if (u.role === "admin") label = "administrator";
else if (u.role === "support") label = "helper";
return label;
// === let_counter_loop
const tickets = (await list_tickets({ limit: 10 })).tickets;
let open = 0;
let closed = 0;
for (const t of tickets) {
  if (t.status === "closed") closed++;
  else open++;
}
return { open, closed };
// === string_concat_loop
const users = await list_users();
let csv = "id,name\n";
for (const u of users) {
  csv += `${u.id},${u.name}\n`;
}
return csv;
// === array_push_objects
const events = await list_events();
const rows = [];
events.forEach(e => {
  rows.push({ title: e.title, n: e.attendees.length });
});
return rows;
// === foreach_index
const ps = await search_products();
const out = [];
ps.forEach((p, i) => out.push(`${i}:${p.id}`));
return out.join(" ");
// === sort_by_date_string
const tickets = (await list_tickets({ limit: 10 })).tickets;
return tickets.sort((a, b) => a.created < b.created ? -1 : 1).map(t => t.id)[0];
// === every_empty
const pages = await search_web({ query: "cobol" });
return pages.every(p => p.score > 0.5);
// === string_trim_variants
const s = "  hello  ";
return [s.trim(), s.trimStart(), s.trimEnd()];
// === json_roundtrip_equal
const u = await get_user(1);
return JSON.stringify(u) === JSON.stringify(JSON.parse(JSON.stringify(u)));
// === last_item_length_minus
const tickets = (await list_tickets({ limit: 10 })).tickets;
return tickets[tickets.length - 1].title;
// === at_negative
const tickets = (await list_tickets({ limit: 10 })).tickets;
return tickets.at(-1).id;
// === object_keys_length_empty
const r = await fetch_url("https://nowhere.example.com/");
return Object.keys(r).length > 0 ? r.status : "empty";
// === string_match_count
const notes = await read_file("/data/notes.md");
return notes.split("\n").filter(l => l.startsWith("TODO")).length;
// === number_rounding_edge
return [Math.round(2.5), Math.round(-2.5), (1.005).toFixed(2), (0.1 + 0.2).toFixed(10)];
// === string_localecompare_numeric
const xs = ["item10", "item2", "item1"];
return xs.sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
// === date_getters
const d = new Date("2024-05-06T13:30:00Z");
return [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCDay()];
// === date_now_relative
const start = Date.now();
const u = await get_user(1);
return typeof (Date.now() - start);
// === object_freeze_free_copy
const base = { a: 1, b: { c: 2 } };
const copy = { ...base, b: { ...base.b, c: 3 } };
return [base.b.c, copy.b.c];
// === in_operator
const u = await get_user(1);
return ["email" in u, "phone" in u];
// === has_own_property
const u = await get_user(1);
return [u.hasOwnProperty("email"), Object.hasOwn(u, "phone")];
// === array_every_index
const xs = [1, 2, 3, 4];
return xs.every((x, i) => i === 0 || x > xs[i - 1]);
// === reduce_without_init
const xs = [4, 8, 15];
return xs.reduce((a, b) => a + b);
// === concat_arrays
const a = await get_orders(1);
const b = await get_orders(3);
return a.concat(b).map(o => o.status);
// === array_reverse_copy
const xs = [1, 2, 3];
const ys = [...xs].reverse();
return [xs, ys];
// === string_split_limit
return "a,b,c,d".split(",", 2);
// === number_format_currency
const amount = 1234.5;
return amount.toLocaleString("en-US", { style: "currency", currency: "USD" });
// === intl_number_format
return new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 }).format(1234.567);
// === string_at_length_minus_one
const s = "hello";
return s[s.length - 1];
// === regex_replace_global
const t = "a b  c";
return t.replace(/\s+/g, "_");
// === labelled_multiple_sections
const [users, tickets] = await Promise.all([list_users(), list_tickets({ limit: 10 })]);
const summary = {
  users: { total: users.length, active: users.filter(u => u.active).length },
  tickets: {
    total: tickets.tickets.length,
    open: tickets.tickets.filter(t => t.status === "open").length,
  },
};
return summary;
// === destructure_default_null
const { manager = { name: "none" } } = await get_user(1);
return manager;
// === destructure_default_undefined_member
const { nickname = "anon", age = 0 } = await get_user(4);
return `${nickname}/${age}`;
// === sort_default_numbers
const ps = await search_products();
return ps.map(p => p.stock).sort();
// === sort_boolean_comparator
const ps = await search_products();
return ps.map(p => p.price).sort((a, b) => a > b);
// === sort_strings_default_case
return ["banana", "Apple", "cherry", "apple"].sort();
// === localecompare_case
return ["banana", "Apple", "cherry", "apple"].sort((a, b) => a.localeCompare(b));
// === localecompare_accents
return ["résumé", "resume", "rose", "Zoe"].sort((a, b) => a.localeCompare(b));
// === replace_dollar_patterns
const price = "Total: X";
return [price.replace("X", "$5"), price.replace("X", "$&$&"), "a-b".replaceAll("-", "$$")];
// === replace_first_only
const path = "/a/b/c";
return path.replace("/", "").split("/");
// === string_slice_negative
const id = "order-2024-0042";
return [id.slice(-4), id.slice(6, -5), id.substring(10, 6), id.substr(-4, 2)];
// === indexof_from
const s = "a,b,a,b";
return [s.indexOf("a", 1), s.lastIndexOf("b"), s.indexOf("z")];
// === split_empty_and_emoji
return ["abc".split(""), "a😀b".length, [..."a😀b"].length, "a😀b".split("").length];
// === template_null_undefined_array
const u = await get_user(1);
return `${u.manager} ${u.nickname} ${u.tags} ${[]} ${[null]} ${[1, [2, 3]]}`;
// === json_stringify_undefined
const u = await get_user(1);
return JSON.stringify({ a: u.nickname, b: null, c: [u.nickname, 1], d: () => 1 });
// === json_stringify_nested_indent
return JSON.stringify({ a: [1, { b: 2 }], c: {} , d: [] }, null, "\t");
// === tofixed_rounding
return [(2.5).toFixed(0), (1.45).toFixed(1), (8.345).toFixed(2), (1e21).toFixed(2), (-1.5).toFixed(0)];
// === number_to_string_forms
return [String(0.000001), String(1e-7), String(123456789012345680000), (255).toString(16), (0.1 * 3).toString()];
// === math_round_negative_half
return [Math.round(-0.5), Math.round(-1.5), Math.round(1.4999), Math.trunc(-4.7), Math.sign(-3)];
// === parse_edge_cases
return [parseInt("08"), parseInt("0x1f"), parseFloat(".5"), parseFloat("1e3"), Number(""), Number(" 42 "), Number("1_000")];
// === string_coercion_ops
return [[] + [], [1, 2] + "", "5" * "2", "5" + 2, 5 + +"3", true + 1];
// === typeof_values
return [typeof null, typeof [], typeof {}, typeof "", typeof 1, typeof undefined];
// === array_join_nulls
return [[1, null, undefined, 2].join("-"), [null].join(), [[1, 2], [3]].join(";")];
// === for_in_array_keys
const xs = ["a", "b"];
const out = [];
for (const i in xs) out.push(i + 1);
return out;
// === for_in_object
const w = await get_weather("Paris");
const keys = [];
for (const k in w) if (typeof w[k] === "number") keys.push(k);
return keys;
// === object_keys_of_string
return [Object.keys("ab"), Object.entries([7, 8])];
// === spread_string
return [..."héllo"].reverse().join("");
// === object_spread_null
const u = await get_user(1);
return { ...u.manager, ...null, ...undefined, id: u.id };
// === array_fill_join
return [new Array(3).fill(0), Array(3).join("-"), Array.from("abc")];
// === labelled_break
const matrix = [[1, 2], [3, 4], [5, 6]];
let found = null;
outer: for (const row of matrix) {
  for (const x of row) {
    if (x > 2) {
      found = x;
      break outer;
    }
  }
}
return found;
// === logical_assign
const cfg = { retries: 0, name: "", tags: null };
cfg.retries ||= 3;
cfg.name ??= "default";
cfg.tags ??= [];
return cfg;
// === closures_in_loop
const fns = [];
for (let i = 0; i < 3; i++) fns.push(() => i * 10);
return fns.map(f => f());
// === object_assign_target_change
const a = { x: 1 };
const b = Object.assign(a, { y: 2 });
return [a, b, a === b];
// === date_day_of_week
const e = await list_events();
const names = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
return e.map(x => names[new Date(x.start).getUTCDay()]);
// === date_to_locale_date
const d = new Date("2024-05-06T09:00:00Z");
return [d.toLocaleDateString("en-US"), d.toISOString().split("T")[0]];
// === date_utc_build
return new Date(Date.UTC(2024, 0, 31) + 86400000).toISOString();
// === date_month_overflow
const d = new Date("2024-01-31T00:00:00Z");
d.setUTCMonth(d.getUTCMonth() + 1);
return d.toISOString();
// === date_invalid
const d = new Date("not a date");
return isNaN(d.getTime()) ? "invalid" : d.toISOString();
// === math_max_strings
return [Math.max("3", 2), Math.min(null, 1), Math.max(undefined, 1) || "nan"];
// === includes_vs_indexof_nan_free
const xs = [1, 2, 3];
return [xs.includes("2"), xs.indexOf(2), "abc".includes("")];
// === every_some_empty
return [[].every(x => x > 1), [].some(x => x > 1)];
// === reduce_empty_with_init
const pages = await search_web({ query: "cobol" });
return pages.reduce((s, p) => s + p.score, 0);
// === reduce_empty_no_init
const pages = await search_web({ query: "cobol" });
return pages.reduce((s, p) => s + p.score);
// === find_last
const tickets = (await list_tickets({ limit: 10 })).tickets;
return [tickets.findLast(t => t.status === "open").id, tickets.findLastIndex(t => t.priority === "low")];
// === array_sort_objects_stability
const tickets = (await list_tickets({ limit: 10 })).tickets;
return [...tickets].sort((a, b) => a.status.localeCompare(b.status)).map(t => t.id);
// === string_compare_operators
return ["b" > "a", "B" > "a", "10" < "9", 10 < 9, "abc" < "abd"];
// === number_equality_floats
return [0.1 + 0.2 === 0.3, Math.abs(0.1 + 0.2 - 0.3) < Number.EPSILON];
// === to_upper_special
return ["straße".toUpperCase(), "İ".toLowerCase().length, "ǅ".toUpperCase()];
// === padend_table
const ps = await search_products();
return ps.map(p => p.name.padEnd(14, ".") + String(p.price).padStart(8)).join("\n");
// === trim_and_split_lines
const text = "  line one  \n\n line two\r\n";
return text.split("\n").map(l => l.trim()).filter(l => l.length > 0);
// === nested_template_conditionals
const u = await get_user(2);
return `${u.name}${u.manager ? ` (reports to ${u.manager.name})` : ""}${u.active ? "" : " [inactive]"}`;
// === optional_call_missing_method
const u = await get_user(1);
return u.format?.() ?? "no format";
// === array_destructure_swap
let a = 1;
let b = 2;
[a, b] = [b, a];
return [a, b];
// === array_destructure_skip_default
const [, second = "none", third = "none"] = ["x", "y"];
return [second, third];
// === object_entries_map_to_string
const q = await get_stock_price("SAP");
return Object.entries(q).map(([k, v]) => `${k}=${v}`).join("&");
// === number_locale_fraction
return [(1234567.891).toLocaleString("en-US"), (0.5).toLocaleString("en-US", { style: "percent" })];
// === string_raw_escapes
return ["a\tb".length, "line\\n".length, `x\ny`.split("\n").length];
// === chained_ternary_nullish_mix
const u = await get_user(3);
return u.manager?.id ?? (u.active ? -1 : -2);
// === in_loop_await_conditional_push
const ids = [1, 2, 3, 4];
const shipped = [];
for (const id of ids) {
  const orders = await get_orders(id);
  if (!orders.length) continue;
  if (orders.some(o => o.status === "shipped")) shipped.push(id);
}
return shipped;
// === promise_all_nested_maps
const users = (await list_users()).slice(0, 2);
const rows = await Promise.all(users.map(async u => {
  const orders = await get_orders(u.id);
  const totals = await Promise.all(orders.map(async o => o.items.reduce((s, i) => s + i.qty, 0)));
  return { user: u.id, totals };
}));
return rows;
// === sort_localecompare_sensitivity
return ["a", "A", "b", "B"].sort((x, y) => x.localeCompare(y, "en", { sensitivity: "base" }));
// === number_format_thousands_manual
const n = 1234567.891;
return n.toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
// === get_with_default_bracket
const counts = {};
const words = "the cat and the hat".split(" ");
for (const w of words) counts[w] = (counts[w] ?? 0) + 1;
return Object.entries(counts).sort((a, b) => b[1] - a[1])[0];
// === string_match_no_g
const m = "Order #A-1234 shipped".match(/#([A-Z])-(\d+)/);
return m ? { letter: m[1], num: Number(m[2]), index: m.index } : null;
// === map_parseint_index_radix
return ["1", "2", "3"].map(parseInt);
// === map_number_string
return [["1", "2.5", "x1"].slice(0, 2).map(Number), [1, 2].map(String), [0, 1, ""].filter(Boolean)];
// === for_of_entries_index
const ps = await search_products({ category: "jackets" });
const out = [];
for (const [i, p] of ps.entries()) out.push(`${i + 1}) ${p.name}`);
return out;
// === object_entries_foreach
const rates = await Promise.all(["EUR", "GBP"].map(c => get_exchange_rate("USD", c)));
const table = {};
Object.entries({ EUR: rates[0], GBP: rates[1] }).forEach(([k, v]) => {
  table[k] = Math.round(v * 100);
});
return table;
// === title_case_words
const u = await get_user(3);
return u.name.toLowerCase().split(" ").map(w => w[0].toUpperCase() + w.slice(1)).join(" ");
// === char_codes
return ["A".charCodeAt(0), String.fromCharCode(72, 105), "é".codePointAt(0), "abc".at(-1)];
// === encode_uri
const q = "rust & go?";
return [encodeURIComponent(q), `https://x.example/?q=${encodeURIComponent(q)}`, decodeURIComponent("a%20b")];
// === to_precision
return [(123.456).toPrecision(4), (0.00012345).toPrecision(2), (1234.5).toExponential(2)];
// === unary_plus_tofixed
const q = await get_stock_price("AAPL");
return +(q.price * 1.1).toFixed(2);
// === math_round_two_decimals_edge
return [Math.round(1.005 * 100) / 100, Math.round(2.675 * 100) / 100, Number((1.005).toFixed(2))];
// === json_parse_reviver
const text = '{"a": 1, "b": {"c": 2}}';
return JSON.parse(text, (k, v) => (typeof v === "number" ? v * 10 : v));
// === number_isnan_checks
return [Number.isNaN("abc"), isNaN("abc"), Number.isFinite("5"), isFinite("5")];
// === tosorted_with
const xs = [3, 1, 2];
return [xs.toSorted(), xs.toReversed(), xs.with(0, 9), xs];
// === object_groupby_node20
const users = await list_users();
return Object.groupBy(users, u => u.role);
// === for_await_of
const ids = [1, 2];
const out = [];
for await (const u of ids.map(id => get_user(id))) out.push(u.name);
return out;
// === new_promise_resolve
const v = await new Promise(resolve => resolve(42));
return v;
// === promise_all_object_values
const jobs = { a: get_user(1), b: get_user(2) };
const [a, b] = await Promise.all(Object.values(jobs));
return [a.name, b.name];
// === class_definition
class Counter {
  constructor() { this.n = 0; }
  inc() { this.n++; return this; }
}
return new Counter().inc().inc().n;
// === generator_function
function* range(n) { for (let i = 0; i < n; i++) yield i; }
return [...range(3)];
// === math_random
return Math.floor(Math.random() * 10) >= 0;
// === object_freeze
const cfg = Object.freeze({ a: 1 });
return cfg.a;
// === helper_default_params
function fmtPrice(p, currency = "USD", digits = 2) {
  return `${p.toFixed(digits)} ${currency}`;
}
const ps = await search_products({ category: "shoes" });
return ps.map(p => fmtPrice(p.price));
// === recursive_helper
function flatten(xs) {
  return xs.reduce((acc, x) => (Array.isArray(x) ? acc.concat(flatten(x)) : acc.concat([x])), []);
}
return flatten([1, [2, [3, [4]]], 5]);
// === helper_early_return_loop
async function firstSunny(cities) {
  for (const c of cities) {
    const w = await get_weather(c);
    if (w.conditions === "Sunny") return c;
  }
  return null;
}
return await firstSunny(["Paris", "Tokyo", "London"]);
// === async_helper_try_catch_default
async function safeUser(id) {
  try {
    return await get_user(id);
  } catch {
    return null;
  }
}
const us = await Promise.all([1, 7, 3].map(safeUser));
return us.map(u => u?.name ?? "-");
// === string_search_methods
const s = "The quick brown fox";
return [s.search("quick"), s.startsWith("quick", 4), s.endsWith("The", 3), s.includes("fox", 17)];
// === array_flat_depth
return [[1, [2, [3, [4]]]].flat(), [1, [2, [3, [4]]]].flat(Infinity), [[]].flat()];
// === array_copywithin_free_splice
const xs = [1, 2, 3, 4, 5];
const removed = xs.splice(1, 2, "a");
return [xs, removed];
// === array_lastindexof_includes_from
const xs = ["a", "b", "a"];
return [xs.lastIndexOf("a"), xs.includes("a", 3), xs.indexOf("a", -1)];
// === nested_destructure_loop
const orders = await get_orders(1);
const out = [];
for (const { id, items: [{ name: firstItem }] } of orders) out.push(`${id}:${firstItem}`);
return out;
// === default_param_object
function summarize({ title, attendees = [], location = "TBD" } = {}) {
  return `${title} @ ${location ?? "TBD"} (${attendees.length})`;
}
const events = await list_events();
return events.map(e => summarize(e));
// === compare_dates_strings
const tickets = (await list_tickets({ limit: 10 })).tickets;
const since = new Date("2024-05-01T00:00:00Z");
return tickets.filter(t => new Date(t.created) >= since).length;
// === date_tolocale_default
const d = new Date("2024-05-06T09:05:00Z");
return [d.toLocaleDateString(), d.toLocaleTimeString("en-US"), d.getTime()];
// === string_split_regex_limit
return "a1b2c3".split(/\d/).filter(Boolean);
// === chained_optional_array_methods
const r = await list_tickets({ limit: 10 });
return r?.tickets?.filter(t => t.labels?.includes("bug"))?.map(t => t.id) ?? [];
// === sum_by_key_object_entries
const orders = [...(await get_orders(1)), ...(await get_orders(2))];
const bySku = {};
for (const o of orders) for (const it of o.items) bySku[it.sku] = (bySku[it.sku] ?? 0) + it.qty * it.price;
return Object.entries(bySku).map(([sku, v]) => ({ sku, total: Number(v.toFixed(2)) })).sort((a, b) => b.total - a.total);
// === while_retry_counter
let attempts = 0;
let result = null;
while (attempts < 3 && !result) {
  attempts++;
  try {
    result = await get_weather(attempts < 2 ? "Atlantis" : "Paris");
  } catch (e) {
    result = null;
  }
}
return { attempts, city: result?.city };
// === switch_fallthrough_grouped
const tickets = (await list_tickets({ limit: 10 })).tickets;
return tickets.map(t => {
  switch (t.priority) {
    case "critical":
    case "high":
      return 1;
    case "medium":
      return 2;
    default:
      return 3;
  }
});
// === ternary_in_template_plural
const ps = await search_products({ category: "jackets" });
return `${ps.length} item${ps.length === 1 ? "" : "s"}`;
// === reduce_to_map_then_array
const users = await list_users();
const m = users.reduce((acc, u) => acc.set(u.role, (acc.get(u.role) ?? 0) + 1), new Map());
return [...m].sort((a, b) => b[1] - a[1]);
// === array_from_map_entries
const m = new Map([["a", 1], ["b", 2]]);
return [Array.from(m), Array.from(m.keys()), Array.from(m, ([k, v]) => k + v)];
// === set_operations
const a = new Set([1, 2, 3]);
const b = new Set([2, 3, 4]);
return { union: [...new Set([...a, ...b])], inter: [...a].filter(x => b.has(x)), diff: [...a].filter(x => !b.has(x)) };
// === set_delete_has
const s = new Set(["x", "y"]);
s.delete("x");
s.add("z");
return [s.has("x"), s.size, [...s]];
// === map_iterate_for_of
const m = new Map([["a", 1], ["b", 2]]);
const out = [];
for (const [k, v] of m) out.push(`${k}${v}`);
for (const k of m.keys()) out.push(k);
return out;
// === string_concat_method
return "a".concat("b", 1, null);
// === number_tostring_radix_pad
return (5).toString(2).padStart(8, "0");
// === bitwise_ops
return [5 & 3, 5 | 3, 5 ^ 3, ~5, 1 << 4, -16 >> 2, -16 >>> 28];
// === exponent_modulo
return [2 ** 10, -7 % 3, 7 % -3, 5.5 % 2];
// === comma_separated_declarations
let a = 1, b = a + 1, c;
c = a + b;
return [a, b, c];
// === console_error_warn
console.error("x");
console.warn({ a: 1 });
console.table([1]);
return "ok";
// === json_stringify_key_order_numeric
return JSON.stringify({ b: 1, 2: "two", a: 3, 1: "one" });
// === json_stringify_special_numbers
return JSON.stringify({ a: 1e21, b: 0.1 + 0.2, c: -0, d: 1 / 3 });
// === object_keys_numeric_order
return Object.keys({ b: 1, 10: 2, 2: 3, a: 4 });
// === array_holes_map_free
return Array.from({ length: 3 }).map((_, i) => i);
// === string_normalize_diacritics
return "Café Crème".normalize("NFD").replace(/[\u0300-\u036f]/g, "");
// === date_difference_hours
const e = (await list_events()).find(x => x.id === "e4");
return (Date.parse(e.end) - Date.parse(e.start)) / 3600000;
// === switch_true_ranges
const ps = await search_products();
return ps.map(p => {
  switch (true) {
    case p.price >= 200:
      return "high";
    case p.price >= 50:
      return "mid";
    default:
      return "low";
  }
});
// === throw_in_helper_catch_outside
function requirePositive(n) {
  if (n <= 0) throw new Error(`bad amount: ${n}`);
  return n;
}
try {
  const amounts = [5, 0, 3].map(requirePositive);
  return amounts;
} catch (e) {
  return `error: ${e.message}`;
}
// === try_finally_flag
let status = "start";
try {
  const u = await get_user(2);
  status = `got ${u.id}`;
} finally {
  status += " (done)";
}
return status;
// === do_while_counter
let page = 0;
let seen = 0;
do {
  const r = await list_tickets({ cursor: String(page * 2), limit: 2 });
  seen += r.tickets.length;
  page++;
} while (page < 3);
return seen;
// === empty_object_check
const r = await fetch_url("https://nowhere.example.com/");
const meta = {};
return [Object.keys(meta).length === 0, Object.entries(r).length, !!r.body];
// === array_or_single
function toList(x) {
  return Array.isArray(x) ? x : [x];
}
return [toList(1), toList([2, 3]), toList("a").length];
// === instanceof_array
const r = await list_tickets({ limit: 1 });
return [r instanceof Object, r.tickets instanceof Array, typeof r.next_cursor];
// === match_count_optional
const notes = await read_file("/data/notes.md");
return [notes.match(/TODO/g)?.length ?? 0, notes.match(/NOPE/g)?.length ?? 0];
// === split_whitespace_words
const notes = await read_file("/data/notes.md");
return notes.trim().split(/\s+/).length;
// === number_parse_variants
return [Number.parseInt("42px", 10), Number.parseFloat("3.14abc"), +"  7 ", Number(null), Number(true)];
// === results_by_index
const cities = ["Paris", "London", "Tokyo"];
const results = await Promise.all(cities.map(c => get_weather(c)));
const out = {};
for (let i = 0; i < cities.length; i++) {
  out[cities[i]] = results[i].conditions;
}
return out;
// === entries_continue_accumulate
const w = await get_weather("Paris");
const numeric = {};
for (const [k, v] of Object.entries(w)) {
  if (typeof v !== "number") continue;
  numeric[k] = Math.round(v);
}
return numeric;
// === nested_default_destructure_response
const resp = { data: { items: [1, 2] } };
const { data: { items = [], total = items.length } = {} } = resp;
const { meta: { page = 1 } = {} } = resp;
return { items, total, page };
// === average_tofixed_one
const w = await get_weather("Tokyo");
const avg = w.forecast.reduce((s, d) => s + (d.high + d.low) / 2, 0) / w.forecast.length;
return `${avg.toFixed(1)}°C`;
// === iso_date_only
const tickets = (await list_tickets({ limit: 10 })).tickets;
const byDay = {};
for (const t of tickets) {
  const day = new Date(t.created).toISOString().slice(0, 10);
  (byDay[day] ??= []).push(t.id);
}
return byDay;
// === string_builder_nested
const users = await list_users();
let report = "";
for (const u of users) {
  report += `## ${u.name}\n`;
  for (const tag of u.tags) report += `- ${tag}\n`;
  if (u.tags.length === 0) report += "- (no tags)\n";
}
return report;
// === map_entries_sorted
const tickets = (await list_tickets({ limit: 10 })).tickets;
const m = new Map();
for (const t of tickets) m.set(t.priority, (m.get(t.priority) || 0) + 1);
return Array.from(m.entries()).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
// === reduce_computed_keys_spread
const ps = await search_products();
return ps.reduce((acc, { brand, price }) => ({
  ...acc,
  [brand]: { count: (acc[brand]?.count ?? 0) + 1, total: (acc[brand]?.total ?? 0) + price },
}), {});
// === helpers_calling_helpers
async function userLabel(id) {
  const u = await get_user(id);
  return `${u.name} (${u.role})`;
}
async function orderSummary(userId) {
  const [label, orders] = await Promise.all([userLabel(userId), get_orders(userId)]);
  return `${label}: ${orders.length} orders`;
}
return await Promise.all([1, 2, 3].map(orderSummary));
// === double_negation_truthy
const u = await get_user(1);
return [!!u.manager, !!u.tags.length, !!"", !!"0", !!0];
// === typeof_dispatch
const values = [1, "two", [3], { four: 4 }, null, true];
return values.map(v => (typeof v === "string" ? v.toUpperCase() : typeof v === "number" ? v * 10 : Array.isArray(v) ? v.length : v === null ? "null" : typeof v));
// === round_to_tenths
const ps = await search_products();
return ps.map(p => Math.round(p.rating * p.price / 10) / 10);
// === sort_then_group_string
const users = await list_users();
const sorted = [...users].sort((a, b) => a.role.localeCompare(b.role) || b.age - a.age);
return sorted.map(u => `${u.role}:${u.name.split(" ")[0]}`).join(", ");
// === promise_all_with_index_map
const ids = [3, 1, 2];
const names = await Promise.all(ids.map(async (id, i) => `${i}:${(await get_user(id)).name}`));
return names;
// === conditional_email
const tickets = (await list_tickets({ limit: 10 })).tickets;
const critical = tickets.filter(t => t.priority === "critical");
if (critical.length > 0) {
  const r = await send_email("oncall@example.com", `${critical.length} critical tickets`, critical.map(t => t.id).join(", "));
  return { notified: true, id: r.id };
}
return { notified: false };
// === object_values_flat_unique
const cfg = JSON.parse(await read_file("/data/config.json"));
return [...new Set(Object.values(cfg.endpoints).map(u => new URL(u).hostname.split(".").slice(-2).join(".")))];
// === string_includes_any
const keywords = ["async", "promise"];
const pages = await search_web({ query: "python javascript rust node", limit: 5 });
return pages.filter(p => keywords.some(k => p.snippet.toLowerCase().includes(k))).map(p => p.title);
// === min_by_reduce_initial_null
const ps = await search_products();
const cheapestInStock = ps.reduce((best, p) => (p.stock > 0 && (best === null || p.price < best.price) ? p : best), null);
return cheapestInStock?.name;
// === percent_change_format
const qs = await Promise.all(["AAPL", "MSFT", "SAP"].map(get_stock_price));
return qs.map(q => `${q.symbol} ${q.change_pct >= 0 ? "▲" : "▼"} ${Math.abs(q.change_pct).toFixed(2)}%`);
// === counter_object_top_k
const users = await list_users();
const counts = {};
users.flatMap(u => u.tags).forEach(t => { counts[t] = (counts[t] || 0) + 1; });
return Object.keys(counts).sort((a, b) => counts[b] - counts[a] || a.localeCompare(b)).slice(0, 2);
// === zip_arrays
const a = ["x", "y", "z"];
const b = [1, 2, 3];
return a.map((k, i) => [k, b[i]]);
// === chunk_array
const xs = Array.from({ length: 7 }, (_, i) => i + 1);
const chunks = [];
for (let i = 0; i < xs.length; i += 3) chunks.push(xs.slice(i, i + 3));
return chunks;
// === chunked_promise_batches
const ids = [1, 2, 3, 4];
const out = [];
for (let i = 0; i < ids.length; i += 2) {
  const batch = await Promise.all(ids.slice(i, i + 2).map(id => get_user(id)));
  out.push(...batch.map(u => u.id * 10));
}
return out;
// === last_n_items
const tickets = (await list_tickets({ limit: 10 })).tickets;
return tickets.slice(-3).map(t => t.id);
// === includes_date_prefix
const events = await list_events("2024-05-06");
return events.map(e => e.title);
// === capitalize_first
const s = "hello world";
return s.charAt(0).toUpperCase() + s.slice(1);
// === word_count_map
const text = "a b a c b a";
const freq = new Map();
for (const w of text.split(" ")) freq.set(w, (freq.get(w) ?? 0) + 1);
return [...freq.entries()].map(([w, n]) => `${w}=${n}`).join(" ");
// === default_param_call_args
function greet(name, greeting = "Hello", punct = "!") {
  return `${greeting}, ${name}${punct}`;
}
return [greet("Ada"), greet("Alan", "Hi"), greet("Grace", undefined, "?")];
// === rest_params_sum
function sum(...nums) {
  return nums.reduce((a, b) => a + b, 0);
}
return [sum(), sum(1), sum(1, 2, 3)];
// === console_log_return_value
const users = await list_users();
const names = users.map(u => u.name);
console.log("names:", names.join(", "));
return names.length;
// === helper_for_effect_no_return
async function notify(user, subject) {
  await send_email(user.email, subject, `Hi ${user.name.split(" ")[0]}`);
}
const admins = (await list_users()).filter(u => u.role === "admin");
for (const a of admins) await notify(a, "weekly");
return admins.length;
// === main_logs_then_return_done
async function main() {
  const users = await list_users();
  console.log(users.map(u => u.name).join("\n"));
}
await main();
return "done";
// === validate_helper_throws
function assertCity(w) {
  if (typeof w.tempC !== "number") throw new Error(`no temperature for ${w.city}`);
}
const w = await get_weather("London");
assertCity(w);
return w.tempC;
// === bare_return_guard_in_helper
function addTag(out, u) {
  if (!u.tags.length) return;
  out.push(`${u.name}: ${u.tags.join("/")}`);
}
const users = await list_users();
const out = [];
for (const u of users) {
  if (!u.tags.length) continue;
  out.push(`${u.name}: ${u.tags.join("/")}`);
}
return out;
// === main_call_no_return (difference: lenient mode runs the wrapper `main();` as the program and returns its value, SPEC 10)
async function main() {
  const u = await get_user(1);
  return u.name;
}
main();
// === iife_no_return (difference: lenient mode runs the wrapper as the program and returns its value, SPEC 10)
(async () => {
  const u = await get_user(2);
  return u.role;
})();
// === final_expression_no_return (difference: lenient mode reads a final expression statement as `return`, SPEC 10)
const u = await get_user(3);
u.city;
// === msgs_reduce_avg_in_expression
const users = await list_users();
const avgAge = users.reduce((sum, u) => sum + u.age, 0) / users.length;
return Math.round(avgAge * 10) / 10;
// === msgs_reduce_block_in_object
const orders = await get_orders(1);
return { total: orders.reduce((acc, o) => { const t = o.items.reduce((s, i) => s + i.qty * i.price, 0); return acc + t; }, 0) };
// === msgs_reduce_counts_tail
const tickets = (await list_tickets(undefined, 10)).tickets;
const openShare = tickets.reduce((acc, t) => { if (t.status === 'open') acc.open++; acc.all++; return acc; }, { open: 0, all: 0 }).open / tickets.length;
return openShare.toFixed(2);
// === msgs_reduce_scalar_param_set
const users = await list_users();
return { total: users.reduce((acc, u) => { acc += u.age; return acc; }, 0) };
// === msgs_reduce_member_inc_nested
const users = await list_users();
return { byActive: users.reduce((acc, u) => { acc[u.active ? 'yes' : 'no'] += 1; return acc; }, { yes: 0, no: 0 }) };
// === msgs_reduce_push_if_nested
const products = await search_products();
return { inStock: products.reduce((acc, p) => { if (p.stock > 0) acc.push(p.id); return acc; }, []) };
// === msgs_reduce_statement_then_object
const products = await search_products();
const inStock = products.reduce((acc, p) => { if (p.stock > 0) acc.push(p.id); return acc; }, []);
return { inStock, count: inStock.length };
// === msgs_let_in_arrow_changed
const users = await list_users();
return users.map(u => { let label = u.name; label += u.active ? '' : ' (inactive)'; return label; });
// === msgs_let_in_arrow_if
const users = await list_users();
return users.map(u => { let label = u.name; if (!u.active) label += ' (inactive)'; return label; });
// === msgs_grid_from_tool_changed
const w = await get_weather('Paris');
const grid = w.forecast.map(d => [d.high, d.low]);
for (let i = 0; i < grid.length; i++) grid[i][0] = grid[i][0] - grid[i][1];
return grid;
// === msgs_rows_copy_structured
const users = await list_users();
const rows = structuredClone(users.map(u => u.tags));
rows[0].push('extra');
return rows;
// === msgs_tool_array_cell_changed
const u = await get_user(1);
u.tags[0] = u.tags[0].toUpperCase();
return u.tags;
// === msgs_object_assign_string
const target = { id: 1 };
Object.assign(target, 'ok');
return target;
// === msgs_object_assign_new_target
const u = await get_user(2);
return Object.assign({}, { id: u.id }, { name: u.name }, null);
// === msgs_async_generator
async function* pages() { let cursor = null; do { const r = await list_tickets(cursor); yield r.tickets; cursor = r.next_cursor; } while (cursor); }
const all = [];
for await (const page of pages()) all.push(...page);
return all.length;
// === msgs_paginate_while
const all = [];
let cursor;
do {
  const page = await list_tickets(cursor, 3);
  all.push(...page.tickets);
  cursor = page.next_cursor;
} while (cursor);
return all.map(t => t.id);
// === msgs_promise_all_destructure
const [paris, london] = await Promise.all([get_weather('Paris'), get_weather('London')]);
return `${paris.city} ${paris.tempC > london.tempC ? 'is warmer than' : 'is not warmer than'} ${london.city}`;
// === msgs_sort_by_multiple
const tickets = (await list_tickets(undefined, 10)).tickets;
const rank = { critical: 0, high: 1, medium: 2, low: 3 };
return tickets.slice().sort((a, b) => rank[a.priority] - rank[b.priority] || a.created.localeCompare(b.created)).map(t => t.id);
// === msgs_group_by_entries
const products = await search_products();
const groups = {};
for (const p of products) { (groups[p.category] ??= []).push(p.name); }
return Object.entries(groups).map(([cat, names]) => `${cat}: ${names.join(', ')}`);
// === msgs_from_entries_map
const syms = ['AAPL', 'MSFT', 'SAP'];
const quotes = await Promise.all(syms.map(s => get_stock_price(s)));
return Object.fromEntries(quotes.map(q => [q.symbol, q.price]));
// === msgs_labelled_break
const users = await list_users();
let found = null;
outer: for (const u of users) {
  for (const t of u.tags) {
    if (t === 'crypto') { found = u.name; break outer; }
  }
}
return found;
// === msgs_switch_priority
const tickets = (await list_tickets(undefined, 10)).tickets;
const scores = tickets.map(t => {
  switch (t.priority) {
    case 'critical': return 3;
    case 'high': return 2;
    default: return 1;
  }
});
return scores.reduce((a, b) => a + b, 0);
// === msgs_try_catch_map
const cities = ['Paris', 'Atlantis', 'Tokyo'];
const out = [];
for (const c of cities) {
  try { const w = await get_weather(c); out.push({ c, t: w.tempC }); }
  catch (e) { out.push({ c, error: e.message }); }
}
return out;
// === msgs_optional_chain_default
const users = await list_users();
return users.map(u => u.manager?.name ?? 'none');
// === msgs_json_roundtrip
const cfg = JSON.parse(await read_file('/data/config.json'));
return JSON.stringify({ retries: cfg.retries, api: cfg.endpoints?.api, n: cfg.features.length });
// === msgs_csv_parse
const text = await read_file('/data/sales.csv');
const [header, ...lines] = text.trim().split('\n');
const cols = header.split(',');
const rows = lines.map(l => Object.fromEntries(l.split(',').map((v, i) => [cols[i], isNaN(v) ? v : Number(v)])));
return rows.filter(r => r.region === 'north').reduce((s, r) => s + r.units * r.price, 0);
// === msgs_set_unique_tags
const users = await list_users();
return [...new Set(users.flatMap(u => u.tags))].sort();
// === msgs_map_counter
const users = await list_users();
const m = new Map();
for (const u of users) m.set(u.role, (m.get(u.role) || 0) + 1);
return [...m.entries()].sort((a, b) => b[1] - a[1]);
// === msgs_array_from_range
return Array.from({ length: 5 }, (_, i) => i * i).filter(n => n % 2 === 0);
// === msgs_math_stats
const w = await get_weather('London');
const highs = w.forecast.map(d => d.high);
return { max: Math.max(...highs), min: Math.min(...highs), mean: +(highs.reduce((a, b) => a + b) / highs.length).toFixed(2) };
// === msgs_string_methods
const notes = await read_file('/data/notes.md');
const todos = notes.split('\n').filter(l => l.startsWith('TODO')).map(l => l.replace('TODO:', '').trim());
return todos.map(t => t[0].toUpperCase() + t.slice(1)).join('; ');
// === msgs_regex_emails
const notes = await read_file('/data/notes.md');
return notes.match(/[\w.]+@[\w.]+/g);
// === msgs_template_nested
const u = await get_user(3);
return `${u.name} (${u.age}) — ${u.tags.length ? u.tags.join('/') : 'no tags'}`;
// === msgs_destructure_defaults
const { name, city = 'unknown', manager: { name: boss } = { name: 'nobody' } } = await get_user(1);
return [name, city, boss];
// === msgs_destructure_null_default
const { manager: { name: boss } = { name: 'nobody' } } = await get_user(1);
return boss;
// === msgs_for_of_entries_index
const users = await list_users();
const lines = [];
for (const [i, u] of users.entries()) lines.push(`${i + 1}. ${u.name}`);
return lines;
// === msgs_while_countdown
let n = 5;
const seq = [];
while (n > 0) { seq.push(n); n -= 2; }
return seq;
// === msgs_conversion_chain
const c = await convert_currency(100, 'USD', 'EUR');
const back = await convert_currency(c.converted, 'EUR', 'USD');
return { there: c.converted, back: back.converted, lost: +(100 - back.converted).toFixed(2) };
// === msgs_some_every
const products = await search_products('jackets');
return { anyCheap: products.some(p => p.price < 200), allRated: products.every(p => p.rating >= 4) };
// === msgs_find_index_splice
const tickets = (await list_tickets(undefined, 10)).tickets.map(t => t.id);
const i = tickets.indexOf('T-3');
if (i !== -1) tickets.splice(i, 1);
return tickets;
// === msgs_sort_numbers_default
const nums = [10, 9, 1, 100];
return nums.sort();
// === msgs_sort_objects_localecompare
const users = await list_users();
return users.map(u => u.city).sort((a, b) => a.localeCompare(b));
// === msgs_date_diff
const events = await list_events('2024-05-06');
return events.map(e => (new Date(e.end) - new Date(e.start)) / 60000);
// === msgs_date_iso_day
const events = await list_events();
return [...new Set(events.map(e => new Date(e.start).toISOString().slice(0, 10)))];
// === msgs_pad_table
const ps = await search_products();
return ps.map(p => p.name.padEnd(14, '.') + String(p.price).padStart(7)).join('\n');
// === msgs_number_format
const q = await get_stock_price('MSFT');
return [q.price.toFixed(1), Math.round(q.change_pct), Number('12.50'), parseInt('42px'), parseFloat('3.14abc')];
// === msgs_send_emails_loop
const users = (await list_users()).filter(u => u.active);
const sent = [];
for (const u of users) {
  const r = await send_email(u.email, 'Hello', `Hi ${u.name.split(' ')[0]}!`);
  sent.push(r.id);
}
return sent;
// === msgs_nested_map_filter
const users = await list_users();
const orders = await Promise.all(users.map(u => get_orders(u.id)));
return users.map((u, i) => ({ name: u.name, skus: orders[i].flatMap(o => o.items.map(it => it.sku)) })).filter(x => x.skus.length);
// === msgs_counter_object_in_loop
const orders = [...await get_orders(1), ...await get_orders(2)];
const qty = {};
for (const o of orders) for (const it of o.items) qty[it.sku] = (qty[it.sku] || 0) + it.qty;
return qty;
// === msgs_chained_ternary
const w = await get_weather('Tokyo');
return w.tempC > 25 ? 'hot' : w.tempC > 15 ? 'mild' : 'cold';
// === msgs_string_includes_case
const pages = await search_web('python guide', 5);
return pages.filter(p => p.title.toLowerCase().includes('python')).map(p => p.url);
// === msgs_object_keys_length
const cfg = JSON.parse(await read_file('/data/config.json'));
return Object.keys(cfg).length + Object.values(cfg.endpoints).filter(v => v.startsWith('https')).length;
// === msgs_spread_merge_override
const u = await get_user(4);
const view = { ...u, manager: u.manager?.name, tags: undefined };
return JSON.stringify(view);
// === msgs_arr_at_negative
const events = await list_events();
return [events.at(-1).title, events.at(0).id];
// === msgs_reduce_max_by
const products = await search_products();
const best = products.reduce((a, b) => (b.rating > a.rating ? b : a));
return best.name;
// === msgs_continue_in_loop
const products = await search_products();
const names = [];
for (const p of products) {
  if (p.stock === 0) continue;
  names.push(p.name);
}
return names;
// === msgs_fetch_status
const urls = ['https://api.example.com/health', 'https://api.example.com/missing'];
const res = await Promise.all(urls.map(u => fetch_url(u)));
return res.map((r, i) => `${urls[i]} -> ${r.status}`);
// === msgs_promise_allsettled
const rs = await Promise.allSettled([fetch_url('https://down.example.com'), fetch_url('https://api.example.com/version')]);
return rs.map(r => r.status === 'fulfilled' ? JSON.parse(r.value.body).major : r.reason.message);
// === msgs_typeof_checks
const cfg = JSON.parse(await read_file('/data/config.json'));
return Object.entries(cfg).map(([k, v]) => `${k}:${Array.isArray(v) ? 'array' : typeof v}`);
// === msgs_object_assign_into_const
const summary = { count: 0 };
const users = await list_users();
Object.assign(summary, { count: users.length, roles: [...new Set(users.map(u => u.role))] });
return summary;
// === msgs_push_into_context_like
const users = await list_users();
const first = users[0];
first.tags.push('new');
return first.tags;
// === msgs_string_split_count
const text = await read_file('/data/notes.md');
const words = text.toLowerCase().match(/[a-z]+/g);
const freq = {};
for (const w of words) freq[w] = (freq[w] || 0) + 1;
return Object.entries(freq).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 3);
// === msgs_exchange_loop_let
let total = 0;
for (const sym of ['AAPL', 'SAP']) {
  const q = await get_stock_price(sym);
  const rate = q.currency === 'USD' ? 1 : await get_exchange_rate(q.currency, 'USD');
  total += q.price * rate;
}
return Math.round(total * 100) / 100;
// === msgs_grid_structured_clone
const w = await get_weather('Paris');
const grid = structuredClone(w.forecast.map(d => [d.high, d.low]));
for (let i = 0; i < grid.length; i++) grid[i][0] = grid[i][0] - grid[i][1];
return grid;
// === msgs_splice_after_find
const ids = (await list_tickets(undefined, 10)).tickets.map(t => t.id);
const at = ids.indexOf('T-3');
ids.splice(at, 1);
return ids;
// === msgs_json_pretty
const u = await get_user(2);
return JSON.stringify({ id: u.id, manager: u.manager, tags: u.tags }, null, 2);
// === msgs_replace_all_regex
const notes = await read_file('/data/notes.md');
return notes.replaceAll('TODO', 'todo').replace(/\n+/g, ' | ').trim();
// === msgs_switch_fallthrough
const tickets = (await list_tickets(undefined, 10)).tickets;
const out = [];
for (const t of tickets) {
  switch (t.status) {
    case 'open':
    case 'in_progress':
      out.push(t.id);
      break;
    case 'closed':
      break;
    default:
      out.push('?' + t.id);
  }
}
return out;
// === msgs_labelled_continue
const users = await list_users();
const picked = [];
users: for (const u of users) {
  for (const t of u.tags) {
    if (t.startsWith('c')) continue users;
  }
  picked.push(u.id);
}
return picked;
// === msgs_in_operator
const cfg = JSON.parse(await read_file('/data/config.json'));
return ['retries' in cfg, 'timeout' in cfg, cfg.hasOwnProperty('debug'), Object.hasOwn(cfg, 'x')];
// === msgs_array_from_set_map
const users = await list_users();
const cities = new Set(users.map(u => u.city));
const m = new Map(users.map(u => [u.id, u.name]));
return [Array.from(cities).length, Array.from(m.values()).join(','), m.has(3), m.get(9) ?? 'none'];
// === msgs_for_of_destructure_nested
const orders = await get_orders(1);
const lines = [];
for (const { id, items: [first, ...rest] } of orders) lines.push(`${id}:${first.sku}+${rest.length}`);
return lines;
// === msgs_number_edge
return [0.1 + 0.2, (0.1 + 0.2).toFixed(2), 1 / 3, 2 ** 53 + 1, -0 === 0, Number.MAX_SAFE_INTEGER, (1234.5678).toFixed(1), Math.round(-2.5), Math.round(2.5)];
// === msgs_string_number_mix
const q = await get_stock_price('AAPL');
return ['$' + q.price, q.price + '1', '3' * '4', '10' / 4, '5' - 2, +'  7 ', Number(''), Number('abc')];
// === msgs_sort_stability
const products = await search_products();
return products.slice().sort((a, b) => a.brand.localeCompare(b.brand)).map(p => p.id);
// === msgs_sort_default_strings
const users = await list_users();
return users.map(u => u.name.split(' ')[1]).sort().reverse();
// === msgs_date_methods
const e = (await list_events())[1];
const d = new Date(e.start);
return [d.getUTCHours(), d.getUTCDay(), d.toISOString(), Date.parse(e.end) - d.getTime()];
// === msgs_optional_call_method
const u = await get_user(3);
return [u.manager?.name?.toUpperCase(), u.nickname?.trim(), u.tags?.at?.(0)];
// === msgs_nullish_assign_obj
const stats = {};
const users = await list_users();
for (const u of users) { stats[u.role] ??= 0; stats[u.role] += u.age; }
return stats;
// === msgs_object_entries_sort_values
const ps = await search_products();
const byBrand = {};
for (const p of ps) byBrand[p.brand] = (byBrand[p.brand] ?? 0) + p.stock;
return Object.entries(byBrand).sort(([, a], [, b]) => b - a).map(([k]) => k);
// === msgs_flat_depth
return [[1, [2, [3, [4]]]].flat(), [[1, [2, [3, [4]]]]].flat(Infinity), [1, 2].flatMap(x => [x, [x * 10]])];
// === msgs_string_pad_slice_neg
const s = 'dialectic';
return [s.slice(-3), s.substring(5, 2), s.at(-1), s.padStart(12, '*'), s.split('').reverse().join(''), s.charCodeAt(0), s.indexOf('c', 4), s.lastIndexOf('c')];
// === msgs_find_last
const events = await list_events();
return [events.findLast(e => e.location)?.id, events.findLastIndex(e => e.location === 'Zoom'), events.find(e => e.id === 'zz')];
// === msgs_every_empty
return [[].every(x => x > 1), [].some(x => x), [].reduce((a, b) => a + b, 'init'), [1].reduce((a, b) => a + b)];
// === msgs_reduce_empty_no_init
const xs = [];
return xs.reduce((a, b) => a + b);
// === msgs_template_array_object
const u = await get_user(1);
return `tags=${u.tags} mgr=${u.manager} n=${null} u=${undefined} arr=${[1, [2, 3]]}`;
// === msgs_compare_mixed
return [null == undefined, null === undefined, NaN === NaN, [1] == 1, '2' > '10', 2 > '10', null >= 0, undefined == 0];
// === msgs_closure_counter
function makeCounter() { let n = 0; return () => ++n; }
const c = makeCounter();
return [c(), c(), c()];
// === msgs_recursive_sum
function depthSum(xs, d = 1) { return xs.reduce((s, x) => s + (Array.isArray(x) ? depthSum(x, d + 1) : x * d), 0); }
return depthSum([1, [2, [3]], 4]);
// === msgs_while_pagination_push
const all = [];
let cursor;
while (true) {
  const page = await list_tickets(cursor, 4);
  all.push(...page.tickets.map(t => t.id));
  if (!page.next_cursor) break;
  cursor = page.next_cursor;
}
return all;
// === msgs_promise_race_timeout
const r = await Promise.race([get_weather('Paris'), new Promise(res => setTimeout(() => res('timeout'), 5000))]);
return r.city ?? r;
// === msgs_error_rethrow
async function safe(city) { try { return await get_weather(city); } catch (e) { throw new Error(`weather failed: ${e.message}`); } }
try { await safe('Nowhere'); return 'ok'; } catch (e) { return e.message; }
// === msgs_finally_block
const log = [];
try { log.push('a'); await get_user(99); log.push('b'); } catch (e) { log.push('c'); } finally { log.push('d'); }
return log;
// === msgs_object_spread_conditional
const u = await get_user(2);
return { id: u.id, ...(u.manager && { boss: u.manager.name }), ...(u.age > 50 ? { senior: true } : {}) };
// === msgs_map_index_param
const users = await list_users();
return users.map((u, i, arr) => `${i + 1}/${arr.length} ${u.name.split(' ')[0]}`);
// === msgs_split_limit_join
return ['a,b,,c'.split(','), 'a,b,c'.split(',', 2), ''.split(','), 'abc'.split(''), ' x  y '.trim().split(/\s+/)];
// === msgs_math_misc
return [Math.trunc(-4.7), Math.sign(-3), Math.cbrt(27), Math.hypot(3, 4), Math.floor(-0.5), Math.abs(-7.25), Math.min(), Math.max()];
// === msgs_tostring_radix
return [(255).toString(16), (255).toString(2), parseInt('ff', 16), (12).toString().padStart(4, '0'), Number('0x10'), (1e21).toString(), (123.456).toPrecision(4)];
// === msgs_array_includes_nan
return [[NaN].includes(NaN), [NaN].indexOf(NaN), [1, 2, 3].includes('2'), [[1]].includes([1])];
// === msgs_delete_key
const u = await get_user(1);
const copy = { ...u };
delete copy.email;
delete copy.tags;
return Object.keys(copy);
// === msgs_let_reassign_object
let acc = { n: 0 };
for (const x of [1, 2, 3]) acc = { ...acc, n: acc.n + x, [`k${x}`]: x };
return acc;
// === msgs_string_localecompare_sort_numbers
return ['10', '9', '1'].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
// === msgs_intl_number
return (1234567.891).toLocaleString('en-US', { maximumFractionDigits: 1 });
// === msgs_object_freeze_read
const LIMITS = Object.freeze({ max: 3 });
const users = await list_users();
return users.slice(0, LIMITS.max).map(u => u.id);
// === msgs_rows_spread_copy_push
const users = await list_users();
const rows = users.map(u => [...u.tags]);
rows[0].push('extra');
return rows.map(r => r.join('|'));
// === msgs_records_spread_copy_set
const products = await search_products('shoes');
const view = products.map(p => ({ ...p }));
for (let i = 0; i < view.length; i++) view[i].price = Math.round(view[i].price * 0.9);
return view.map(p => [p.id, p.price]);
// === h3_reduce_tail_template
const users = await list_users();
const s = users.reduce((acc, u) => { acc[u.role] = (acc[u.role] || 0) + 1; return acc; }, {});
return `${Object.keys(s).length} roles`;
// === h3_reduce_tail_join
const users = await list_users();
return users.reduce((acc, u) => { if (u.active) acc.push(u.name.split(' ')[0]); return acc; }, []).join(', ') + '.';
// === h3_reduce_tail_ternary
const ps = await search_products();
const r = ps.reduce((acc, p) => { acc.n += p.stock; return acc; }, { n: 0 }).n > 100 ? 'plenty' : 'low';
return r;
// === h3_reduce_tail_call_arg
const ps = await search_products();
const top = Math.max(...ps.reduce((acc, p) => { acc.push(p.rating); return acc; }, []));
return top;
// === h3_reduce_in_map_arrow
const users = await list_users();
return users.map(u => { const c = u.tags.reduce((acc, t) => { acc[t[0]] = (acc[t[0]] || 0) + 1; return acc; }, {}); return Object.keys(c).length; });
// === h3_foreach_in_map_arrow
const users = await list_users();
return users.map(u => { const out = []; u.tags.forEach(t => { if (t.length > 4) out.push(t.toUpperCase()); }); return out; });
// === h3_grid_copy_loop
const w = await get_weather('London');
const g = w.forecast.map(d => [d.high, d.low, d.rain]);
for (let i = 0; i < g.length; i++) { for (let j = 0; j < 2; j++) g[i][j] = g[i][j] * 10; }
return g;
// === h3_records_copy_change
const users = await list_users();
const view = users.map(u => ({ ...u }));
view[0].name = 'X';
return [view[0].name, users[0].name];
// === h3_records_copy_nested_change
const users = await list_users();
const view = users.map(u => ({ ...u }));
view[0].tags.push('X');
return [view[0].tags, users[0].tags];
// === h3_rows_copy_shift_sort
const users = await list_users();
const rows = users.map(u => [...u.tags]);
rows[0].shift();
rows[1].sort();
return rows;
// === h3_nested_let_arrow_if
const users = await list_users();
return users.map(u => { let tag = u.tags[0] ?? 'none'; if (!u.active) tag = `(${tag})`; return tag; });
// === h3_object_assign_array_source
const a = { k: 1 };
Object.assign(a, [5, 6]);
return a;
// === h3_spread_string_in_array
return [...'héllo'].map(c => c.toUpperCase()).join('');
// === h3_json_parse_then_map
const cfg = JSON.parse(await read_file('/data/config.json'));
return Object.fromEntries(Object.entries(cfg.endpoints).map(([k, v]) => [k, new URL(v).hostname]));
// === h3_splice_top_level
const ids = (await list_users()).map(u => u.id);
ids.splice(1, 2, 99);
return ids;
// === h3_conditional_shift_let
let queue = (await list_users()).map(u => u.id);
if (queue.length > 2) queue = queue.slice(1);
return queue;
// === h3_reduce_no_semicolons_one_line
const ps = await search_products()
const stock = ps.reduce((acc, p) => { acc[p.category] = (acc[p.category] ?? 0) + p.stock; acc.all += p.stock; return acc }, { all: 0 }).all
return stock
// === h4_nested_user_orders_total
const user = await get_user(2);
const orders = await get_orders(user.id);
const total = orders.flatMap(o => o.items).reduce((s, i) => s + i.qty * i.price, 0);
return { user: user.name, orders: orders.length, total: Math.round(total * 100) / 100 };
// === h4_parallel_weather_warmest
const cities = ["Paris", "London", "Tokyo"];
const reports = await Promise.all(cities.map(city => get_weather(city)));
const warmest = reports.reduce((best, r) => (r.tempC > best.tempC ? r : best));
return `${warmest.city} is warmest at ${warmest.tempC}°C`;
// === h4_convert_then_format_grouped
const { converted } = await convert_currency(1234567.5, "USD", "JPY");
return converted.toFixed(0).replace(/\B(?=(\d{3})+(?!\d))/g, ",") + " JPY";
// === h4_portfolio_value_eur
const holdings = { AAPL: 10, MSFT: 4, SAP: 20 };
const quotes = await Promise.all(Object.keys(holdings).map(s => get_stock_price(s)));
let usd = 0;
for (const q of quotes) {
  const amount = q.price * holdings[q.symbol];
  usd += q.currency === "USD" ? amount : amount / (await get_exchange_rate("USD", q.currency));
}
const rate = await get_exchange_rate("USD", "EUR");
return { usd: usd.toFixed(2), eur: (usd * rate).toFixed(2) };
// === h4_manager_chain
const u = await get_user(4);
const boss = u.manager ? await get_user(u.manager.id) : null;
const bossBoss = boss?.manager ? await get_user(boss.manager.id) : null;
return [u.name, boss?.name ?? "none", bossBoss?.name ?? "none"];
// === h4_events_for_user_with_titles
const user = await get_user(3);
const events = await list_events("2024-05");
return events
  .filter(e => e.attendees.includes(user.email))
  .map(e => ({ title: e.title, at: e.start.slice(11, 16), where: e.location ?? "TBD" }));
// === h4_math_chain_nestful_like
const a = 12 * 7;
const b = Math.pow(a, 2);
const c = Math.sqrt(b) + Math.log10(1000);
return Math.round(c * 100) / 100;
// === h4_stock_moves_report
const symbols = ["AAPL", "MSFT", "SAP"];
const quotes = await Promise.all(symbols.map(get_stock_price));
return quotes
  .toSorted((a, b) => b.change_pct - a.change_pct)
  .map(q => `${q.symbol.padEnd(5)} ${q.change_pct >= 0 ? "+" : ""}${q.change_pct.toFixed(2)}%`)
  .join("\n");
// === h4_cheapest_in_stock_per_category
const products = await search_products();
const best = {};
for (const p of products) {
  if (p.stock === 0) continue;
  if (!best[p.category] || p.price < best[p.category].price) best[p.category] = p;
}
return Object.fromEntries(Object.entries(best).map(([c, p]) => [c, `${p.name} ($${p.price})`]));
// === h4_budget_filter_then_convert
const items = await search_products("jackets", 250);
const eur = await Promise.all(items.map(p => convert_currency(p.price, "USD", "EUR")));
return items.map((p, i) => ({ name: p.name, eur: eur[i].converted }));
// === h4_ticket_label_switch
const { tickets } = await list_tickets({ limit: 10 });
const lines = [];
for (const t of tickets) {
  let badge;
  switch (t.priority) {
    case "critical":
      badge = "P0";
      break;
    case "high":
      badge = "P1";
      break;
    case "medium":
      badge = "P2";
      break;
    default:
      badge = "P3";
  }
  lines.push(`[${badge}] ${t.id} ${t.title}`);
}
return lines.join("\n");
// === h4_ticket_owner_lookup
const { tickets } = await list_tickets({ limit: 10 });
const users = await list_users();
const byEmail = new Map(users.map(u => [u.email, u]));
return tickets
  .filter(t => t.status !== "closed")
  .map(t => ({ id: t.id, owner: byEmail.get(t.assignee)?.name ?? "unassigned" }));
// === h4_ages_histogram_numeric_keys
const users = await list_users();
const byDecade = {};
for (const u of users) {
  const d = Math.floor(u.age / 10) * 10;
  byDecade[d] = (byDecade[d] ?? 0) + 1;
}
return Object.keys(byDecade).sort((a, b) => b - a).map(d => `${d}s: ${byDecade[d]}`);
// === h4_json_report_selected_fields
const users = await list_users();
const active = users.filter(u => u.active);
return JSON.stringify(active, ["id", "name", "city"], 2);
// === h4_send_summary_email
const { tickets } = await list_tickets({ limit: 10 });
const open = tickets.filter(t => t.status === "open");
const body = open.map(t => `- ${t.id}: ${t.title}`).join("\n");
const sent = await send_email("ops@example.com", `${open.length} open tickets`, body);
return { status: sent.status, to: sent.to, lines: body.split("\n").length };
// === h4_search_then_fetch_first
const results = await search_web("python guide", 5);
const top = results.toSorted((a, b) => b.score - a.score)[0];
const page = await fetch_url(top.url);
return { title: top.title, status: page.status, score: top.score };
// === h4_health_checks_allsettled
const urls = ["https://api.example.com/health", "https://down.example.com/x", "https://api.example.com/version"];
const results = await Promise.allSettled(urls.map(u => fetch_url(u)));
return results.map((r, i) => ({
  url: urls[i],
  ok: r.status === "fulfilled" && r.value.status === 200,
  error: r.status === "rejected" ? r.reason.message : null,
}));
// === h4_version_from_json_body
const res = await fetch_url("https://api.example.com/version");
if (res.status !== 200) return null;
const { major, minor, patch = 0 } = JSON.parse(res.body);
return `v${major}.${minor}.${patch}`;
// === h4_csv_revenue_by_region
const text = await read_file("/data/sales.csv");
const [header, ...rows] = text.trim().split("\n");
const cols = header.split(",");
const records = rows.map(r => Object.fromEntries(r.split(",").map((v, i) => [cols[i], v])));
const revenue = {};
for (const r of records) revenue[r.region] = (revenue[r.region] ?? 0) + Number(r.units) * Number(r.price);
return Object.entries(revenue).sort(([, a], [, b]) => b - a);
// === h4_config_endpoints_hosts
const cfg = JSON.parse(await read_file("/data/config.json"));
const { retries = 1, timeout = 30, endpoints } = cfg;
return { retries, timeout, hosts: Object.values(endpoints).map(u => u.split("/")[2]) };
// === h4_notes_todos_and_emails
const notes = await read_file("/data/notes.md");
const todos = notes.split("\n").filter(l => l.startsWith("TODO:")).map(l => l.slice(5).trim());
const emails = notes.match(/[\w.]+@[\w.]+\.\w+/g) ?? [];
return { todos, emails };
// === h4_files_largest_first
const entries = await list_files("/data");
const files = entries.filter(e => e.type === "file");
const fmt = n => (n >= 1024 ? `${(n / 1024).toFixed(1)} KB` : `${n} B`);
return files.toSorted((a, b) => b.size - a.size).map(f => `${f.name} ${fmt(f.size)}`);
// === h4_recently_modified_files
const entries = await list_files("/data");
const cutoff = new Date("2024-04-25T00:00:00Z").getTime();
return entries
  .filter(e => new Date(e.modified).getTime() >= cutoff)
  .map(e => e.name);
// === h4_meeting_durations
const events = await list_events();
return events.map(e => {
  const minutes = (new Date(e.end) - new Date(e.start)) / 60000;
  return `${e.title}: ${minutes} min`;
});
// === h4_busiest_day
const events = await list_events();
const perDay = events.reduce((acc, e) => {
  const day = e.start.slice(0, 10);
  return { ...acc, [day]: (acc[day] ?? 0) + 1 };
}, {});
const [day, count] = Object.entries(perDay).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
return { day, count };
// === h4_attendee_counts_set
const events = await list_events();
const everyone = new Set(events.flatMap(e => e.attendees));
return [...everyone].sort().map(email => [email, events.filter(e => e.attendees.includes(email)).length]);
// === h4_rain_days_forecast
const ws = await Promise.all(["Paris", "London", "Tokyo"].map(get_weather));
return Object.fromEntries(ws.map(w => [w.city, w.forecast.filter(f => f.rain >= 0.5).map(f => f.day)]));
// === h4_temperature_conversions
const w = await get_weather("Tokyo");
const toF = c => Math.round((c * 9 / 5 + 32) * 10) / 10;
return { now: toF(w.tempC), highs: w.forecast.map(f => toF(f.high)), unit: "°F" };
// === h4_try_each_user_fallback
const ids = [1, 7, 3];
const out = [];
for (const id of ids) {
  try {
    const u = await get_user(id);
    out.push(u.name);
  } catch (err) {
    out.push(`missing (${err.message})`);
  }
}
return out;
// === h4_first_available_city
const candidates = ["Berlin", "Paris", "Tokyo"];
let found = null;
for (const city of candidates) {
  try {
    found = await get_weather(city);
    break;
  } catch {
    continue;
  }
}
return found ? `${found.city}: ${found.conditions}` : "no data";
// === h4_exchange_table
const targets = ["EUR", "GBP", "JPY"];
const rates = await Promise.all(targets.map(t => get_exchange_rate("USD", t)));
return targets.map((t, i) => `1 USD = ${rates[i].toFixed(t === "JPY" ? 1 : 4)} ${t}`);
// === h4_round_trip_conversion
const there = await convert_currency(100, "EUR", "GBP");
const back = await convert_currency(there.converted, "GBP", "EUR");
return { there: there.converted, back: back.converted, loss: +(100 - back.converted).toFixed(2) };
// === h4_order_status_counts
const all = (await Promise.all([1, 2, 3, 4].map(id => get_orders(id)))).flat();
const counts = all.reduce((m, o) => m.set(o.status, (m.get(o.status) ?? 0) + 1), new Map());
return Object.fromEntries([...counts].sort(([a], [b]) => a.localeCompare(b)));
// === h4_top_skus_by_quantity
const all = (await Promise.all([1, 2, 3].map(get_orders))).flat();
const qty = {};
for (const o of all) for (const it of o.items) qty[it.sku] = (qty[it.sku] ?? 0) + it.qty;
return Object.entries(qty).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 3);
// === h4_user_spend_ranking
const users = await list_users();
const spend = await Promise.all(users.map(async u => {
  const orders = await get_orders(u.id);
  const total = orders.filter(o => o.status !== "cancelled")
    .reduce((s, o) => s + o.items.reduce((t, i) => t + i.qty * i.price, 0), 0);
  return { name: u.name, total: Number(total.toFixed(2)) };
}));
return spend.sort((a, b) => b.total - a.total);
// === h4_latest_order_per_user
const users = await list_users();
const latest = [];
for (const u of users) {
  const orders = await get_orders(u.id);
  if (orders.length === 0) continue;
  const last = orders.reduce((a, b) => (a.createdAt > b.createdAt ? a : b));
  latest.push({ user: u.name.split(" ")[0], order: last.id, date: last.createdAt.slice(0, 10) });
}
return latest;
// === h4_products_brand_summary
const products = await search_products();
const brands = [...new Set(products.map(p => p.brand))];
return brands.map(b => {
  const mine = products.filter(p => p.brand === b);
  const avg = mine.reduce((s, p) => s + p.rating, 0) / mine.length;
  return `${b}: ${mine.length} item(s), avg rating ${avg.toFixed(2)}`;
});
// === h4_inventory_value_grouped
const products = await search_products();
const value = products.reduce((s, p) => s + p.price * p.stock, 0);
const [int, frac] = value.toFixed(2).split(".");
return `$${int.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}.${frac}`;
// === h4_paginate_with_undefined_cursor
let cursor;
const ids = [];
do {
  const page = await list_tickets({ cursor, limit: 2 });
  ids.push(...page.tickets.map(t => t.id));
  cursor = page.next_cursor ?? undefined;
} while (cursor);
return ids;
// === h4_paginate_while_true_break
const all = [];
let cursor = undefined;
for (let page = 0; page < 10; page++) {
  const res = await list_tickets({ cursor, limit: 3 });
  all.push(...res.tickets);
  if (!res.next_cursor) break;
  cursor = res.next_cursor;
}
return { total: all.length, critical: all.filter(t => t.priority === "critical").map(t => t.id) };
// === h4_unassigned_critical_alert
const { tickets } = await list_tickets({ limit: 20 });
const urgent = tickets.filter(t => t.priority === "critical" && !t.assignee);
if (urgent.length === 0) return "nothing to do";
const receipts = await Promise.all(urgent.map(t => send_email("oncall@example.com", `URGENT ${t.id}`, t.title)));
return receipts.map(r => r.id);
// === h4_label_index
const { tickets } = await list_tickets({ limit: 20 });
const index = {};
for (const t of tickets) {
  for (const label of t.labels) {
    (index[label] ??= []).push(t.id);
  }
}
return Object.keys(index).sort().map(l => `${l}: ${index[l].join(", ")}`);
// === h4_ticket_age_days
const { tickets } = await list_tickets({ limit: 20 });
const now = new Date("2024-05-10T00:00:00Z");
return tickets
  .filter(t => t.status !== "closed")
  .map(t => ({ id: t.id, days: Math.floor((now - new Date(t.created)) / 86400000) }))
  .sort((a, b) => b.days - a.days);
// === h4_search_dedupe_domains
const [a, b] = await Promise.all([search_web("python"), search_web("guide")]);
const seen = new Set();
const unique = [];
for (const r of [...a, ...b]) {
  if (seen.has(r.url)) continue;
  seen.add(r.url);
  unique.push(r);
}
return unique.map(r => new URL(r.url).hostname);
// === h4_published_this_year
const results = await search_web("python javascript rust node", 10);
return results
  .filter(r => r.published.startsWith("2024"))
  .map(({ title, published }) => ({ title, month: new Date(published).toLocaleString("en-US", { month: "short", timeZone: "UTC" }) }));
// === h4_user_card_template
const u = await get_user(1);
const { name, email, tags = [], manager } = u;
return [
  `Name:    ${name}`,
  `Email:   ${email}`,
  `Tags:    ${tags.length ? tags.join(", ") : "-"}`,
  `Manager: ${manager?.name ?? "(none)"}`,
].join("\n");
// === h4_compare_two_cities
const [a, b] = await Promise.all([get_weather("Paris"), get_weather("London")]);
const diff = +(a.tempC - b.tempC).toFixed(1);
return diff > 0 ? `${a.city} is ${diff}° warmer` : diff < 0 ? `${b.city} is ${-diff}° warmer` : "same";
// === h4_weekly_rain_total
const w = await get_weather("London");
const total = w.forecast.reduce((s, f) => s + f.rain, 0);
return { city: w.city, total: Number(total.toFixed(2)), wettest: w.forecast.toSorted((x, y) => y.rain - x.rain)[0].day };
// === h4_parallel_try_null_users
const ids = [1, 9, 2];
const users = await Promise.all(ids.map(async (id) => { try { return await get_user(id); } catch { return null; } }));
return users.map(u => u?.name ?? null);
// === h4_entries_numbered_list
const users = await list_users();
const out = [];
for (const [i, u] of users.entries()) out.push(`${i + 1}. ${u.name}`);
return out;
// === h4_foreach_push_names
const users = await list_users();
const names = [];
users.forEach(u => { if (u.active) names.push(u.name); });
return names;
// === h4_foreach_entries_object_set
const prices = { a: 1, b: 2 };
const out = {};
Object.entries(prices).forEach(([k, v]) => { out[k] = v * 2; });
return out;
// === h4_let_if_else_await
const u = await get_user(2);
let result;
if (u.manager) {
  result = await get_user(u.manager.id);
} else {
  result = null;
}
return result?.name;
// === h4_currency_formats_en_us
const total = 1234.5;
return [new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(total), total.toLocaleString("en-US", { style: "currency", currency: "EUR" })];
// === h4_retry_sleep_attempts
const sleep = ms => new Promise(r => setTimeout(r, ms));
let last;
for (let attempt = 1; attempt <= 3; attempt++) {
  try {
    last = await get_weather(attempt < 3 ? "Nowhere" : "Paris");
    break;
  } catch (e) {
    if (attempt === 3) throw e;
    await sleep(10);
  }
}
return last.city;
// === h4_price_extremes_avg
const ps = await search_products();
return { max: Math.max(...ps.map(p => p.price)), min: Math.min(...ps.map(p => p.price)), avg: Number((ps.reduce((s, p) => s + p.price, 0) / ps.length).toFixed(2)) };
// === h4_reduce_group_names_by_role
const users = await list_users();
const summary = users.reduce((acc, u) => {
  acc[u.role] = acc[u.role] || [];
  acc[u.role].push(u.name);
  return acc;
}, {});
return summary;
// === h4_foreach_group_ids_by_city
const users = await list_users();
const grouped = {};
users.forEach(u => {
  if (!grouped[u.city]) grouped[u.city] = [];
  grouped[u.city].push(u.id);
});
return grouped;
// === h4_helper_parallel_pair
async function getUserOrders(id) {
  const [user, orders] = await Promise.all([get_user(id), get_orders(id)]);
  return { name: user.name, count: orders.length };
}
const results = [];
for (const id of [1, 2, 3]) {
  results.push(await getUserOrders(id));
}
return results;
// === h4_oldest_user_loop
const users = await list_users();
let oldest = users[0];
for (const u of users) {
  if (u.age > oldest.age) oldest = u;
}
return oldest.name;
// === h4_map_group_events_by_day
const events = await list_events();
const byDay = new Map();
for (const e of events) {
  const day = e.start.split("T")[0];
  if (!byDay.has(day)) byDay.set(day, []);
  byDay.get(day).push(e.title);
}
return Object.fromEntries(byDay);
// === h4_csv_units_destructure_holes
const text = await read_file("/data/sales.csv");
const lines = text.trim().split("\n").slice(1);
let units = 0;
for (const line of lines) {
  const [, , u] = line.split(",");
  units += parseInt(u, 10);
}
return units;
// === h4_object_rows_undefined_member
const users = await list_users();
const result = {};
for (const u of users) {
  result[u.name] = {
    age: u.age,
    tags: u.tags.length > 0 ? u.tags : undefined,
  };
}
return result;
// === h4_set_seen_unique_cities
const users = await list_users();
const seen = new Set();
const cities = [];
for (const u of users) {
  if (!seen.has(u.city)) {
    seen.add(u.city);
    cities.push(u.city);
  }
}
return cities;
// === h4_stock_message_then_email
const q = await get_stock_price("AAPL");
const msg = `AAPL is ${q.change_pct < 0 ? "down" : "up"} ${Math.abs(q.change_pct)}% at $${q.price.toFixed(2)}`;
await send_email("me@example.com", "AAPL", msg);
return msg;
// === h4_stats_object_counters
const users = await list_users();
const stats = { count: 0, totalAge: 0 };
for (const u of users) {
  stats.count++;
  stats.totalAge += u.age;
}
stats.avg = stats.totalAge / stats.count;
return stats;
// === h4_destructure_parallel_pair
const data = await Promise.all([get_weather("Paris"), get_weather("Tokyo")]);
const [paris, tokyo] = data;
const hotter = paris.tempC > tokyo.tempC ? paris : tokyo;
return { hotter: hotter.city, diff: Math.abs(paris.tempC - tokyo.tempC).toFixed(1) };
// === h4_while_next_cursor_pages
let page = await list_tickets({ limit: 3 });
const all = [...page.tickets];
while (page.next_cursor) {
  page = await list_tickets({ cursor: page.next_cursor, limit: 3 });
  all.push(...page.tickets);
}
return all.length;
// === hf_helper_returns_literal_then_push
function emptyReport() {
  return { title: 'Users', rows: [] };
}
const report = emptyReport();
report.generated = 'today';
const users = await list_users();
for (const u of users) {
  if (u.active) report.rows.push(u.name);
}
return report;
// === hf_helper_returns_filter_then_sort
function activeAges(users) {
  return users.filter(u => u.active).map(u => u.age);
}
const ages = activeAges(await list_users());
ages.sort((a, b) => a - b);
ages.push(0);
return ages;
// === hf_helper_copy_then_splice
async function loadIds() {
  const users = await list_users();
  return [...users.map(u => u.id)];
}
const ids = await loadIds();
ids.splice(1, 1);
ids.unshift(0);
return ids;
// === hf_conditional_shift_in_loop
const users = await list_users();
const names = users.map(u => u.name);
for (const u of users) {
  if (!u.active) names.shift();
}
return names;
// === hf_conditional_splice_found
const ids = (await list_users()).map(u => u.id);
const at = ids.indexOf(3);
if (at !== -1) ids.splice(at, 1);
return ids;
// === hf_conditional_unshift_header
const rows = (await list_users()).map(u => `${u.id},${u.name}`);
const withHeader = true;
if (withHeader) rows.unshift('id,name');
return rows.join('\n');
// === hf_arrow_let_counter
const users = await list_users();
return users.map(u => {
  let score = 0;
  score += u.tags.length;
  score++;
  score = score * 10;
  return { name: u.name, score };
});
// === hf_arrow_let_text
const users = await list_users();
return users.map(u => { let label = u.name; label += u.active ? '' : ' (inactive)'; return label; });
// === hf_try_sort_member
try {
  const user = await get_user(2);
  user.tags.sort();
  return user.tags;
} catch (e) {
  return [];
}
// === hf_try_sort_numbers
async function main() {
  try {
    const ages = (await list_users()).map(u => u.age);
    ages.sort((a, b) => b - a);
    return ages.slice(0, 2);
  } catch (err) {
    return null;
  }
}
return await main();
