// Programs in a third style models write in "code mode" when given a tool catalog (agents):
// data wrangling over tool replies (Object.entries/fromEntries, Map and Set and their
// iteration, Array.from, reduce into objects, flatMap, at, structuredClone, number and text
// formatting, regular expressions, dates), control flow (retries, pagination, early returns,
// guards, ?. and ??), concurrency (Promise.all over map, batches, allSettled) and output
// shaping (JSON.stringify, reports, console.log then return), run by
// tests/expressions/test_model_agents.py against Node.js. Each follows a line `// === name`.
// === entries_map_destructure
const w = await get_weather("Paris");
return Object.entries(w).filter(([k, v]) => typeof v === "number").map(([k, v]) => `${k}=${v}`);
// === fromentries_prices
const symbols = ["AAPL", "MSFT", "SAP"];
const quotes = await Promise.all(symbols.map(s => get_stock_price(s)));
return Object.fromEntries(quotes.map(q => [q.symbol, q.price]));
// === fromentries_zip
const cities = ["Paris", "London", "Tokyo"];
const temps = await Promise.all(cities.map(c => get_weather(c).then(w => w.tempC)));
return Object.fromEntries(cities.map((c, i) => [c, temps[i]]));
// === map_count_roles
const users = await list_users();
const counts = new Map();
for (const u of users) counts.set(u.role, (counts.get(u.role) || 0) + 1);
return Object.fromEntries(counts);
// === map_iterate_entries
const users = await list_users();
const byCity = new Map();
for (const u of users) {
  if (!byCity.has(u.city)) byCity.set(u.city, []);
  byCity.get(u.city).push(u.name);
}
const lines = [];
for (const [city, names] of byCity) lines.push(`${city}: ${names.join(", ")}`);
return lines.join("\n");
// === map_spread_entries
const orders = await get_orders(1);
const m = new Map(orders.map(o => [o.id, o.status]));
return [...m.entries()];
// === map_keys_values
const tickets = (await list_tickets({ limit: 10 })).tickets;
const m = new Map(tickets.map(t => [t.id, t.priority]));
return { keys: [...m.keys()], values: [...m.values()], size: m.size };
// === map_foreach
const products = await search_products({ category: "shoes" });
const m = new Map();
products.forEach(p => m.set(p.id, p.price));
const out = [];
m.forEach((price, id) => out.push(`${id}:${price}`));
return out;
// === set_unique_tags
const users = await list_users();
const tags = new Set();
for (const u of users) for (const t of u.tags) tags.add(t);
return [...tags].sort();
// === set_from_flatmap
const users = await list_users();
return Array.from(new Set(users.flatMap(u => u.tags))).length;
// === set_has_filter
const admins = new Set((await list_users()).filter(u => u.role === "admin").map(u => u.email));
const events = await list_events();
return events.filter(e => e.attendees.some(a => admins.has(a))).map(e => e.title);
// === set_difference
const all = new Set((await list_users()).map(u => u.email));
const busy = new Set((await list_events()).flatMap(e => e.attendees));
return [...all].filter(x => !busy.has(x));
// === set_size_dedupe
const orders = [...(await get_orders(1)), ...(await get_orders(2))];
const skus = new Set(orders.flatMap(o => o.items.map(i => i.sku)));
return { distinct: skus.size, total: orders.reduce((n, o) => n + o.items.length, 0) };
// === array_from_length
const days = Array.from({ length: 3 }, (_, i) => `day-${i + 1}`);
const w = await get_weather("Tokyo");
return days.map((d, i) => ({ d, high: w.forecast[i].high }));
// === array_from_length_pages
const pages = Array.from({ length: 3 }, (_, i) => String(i * 3));
const results = await Promise.all(pages.map(cursor => list_tickets({ cursor, limit: 3 })));
return results.flatMap(r => r.tickets.map(t => t.id));
// === array_from_set_sort
const ps = await search_products();
return Array.from(new Set(ps.map(p => p.brand))).sort((a, b) => a.localeCompare(b));
// === array_from_map_values
const ps = await search_products();
const best = new Map();
for (const p of ps) {
  const cur = best.get(p.category);
  if (!cur || p.rating > cur.rating) best.set(p.category, p);
}
return Array.from(best.values(), p => p.name);
// === reduce_into_object_sum
const orders = await get_orders(2);
const totals = orders.reduce((acc, o) => {
  acc[o.id] = o.items.reduce((s, i) => s + i.qty * i.price, 0);
  return acc;
}, {});
return totals;
// === reduce_spread_object
const users = await list_users();
return users.reduce((acc, u) => ({ ...acc, [u.id]: u.name.split(" ")[0] }), {});
// === reduce_group_arrays
const tickets = (await list_tickets({ limit: 10 })).tickets;
const grouped = tickets.reduce((g, t) => {
  (g[t.status] ||= []).push(t.id);
  return g;
}, {});
return grouped;
// === reduce_group_nullish_assign
const products = await search_products();
const byBrand = {};
for (const p of products) {
  byBrand[p.brand] ??= [];
  byBrand[p.brand].push(p.name);
}
return byBrand;
// === reduce_min_max
const w = await get_weather("London");
const { min, max } = w.forecast.reduce(
  (acc, d) => ({ min: Math.min(acc.min, d.low), max: Math.max(acc.max, d.high) }),
  { min: Infinity, max: -Infinity }
);
return `${min}..${max}`;
// === flatmap_items
const orders = await get_orders(1);
return orders.flatMap(o => o.items.map(i => ({ order: o.id, sku: i.sku, qty: i.qty })));
// === flatmap_filter_empty
const users = await list_users();
return users.flatMap(u => (u.tags.length ? [u.name] : []));
// === at_last
const tickets = (await list_tickets({ limit: 10 })).tickets;
const sorted = [...tickets].sort((a, b) => a.created.localeCompare(b.created));
return { first: sorted.at(0).id, last: sorted.at(-1).id, secondLast: sorted.at(-2)?.id };
// === at_string
const users = await list_users();
return users.map(u => u.name.at(0) + u.name.split(" ").at(-1).at(0));
// === structured_clone_edit
const user = await get_user(2);
const copy = structuredClone(user);
copy.tags.push("ai");
return { original: user.tags, copy: copy.tags };
// === json_clone_edit
const w = await get_weather("Paris");
const c = JSON.parse(JSON.stringify(w));
c.forecast = c.forecast.slice(0, 1);
return [w.forecast.length, c.forecast.length];
// === number_parse_csv
const text = await read_file("/data/sales.csv");
const rows = text.trim().split("\n").slice(1).map(l => l.split(","));
return rows.reduce((s, r) => s + Number(r[2]) * parseFloat(r[3]), 0);
// === parse_int_radix
const ids = ["T-1", "T-12", "T-7"];
return ids.map(id => parseInt(id.split("-")[1], 10)).sort((a, b) => a - b);
// === tofixed_money
const orders = await get_orders(1);
const total = orders.flatMap(o => o.items).reduce((s, i) => s + i.price * i.qty, 0);
return `$${total.toFixed(2)}`;
// === round_two_places
const [usd, eur] = await Promise.all([get_stock_price("AAPL"), get_exchange_rate("USD", "EUR")]);
return Math.round(usd.price * eur * 100) / 100;
// === padstart_table
const ps = await search_products();
return ps.map(p => `${p.id.padEnd(4)}${String(p.stock).padStart(5, " ")}${p.price.toFixed(2).padStart(9)}`).join("\n");
// === padstart_ids
return Array.from({ length: 4 }, (_, i) => `INV-${String(i + 7).padStart(4, "0")}`);
// === regex_match_emails
const notes = await read_file("/data/notes.md");
return notes.match(/[\w.]+@[\w.]+\.\w+/g);
// === regex_replace_slug
const pages = await search_web({ query: "python guide", limit: 5 });
return pages.map(p => p.title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, ""));
// === regex_split_words
const pages = await search_web({ query: "async", limit: 5 });
const words = pages.flatMap(p => p.snippet.toLowerCase().split(/\W+/)).filter(Boolean);
const freq = {};
for (const w of words) freq[w] = (freq[w] || 0) + 1;
return Object.entries(freq).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 5);
// === regex_test_filter
const files = await list_files("/data");
return files.filter(f => /\.(csv|json)$/.test(f.name)).map(f => f.name);
// === regex_groups_todo
const notes = await read_file("/data/notes.md");
const todos = [];
for (const line of notes.split("\n")) {
  const m = line.match(/^(TODO|DONE):\s*(.+)$/);
  if (m) todos.push({ state: m[1], text: m[2] });
}
return todos;
// === regex_matchall
const notes = await read_file("/data/notes.md");
return [...notes.matchAll(/(\w+)@example\.com/g)].map(m => m[1]);
// === regex_replace_fn
const t = await get_user(3);
return t.name.replace(/\b\w/g, c => c.toLowerCase()).replace(/ /g, "_");
// === date_diff_days
const tickets = (await list_tickets({ limit: 10 })).tickets;
const now = new Date("2024-05-07T00:00:00Z");
return tickets.filter(t => t.status !== "closed").map(t => ({
  id: t.id,
  ageDays: Math.floor((now - new Date(t.created)) / 86400000),
}));
// === date_iso_add
const e = (await list_events())[0];
const end = new Date(new Date(e.end).getTime() + 30 * 60 * 1000);
return end.toISOString();
// === date_duration_minutes
const events = await list_events();
return events.map(e => `${e.title}: ${(Date.parse(e.end) - Date.parse(e.start)) / 60000} min`);
// === date_getutc_parts
const users = await list_users();
return users.map(u => {
  const d = new Date(u.signup);
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, "0")}`;
});
// === date_slice_day
const events = await list_events();
const byDay = {};
for (const e of events) {
  const day = e.start.slice(0, 10);
  byDay[day] = (byDay[day] ?? 0) + 1;
}
return byDay;
// === date_sort_recent
const files = await list_files("/data");
const recent = files.filter(f => f.type === "file").sort((a, b) => new Date(b.modified) - new Date(a.modified));
return recent.map(f => f.name);
// === retry_for_try
let result = null;
let lastError = null;
for (let attempt = 1; attempt <= 3; attempt++) {
  try {
    result = await get_weather("Tokyo");
    break;
  } catch (e) {
    lastError = e.message;
  }
}
return result ? result.conditions : lastError;
// === retry_helper_attempts
async function retry(fn, attempts = 3) {
  for (let i = 0; i < attempts; i++) {
    try {
      return await fn();
    } catch (err) {
      if (i === attempts - 1) throw err;
    }
  }
}
const u = await retry(() => get_user(2));
return u.email;
// === retry_fallback_symbol
const symbols = ["XXXX", "MSFT"];
for (const s of symbols) {
  try {
    const q = await get_stock_price(s);
    return { symbol: s, price: q.price };
  } catch (e) {
    console.log(`failed ${s}: ${e.message}`);
  }
}
return null;
// === retry_all_fail
const tried = [];
for (const city of ["Atlantis", "Mu"]) {
  try {
    await get_weather(city);
  } catch (e) {
    tried.push(e.message);
    continue;
  }
}
return tried;
// === paginate_while_cursor_agent
let cursor = undefined;
const ids = [];
do {
  const page = await list_tickets({ cursor, limit: 2 });
  ids.push(...page.tickets.map(t => t.id));
  cursor = page.next_cursor ?? undefined;
} while (cursor);
return ids;
// === paginate_while_cursor_truthy
let page = await list_tickets({ limit: 3 });
const all = [...page.tickets];
while (page.next_cursor) {
  page = await list_tickets({ cursor: page.next_cursor, limit: 3 });
  all.push(...page.tickets);
}
return all.filter(t => t.labels.includes("bug")).map(t => t.title);
// === paginate_max_pages_guard
const out = [];
let cursor;
let n = 0;
while (n < 2) {
  const res = await list_tickets({ cursor, limit: 2 });
  out.push(...res.tickets);
  n++;
  if (!res.next_cursor) break;
  cursor = res.next_cursor;
}
return out.map(t => t.id);
// === early_return_not_found
const users = await list_users();
const target = users.find(u => u.email === "nobody@example.com");
if (!target) {
  return { error: "user not found" };
}
return target.name;
// === early_return_found
const users = await list_users();
for (const u of users) {
  if (u.age > 80) return `${u.name} is ${u.age}`;
}
return "none";
// === continue_guard
const users = await list_users();
const lines = [];
for (const u of users) {
  if (!u.active) continue;
  if (u.tags.length === 0) continue;
  lines.push(`${u.name}: ${u.tags.join("/")}`);
}
return lines;
// === optional_chain_defaults
const users = await list_users();
return users.map(u => ({ name: u.name, manager: u.manager?.name ?? "none" }));
// === optional_chain_index
const events = await list_events("2024-05-07");
return events[0]?.location ?? "TBD";
// === optional_chain_call
const events = await list_events();
return events.map(e => e.location?.toUpperCase() ?? "REMOTE");
// === nullish_zero
const ps = await search_products();
return ps.map(p => `${p.name}: ${p.stock || "out"} / ${p.stock ?? "n/a"}`);
// === promise_all_map_users
const ids = [1, 2, 3];
const users = await Promise.all(ids.map(id => get_user(id)));
return users.map(u => u.name);
// === promise_all_map_async
const ids = [1, 2];
const summaries = await Promise.all(ids.map(async id => {
  const [u, orders] = await Promise.all([get_user(id), get_orders(id)]);
  return { name: u.name, orders: orders.length };
}));
return summaries;
// === batches_of_five
const ids = [1, 2, 3, 4, 1, 2, 3];
const results = [];
for (let i = 0; i < ids.length; i += 5) {
  const batch = ids.slice(i, i + 5);
  const users = await Promise.all(batch.map(id => get_user(id)));
  results.push(...users.map(u => u.id));
}
return results;
// === batches_chunk_helper
const chunk = (arr, n) => Array.from({ length: Math.ceil(arr.length / n) }, (_, i) => arr.slice(i * n, i * n + n));
const cities = ["Paris", "London", "Tokyo"];
const out = [];
for (const group of chunk(cities, 2)) {
  const ws = await Promise.all(group.map(c => get_weather(c)));
  out.push(ws.map(w => w.humidity));
}
return out;
// === allsettled_status
const cities = ["Paris", "Atlantis", "Tokyo"];
const settled = await Promise.allSettled(cities.map(c => get_weather(c)));
return settled.map((r, i) => r.status === "fulfilled" ? `${cities[i]}: ${r.value.tempC}` : `${cities[i]}: failed`);
// === allsettled_reason
const results = await Promise.allSettled([get_user(1), get_user(99)]);
return results.map(r => r.status === "rejected" ? r.reason.message : r.value.name);
// === allsettled_filter_fulfilled
const syms = ["AAPL", "NOPE", "SAP"];
const res = await Promise.allSettled(syms.map(s => get_stock_price(s)));
const ok = res.filter(r => r.status === "fulfilled").map(r => r.value);
return { ok: ok.map(q => q.symbol), failed: res.filter(r => r.status === "rejected").length };
// === json_stringify_pretty
const u = await get_user(1);
return JSON.stringify({ name: u.name, tags: u.tags }, null, 2);
// === json_stringify_compact
const w = await get_weather("London");
return JSON.stringify(w.forecast.map(({ day, rain }) => ({ day, rain })));
// === template_report_join
const ws = await Promise.all(["Paris", "London"].map(c => get_weather(c)));
const report = [
  "# Weather",
  ...ws.map(w => `- ${w.city}: ${w.tempC}°C, ${w.conditions}`),
  `Average: ${(ws.reduce((s, w) => s + w.tempC, 0) / ws.length).toFixed(1)}°C`,
];
return report.join("\n");
// === console_then_return
const orders = await get_orders(2);
console.log("orders", orders.length);
const shipped = orders.filter(o => o.status === "shipped");
console.log(JSON.stringify(shipped));
return shipped.map(o => o.id);
// === send_mail_summary
const tickets = (await list_tickets({ limit: 10 })).tickets;
const open = tickets.filter(t => t.status === "open");
const body = open.map(t => `* [${t.priority.toUpperCase()}] ${t.title}`).join("\n");
const r = await send_email({ to: "team@example.com", subject: `${open.length} open tickets`, body });
return r.status;
// === send_mail_each_assignee
const tickets = (await list_tickets({ limit: 10 })).tickets;
const byAssignee = {};
for (const t of tickets) {
  if (!t.assignee || t.status === "closed") continue;
  (byAssignee[t.assignee] ??= []).push(t.id);
}
const sent = await Promise.all(Object.entries(byAssignee).map(([to, ids]) =>
  send_email({ to, subject: "Your tickets", body: ids.join(", ") })));
return sent.map(s => s.id);
// === convert_currency_many
const amounts = { rent: 1200, food: 430.5, travel: 99.99 };
const converted = {};
for (const [k, v] of Object.entries(amounts)) {
  const r = await convert_currency({ amount: v, from_currency: "USD", to_currency: "EUR" });
  converted[k] = r.converted;
}
return converted;
// === convert_currency_parallel
const targets = ["EUR", "GBP", "JPY"];
const rs = await Promise.all(targets.map(t => convert_currency(100, "USD", t)));
return rs.map(r => `${r.to}: ${r.converted.toFixed(2)}`).join(" | ");
// === convert_portfolio
const holdings = [{ symbol: "AAPL", shares: 10 }, { symbol: "SAP", shares: 4 }];
let totalUsd = 0;
for (const h of holdings) {
  const q = await get_stock_price(h.symbol);
  const value = q.price * h.shares;
  totalUsd += q.currency === "USD" ? value : (await convert_currency(value, q.currency, "USD")).converted;
}
return Math.round(totalUsd * 100) / 100;
// === fetch_url_settled
const urls = ["https://api.example.com/health", "https://down.example.com", "https://api.example.com/version"];
const res = await Promise.allSettled(urls.map(u => fetch_url(u)));
return res.map((r, i) => ({ url: urls[i], ok: r.status === "fulfilled" && r.value.status === 200 }));
// === fetch_url_json_body
const r = await fetch_url("https://api.example.com/version");
const data = JSON.parse(r.body);
return `v${data.major}.${data.minor}`;
// === fetch_url_retry
let body = null;
let attempts = 0;
for (const url of ["https://down.example.com", "https://api.example.com/health"]) {
  attempts++;
  try {
    body = (await fetch_url({ url })).body;
    break;
  } catch (e) {
    if (!e.message.includes("timeout")) throw e;
  }
}
return { attempts, body };
// === entries_sort_by_value
const w = await get_weather("Tokyo");
const rain = Object.fromEntries(w.forecast.map(d => [d.day, d.rain]));
return Object.entries(rain).sort(([, a], [, b]) => b - a).map(([d]) => d);
// === entries_reduce_max
const rates = {};
for (const c of ["EUR", "GBP", "JPY"]) rates[c] = await get_exchange_rate("USD", c);
const [best] = Object.entries(rates).reduce((m, e) => (e[1] > m[1] ? e : m));
return best;
// === keys_length
const cfg = JSON.parse(await read_file("/data/config.json"));
return { keys: Object.keys(cfg), endpoints: Object.keys(cfg.endpoints).length };
// === values_sum
const cfg = JSON.parse(await read_file("/data/config.json"));
return Object.values(cfg.endpoints).map(u => new URL(u).hostname);
// === object_assign_merge
const defaults = { retries: 1, timeout: 30, debug: true };
const cfg = JSON.parse(await read_file("/data/config.json"));
const merged = Object.assign({}, defaults, { retries: cfg.retries, debug: cfg.debug });
return merged;
// === spread_merge_override
const u = await get_user(4);
const updated = { ...u, city: "Seattle", tags: [...u.tags, "kernel"] };
return { before: u.city, after: updated.city, tags: updated.tags };
// === destructure_rest
const { id, name, ...rest } = await get_user(2);
return Object.keys(rest).sort();
// === destructure_nested_default
const { forecast: [today, ...later], humidity = 0 } = await get_weather("Paris");
return { today: today.day, later: later.length, humidity };
// === destructure_params_map
const orders = await get_orders(1);
return orders.map(({ id, items: [{ name }] }) => `${id}:${name}`);
// === sort_multi_key
const ps = await search_products();
return ps.slice().sort((a, b) => a.category.localeCompare(b.category) || b.price - a.price).map(p => p.id);
// === sort_tosorted
const ps = await search_products();
const cheap = ps.toSorted((a, b) => a.price - b.price).slice(0, 2);
return cheap.map(p => p.name);
// === sort_by_priority_rank
const rank = { critical: 0, high: 1, medium: 2, low: 3 };
const { tickets } = await list_tickets({ limit: 10 });
return tickets.sort((a, b) => rank[a.priority] - rank[b.priority]).map(t => `${t.priority}:${t.id}`);
// === find_index_splice
const ts = (await list_tickets({ limit: 10 })).tickets.map(t => t.id);
const i = ts.findIndex(id => id === "T-4");
ts.splice(i, 1);
return ts;
// === find_last
const { tickets } = await list_tickets({ limit: 10 });
const lastBug = tickets.findLast(t => t.labels.includes("bug"));
return lastBug.id;
// === some_every
const users = await list_users();
return { anyInactive: users.some(u => !u.active), allHaveEmail: users.every(u => u.email.includes("@")) };
// === includes_array
const allowed = ["admin", "engineer"];
const users = await list_users();
return users.filter(u => allowed.includes(u.role)).length;
// === index_of_lookup
const days = ["Mon", "Tue", "Wed"];
const w = await get_weather("London");
return w.forecast.map(d => days.indexOf(d.day));
// === join_csv_output
const ps = await search_products({ max_price: 150 });
const header = "id,name,price";
return [header, ...ps.map(p => [p.id, JSON.stringify(p.name), p.price].join(","))].join("\n");
// === csv_to_objects
const text = await read_file("/data/sales.csv");
const [head, ...lines] = text.trim().split("\n");
const cols = head.split(",");
const rows = lines.map(l => Object.fromEntries(l.split(",").map((v, i) => [cols[i], isNaN(v) ? v : Number(v)])));
return rows.filter(r => r.region === "north");
// === csv_group_sum_region
const text = await read_file("/data/sales.csv");
const totals = {};
for (const line of text.trim().split("\n").slice(1)) {
  const [region, , units, price] = line.split(",");
  totals[region] = (totals[region] ?? 0) + +units * +price;
}
return Object.entries(totals).map(([r, t]) => `${r}: ${t.toFixed(2)}`);
// === config_feature_flags
const cfg = JSON.parse(await read_file("/data/config.json"));
const flags = Object.fromEntries(["search", "export", "import"].map(f => [f, cfg.features.includes(f)]));
return flags;
// === string_methods_mix
const u = await get_user(1);
const [first, last] = u.name.split(" ");
return `${last.toUpperCase()}, ${first[0]}. <${u.email.replace("@", " at ")}>`;
// === string_trim_lines
const notes = await read_file("/data/notes.md");
return notes.split("\n").map(l => l.trim()).filter(l => l && !l.startsWith("#")).length;
// === string_repeat_bar
const ps = await search_products();
return ps.map(p => `${p.name.padEnd(14, ".")} ${"*".repeat(Math.round(p.rating))}`);
// === string_includes_case
const pages = await search_web({ query: "guide", limit: 5 });
return pages.filter(p => p.snippet.toLowerCase().includes("async")).map(p => p.url);
// === string_substring
const pages = await search_web({ query: "python", limit: 5 });
return pages.map(p => p.snippet.length > 20 ? p.snippet.substring(0, 20) + "…" : p.snippet);
// === string_charat_code
const s = (await get_user(3)).name;
return [s.charAt(0), s.charCodeAt(1), s.codePointAt(0), s.lastIndexOf("r")];
// === string_localeupper_title
const titles = (await list_events()).map(e => e.title);
return titles.map(t => t.split(" ").map(w => w[0].toUpperCase() + w.slice(1)).join(" "));
// === number_is_integer
const ps = await search_products();
return ps.map(p => Number.isInteger(p.price) ? `${p.price}` : p.price.toFixed(2));
// === number_nan_guard
const raw = ["12", "abc", "3.5", ""];
return raw.map(r => { const n = parseFloat(r); return Number.isNaN(n) ? null : n; });
// === number_tolocale_like
const total = (await get_orders(1)).flatMap(o => o.items).reduce((s, i) => s + i.price * i.qty, 0);
const [int, dec] = total.toFixed(2).split(".");
return `${int.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}.${dec}`;
// === math_stats
const ages = (await list_users()).map(u => u.age);
const mean = ages.reduce((a, b) => a + b, 0) / ages.length;
const sd = Math.sqrt(ages.reduce((s, a) => s + (a - mean) ** 2, 0) / ages.length);
return { mean, sd: Number(sd.toFixed(3)), median: [...ages].sort((a, b) => a - b)[Math.floor(ages.length / 2)] };
// === math_percent_change
const qs = await Promise.all(["AAPL", "MSFT"].map(get_stock_price));
return qs.map(q => `${q.symbol} ${q.change_pct >= 0 ? "▲" : "▼"} ${Math.abs(q.change_pct).toFixed(2)}%`);
// === math_clamp
const clamp = (x, lo, hi) => Math.min(hi, Math.max(lo, x));
const w = await get_weather("Paris");
return w.forecast.map(d => clamp(d.high, 20, 22));
// === agent_plan_steps
const steps = [];
const user = await get_user(2);
steps.push(`fetched ${user.name}`);
const orders = await get_orders(user.id);
steps.push(`found ${orders.length} orders`);
const spent = orders.reduce((s, o) => s + o.items.reduce((t, i) => t + i.qty * i.price, 0), 0);
steps.push(`spent ${spent.toFixed(2)}`);
return { steps, spent: +spent.toFixed(2) };
// === agent_user_orders_report
const users = await list_users();
const rows = await Promise.all(users.map(async u => {
  const orders = await get_orders(u.id);
  const open = orders.filter(o => !["delivered", "cancelled"].includes(o.status));
  return { user: u.name, open: open.length, ids: open.map(o => o.id) };
}));
return rows.filter(r => r.open > 0);
// === agent_weather_advice
const cities = ["Paris", "London", "Tokyo"];
const advice = {};
for (const city of cities) {
  const w = await get_weather({ city });
  const rainy = w.forecast.filter(d => d.rain >= 0.5).map(d => d.day);
  advice[city] = rainy.length ? `umbrella on ${rainy.join(", ")}` : "no umbrella";
}
return advice;
// === agent_calendar_free_slots
const events = (await list_events("2024-05-06")).sort((a, b) => a.start.localeCompare(b.start));
const gaps = [];
for (let i = 1; i < events.length; i++) {
  const gap = (new Date(events[i].start) - new Date(events[i - 1].end)) / 3600000;
  gaps.push({ after: events[i - 1].title, hours: gap });
}
return gaps;
// === agent_calendar_attendee_count
const events = await list_events();
const counts = {};
events.forEach(e => e.attendees.forEach(a => { counts[a] = (counts[a] || 0) + 1; }));
const top = Object.entries(counts).sort((a, b) => b[1] - a[1])[0];
return { email: top[0], meetings: top[1] };
// === agent_stock_alert
const watch = { AAPL: 190, MSFT: 400, SAP: 180 };
const alerts = [];
for (const [sym, limit] of Object.entries(watch)) {
  const { price } = await get_stock_price(sym);
  if (price > limit) alerts.push(`${sym} above ${limit} (${price})`);
}
if (alerts.length === 0) return "no alerts";
await send_email("me@example.com", "Price alerts", alerts.join("\n"));
return alerts;
// === agent_product_recommend
const budget = 200;
const items = await search_products({ max_price: budget });
const inStock = items.filter(p => p.stock > 0);
const pick = inStock.reduce((best, p) => (p.rating > (best?.rating ?? 0) ? p : best), null);
return pick ? `${pick.name} at $${pick.price}` : "nothing fits";
// === agent_product_bundle
const [shoes, jackets] = await Promise.all([
  search_products({ category: "shoes" }),
  search_products({ category: "jackets" }),
]);
const combos = shoes.flatMap(s => jackets.map(j => ({ pair: `${s.id}+${j.id}`, total: s.price + j.price })));
return combos.filter(c => c.total < 350).sort((a, b) => a.total - b.total);
// === agent_search_dedupe_domains
const [a, b] = await Promise.all([search_web("python", 5), search_web("guide", 5)]);
const seen = new Set();
const unique = [];
for (const p of [...a, ...b]) {
  if (seen.has(p.url)) continue;
  seen.add(p.url);
  unique.push(p);
}
return unique.map(p => new URL(p.url).hostname);
// === agent_search_rank_date
const hits = await search_web({ query: "async guide promises", limit: 5 });
return hits
  .map(h => ({ title: h.title, year: Number(h.published.slice(0, 4)), score: h.score }))
  .sort((x, y) => y.year - x.year || y.score - x.score);
// === agent_files_sizes
const files = await list_files("/data");
const kb = files.filter(f => f.type === "file").map(f => ({ name: f.name, kb: +(f.size / 1024).toFixed(1) }));
return { files: kb, totalKb: kb.reduce((s, f) => s + f.kb, 0) };
// === agent_files_read_all
const files = (await list_files("/data")).filter(f => f.type === "file");
const contents = await Promise.all(files.map(f => read_file(`/data/${f.name}`)));
return files.map((f, i) => `${f.name}: ${contents[i].split("\n").length} lines`);
// === agent_files_missing
const paths = ["/data/sales.csv", "/data/missing.txt"];
const out = {};
for (const p of paths) {
  try {
    out[p] = (await read_file(p)).length;
  } catch (e) {
    out[p] = `error: ${e.message}`;
  }
}
return out;
// === agent_tickets_sla
const { tickets } = await list_tickets({ limit: 10 });
const now = Date.parse("2024-05-06T12:00:00Z");
const slaHours = { critical: 4, high: 24, medium: 72, low: 168 };
return tickets
  .filter(t => t.status !== "closed")
  .map(t => ({ id: t.id, breached: (now - Date.parse(t.created)) / 36e5 > slaHours[t.priority] }));
// === agent_tickets_label_matrix
const { tickets } = await list_tickets({ limit: 10 });
const labels = [...new Set(tickets.flatMap(t => t.labels))].sort();
return tickets.map(t => [t.id, ...labels.map(l => (t.labels.includes(l) ? 1 : 0))]);
// === agent_tickets_unassigned
const { tickets } = await list_tickets({ limit: 10 });
const unassigned = tickets.filter(t => t.assignee == null);
return unassigned.length ? unassigned.map(t => t.title) : "all assigned";
// === agent_exchange_table
const cur = ["USD", "EUR", "GBP"];
const table = {};
for (const a of cur) {
  table[a] = {};
  for (const b of cur) table[a][b] = a === b ? 1 : await get_exchange_rate(a, b);
}
return table;
// === agent_exchange_best
const rates = await Promise.all(["EUR", "GBP", "JPY"].map(async t => ({ t, r: await get_exchange_rate("USD", t) })));
return rates.sort((x, y) => x.r - y.r).map(x => x.t);
// === agent_user_lookup_by_email
const emails = ["grace@example.com", "nobody@example.com"];
const users = await list_users();
const byEmail = new Map(users.map(u => [u.email, u]));
return emails.map(e => byEmail.get(e)?.name ?? `unknown: ${e}`);
// === agent_user_age_buckets
const users = await list_users();
const buckets = { "<40": 0, "40-60": 0, "60+": 0 };
for (const { age } of users) {
  if (age < 40) buckets["<40"]++;
  else if (age <= 60) buckets["40-60"]++;
  else buckets["60+"]++;
}
return buckets;
// === agent_user_initials_map
const users = await list_users();
return Object.fromEntries(users.map(u => [u.name.split(" ").map(p => p[0]).join(""), u.id]));
// === agent_order_items_top
const orders = (await Promise.all([1, 2, 3].map(get_orders))).flat();
const qty = {};
for (const o of orders) for (const it of o.items) qty[it.name] = (qty[it.name] ?? 0) + it.qty;
return Object.entries(qty).sort(([, a], [, b]) => b - a).slice(0, 3).map(([n, q]) => `${n} x${q}`);
// === agent_order_status_switch
const orders = await get_orders(1);
return orders.map(o => {
  switch (o.status) {
    case "shipped": return `${o.id} is on its way`;
    case "pending": return `${o.id} awaits payment`;
    default: return `${o.id}: ${o.status}`;
  }
});
// === agent_order_latest
const orders = [...(await get_orders(1)), ...(await get_orders(2))];
const latest = orders.reduce((a, b) => (new Date(a.createdAt) > new Date(b.createdAt) ? a : b));
return latest.id;
// === agent_nested_loops_label
const users = await list_users();
const events = await list_events();
const pairs = [];
for (const u of users) {
  for (const e of events) {
    if (e.attendees.includes(u.email) && e.location) pairs.push(`${u.name.split(" ")[0]}@${e.location}`);
  }
}
return pairs;
// === agent_ternary_chain
const w = await get_weather("Tokyo");
const feel = w.tempC > 25 ? "hot" : w.tempC > 15 ? "mild" : "cold";
return `${w.city} feels ${feel}`;
// === agent_typeof_guard
const cfg = JSON.parse(await read_file("/data/config.json"));
return Object.entries(cfg).map(([k, v]) => `${k}:${Array.isArray(v) ? "array" : typeof v}`);
// === agent_boolean_count
const users = await list_users();
return users.filter(Boolean).map(u => u.active).filter(Boolean).length;
// === agent_while_countdown
let n = 3;
const names = [];
while (n > 0) {
  const u = await get_user(n);
  names.push(u.name);
  n--;
}
return names;
// === agent_for_index_pairs
const { tickets } = await list_tickets({ limit: 4 });
const out = [];
for (let i = 0; i < tickets.length - 1; i++) out.push(`${tickets[i].id}->${tickets[i + 1].id}`);
return out;
// === agent_for_in_object
const w = await get_weather("Paris");
const keys = [];
for (const k in w) if (typeof w[k] === "string") keys.push(k);
return keys;
// === agent_reverse_copy
const ids = (await list_users()).map(u => u.id);
return [ids.slice().reverse(), ids.toReversed?.() ?? null, ids];
// === agent_sum_nested
const orders = await get_orders(2);
return orders.map(o => ({ id: o.id, units: o.items.map(i => i.qty).reduce((a, b) => a + b) }));
// === agent_label_lookup_default
const labels = { bug: "🐞", feature: "✨" };
const { tickets } = await list_tickets({ limit: 10 });
return tickets.map(t => `${t.labels.map(l => labels[l] ?? "•").join("")} ${t.id}`);
// === agent_async_iife
return await (async () => {
  const u = await get_user(1);
  return u.tags.length;
})();
// === agent_whole_function
async () => {
  const w = await get_weather("London");
  return w.forecast.map(d => d.high - d.low);
};
// === agent_main_function
async function main() {
  const users = await list_users();
  const active = users.filter(u => u.active);
  return { count: active.length, names: active.map(u => u.name) };
}
return await main();
// === agent_helpers_declared
function fmtMoney(n) {
  return `$${n.toFixed(2)}`;
}
function orderTotal(o) {
  return o.items.reduce((s, i) => s + i.qty * i.price, 0);
}
const orders = await get_orders(1);
return orders.map(o => `${o.id}: ${fmtMoney(orderTotal(o))}`);
// === agent_const_arrow_helpers
const sum = xs => xs.reduce((a, b) => a + b, 0);
const avg = xs => (xs.length ? sum(xs) / xs.length : 0);
const ws = await Promise.all(["Paris", "Tokyo"].map(c => get_weather(c)));
return ws.map(w => ({ city: w.city, avgHigh: avg(w.forecast.map(f => f.high)) }));
// === wrangle_pivot_forecast
const ws = await Promise.all(["Paris", "London", "Tokyo"].map(c => get_weather(c)));
const pivot = {};
for (const w of ws) for (const f of w.forecast) (pivot[f.day] ??= {})[w.city] = f.high;
return pivot;
// === wrangle_invert_object
const rates = { EUR: await get_exchange_rate("USD", "EUR"), GBP: await get_exchange_rate("USD", "GBP") };
return Object.fromEntries(Object.entries(rates).map(([k, v]) => [k, Math.round((1 / v) * 1000) / 1000]));
// === wrangle_pick_fields
const pick = (o, keys) => Object.fromEntries(keys.filter(k => k in o).map(k => [k, o[k]]));
const users = await list_users();
return users.map(u => pick(u, ["id", "email", "nickname"]));
// === wrangle_omit_fields
const u = await get_user(3);
const { tags, manager, signup, ...basic } = u;
return basic;
// === wrangle_rename_keys
const ps = await search_products({ category: "jackets" });
return ps.map(({ id: productId, name: title, price: cost }) => ({ productId, title, cost }));
// === wrangle_index_by_id
const ps = await search_products();
const byId = Object.fromEntries(ps.map(p => [p.id, p]));
return ["p3", "p5", "p9"].map(id => byId[id]?.name ?? null);
// === wrangle_zip_arrays
const names = (await list_users()).map(u => u.name);
const ages = (await list_users()).map(u => u.age);
return names.map((n, i) => [n, ages[i]]);
// === wrangle_partition
const users = await list_users();
const [active, inactive] = users.reduce(([a, b], u) => (u.active ? [[...a, u.id], b] : [a, [...b, u.id]]), [[], []]);
return { active, inactive };
// === wrangle_count_by_fn
const countBy = (xs, f) => xs.reduce((m, x) => { const k = f(x); m[k] = (m[k] || 0) + 1; return m; }, {});
const { tickets } = await list_tickets({ limit: 10 });
return countBy(tickets, t => t.created.slice(0, 7));
// === wrangle_sum_by_category
const ps = await search_products();
const value = {};
for (const p of ps) value[p.category] = Math.round(((value[p.category] ?? 0) + p.price * p.stock) * 100) / 100;
return value;
// === wrangle_flat_depth
const ws = await Promise.all(["Paris", "Tokyo"].map(c => get_weather(c)));
return ws.map(w => w.forecast.map(f => [f.low, f.high])).flat(2);
// === wrangle_array_fill
const slots = new Array(4).fill(0);
const events = await list_events();
for (const e of events) slots[new Date(e.start).getUTCDay() % 4]++;
return slots;
// === wrangle_array_of_keys
const w = await get_weather("Paris");
return Array.from(Object.keys(w), k => k.length);
// === wrangle_entries_of_array
const ids = (await list_users()).map(u => u.id);
const out = [];
for (const [i, id] of ids.entries()) out.push(i * 10 + id);
return out;
// === wrangle_set_intersection
const a = new Set((await get_orders(1)).flatMap(o => o.items.map(i => i.sku)));
const b = new Set((await get_orders(2)).flatMap(o => o.items.map(i => i.sku)));
return [...a].filter(x => b.has(x));
// === wrangle_set_delete
const set = new Set((await list_users()).map(u => u.role));
set.delete("support");
return { roles: [...set], hasAdmin: set.has("admin") };
// === wrangle_map_delete_get
const m = new Map((await list_users()).map(u => [u.id, u.name]));
m.delete(2);
return [m.get(1), m.get(2), m.size, m.has(3)];
// === wrangle_map_sorted_entries
const { tickets } = await list_tickets({ limit: 10 });
const m = new Map();
for (const t of tickets) m.set(t.priority, (m.get(t.priority) ?? 0) + 1);
return [...m].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
// === wrangle_object_groupby
const ps = await search_products();
const g = Object.groupBy(ps, p => p.brand);
return Object.fromEntries(Object.entries(g).map(([k, v]) => [k, v.length]));
// === wrangle_json_roundtrip_string
const cfg = await read_file("/data/config.json");
const parsed = JSON.parse(cfg);
parsed.retries += 2;
return JSON.stringify(parsed);
// === wrangle_string_template_table
const users = await list_users();
const header = `| Name | Age |\n|---|---|`;
return header + "\n" + users.map(u => `| ${u.name} | ${u.age} |`).join("\n");
// === wrangle_number_string_keys
const counts = {};
for (const u of await list_users()) counts[u.age > 50 ? 1 : 0] = (counts[u.age > 50 ? 1 : 0] ?? 0) + 1;
return counts;
// === wrangle_date_weekday
const names = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const events = await list_events();
return events.map(e => names[new Date(e.start).getUTCDay()]);
// === wrangle_date_hours_minutes
const events = await list_events();
return events.map(e => {
  const d = new Date(e.start);
  return `${String(d.getUTCHours()).padStart(2, "0")}:${String(d.getUTCMinutes()).padStart(2, "0")} ${e.title}`;
});
// === wrangle_date_set_days
const d = new Date("2024-05-06T00:00:00Z");
d.setUTCDate(d.getUTCDate() + 7);
return d.toISOString().slice(0, 10);
// === wrangle_date_within_week
const since = new Date("2024-05-01T00:00:00Z").getTime();
const { tickets } = await list_tickets({ limit: 10 });
return tickets.filter(t => new Date(t.created).getTime() >= since).map(t => t.id);
// === wrangle_date_to_json
const u = await get_user(4);
return { iso: new Date(u.signup).toISOString(), ms: new Date(u.signup).valueOf() };
// === wrangle_regex_replace_groups
const events = await list_events();
return events.map(e => e.start.replace(/^(\d{4})-(\d{2})-(\d{2}).*$/, "$3/$2/$1"));
// === wrangle_regex_named_groups
const urls = (await search_web({ query: "python guide", limit: 5 })).map(p => p.url);
return urls.map(u => u.match(/^https:\/\/(?<host>[^/]+)\/(?<path>.*)$/).groups);
// === wrangle_regex_case_insensitive
const pages = await search_web({ query: "async", limit: 5 });
return pages.filter(p => /ASYNC/i.test(p.snippet)).length;
// === wrangle_split_limit
const notes = await read_file("/data/notes.md");
return notes.split("\n").filter(l => l.includes(":")).map(l => l.split(":", 1)[0]);
// === wrangle_replaceall
const t = (await read_file("/data/notes.md")).split("\n")[2];
return t.replaceAll(" ", "_").toLowerCase();
// === wrangle_trim_ends
const raw = ["  a ", "b  ", "  c"];
return raw.map(s => `[${s.trimStart()}|${s.trimEnd()}]`);
// === control_break_on_threshold
const ws = [];
for (const c of ["London", "Paris", "Tokyo"]) {
  const w = await get_weather(c);
  ws.push(w.city);
  if (w.tempC > 18) break;
}
return ws;
// === control_labelled_early_exit
const users = await list_users();
let found = null;
for (const u of users) {
  const orders = await get_orders(u.id);
  if (orders.some(o => o.status === "cancelled")) {
    found = u.name;
    break;
  }
}
return found ?? "nobody";
// === control_try_finally
let log = [];
try {
  const u = await get_user(99);
  log.push(u.name);
} catch (e) {
  log.push("missing");
} finally {
  log.push("done");
}
return log;
// === control_throw_custom
try {
  const ps = await search_products({ max_price: 10 });
  if (ps.length === 0) throw new Error("no products under $10");
  return ps;
} catch (e) {
  return { error: e.message };
}
// === control_validate_input
const args = { city: "Paris", days: 2 };
if (!args.city) throw new Error("city required");
const w = await get_weather(args.city);
return w.forecast.slice(0, args.days).map(f => f.day);
// === control_counter_object
const stats = { ok: 0, failed: 0 };
for (const id of [1, 5, 2, 6]) {
  try {
    await get_user(id);
    stats.ok++;
  } catch {
    stats.failed++;
  }
}
return stats;
// === control_accumulate_errors
const errors = [];
const users = [];
for (const id of [1, 42, 3]) {
  try {
    users.push((await get_user(id)).name);
  } catch (err) {
    errors.push({ id, message: err.message });
  }
}
return { users, errors };
// === concurrency_race_free_parallel
const [u, o, w] = await Promise.all([get_user(1), get_orders(1), get_weather("London")]);
return `${u.name} (${u.city}, ${w.tempC}°C) has ${o.length} orders`;
// === concurrency_map_index
const cities = ["Paris", "London"];
const ws = await Promise.all(cities.map(async (c, i) => ({ rank: i + 1, ...(await get_weather(c)) })));
return ws.map(w => `${w.rank}. ${w.city}`);
// === concurrency_settled_summary
const ids = [1, 2, 77];
const rs = await Promise.allSettled(ids.map(id => get_orders(id).then(os => os.length)));
const fulfilled = rs.filter(r => r.status === "fulfilled");
return { ok: fulfilled.length, total: fulfilled.reduce((s, r) => s + r.value, 0) };
// === concurrency_batch_while
const queue = ["AAPL", "MSFT", "SAP"];
const prices = {};
while (queue.length) {
  const batch = queue.splice(0, 2);
  const qs = await Promise.all(batch.map(s => get_stock_price(s)));
  qs.forEach(q => (prices[q.symbol] = q.price));
}
return prices;
// === output_json_pretty_report
const ts = (await list_tickets({ limit: 10 })).tickets.filter(t => t.priority === "critical");
const summary = { count: ts.length, ids: ts.map(t => t.id) };
console.log(JSON.stringify(summary, null, 2));
return summary;
// === output_markdown_list
const events = await list_events();
return ["## Meetings", "", ...events.map((e, i) => `${i + 1}. **${e.title}** — ${e.location ?? "online"}`)].join("\n");
// === output_tostring_numbers
const ps = await search_products();
return ps.map(p => p.price.toString() + "/" + p.rating.toFixed(1)).join(";");
