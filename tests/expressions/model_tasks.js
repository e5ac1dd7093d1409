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
