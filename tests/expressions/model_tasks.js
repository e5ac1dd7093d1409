// More programs in the style models write in "code mode", task by task (search then fetch,
// pagination with a cursor, retries, group-by, dates, text parsing, reports), run by
// tests/expressions/test_model_programs.py against Node.js. Each follows a line `// === name`.
// === search_then_fetch_top3
const results = await search_web({ query: "python async guide", limit: 5 });
const top3 = results.sort((a, b) => b.score - a.score).slice(0, 3);
const details = await Promise.all(
  top3.map(async (r) => {
    const domain = new URL(r.url).hostname;
    return { title: r.title, domain, score: r.score.toFixed(2) };
  })
);
return details;
// === paginate_while_cursor
let cursor = null;
const all = [];
let pages = 0;
while (true) {
  const page = await list_tickets({ cursor, limit: 3 });
  all.push(...page.tickets);
  pages++;
  if (!page.next_cursor) break;
  cursor = page.next_cursor;
}
return { pages, count: all.length, ids: all.map(t => t.id) };
// === paginate_do_while
let cursor;
const open = [];
do {
  const res = await list_tickets({ cursor, limit: 2 });
  for (const t of res.tickets) {
    if (t.status === "open") open.push(t.id);
  }
  cursor = res.next_cursor;
} while (cursor);
return open;
// === paginate_for_loop_max_pages
const tickets = [];
let cursor = undefined;
for (let page = 0; page < 10; page++) {
  const { tickets: batch, next_cursor } = await list_tickets({ cursor, limit: 4 });
  tickets.push(...batch);
  if (next_cursor === null) break;
  cursor = next_cursor;
}
return tickets.length;
// === paginate_concat_reassign
let items = [];
let next = "0";
while (next !== null) {
  const page = await list_tickets({ cursor: next });
  items = items.concat(page.tickets);
  next = page.next_cursor;
}
return items.filter(t => t.priority === "critical").map(t => t.title);
// === retry_backoff_counter
async function withRetry(fn, retries = 3) {
  let attempt = 0;
  let delay = 100;
  while (attempt < retries) {
    try {
      return await fn();
    } catch (e) {
      attempt++;
      delay *= 2;
      if (attempt >= retries) throw e;
    }
  }
}
const w = await withRetry(() => get_weather("Paris"));
return { city: w.city, temp: w.tempC };
// === retry_fallback_cities
const candidates = ["Atlantis", "El Dorado", "London"];
let weather = null;
let tried = 0;
for (const c of candidates) {
  tried++;
  try {
    weather = await get_weather(c);
    break;
  } catch (err) {
    console.warn(`Failed for ${c}: ${err.message}`);
  }
}
return { tried, city: weather?.city ?? "none" };
// === group_tickets_by_status
const { tickets } = await list_tickets({ limit: 100 });
const grouped = {};
for (const t of tickets) {
  (grouped[t.status] ??= []).push(t.id);
}
return grouped;
// === group_reduce_counts_priority
const { tickets } = await list_tickets({ limit: 50 });
const byPriority = tickets.reduce((acc, t) => {
  acc[t.priority] = (acc[t.priority] ?? 0) + 1;
  return acc;
}, {});
const order = ["critical", "high", "medium", "low"];
return order.map(p => `${p}: ${byPriority[p] || 0}`).join("\n");
// === group_map_then_entries
const { tickets } = await list_tickets({ limit: 50 });
const byAssignee = new Map();
for (const t of tickets) {
  const key = t.assignee ?? "unassigned";
  if (!byAssignee.has(key)) byAssignee.set(key, []);
  byAssignee.get(key).push(t.id);
}
return Object.fromEntries(byAssignee);
// === map_counter_get_set
const { tickets } = await list_tickets({ limit: 50 });
const labelCounts = new Map();
for (const t of tickets) {
  for (const l of t.labels) {
    labelCounts.set(l, (labelCounts.get(l) || 0) + 1);
  }
}
return [...labelCounts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
// === dates_age_days_iso
const { tickets } = await list_tickets({ limit: 50 });
const now = new Date("2024-05-07T00:00:00Z");
return tickets
  .filter(t => t.status !== "closed")
  .map(t => ({
    id: t.id,
    ageDays: Math.floor((now - new Date(t.created)) / (1000 * 60 * 60 * 24)),
  }));
// === dates_iso_slice_group
const { tickets } = await list_tickets({ limit: 50 });
const perMonth = {};
tickets.forEach(t => {
  const month = t.created.slice(0, 7);
  perMonth[month] = (perMonth[month] || 0) + 1;
});
return Object.keys(perMonth).sort().map(m => [m, perMonth[m]]);
// === dates_add_week_iso
const events = await list_events();
return events.map(e => {
  const d = new Date(e.start);
  d.setUTCDate(d.getUTCDate() + 7);
  return { title: e.title, nextWeek: d.toISOString().split("T")[0] };
});
// === dates_duration_minutes
const events = await list_events("2024-05-06");
const total = events.reduce((sum, e) => sum + (Date.parse(e.end) - Date.parse(e.start)) / 60000, 0);
return `${events.length} meetings, ${total} minutes (${(total / 60).toFixed(1)}h)`;
// === dates_latest_with_reduce
const { tickets } = await list_tickets({ limit: 50 });
const newest = tickets.reduce((a, b) => (new Date(a.created) > new Date(b.created) ? a : b));
return newest.id;
// === dates_sort_by_time
const events = await list_events();
const sorted = [...events].sort((a, b) => new Date(b.start).getTime() - new Date(a.start).getTime());
return sorted.map(e => e.id);
// === csv_split_trim_header
const text = await read_file("/data/sales.csv");
const [header, ...lines] = text.trim().split("\n");
const cols = header.split(",").map(c => c.trim());
const rows = lines.map(line => {
  const values = line.split(",");
  return Object.fromEntries(cols.map((c, i) => [c, values[i]]));
});
return rows.filter(r => r.region === "north").map(r => ({ ...r, units: Number(r.units) }));
// === csv_revenue_by_product
const csv = await read_file({ path: "/data/sales.csv" });
const rows = csv.split(/\r?\n/).filter(Boolean).slice(1);
const revenue = {};
for (const row of rows) {
  const [, product, units, price] = row.split(",");
  revenue[product] = (revenue[product] || 0) + parseInt(units, 10) * parseFloat(price);
}
return Object.entries(revenue).map(([p, r]) => `${p.padEnd(8)}${r.toFixed(2).padStart(8)}`);
// === notes_regex_matchall
const notes = await read_file("/data/notes.md");
const todos = [...notes.matchAll(/^TODO: (.+)$/gm)].map(m => m[1]);
const emails = notes.match(/[\w.]+@[\w.]+\.\w+/g) ?? [];
return { todos, emails, lineCount: notes.split("\n").length };
// === notes_lines_startswith
const notes = await read_file("/data/notes.md");
const lines = notes.split("\n").map(l => l.trim()).filter(l => l.length > 0);
const heading = lines.find(l => l.startsWith("#"))?.replace(/^#+\s*/, "");
const done = lines.filter(l => l.startsWith("DONE:")).map(l => l.slice(5).trim());
return { heading, done };
// === dedupe_set_emails
const events = await list_events();
const unique = [...new Set(events.flatMap(e => e.attendees))];
return unique.sort();
// === dedupe_by_key_map
const results = await Promise.all(["python", "guide", "async"].map(q => search_web(q, 5)));
const byUrl = new Map();
for (const r of results.flat()) {
  if (!byUrl.has(r.url)) byUrl.set(r.url, r);
}
return Array.from(byUrl.values()).map(r => r.title);
// === dedupe_seen_set_loop
const results = await Promise.all(["python", "guide"].map(q => search_web({ query: q, limit: 5 })));
const seen = new Set();
const out = [];
for (const list of results) {
  for (const r of list) {
    if (seen.has(r.url)) continue;
    seen.add(r.url);
    out.push(r.title);
  }
}
return out;
// === dedupe_filter_index
const users = await list_users();
const cities = users.map(u => u.city).concat(["London", "Paris"]);
return cities.filter((c, i, arr) => arr.indexOf(c) === i);
// === report_template_tofixed
const symbols = ["AAPL", "MSFT", "SAP"];
const quotes = await Promise.all(symbols.map(s => get_stock_price(s)));
let report = "Portfolio report\n";
report += "=".repeat(16) + "\n";
for (const q of quotes) {
  const sign = q.change_pct >= 0 ? "+" : "";
  report += `${q.symbol.padEnd(6)} ${q.price.toFixed(2).padStart(8)} ${q.currency} (${sign}${q.change_pct}%)\n`;
}
return report;
// === report_lines_join
const products = await search_products({});
const lines = products.map((p, i) => `${String(i + 1).padStart(2, "0")}. ${p.name} — $${p.price.toFixed(2)}${p.stock === 0 ? " (out of stock)" : ""}`);
return ["# Catalogue", "", ...lines].join("\n");
// === report_markdown_table
const users = await list_users();
const header = "| Name | Role | Age |\n|---|---|---|";
const rows = users.map(u => `| ${u.name} | ${u.role} | ${u.age} |`);
return [header, ...rows].join("\n");
// === from_entries_weather
const cities = ["Paris", "London", "Tokyo"];
const temps = Object.fromEntries(
  await Promise.all(cities.map(async c => [c, (await get_weather(c)).tempC]))
);
return temps;
// === from_entries_map_values
const prices = await Promise.all(["AAPL", "MSFT"].map(get_stock_price));
const bySymbol = Object.fromEntries(prices.map(p => [p.symbol, p]));
return Object.fromEntries(Object.entries(bySymbol).map(([k, v]) => [k, Math.round(v.price)]));
// === array_from_length_index
const days = Array.from({ length: 5 }, (_, i) => {
  const d = new Date(Date.UTC(2024, 4, 6 + i));
  return d.toISOString().slice(0, 10);
});
const events = await list_events();
return days.map(day => ({ day, count: events.filter(e => e.start.startsWith(day)).length }));
// === array_from_range_chunks
const { tickets } = await list_tickets({ limit: 10 });
const size = 3;
const chunks = Array.from({ length: Math.ceil(tickets.length / size) }, (_, i) =>
  tickets.slice(i * size, i * size + size).map(t => t.id)
);
return chunks;
// === optional_chain_tool_result
const users = await list_users();
return users.map(u => ({
  name: u.name,
  manager: u.manager?.name ?? "—",
  firstTag: u.tags?.[0] ?? null,
  upper: u.nickname?.toUpperCase(),
}));
// === optional_chain_find
const users = await list_users();
const grace = users.find(u => u.name.startsWith("Grace"));
const nobody = users.find(u => u.age > 100);
return [grace?.email, nobody?.email ?? "not found", grace?.manager?.id];
// === try_catch_each_call
const ids = [1, 7, 3];
const results = [];
for (const id of ids) {
  try {
    const u = await get_user(id);
    results.push({ id, name: u.name });
  } catch (error) {
    results.push({ id, error: error.message });
  }
}
return results;
// === try_catch_finally_flag
let ok = false;
let message = "";
try {
  const f = await read_file("/data/missing.txt");
  message = f;
  ok = true;
} catch (e) {
  message = `Could not read: ${e.message}`;
} finally {
  console.log("done");
}
return { ok, message };
// === promise_all_map_async_details
const users = await list_users();
const active = users.filter(u => u.active);
const withOrders = await Promise.all(
  active.map(async (user) => {
    const orders = await get_orders(user.id);
    return { ...user, orderCount: orders.length };
  })
);
return withOrders.map(({ name, orderCount }) => `${name}: ${orderCount}`);
// === promise_all_nested_weather
const cities = ["Paris", "Tokyo"];
const reports = await Promise.all(cities.map(async (city) => {
  const w = await get_weather(city);
  const rate = await get_exchange_rate("USD", city === "Tokyo" ? "JPY" : "EUR");
  return { city, temp: w.tempC, rate };
}));
return reports;
// === for_await_of_promises
const promises = [1, 2, 3].map(id => get_user(id));
const names = [];
for await (const u of promises) {
  names.push(u.name.split(" ")[0]);
}
return names;
// === destructure_defaults_renames
const { city: name, tempC: temperature = 0, pressure = 1013, forecast: [first, ...rest] } = await get_weather("London");
return { name, temperature, pressure, first: first.day, remaining: rest.length };
// === destructure_params_arrow
const users = await list_users();
return users
  .filter(({ active, age }) => active && age > 40)
  .map(({ name, city = "?", manager: { name: boss } = { name: "none" } }) => `${name} (${city}) reports to ${boss ?? "none"}`);
// === json_parse_stringify_roundtrip
const raw = await read_file("/data/config.json");
const config = JSON.parse(raw);
const patched = { ...config, retries: config.retries + 1, debug: true };
const text = JSON.stringify(patched);
return { size: text.length, back: JSON.parse(text).retries, keys: Object.keys(patched) };
// === json_stringify_indent_keys
const user = await get_user(2);
return JSON.stringify({ id: user.id, name: user.name, tags: user.tags }, null, 2);
// === structured_clone_nested
const w = await get_weather("Paris");
const copy = structuredClone(w);
copy.forecast = copy.forecast.filter(d => d.rain < 0.5);
return { original: w.forecast.length, copy: copy.forecast.length };
// === at_negative_last
const { tickets } = await list_tickets({ limit: 10 });
const last = tickets.at(-1);
const secondLast = tickets.at(-2);
return [last.id, secondLast.id, tickets.at(0).id];
// === flatmap_labels
const { tickets } = await list_tickets({ limit: 10 });
return tickets.flatMap(t => t.labels.map(l => `${t.id}:${l}`));
// === find_last_and_index
const { tickets } = await list_tickets({ limit: 10 });
const lastOpen = tickets.findLast(t => t.status === "open");
const idx = tickets.findLastIndex(t => t.priority === "high");
return { lastOpen: lastOpen?.id, idx };
// === to_sorted_keeps_original
const products = await search_products();
const byPrice = products.toSorted((a, b) => a.price - b.price);
const byRating = products.toSorted((a, b) => b.rating - a.rating);
return { cheapest: byPrice[0].name, best: byRating[0].name, first: products[0].name };
// === to_reversed_and_with
const nums = [3, 1, 2];
return { rev: nums.toReversed(), changed: nums.with(1, 9), nums };
// === labelled_break_search
const { tickets } = await list_tickets({ limit: 10 });
const wanted = ["payments", "perf"];
let found = null;
outer: for (const t of tickets) {
  for (const l of t.labels) {
    if (wanted.includes(l)) {
      found = t.id;
      break outer;
    }
  }
}
return found;
// === labelled_continue
const { tickets } = await list_tickets({ limit: 10 });
const clean = [];
loop: for (const t of tickets) {
  for (const l of t.labels) {
    if (l === "bug") continue loop;
  }
  clean.push(t.id);
}
return clean;
// === switch_fallthrough_severity
const { tickets } = await list_tickets({ limit: 10 });
return tickets.map(t => {
  let score = 0;
  switch (t.priority) {
    case "critical":
      score += 10;
    case "high":
      score += 5;
      break;
    case "medium":
      score = 2;
      break;
    default:
      score = 1;
  }
  return `${t.id}=${score}`;
});
// === switch_in_function_return
function emoji(conditions) {
  switch (conditions.toLowerCase()) {
    case "sunny":
      return "☀️";
    case "rain":
    case "showers":
      return "🌧️";
    case "partly cloudy":
      return "⛅";
    default:
      return "?";
  }
}
const ws = await Promise.all(["Paris", "London", "Tokyo"].map(c => get_weather(c)));
return ws.map(w => `${w.city} ${emoji(w.conditions)}`);
// === helper_functions_pipeline
function formatMoney(n, currency = "USD") {
  return `${currency} ${n.toFixed(2)}`;
}
function orderTotal(order) {
  return order.items.reduce((s, i) => s + i.qty * i.price, 0);
}
const orders = await get_orders(1);
return orders.map(o => `${o.id}: ${formatMoney(orderTotal(o))}`);
// === closure_counter_ids
function makeCounter(prefix) {
  let n = 0;
  return () => `${prefix}-${++n}`;
}
const next = makeCounter("row");
const users = await list_users();
return users.map(u => ({ key: next(), name: u.name }));
// === closure_memo_cache
const cache = {};
async function getUserCached(id) {
  if (cache[id]) return cache[id];
  const u = await get_user(id);
  cache[id] = u;
  return u;
}
const a = await getUserCached(1);
const b = await getUserCached(1);
const c = await getUserCached(2);
return [a.name, b.name, c.name, Object.keys(cache).length];
// === number_formatting_mix
const q = await get_stock_price("MSFT");
const rate = await get_exchange_rate("USD", "EUR");
const eur = q.price * rate;
return {
  usd: q.price.toLocaleString("en-US", { style: "currency", currency: "USD" }),
  eur: eur.toFixed(2),
  pct: `${(q.change_pct / 100 * 100).toFixed(1)}%`,
  rounded: Math.round(eur * 100) / 100,
};
// === percent_share_report
const { tickets } = await list_tickets({ limit: 10 });
const total = tickets.length;
const counts = {};
for (const t of tickets) counts[t.status] = (counts[t.status] || 0) + 1;
return Object.entries(counts)
  .sort(([, a], [, b]) => b - a)
  .map(([status, n]) => `${status}: ${n} (${((n / total) * 100).toFixed(0)}%)`);
// === every_some_checks
const products = await search_products({ category: "shoes" });
return {
  allInStock: products.every(p => p.stock > 0),
  anyCheap: products.some(p => p.price < 100),
  brands: [...new Set(products.map(p => p.brand))].join(" & "),
};
// === string_manipulation_slug
const pages = await search_web({ query: "python guide", limit: 5 });
return pages.map(p => p.title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/(^-|-$)/g, ""));
// === string_truncate_ellipsis
const pages = await search_web("javascript node rust", 5);
const truncate = (s, n) => (s.length > n ? s.slice(0, n - 1) + "…" : s);
return pages.map(p => truncate(p.snippet, 20));
// === capitalize_words
const users = await list_users();
const cap = s => s.charAt(0).toUpperCase() + s.slice(1);
return users.map(u => u.role.split("_").map(cap).join(" "));
// === sum_avg_min_max
const products = await search_products();
const prices = products.map(p => p.price);
const sum = prices.reduce((a, b) => a + b, 0);
return {
  min: Math.min(...prices),
  max: Math.max(...prices),
  avg: +(sum / prices.length).toFixed(2),
  median: prices.toSorted((a, b) => a - b)[Math.floor(prices.length / 2)],
};
// === nested_loops_matrix
const users = await list_users();
const events = await list_events();
const matrix = users.map(u => events.map(e => (e.attendees.includes(u.email) ? 1 : 0)));
return matrix.map(row => row.join(""));
// === join_orders_products_lookup
const users = await list_users();
const userById = Object.fromEntries(users.map(u => [u.id, u]));
const orders = (await Promise.all(users.map(u => get_orders(u.id)))).flat();
return orders.map(o => ({ order: o.id, customer: userById[o.userId]?.name ?? "unknown" }));
// === conditional_send_email
const products = await search_products();
const low = products.filter(p => p.stock < 5);
if (low.length === 0) {
  return { sent: false };
}
const body = low.map(p => `- ${p.name}: ${p.stock} left`).join("\n");
const res = await send_email({ to: "ops@example.com", subject: `Low stock: ${low.length} items`, body });
return { sent: true, id: res.id, status: res.status };
// === object_entries_filter_sort
const rates = {};
for (const cur of ["EUR", "GBP", "JPY"]) {
  rates[cur] = await get_exchange_rate("USD", cur);
}
return Object.entries(rates)
  .filter(([, r]) => r < 10)
  .sort((a, b) => a[1] - b[1])
  .map(([c, r]) => `${c}=${r}`);
// === while_countdown_budget
const products = await search_products();
const sorted = products.toSorted((a, b) => a.price - b.price);
let budget = 250;
const cart = [];
let i = 0;
while (i < sorted.length && budget >= sorted[i].price) {
  budget -= sorted[i].price;
  cart.push(sorted[i].name);
  i++;
}
return { cart, left: budget.toFixed(2) };
// === spread_merge_defaults
const defaults = { limit: 3, lang: "en", safe: true };
const options = { ...defaults, limit: 2 };
const results = await search_web({ query: "python", limit: options.limit });
return { options, titles: results.map(r => r.title) };
// === set_operations
const events = await list_events();
const a = new Set(events[0].attendees);
const b = new Set(events[1].attendees);
const both = [...a].filter(x => b.has(x));
const either = new Set([...a, ...b]);
return { both, either: either.size, onlyA: [...a].filter(x => !b.has(x)) };
// === map_object_keys_sum
const w = await get_weather("Tokyo");
const totals = w.forecast.reduce((acc, d) => ({ high: acc.high + d.high, low: acc.low + d.low }), { high: 0, low: 0 });
return Object.keys(totals).map(k => `${k}: ${(totals[k] / w.forecast.length).toFixed(1)}`);
// === early_return_in_loop
const users = await list_users();
for (const u of users) {
  if (u.age > 50) {
    return `First over 50: ${u.name}`;
  }
}
return "none";
// === async_main_wrapper_try
async function main() {
  try {
    const [u, orders] = await Promise.all([get_user(2), get_orders(2)]);
    return { user: u.name, orders: orders.map(o => o.status) };
  } catch (err) {
    return { error: String(err) };
  }
}
return await main();
// === string_includes_case
const pages = await search_web("python javascript rust node", 5);
const term = "ASYNC";
return pages.filter(p => p.snippet.toLowerCase().includes(term.toLowerCase())).map(p => p.url);
// === regex_test_filter
const users = await list_users();
const re = /^a/i;
return users.filter(u => re.test(u.name)).map(u => u.name);
// === number_parse_fallback
const raw = ["12", "3.5", "abc", "", "7"];
const nums = raw.map(s => Number.parseFloat(s)).filter(n => !Number.isNaN(n));
return { nums, sum: nums.reduce((a, b) => a + b, 0) };
// === count_words_frequency
const notes = await read_file("/data/notes.md");
const words = notes.toLowerCase().match(/[a-z]+/g) || [];
const freq = {};
for (const w of words) freq[w] = (freq[w] || 0) + 1;
return Object.entries(freq).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 3);
// === object_group_by_status
const { tickets } = await list_tickets({ limit: 10 });
const groups = Object.groupBy(tickets, t => t.status);
return Object.fromEntries(Object.entries(groups).map(([k, v]) => [k, v.length]));
// === tickets_summary_report
let cursor = null;
const all = [];
do {
  const page = await list_tickets({ cursor });
  all.push(...page.tickets);
  cursor = page.next_cursor;
} while (cursor !== null);
const open = all.filter(t => t.status !== "closed");
const unassigned = open.filter(t => !t.assignee);
const lines = [
  `Total: ${all.length}`,
  `Open: ${open.length}`,
  `Unassigned: ${unassigned.map(t => t.id).join(", ") || "none"}`,
];
return lines.join("\n");
// === ternary_status_badges
const { tickets } = await list_tickets({ limit: 10 });
return tickets.map(t => `${t.id} ${t.status === "open" ? "🔴" : t.status === "in_progress" ? "🟡" : "🟢"}`);
// === assignee_names_lookup
const users = await list_users();
const byEmail = Object.fromEntries(users.map(u => [u.email, u.name]));
const { tickets } = await list_tickets({ limit: 10 });
return tickets.map(t => `${t.id}: ${byEmail[t.assignee] ?? "Unassigned"}`);
// === index_of_max_loop
const w = await get_weather("London");
let maxIdx = 0;
for (let i = 1; i < w.forecast.length; i++) {
  if (w.forecast[i].rain > w.forecast[maxIdx].rain) maxIdx = i;
}
return w.forecast[maxIdx].day;
// === includes_and_indexof_strings
const files = await list_files("/data");
return files
  .filter(f => f.type === "file")
  .map(f => ({ name: f.name, ext: f.name.slice(f.name.lastIndexOf(".") + 1), kb: (f.size / 1024).toFixed(1) }));
// === tofixed_money_rounding
const orders = await get_orders(2);
return orders.map(o => {
  const subtotal = o.items.reduce((s, i) => s + i.qty * i.price, 0);
  const tax = subtotal * 0.075;
  return { id: o.id, subtotal: subtotal.toFixed(2), tax: tax.toFixed(2), total: (subtotal + tax).toFixed(2), cents: Math.round((subtotal + tax) * 100) };
});
// === sort_default_strings_numbers
const products = await search_products();
const prices = products.map(p => p.price);
return { lexical: [...prices].sort(), numeric: [...prices].sort((a, b) => a - b), names: products.map(p => p.name).sort().reverse() };
// === sort_comparator_localecompare_multi
const users = await list_users();
return users
  .slice()
  .sort((a, b) => a.role.localeCompare(b.role) || b.age - a.age)
  .map(u => `${u.role}/${u.name}`);
// === join_with_nulls
const { tickets } = await list_tickets({ limit: 10 });
return [tickets.map(t => t.assignee).join(";"), [1, null, undefined, 2].join("-"), String([1, [2, 3]])];
// === replace_function_and_groups
const users = await list_users();
return users.map(u => ({
  initials: u.name.replace(/(\w)\w*\s*/g, "$1"),
  masked: u.email.replace(/^(.)(.*)(@.*)$/, (_, a, b, c) => a + "*".repeat(b.length) + c),
  swapped: u.name.replace(/(\w+) (\w+)/, "$2, $1"),
}));
// === named_groups_date
const { tickets } = await list_tickets({ limit: 10 });
return tickets.slice(0, 3).map(t => {
  const m = t.created.match(/^(?<y>\d{4})-(?<m>\d{2})-(?<d>\d{2})T(?<h>\d{2})/);
  const { y, m: mo, d, h } = m.groups;
  return `${d}/${mo}/${y} ${h}h`;
});
// === split_regex_captures_limit
const line = "a, b;c ; d";
return [line.split(/\s*[,;]\s*/), line.split(/([,;])/), line.split(",", 1), "".split(","), "abc".split("")];
// === substring_slice_negative
const pages = await search_web("python", 5);
return pages.map(p => [p.url.slice(-8), p.url.substring(8, 4), p.title.slice(7, -3), p.url.indexOf("/", 8)]);
// === number_conversions_edge
return [Number(""), Number("  42 "), Number("0x1f"), parseInt("08"), parseInt("3.9kg"), +"1e3", Number(null), Number(true), parseFloat(".5"), Number("12px") || -1];
// === math_round_half_cases
return [Math.round(2.5), Math.round(-2.5), Math.round(-0.4), (1.005).toFixed(2), (2.345).toFixed(2), (1.45).toFixed(1), (-1.5).toFixed(0), (0.000001234).toFixed(8), Math.trunc(-4.7), Math.sign(-3)];
// === number_tostring_forms
const big = 123456789.123;
return [String(1e21), (1e21).toFixed(2), String(0.1 + 0.2), (0.1 + 0.2).toFixed(10), String(1 / 3), big.toPrecision(4), (5e-7).toString(), (100).toExponential(1), (255).toString(16).padStart(4, "0"), Number.MAX_SAFE_INTEGER + 2];
// === string_compare_operators
const users = await list_users();
const names = users.map(u => u.name);
return [names.filter(n => n > "B"), "10" < "9", "a" < "B", "abc".localeCompare("ABC"), ["b", "a", "C", "A"].sort(), ["b", "a", "C", "A"].sort((x, y) => x.localeCompare(y))];
// === date_parsing_forms
return [
  new Date("2024-05-06").toISOString(),
  new Date("2024-05-06T10:00:00").toISOString(),
  new Date("2024-05-06T10:00:00+02:00").toISOString(),
  new Date(2024, 0, 31).toISOString(),
  new Date(Date.UTC(2024, 1, 30)).toISOString().slice(0, 10),
  new Date("2024-02-29T23:45:00Z").getUTCDay(),
  new Date(0).toISOString(),
];
// === date_month_overflow
const d = new Date("2024-01-31T12:00:00Z");
d.setUTCMonth(d.getUTCMonth() + 1);
const end = new Date(Date.UTC(2024, 2, 0));
return [d.toISOString(), end.getUTCDate(), new Date("2024-12-31T00:00:00Z").getTime() - new Date("2024-01-01T00:00:00Z").getTime()];
// === date_locale_options
const events = await list_events();
return events.map(e => new Date(e.start).toLocaleDateString("en-US", { weekday: "short", month: "short", day: "numeric" }));
// === date_time_locale_string
const e = (await list_events())[1];
const start = new Date(e.start);
return [start.toLocaleTimeString("en-US", { hour: "2-digit", minute: "2-digit" }), start.toLocaleString("en-US", { timeZone: "UTC" }), start.toDateString(), start.toUTCString()];
// === date_invalid_check
const inputs = ["2024-05-06", "not a date", "2024-13-01"];
return inputs.map(s => {
  const d = new Date(s);
  return isNaN(d.getTime()) ? "invalid" : d.toISOString().slice(0, 10);
});
// === typeof_checks_tool_values
const user = await get_user(1);
return Object.entries(user).map(([k, v]) => `${k}:${v === null ? "null" : Array.isArray(v) ? "array" : typeof v}`);
// === array_holes_and_fill
return [new Array(3).fill(0), Array(2).fill().map((_, i) => i * i), Array.from("abc", c => c.toUpperCase()), [..."héllo"].length, Array.of(7, 8), [1, 2, 3].fill(9, 1)];
// === flat_depth_and_concat
const nested = [1, [2, [3, [4]]], [[5]]];
return [nested.flat(), nested.flat(Infinity), [1].concat(2, [3, [4]]), [[1, 2], [3]].reduce((a, b) => a.concat(b), [])];
// === includes_indexof_edge
const arr = [1, 2, 3, 2];
return [arr.indexOf(2), arr.lastIndexOf(2), arr.indexOf(2, 2), arr.includes("2"), "hello".indexOf(""), "hello".includes("ll", 3), arr.findIndex(x => x > 5)];
// === object_keys_order_numeric
const counts = {};
for (const id of ["10", "2", "b", "1", "a"]) counts[id] = id.length;
return [Object.keys(counts), JSON.stringify(counts)];
// === json_stringify_edge_values
const w = await get_weather("Paris");
return JSON.stringify({ when: new Date("2024-05-06T00:00:00Z"), none: undefined, fn: null, arr: [undefined, 1], nested: { city: w.city, h: w.humidity } });
// === json_parse_reviver_free
const config = JSON.parse(await read_file("/data/config.json"));
const endpoints = Object.entries(config.endpoints).map(([name, url]) => `${name} -> ${new URL(url).host}${new URL(url).pathname}`);
return { endpoints, features: config.features.map(f => f.toUpperCase()), debug: String(config.debug) };
// === string_pad_center
const title = "Report";
const width = 20;
const left = Math.floor((width - title.length) / 2);
return "[" + title.padStart(title.length + left, "*").padEnd(width, "*") + "]";
// === trim_variants
const raw = "  \t hello world \n ";
return [raw.trim(), raw.trimStart(), raw.trimEnd().length, "xxabcxx".replace(/^x+|x+$/g, ""), "a-b-c".replaceAll("-", "+")];
// === string_case_and_chars
const s = "İstanbul straße ÉCOLE";
return [s.toLowerCase(), s.toUpperCase(), "abc".charCodeAt(1), String.fromCharCode(72, 105), "😀x".length, "abc".at(-1), "abc"[5]];
// === reduce_object_max_entry
const { tickets } = await list_tickets({ limit: 10 });
const counts = tickets.reduce((m, t) => ({ ...m, [t.assignee ?? "none"]: (m[t.assignee ?? "none"] ?? 0) + 1 }), {});
const [topName, topCount] = Object.entries(counts).reduce((best, cur) => (cur[1] > best[1] ? cur : best));
return { counts, topName, topCount };
// === sort_stability_ties
const products = await search_products();
return products.toSorted((a, b) => (a.brand < b.brand ? -1 : a.brand > b.brand ? 1 : 0)).map(p => p.id);
// === sort_boolean_comparator
const products = await search_products();
return [...products].sort((a, b) => b.stock > 0 && a.stock === 0 ? 1 : -1).map(p => p.id);
// === equality_mixed
const user = await get_user(1);
return [user.id == "1", user.id === "1", null == undefined, null === undefined, user.manager == null, 0 == "", [] == false, NaN === NaN];
// === logical_defaults_falsy
const counts = [0, 5, null, undefined, ""];
return counts.map(c => [c || "none", c ?? "none", c && "yes"]);
// === increment_in_map_index
const users = await list_users();
let rank = 0;
const ranked = [];
for (const u of users.toSorted((a, b) => b.age - a.age)) {
  rank += 1;
  ranked.push(`${rank}. ${u.name} (${u.age})`);
}
return ranked;
// === average_grouped_numbers
const products = await search_products();
const stats = {};
for (const p of products) {
  stats[p.category] ??= { count: 0, total: 0 };
  stats[p.category].count++;
  stats[p.category].total += p.price;
}
return Object.entries(stats).map(([cat, s]) => ({ cat, avg: (s.total / s.count).toFixed(2) }));
// === min_by_reduce_tie
const products = await search_products({ category: "jackets" });
const best = products.reduce((min, p) => (p.price < min.price ? p : min), products[0]);
return best.name;
// === string_template_nested_ternary
const ws = await Promise.all(["Paris", "London", "Tokyo"].map(c => get_weather(c)));
return ws.map(w => `${w.city}: ${w.tempC > 20 ? "warm" : w.tempC > 15 ? "mild" : "cool"}${w.humidity > 80 ? " & humid" : ""} (${Math.round(w.tempC * 9 / 5 + 32)}°F)`);
// === encode_uri_parts
const q = "async & await / C++";
return [encodeURIComponent(q), encodeURI("https://x.com/a b?q=1&r=é"), decodeURIComponent("%F0%9F%98%80%20ok")];
// === url_search_params
const params = new URLSearchParams({ q: "python guide", page: "2" });
const u = new URL("https://example.com/search?" + params.toString());
return [params.toString(), u.searchParams.get("q"), u.pathname, u.origin];
// === while_with_break_condition
const w = await get_weather("London");
let i = 0;
let acc = 0;
while (true) {
  if (i >= w.forecast.length) break;
  acc += w.forecast[i].rain;
  if (acc > 1) break;
  i++;
}
return { i, acc: acc.toFixed(2) };
// === nested_async_helpers
async function userSummary(id) {
  const [u, orders] = await Promise.all([get_user(id), get_orders(id)]);
  const spent = orders.flatMap(o => o.items).reduce((s, it) => s + it.qty * it.price, 0);
  return `${u.name.split(" ")[0]} spent $${spent.toFixed(2)} on ${orders.length} order${orders.length === 1 ? "" : "s"}`;
}
const lines = [];
for (const id of [1, 2, 3]) lines.push(await userSummary(id));
return lines;
// === spread_args_math
const w = await get_weather("Tokyo");
const highs = w.forecast.map(f => f.high);
const lows = w.forecast.map(f => f.low);
return { range: Math.max(...highs) - Math.min(...lows), hypot: Math.hypot(3, 4), pow: 2 ** 10, cbrt: Math.cbrt(27), floorDiv: Math.floor(-7 / 2), log: Math.log10(1000) };
// === loop_counters_multiple_lets
const { tickets } = await list_tickets({ limit: 10 });
let open = 0, closed = 0, critical = 0;
let oldest = null;
for (const t of tickets) {
  if (t.status === "closed") {
    closed++;
    continue;
  }
  open++;
  if (t.priority === "critical") critical += 1;
  if (oldest === null || t.created < oldest.created) oldest = t;
}
return { open, closed, critical, oldest: oldest?.id };
// === nested_loop_pairs_conflicts
const events = await list_events();
const conflicts = [];
for (let i = 0; i < events.length; i++) {
  for (let j = i + 1; j < events.length; j++) {
    const a = events[i], b = events[j];
    if (a.start < b.end && b.start < a.end) conflicts.push(`${a.id}/${b.id}`);
  }
}
return conflicts.length ? conflicts : "no conflicts";
// === shared_attendees_pairs
const events = await list_events();
const pairs = [];
for (let i = 0; i < events.length; i++) {
  for (let j = i + 1; j < events.length; j++) {
    const shared = events[i].attendees.filter(a => events[j].attendees.includes(a));
    if (shared.length >= 2) pairs.push({ a: events[i].title, b: events[j].title, shared: shared.length });
  }
}
return pairs;
// === helper_early_returns
function classify(p) {
  if (p.stock === 0) return "sold out";
  if (p.stock < 5) return "low";
  if (p.price > 150) return "premium";
  return "ok";
}
const products = await search_products();
return products.map(p => `${p.name}: ${classify(p)}`);
// === helper_with_loop_inside
function longestTitle(pages) {
  let best = "";
  for (const p of pages) {
    if (p.title.length > best.length) best = p.title;
  }
  return best;
}
const pages = await search_web("python javascript rust node", 5);
return longestTitle(pages);
// === recursive_factorial_fib
function fib(n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}
function fact(n) {
  if (n <= 1) return 1;
  return n * fact(n - 1);
}
return { fib10: fib(10), fact10: fact(10), list: Array.from({ length: 8 }, (_, i) => fib(i)) };
// === recursive_tree_depth
const tree = { name: "root", children: [{ name: "a", children: [{ name: "a1", children: [] }] }, { name: "b", children: [] }] };
function depth(node) {
  if (node.children.length === 0) return 1;
  return 1 + Math.max(...node.children.map(depth));
}
function names(node) {
  return [node.name, ...node.children.flatMap(names)];
}
return { depth: depth(tree), names: names(tree) };
// === promise_all_with_index
const cities = ["London", "Paris", "Tokyo"];
const ws = await Promise.all(cities.map((c, i) => get_weather(c).then(w => ({ rank: i + 1, city: w.city, t: w.tempC }))));
return ws.sort((a, b) => b.t - a.t).map(w => `${w.rank}:${w.city}`);
// === then_catch_chain
const result = await get_user(42)
  .then(u => u.name)
  .catch(err => `fallback (${err.message})`);
return result;
// === async_arrow_const_helpers
const fetchTemp = async (city) => {
  const w = await get_weather(city);
  return w.tempC;
};
const toF = c => Math.round((c * 9) / 5 + 32);
const temps = await Promise.all(["Paris", "Tokyo"].map(fetchTemp));
return temps.map(toF);
// === reduce_complex_accumulator
const orders = (await Promise.all([1, 2, 3].map(get_orders))).flat();
const summary = orders.reduce(
  (acc, o) => {
    const value = o.items.reduce((s, i) => s + i.qty * i.price, 0);
    acc.count += 1;
    acc.total += value;
    acc.byStatus[o.status] = (acc.byStatus[o.status] || 0) + 1;
    if (value > acc.max.value) acc.max = { id: o.id, value };
    return acc;
  },
  { count: 0, total: 0, byStatus: {}, max: { id: null, value: -Infinity } }
);
return { ...summary, total: summary.total.toFixed(2) };
// === intl_currency_formats
const p = await get_stock_price("SAP");
const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const eur = new Intl.NumberFormat("en-US", { style: "currency", currency: "EUR", minimumFractionDigits: 0, maximumFractionDigits: 0 });
return [usd.format(p.price), eur.format(p.price), (1234567.891).toLocaleString(), (0.256).toLocaleString("en-US", { style: "percent" }), (12.5).toLocaleString("en-US", { minimumFractionDigits: 2 })];
// === date_locale_en_gb_and_parts
const e = (await list_events())[0];
const d = new Date(e.start);
return [d.toLocaleDateString("en-GB"), d.toLocaleDateString("en-US"), d.toLocaleDateString(), d.getUTCHours() + ":" + String(d.getUTCMinutes()).padStart(2, "0"), d.getDay(), d.getMonth() + 1, d.getFullYear()];
// === date_difference_days_between_events
const events = await list_events();
const first = new Date(events[0].start);
const last = new Date(events[events.length - 1].start);
const days = Math.round((last - first) / 86400000);
const hours = ((last.getTime() - first.getTime()) / 36e5).toFixed(1);
return { days, hours, weekdays: events.map(e => ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][new Date(e.start).getUTCDay()]) };
// === date_start_of_week
const d = new Date("2024-05-08T14:00:00Z");
const day = d.getUTCDay();
const diff = (day + 6) % 7;
const monday = new Date(d);
monday.setUTCDate(d.getUTCDate() - diff);
monday.setUTCHours(0, 0, 0, 0);
return monday.toISOString();
// === json_stringify_sorted_keys
const user = await get_user(3);
const sorted = Object.keys(user).sort().reduce((o, k) => { o[k] = user[k]; return o; }, {});
return JSON.stringify(sorted);
// === json_stringify_replacer_array
const user = await get_user(2);
return [JSON.stringify(user, ["id", "name", "manager"]), JSON.stringify(user.tags, null, "\t"), JSON.stringify({ a: [1, { b: 2 }] }, null, 1)];
// === map_from_entries_iteration
const rates = new Map(Object.entries({ EUR: 0.92, GBP: 0.79, JPY: 155.3 }));
rates.delete("GBP");
rates.set("CHF", 0.9);
const lines = [];
for (const [cur, rate] of rates) lines.push(`${cur}=${rate}`);
return { lines, keys: [...rates.keys()], size: rates.size, has: rates.has("GBP") };
// === set_add_has_delete
const tags = new Set();
const users = await list_users();
users.forEach(u => u.tags.forEach(t => tags.add(t)));
tags.delete("poetry");
return { size: tags.size, list: Array.from(tags), hasMath: tags.has("math") };
// === object_entries_on_array_and_string
return [Object.entries(["a", "b"]), Object.keys("hi"), Object.values({ x: 1, y: [2] }), Object.entries({}).length];
// === string_concat_numbers_mixed
const n = 5;
return ["Total: " + n + 1, "Total: " + (n + 1), n + 1 + " items", `${n}` + 1, "3" * "4", "10" / 4, "7" - 2, true + 1, [] + [], 1 + null];
// === float_arithmetic_display
const prices = [0.1, 0.2, 19.99, 5.01];
const sum = prices.reduce((a, b) => a + b, 0);
return [sum, sum.toFixed(2), 0.1 * 3, 1.1 * 1.1, (19.99 * 3).toFixed(2), Math.round(2.675 * 100) / 100, 4.35 * 100, 1e21 + 1, 2 ** 53 + 1];
// === number_tolocale_rounding
return [(1.005).toLocaleString("en-US", { maximumFractionDigits: 2 }), (2.5).toLocaleString("en-US", { maximumFractionDigits: 0 }), (1234.5).toLocaleString("en-US", { style: "currency", currency: "USD" }), (-0.5).toFixed(0), (0.5).toFixed(0), (1.5).toFixed(0), (2.5).toFixed(0)];
// === optional_chaining_calls_on_arrays
const users = await list_users();
const firstAdmin = users.find(u => u.role === "admin");
const firstGhost = users.find(u => u.role === "ghost");
return [firstAdmin?.tags?.at(0), firstGhost?.tags?.at(0), firstGhost?.tags.length, users[10]?.name, users?.[0]?.manager?.name ?? "none"];
// === switch_true_ranges
const ws = await Promise.all(["Paris", "London", "Tokyo"].map(c => get_weather(c)));
return ws.map(w => {
  switch (true) {
    case w.tempC >= 24:
      return `${w.city}: hot`;
    case w.tempC >= 16:
      return `${w.city}: mild`;
    default:
      return `${w.city}: cold`;
  }
});
// === switch_string_with_blocks
const { tickets } = await list_tickets({ limit: 10 });
const out = [];
for (const t of tickets) {
  let label;
  switch (t.status) {
    case "open": {
      label = t.assignee ? "assigned" : "triage";
      break;
    }
    case "in_progress":
      label = "working";
      break;
    default:
      label = "done";
  }
  out.push(`${t.id}:${label}`);
}
return out;
// === while_loop_linked_pages
const seen = [];
let cursor = "0";
let guard = 0;
while (cursor && guard < 5) {
  guard++;
  const { tickets, next_cursor } = await list_tickets({ cursor, limit: 3 });
  seen.push(tickets.map(t => t.id).join("+"));
  cursor = next_cursor;
}
return { seen, guard };
// === collect_until_enough
const wanted = 4;
const picked = [];
let cursor;
while (picked.length < wanted) {
  const page = await list_tickets({ cursor, limit: 2 });
  for (const t of page.tickets) {
    if (t.labels.length > 0 && picked.length < wanted) picked.push(t.id);
  }
  if (!page.next_cursor) break;
  cursor = page.next_cursor;
}
return picked;
// === find_first_matching_across_pages
let cursor;
let match = null;
do {
  const page = await list_tickets({ cursor, limit: 2 });
  match = page.tickets.find(t => t.labels.includes("payments")) ?? null;
  cursor = page.next_cursor;
} while (!match && cursor);
return match ? `${match.id}: ${match.title}` : "none";
// === send_emails_loop_results
const users = await list_users();
const sent = [];
for (const u of users.filter(u => u.active && u.role !== "admin")) {
  const res = await send_email({ to: u.email, subject: `Hi ${u.name.split(" ")[0]}`, body: "Weekly update" });
  sent.push({ to: u.email, id: res.id });
}
return { count: sent.length, sent };
// === stock_table_sorted_change
const syms = ["AAPL", "MSFT", "SAP"];
const rows = [];
for (const s of syms) {
  const q = await get_stock_price(s);
  rows.push({ s, p: q.price, c: q.change_pct });
}
rows.sort((a, b) => b.c - a.c);
const header = `${"SYM".padEnd(5)}|${"PRICE".padStart(8)}|${"CHG".padStart(7)}`;
return [header, ...rows.map(r => `${r.s.padEnd(5)}|${r.p.toFixed(2).padStart(8)}|${((r.c > 0 ? "+" : "") + r.c.toFixed(2) + "%").padStart(7)}`)].join("\n");
// === products_price_buckets
const products = await search_products();
const buckets = { "<50": [], "50-150": [], ">150": [] };
for (const p of products) {
  const key = p.price < 50 ? "<50" : p.price <= 150 ? "50-150" : ">150";
  buckets[key].push(p.name);
}
return buckets;
// === products_weighted_rating
const products = await search_products();
const totalStock = products.reduce((s, p) => s + p.stock, 0);
const weighted = products.reduce((s, p) => s + p.rating * p.stock, 0) / totalStock;
return { totalStock, weighted: Number(weighted.toFixed(3)), top: products.filter(p => p.rating >= 4.5).map(p => p.id) };
// === search_rank_fusion
const queries = ["python", "guide", "async"];
const scores = {};
const lists = await Promise.all(queries.map(q => search_web({ query: q, limit: 5 })));
lists.forEach(list => {
  list.forEach((r, rank) => {
    scores[r.url] = (scores[r.url] || 0) + 1 / (rank + 1);
  });
});
return Object.entries(scores).sort((a, b) => b[1] - a[1]).slice(0, 3).map(([url, s]) => `${s.toFixed(3)} ${url}`);
// === string_wrap_lines
const text = (await search_web("python", 5)).map(p => p.snippet).join(" ");
const words = text.split(/\s+/);
const lines = [];
let line = "";
for (const w of words) {
  if ((line + " " + w).trim().length > 30) {
    lines.push(line.trim());
    line = w;
  } else {
    line += " " + w;
  }
}
if (line) lines.push(line.trim());
return lines;
// === config_feature_flags
const config = JSON.parse(await read_file("/data/config.json"));
const flags = Object.fromEntries(["search", "export", "import"].map(f => [f, config.features.includes(f)]));
const { retries = 1, timeout = 30, endpoints: { api } } = config;
return { flags, retries, timeout, api: api.replace(/^https?:\/\//, "") };
// === csv_to_json_numbers
const csv = await read_file("/data/sales.csv");
const [head, ...body] = csv.trim().split("\n").map(l => l.split(","));
const records = body.map(cells => head.reduce((o, h, i) => ({ ...o, [h]: isNaN(cells[i]) ? cells[i] : Number(cells[i]) }), {}));
return records.filter(r => r.units * r.price > 25);
// === csv_pivot_region_product
const csv = await read_file("/data/sales.csv");
const rows = csv.trim().split("\n").slice(1).map(l => l.split(","));
const pivot = {};
for (const [region, product, units] of rows) {
  pivot[region] ??= {};
  pivot[region][product] = (pivot[region][product] ?? 0) + +units;
}
return pivot;
// === top_n_per_group
const products = await search_products();
const byCat = {};
for (const p of products) (byCat[p.category] ||= []).push(p);
const top = Object.fromEntries(Object.entries(byCat).map(([cat, ps]) => [cat, ps.sort((a, b) => b.rating - a.rating)[0].name]));
return top;
// === running_total_map
const orders = await get_orders(1);
let running = 0;
const rows = orders.map(o => {
  const t = o.items.reduce((s, i) => s + i.price * i.qty, 0);
  running += t;
  return { id: o.id, total: t.toFixed(2), running: running.toFixed(2) };
});
return rows;
// === moving_average
const w = await get_weather("Paris");
const highs = w.forecast.map(f => f.high);
const window = 2;
const avgs = highs.slice(window - 1).map((_, i) => {
  const slice = highs.slice(i, i + window);
  return slice.reduce((a, b) => a + b, 0) / window;
});
return avgs;
// === histogram_bars
const users = await list_users();
const decades = {};
for (const u of users) {
  const d = Math.floor(u.age / 10) * 10;
  decades[d] = (decades[d] || 0) + 1;
}
return Object.keys(decades).sort((a, b) => a - b).map(d => `${String(d).padStart(3)}s ${"#".repeat(decades[d])}`).join("\n");
// === zip_two_arrays
const cities = ["Paris", "London"];
const ws = await Promise.all(cities.map(c => get_weather(c)));
const zipped = cities.map((c, i) => [c, ws[i].conditions]);
return Object.fromEntries(zipped);
// === partition_by_predicate
const users = await list_users();
const [active, inactive] = users.reduce(([a, b], u) => (u.active ? [[...a, u.name], b] : [a, [...b, u.name]]), [[], []]);
return { active, inactive };
// === every_item_validation
const orders = (await Promise.all([1, 2].map(id => get_orders(id)))).flat();
const problems = [];
for (const o of orders) {
  if (!o.items.length) problems.push(`${o.id}: empty`);
  if (o.items.some(i => i.qty <= 0)) problems.push(`${o.id}: bad qty`);
  if (!["pending", "shipped", "delivered", "cancelled"].includes(o.status)) problems.push(`${o.id}: status`);
}
return problems.length === 0 ? "all valid" : problems;
// === unique_skus_sorted
const orders = (await Promise.all([1, 2, 3].map(get_orders))).flat();
const skus = [...new Set(orders.flatMap(o => o.items.map(i => i.sku)))].sort();
return { count: skus.length, skus };
// === string_reverse_palindrome
const words = ["level", "Paris", "noon", "racecar", "Tokyo"];
return words.filter(w => w.toLowerCase() === w.toLowerCase().split("").reverse().join(""));
// === count_chars_vowels
const user = await get_user(3);
const vowels = (user.name.match(/[aeiou]/gi) || []).length;
const letters = user.name.replace(/[^a-z]/gi, "").length;
return { vowels, letters, ratio: (vowels / letters).toFixed(3) };
// === email_domain_counts
const users = await list_users();
const events = await list_events();
const emails = [...users.map(u => u.email), ...events.flatMap(e => e.attendees)];
const domains = emails.reduce((m, e) => {
  const d = e.split("@")[1];
  m[d] = (m[d] ?? 0) + 1;
  return m;
}, {});
return domains;
// === nullish_assignment_defaults
const config = JSON.parse(await read_file("/data/config.json"));
config.timeout ??= 30;
config.retries ||= 5;
config.debug &&= "yes";
return config;
// === object_spread_override_order
const user = await get_user(1);
const a = { ...user, name: "X" };
const b = { name: "X", ...user };
return [a.name, b.name, Object.keys(a).length, Object.keys({ ...user, extra: 1 }).at(-1)];
// === array_destructure_skip_rest
const w = await get_weather("Tokyo");
const [, second, ...others] = w.forecast;
const [{ day: firstDay }] = w.forecast;
return { second: second.day, others: others.length, firstDay };
// === function_default_object_param
function fmt(value, { digits = 2, prefix = "", suffix = "" } = {}) {
  return `${prefix}${value.toFixed(digits)}${suffix}`;
}
const q = await get_stock_price("AAPL");
return [fmt(q.price), fmt(q.price, { prefix: "$" }), fmt(q.change_pct, { digits: 1, suffix: "%" })];
// === rest_params_sum
function sum(...nums) {
  return nums.reduce((a, b) => a + b, 0);
}
const w = await get_weather("London");
return [sum(), sum(1, 2, 3), sum(...w.forecast.map(f => f.high))];
// === ternary_chain_grade
const users = await list_users();
const grade = age => age >= 80 ? "A" : age >= 50 ? "B" : age >= 40 ? "C" : "D";
return users.map(u => grade(u.age)).join("");
// === date_iso_week_number
function isoWeek(dateStr) {
  const d = new Date(dateStr);
  const day = (d.getUTCDay() + 6) % 7;
  d.setUTCDate(d.getUTCDate() - day + 3);
  const firstThursday = new Date(Date.UTC(d.getUTCFullYear(), 0, 4));
  return 1 + Math.round(((d - firstThursday) / 86400000 - 3 + ((firstThursday.getUTCDay() + 6) % 7)) / 7);
}
const events = await list_events();
return events.map(e => isoWeek(e.start));
// === date_group_by_weekday
const events = await list_events();
const names = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const counts = {};
for (const e of events) {
  const n = names[new Date(e.start).getUTCDay()];
  counts[n] = (counts[n] || 0) + 1;
}
return counts;
// === time_formatting_hhmm
const events = await list_events();
const fmt = iso => { const d = new Date(iso); return `${String(d.getUTCHours()).padStart(2, "0")}:${String(d.getUTCMinutes()).padStart(2, "0")}`; };
return events.map(e => `${e.title}: ${fmt(e.start)}–${fmt(e.end)}`);
// === tickets_sla_breach
const now = Date.parse("2024-05-07T12:00:00Z");
const slaHours = { critical: 24, high: 72, medium: 168, low: 336 };
let cursor;
const breaches = [];
do {
  const page = await list_tickets({ cursor, limit: 3 });
  for (const t of page.tickets) {
    if (t.status === "closed") continue;
    const ageH = (now - Date.parse(t.created)) / 3600000;
    if (ageH > slaHours[t.priority]) breaches.push({ id: t.id, over: Math.round(ageH - slaHours[t.priority]) });
  }
  cursor = page.next_cursor;
} while (cursor);
return breaches;
// === tickets_workload_per_assignee
const { tickets } = await list_tickets({ limit: 20 });
const users = await list_users();
const load = users.map(u => ({
  name: u.name,
  open: tickets.filter(t => t.assignee === u.email && t.status !== "closed").length,
}));
return load.filter(l => l.open > 0).sort((a, b) => b.open - a.open || a.name.localeCompare(b.name));
// === weather_advice_if_else
const w = await get_weather("London");
let advice;
if (w.conditions.toLowerCase().includes("rain")) {
  advice = "Take an umbrella";
} else if (w.tempC > 25) {
  advice = "Stay hydrated";
} else {
  advice = "Enjoy your day";
}
const tomorrow = w.forecast[0];
const note = tomorrow.rain > 0.5 ? ` Rain likely tomorrow (${Math.round(tomorrow.rain * 100)}%).` : "";
return advice + "." + note;
// === fx_convert_table_loop
const amounts = [10, 250, 1000];
const targets = ["EUR", "GBP", "JPY"];
const table = {};
for (const cur of targets) {
  const rate = await get_exchange_rate({ base: "USD", target: cur });
  table[cur] = amounts.map(a => Math.round(a * rate * 100) / 100);
}
return table;
// === portfolio_with_weights
const holdings = { AAPL: 10, MSFT: 5, SAP: 8 };
const quotes = await Promise.all(Object.keys(holdings).map(s => get_stock_price(s)));
const eur = await get_exchange_rate("EUR", "USD");
const values = quotes.map(q => ({ s: q.symbol, v: holdings[q.symbol] * q.price * (q.currency === "EUR" ? eur : 1) }));
const total = values.reduce((s, x) => s + x.v, 0);
return values.map(x => `${x.s} ${(x.v / total * 100).toFixed(1)}%`).concat(`total $${total.toFixed(2)}`);
// === entries_index_for_of
const { tickets } = await list_tickets({ limit: 4 });
const lines = [];
for (const [i, t] of tickets.entries()) {
  lines.push(`${i + 1}. [${t.priority.toUpperCase()}] ${t.title}`);
}
return lines.join("\n");
// === object_entries_foreach_destructure
const counts = { open: 3, closed: 2, in_progress: 2 };
const parts = [];
Object.entries(counts).forEach(([status, n]) => {
  parts.push(`${status.replace("_", " ")}=${n}`);
});
return parts.join(", ");
// === promise_all_object_entries_async
const symbols = { apple: "AAPL", microsoft: "MSFT" };
const entries = await Promise.all(
  Object.entries(symbols).map(async ([name, sym]) => {
    const q = await get_stock_price(sym);
    return [name, q.price];
  })
);
return Object.fromEntries(entries);
// === results_keyed_by_await_loop
const results = {};
for (const city of ["Tokyo", "Paris"]) {
  const w = await get_weather(city);
  results[city] = { temp: w.tempC, wet: w.forecast.some(f => f.rain > 0.5) };
}
return results;
// === console_progress_logging
const ids = [1, 2, 3];
const names = [];
for (const id of ids) {
  console.log(`Fetching user ${id}...`);
  const u = await get_user(id);
  console.log(`Got ${u.name}`);
  names.push(u.name);
}
console.log("Done", names.length);
return names;
// === map_set_chain_counts
const { tickets } = await list_tickets({ limit: 10 });
const m = new Map();
tickets.forEach(t => m.set(t.status, (m.get(t.status) ?? 0) + 1));
return [...m].map(([k, v]) => ({ status: k, count: v }));
// === sorted_unique_words_title
const pages = await search_web("python javascript rust node", 5);
const words = new Set();
for (const p of pages) {
  for (const w of p.title.toLowerCase().split(" ")) {
    if (w.length > 3) words.add(w);
  }
}
return [...words].sort().slice(0, 6);
// === max_by_with_sort_copy
const products = await search_products();
const [mostStock] = [...products].sort((a, b) => b.stock - a.stock);
const [cheapest, secondCheapest] = products.toSorted((a, b) => a.price - b.price);
return { mostStock: mostStock.name, cheapest: cheapest.name, secondCheapest: secondCheapest.name };
// === conditional_spread_object
const user = await get_user(2);
const payload = {
  id: user.id,
  ...(user.manager && { managerName: user.manager.name }),
  ...(user.tags.length > 0 ? { tags: user.tags.join("|") } : {}),
  ...(user.nickname ? { nick: user.nickname } : {}),
};
return payload;
// === conditional_spread_array
const w = await get_weather("London");
const warnings = [
  ...(w.humidity > 80 ? ["humid"] : []),
  ...(w.wind_kph > 20 ? ["windy"] : []),
  ...(w.tempC < 5 ? ["cold"] : []),
];
return warnings.length ? warnings : ["none"];
// === try_catch_json_parse_fallback
const raw = await read_file("/data/notes.md");
let parsed;
try {
  parsed = JSON.parse(raw);
} catch (e) {
  parsed = { text: raw.slice(0, 7), error: e.name };
}
return parsed;
// === retry_guard_first_loop
let attempts = 0;
let result = null;
const cities = ["Atlantis", "Atlantis", "Paris"];
while (attempts < 3) {
  try {
    result = await get_weather(cities[attempts]);
    break;
  } catch (e) {
    if (attempts + 1 >= 3) throw e;
    attempts++;
  }
}
return { attempts, city: result.city };
// === fallback_chain_functions
async function firstWorking(cities) {
  for (const c of cities) {
    try {
      return await get_weather(c);
    } catch (e) {
      continue;
    }
  }
  return null;
}
const w = await firstWorking(["Nowhere", "Tokyo", "Paris"]);
return w?.city ?? "none";
// === nested_ternary_template_plural
const { tickets } = await list_tickets({ limit: 10 });
const open = tickets.filter(t => t.status === "open").length;
return `There ${open === 1 ? "is" : "are"} ${open} open ticket${open === 1 ? "" : "s"}${open > 2 ? " — triage needed" : ""}.`;
// === string_template_table_rows
const users = await list_users();
const width = Math.max(...users.map(u => u.name.length));
return users.map(u => `${u.name.padEnd(width)} | ${String(u.age).padStart(3)} | ${u.active ? "yes" : "no"}`).join("\n");
// === date_relative_labels
const now = new Date("2024-05-06T12:00:00Z");
const events = await list_events();
return events.map(e => {
  const diffH = Math.round((new Date(e.start) - now) / 3600000);
  if (diffH < 0) return `${e.title}: ${-diffH}h ago`;
  if (diffH < 24) return `${e.title}: in ${diffH}h`;
  return `${e.title}: in ${Math.floor(diffH / 24)}d`;
});
// === parse_key_value_lines
const text = "name = Ada\nrole= admin\n# comment\n\ncity =London ";
const obj = {};
for (const line of text.split("\n")) {
  const trimmed = line.trim();
  if (!trimmed || trimmed.startsWith("#")) continue;
  const [key, ...rest] = trimmed.split("=");
  obj[key.trim()] = rest.join("=").trim();
}
return obj;
// === parse_query_string
const url = "https://example.com/search?q=async+await&page=2&tags=a,b&empty=";
const query = url.split("?")[1];
const params = Object.fromEntries(query.split("&").map(kv => {
  const [k, v = ""] = kv.split("=");
  return [k, decodeURIComponent(v.replace(/\+/g, " "))];
}));
return params;
// === number_bucket_percentiles
const products = await search_products();
const prices = products.map(p => p.price).sort((a, b) => a - b);
const pct = q => prices[Math.min(prices.length - 1, Math.floor(q * prices.length))];
return { p25: pct(0.25), p50: pct(0.5), p90: pct(0.9) };
// === every_some_nested_attendees
const events = await list_events();
const users = await list_users();
const emails = new Set(users.map(u => u.email));
return {
  allKnown: events.every(e => e.attendees.every(a => emails.has(a))),
  anyLinus: events.some(e => e.attendees.includes("linus@example.com")),
  solo: events.filter(e => e.attendees.length === 1).map(e => e.title),
};
// === jsdoc_helpers_main_stringify
/**
 * Summarize a user.
 * @param {object} u
 * @returns {string}
 */
function summarize(u) {
  // name and city
  return `${u.name} (${u.city})`;
}

async function main() {
  const users = await list_users();
  const result = { count: users.length, lines: users.map(summarize) };
  return JSON.stringify(result, null, 2);
}

return await main();
// === reduce_destructured_param_records
const users = await list_users();
const result = users.reduce((acc, { role, age }) => {
  acc[role] ??= { n: 0, ages: [] };
  acc[role].n++;
  acc[role].ages.push(age);
  return acc;
}, {});
return result;
// === promise_all_three_tools
const data = await Promise.all([list_users(), list_events(), search_products({ category: "shoes" })]);
const [users, events, shoes] = data;
return { users: users.length, events: events.length, shoes: shoes.map(s => s.id) };
// === var_classic_for_loop
var users = await list_users();
var out = [];
for (var i = 0; i < users.length; i++) {
  var u = users[i];
  if (u.active) {
    out.push(u.name);
  }
}
return out;
// === loop_local_lets_try_two
const out = [];
for (const id of [1, 9]) {
  let value = null;
  let ok = false;
  try {
    const u = await get_user(id);
    value = u.name;
    ok = true;
  } catch (e) {
    value = e.message;
  }
  out.push({ id, value, ok });
}
return out;
// === per_item_status_try
const report = [];
for (const sym of ["AAPL", "TSLA", "SAP"]) {
  let line;
  try {
    const q = await get_stock_price(sym);
    line = `${sym}: ${q.price.toFixed(2)} ${q.currency}`;
  } catch (err) {
    line = `${sym}: unavailable (${err.message})`;
  }
  report.push(line);
}
return report.join("\n");
// === events_free_slots
const events = (await list_events("2024-05-06")).toSorted((a, b) => a.start.localeCompare(b.start));
const dayStart = "2024-05-06T08:00:00Z", dayEnd = "2024-05-06T18:00:00Z";
const free = [];
let cursor = dayStart;
for (const e of events) {
  if (e.start > cursor) free.push(`${cursor.slice(11, 16)}-${e.start.slice(11, 16)}`);
  if (e.end > cursor) cursor = e.end;
}
if (cursor < dayEnd) free.push(`${cursor.slice(11, 16)}-${dayEnd.slice(11, 16)}`);
return free;
// === orders_monthly_revenue
const users = await list_users();
const orders = (await Promise.all(users.map(u => get_orders(u.id)))).flat();
const byMonth = {};
for (const o of orders) {
  if (o.status === "cancelled") continue;
  const month = new Date(o.createdAt).toISOString().slice(0, 7);
  const revenue = o.items.reduce((s, i) => s + i.qty * i.price, 0);
  byMonth[month] = Math.round(((byMonth[month] ?? 0) + revenue) * 100) / 100;
}
return byMonth;
// === top_customers_report
const users = await list_users();
const spend = await Promise.all(users.map(async u => {
  const orders = await get_orders(u.id);
  const total = orders.filter(o => o.status !== "cancelled").reduce((s, o) => s + o.items.reduce((t, i) => t + i.qty * i.price, 0), 0);
  return { name: u.name, total };
}));
const top = spend.filter(s => s.total > 0).sort((a, b) => b.total - a.total).slice(0, 2);
return top.map((s, i) => `#${i + 1} ${s.name}: $${s.total.toFixed(2)}`).join("\n");
// === inventory_restock_plan
const products = await search_products();
const plan = products
  .filter(p => p.stock < 10)
  .map(p => ({ id: p.id, order: Math.max(0, 20 - p.stock), cost: +(Math.max(0, 20 - p.stock) * p.price * 0.6).toFixed(2) }));
const totalCost = plan.reduce((s, x) => s + x.cost, 0);
return { plan, totalCost: totalCost.toFixed(2) };
