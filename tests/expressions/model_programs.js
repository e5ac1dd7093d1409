// Programs in the style models write in "code mode" (JavaScript calling tools), run by
// tests/expressions/test_model_programs.py against Node.js. Each follows a line `// === name`.
// === weather_two_cities
const [paris, london] = await Promise.all([get_weather('Paris'), get_weather('London')]);
const warmer = paris.tempC > london.tempC ? paris.city : london.city;
return {
  warmer,
  difference: Math.abs(paris.tempC - london.tempC).toFixed(1),
  summary: `${paris.city}: ${paris.conditions}, ${london.city}: ${london.conditions}`,
};
// === weather_many_cities_map
const cities = ["Paris", "London", "Tokyo"];
const reports = await Promise.all(cities.map(city => get_weather(city)));
const result = reports.map(r => ({
  city: r.city,
  temp: Math.round(r.tempC),
  rainyDays: r.forecast.filter(d => d.rain > 0.5).length,
}));
result.sort((a, b) => b.temp - a.temp);
return result;
// === weather_try_unknown_city
const cities = ['Paris', 'Atlantis', 'Tokyo'];
const out = {};
for (const city of cities) {
  try {
    const w = await get_weather(city);
    out[city] = `${w.tempC}°C`;
  } catch (err) {
    out[city] = 'unavailable';
  }
}
return out;
// === weather_forecast_avg
const w = await get_weather({ city: "Tokyo" });
const highs = w.forecast.map(d => d.high);
const avgHigh = highs.reduce((a, b) => a + b, 0) / highs.length;
const maxRain = Math.max(...w.forecast.map(d => d.rain));
console.log(`Average high: ${avgHigh}`);
return { avgHigh: Number(avgHigh.toFixed(2)), maxRain, hottest: w.forecast.find(d => d.high === Math.max(...highs)).day };
// === users_active_emails
const users = await list_users();
const active = users.filter(u => u.active);
return active.map(u => u.email).join(', ');
// === users_by_role
const users = await list_users()
const byRole = {}
for (const user of users) {
  if (!byRole[user.role]) byRole[user.role] = []
  byRole[user.role].push(user.name)
}
return byRole
// === users_group_reduce
const users = await list_users();
const counts = users.reduce((acc, u) => {
  acc[u.city] = (acc[u.city] || 0) + 1;
  return acc;
}, {});
return Object.entries(counts).map(([city, n]) => `${city}: ${n}`);
// === user_orders_total
const user = await get_user(1);
const orders = await get_orders(user.id);
let total = 0;
for (const order of orders) {
  for (const item of order.items) {
    total += item.qty * item.price;
  }
}
return { name: user.name, orderCount: orders.length, total: total.toFixed(2) };
// === all_users_order_totals
const users = await list_users();
const rows = await Promise.all(
  users.map(async (u) => {
    const orders = await get_orders(u.id);
    const spent = orders
      .filter((o) => o.status !== "cancelled")
      .flatMap((o) => o.items)
      .reduce((sum, i) => sum + i.qty * i.price, 0);
    return { user: u.name, spent: Math.round(spent * 100) / 100 };
  })
);
return rows.filter((r) => r.spent > 0).sort((a, b) => b.spent - a.spent);
// === user_not_found_catch
async function safeUser(id) {
  try {
    return await get_user(id);
  } catch (e) {
    return null;
  }
}
const ids = [1, 99, 3];
const users = await Promise.all(ids.map(safeUser));
return users.map((u, i) => u ? u.name : `missing #${ids[i]}`);
// === user_error_message
try {
  const u = await get_user(42);
  return u.name;
} catch (error) {
  return { error: error.message };
}
// === manager_optional_chain
const users = await list_users();
return users.map(u => ({ name: u.name, manager: u.manager?.name ?? "none" }));
// === orders_status_counts
const orders = await get_orders(2);
const statuses = orders.map(o => o.status);
const unique = [...new Set(statuses)];
return { unique, shipped: statuses.filter(s => s === 'shipped').length };
// === order_items_skus_set
const [a, b] = await Promise.all([get_orders(1), get_orders(2)]);
const skus = new Set();
for (const o of [...a, ...b]) {
  for (const it of o.items) skus.add(it.sku);
}
return Array.from(skus).sort();
// === orders_latest
const orders = await get_orders(1);
const latest = orders.reduce((best, o) => (new Date(o.createdAt) > new Date(best.createdAt) ? o : best));
return { id: latest.id, when: latest.createdAt.slice(0, 10) };
// === orders_days_between
const orders = await get_orders(2);
const times = orders.map(o => new Date(o.createdAt).getTime());
const days = (Math.max(...times) - Math.min(...times)) / (1000 * 60 * 60 * 24);
return Math.floor(days);
// === order_line_table
const orders = await get_orders(1);
const lines = [];
for (const o of orders) {
  for (const { name, qty, price } of o.items) {
    lines.push(`${o.id.padEnd(6)} ${name.padEnd(10)} ${String(qty).padStart(3)} ${price.toFixed(2).padStart(8)}`);
  }
}
return lines.join('\n');
// === search_titles
const results = await search_web({ query: "python", limit: 5 });
return results.map(r => r.title);
// === search_top_by_score
const results = await search_web("async guide", 5);
const top = [...results].sort((a, b) => b.score - a.score).slice(0, 2);
return top.map(({ title, url }) => ({ title, url }));
// === search_domains
const results = await search_web("python node rust", 5);
const domains = results.map(r => new URL(r.url).hostname);
return [...new Set(domains)];
// === search_multi_query_flat
const queries = ['python', 'rust', 'javascript'];
const all = (await Promise.all(queries.map(q => search_web(q)))).flat();
const seen = new Set();
const unique = all.filter(r => {
  if (seen.has(r.url)) return false;
  seen.add(r.url);
  return true;
});
return unique.length;
// === search_recent_date
const results = await search_web({ query: "python javascript rust node", limit: 10 });
const cutoff = new Date('2024-01-01');
const recent = results.filter(r => new Date(r.published) >= cutoff);
return recent.map(r => `${r.title} (${r.published})`);
// === search_snippet_regex
const results = await search_web('promises asyncio', 5)
const mentions = results.filter(r => /async/i.test(r.snippet)).map(r => r.title)
return { count: mentions.length, mentions }
// === search_empty
const results = await search_web("haskell");
if (results.length === 0) {
  return "No results found.";
}
return results[0].title;
// === search_score_stats
const results = await search_web("python node rust javascript", 10);
const scores = results.map((r) => r.score);
const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
const variance = scores.reduce((a, s) => a + (s - mean) ** 2, 0) / scores.length;
return {
  n: scores.length,
  mean: +mean.toFixed(3),
  std: +Math.sqrt(variance).toFixed(3),
  best: Math.max(...scores),
};
// === events_for_day
const events = await list_events('2024-05-06');
return events.map(e => {
  const start = new Date(e.start);
  const end = new Date(e.end);
  const minutes = (end - start) / 60000;
  return `${e.title}: ${minutes} min`;
});
// === events_busy_hours
const events = await list_events();
let totalMinutes = 0;
for (const ev of events) {
  totalMinutes += (new Date(ev.end).getTime() - new Date(ev.start).getTime()) / 60000;
}
const hours = Math.floor(totalMinutes / 60);
const mins = totalMinutes % 60;
return `${hours}h ${String(mins).padStart(2, '0')}m`;
// === events_attendee_counts
const events = await list_events();
const counts = new Map();
for (const e of events) {
  for (const a of e.attendees) {
    counts.set(a, (counts.get(a) || 0) + 1);
  }
}
return Object.fromEntries([...counts.entries()].sort((x, y) => y[1] - x[1]));
// === events_location_default
const events = await list_events();
return events.map(({ title, location }) => ({ title, where: location ?? 'TBD' }));
// === events_with_user_names
const [events, users] = await Promise.all([list_events("2024-05-06"), list_users()]);
const nameByEmail = Object.fromEntries(users.map(u => [u.email, u.name]));
return events.map(e => ({
  title: e.title,
  people: e.attendees.map(a => nameByEmail[a] || a),
}));
// === events_next_after
const events = await list_events();
const now = new Date("2024-05-06T12:00:00Z");
const upcoming = events.filter(e => new Date(e.start) > now).sort((a, b) => new Date(a.start) - new Date(b.start));
const next = upcoming[0];
return next ? { title: next.title, inHours: (new Date(next.start) - now) / 3600000 } : null;
// === events_weekday
const events = await list_events();
const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
return events.map(e => `${days[new Date(e.start).getUTCDay()]} ${e.start.slice(11, 16)} ${e.title}`);
// === files_sizes
const files = await list_files('/data');
const onlyFiles = files.filter(f => f.type === 'file');
const totalKb = onlyFiles.reduce((s, f) => s + f.size, 0) / 1024;
return {
  count: onlyFiles.length,
  totalKb: totalKb.toFixed(1),
  largest: onlyFiles.reduce((a, b) => (a.size >= b.size ? a : b)).name,
};
// === files_by_extension
const files = await list_files("/data");
const byExt = {};
files.forEach(f => {
  const ext = f.name.includes('.') ? f.name.split('.').pop() : '(none)';
  byExt[ext] = (byExt[ext] ?? 0) + 1;
});
return byExt;
// === csv_parse_sum
const text = await read_file('/data/sales.csv');
const [header, ...rows] = text.trim().split('\n');
const cols = header.split(',');
const records = rows.map(line => {
  const values = line.split(',');
  return Object.fromEntries(cols.map((c, i) => [c, values[i]]));
});
const revenue = records.reduce((sum, r) => sum + Number(r.units) * parseFloat(r.price), 0);
return { rows: records.length, revenue };
// === csv_group_by_region
const csv = await read_file("/data/sales.csv");
const lines = csv.split("\n").filter(l => l.trim() !== "");
const totals = {};
for (const line of lines.slice(1)) {
  const [region, product, units, price] = line.split(",");
  totals[region] = (totals[region] || 0) + parseInt(units, 10) * Number(price);
}
return Object.entries(totals)
  .sort(([, a], [, b]) => b - a)
  .map(([region, total]) => ({ region, total }));
// === json_config_parse
const raw = await read_file('/data/config.json');
const config = JSON.parse(raw);
return {
  retries: config.retries,
  hosts: Object.values(config.endpoints).map(u => new URL(u).host),
  hasExport: config.features.includes('export'),
  debug: config.debug ?? false,
};
// === notes_todos
const notes = await read_file('/data/notes.md');
const todos = notes.split('\n').filter(l => l.startsWith('TODO:')).map(l => l.replace('TODO:', '').trim());
return todos;
// === notes_emails_regex
const notes = await read_file('/data/notes.md');
const emails = notes.match(/[\w.+-]+@[\w-]+\.[\w.]+/g) || [];
return emails;
// === read_missing_file
let content;
try {
  content = await read_file('/data/missing.txt');
} catch (e) {
  content = '';
}
return content.length;
// === files_read_all
const files = await list_files('/data');
const texts = await Promise.all(
  files.filter(f => f.type === 'file').map(f => read_file(`/data/${f.name}`))
);
return texts.map(t => t.split('\n').length);
// === stock_portfolio_value
const holdings = { AAPL: 10, MSFT: 5, SAP: 8 };
const quotes = await Promise.all(Object.keys(holdings).map(s => get_stock_price(s)));
let value = 0;
for (const q of quotes) {
  value += q.price * holdings[q.symbol];
}
return Math.round(value * 100) / 100;
// === stock_in_usd
const quote = await get_stock_price('SAP');
const rate = await get_exchange_rate('EUR', 'USD');
const usd = quote.price * rate;
return `${quote.symbol}: ${quote.price} ${quote.currency} = $${usd.toFixed(2)}`;
// === stock_gainers
const symbols = ["AAPL", "MSFT", "SAP"];
const quotes = await Promise.all(symbols.map(get_stock_price));
const gainers = quotes.filter(q => q.change_pct > 0).map(q => q.symbol);
const losers = quotes.filter(q => q.change_pct < 0).map(q => q.symbol);
return { gainers, losers, allUp: quotes.every(q => q.change_pct > 0), anyDown: quotes.some(q => q.change_pct < 0) };
// === stock_unknown_symbol
const symbols = ['AAPL', 'XXXX'];
const results = [];
for (const s of symbols) {
  try {
    const q = await get_stock_price(s);
    results.push({ symbol: s, price: q.price });
  } catch (e) {
    results.push({ symbol: s, error: e.message });
  }
}
return results;
// === stock_locale_string
const q = await get_stock_price('MSFT');
const shares = 1250;
return `Position: ${(q.price * shares).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} USD`;
// === fx_table
const currencies = ['EUR', 'GBP', 'JPY'];
const rates = await Promise.all(currencies.map(c => get_exchange_rate('USD', c)));
return Object.fromEntries(currencies.map((c, i) => [c, rates[i]]));
// === fx_convert_amounts
const amounts = [100, 250.5, 1000];
const rate = await get_exchange_rate({ base: 'USD', target: 'GBP' });
return amounts.map(a => `$${a} = £${(a * rate).toFixed(2)}`);
// === products_cheapest_in_stock
const products = await search_products({ category: 'shoes' });
const inStock = products.filter(p => p.stock > 0);
if (!inStock.length) return null;
const cheapest = inStock.reduce((min, p) => (p.price < min.price ? p : min), inStock[0]);
return `${cheapest.name} at $${cheapest.price}`;
// === products_by_brand
const products = await search_products();
const brands = {};
for (const p of products) {
  brands[p.brand] ??= { count: 0, total: 0 };
  brands[p.brand].count += 1;
  brands[p.brand].total += p.price;
}
return brands;
// === products_budget_filter
const budget = 200;
const items = await search_products({ max_price: budget });
return items
  .filter(p => p.rating >= 4.5)
  .map(p => ({ ...p, discounted: +(p.price * 0.9).toFixed(2) }))
  .map(({ id, name, discounted }) => ({ id, name, discounted }));
// === products_categories_avg
const products = await search_products();
const cats = [...new Set(products.map(p => p.category))];
const averages = cats.map(c => {
  const inCat = products.filter(p => p.category === c);
  const avg = inCat.reduce((s, p) => s + p.rating, 0) / inCat.length;
  return [c, Math.round(avg * 10) / 10];
});
return Object.fromEntries(averages);
// === products_restock_email
const products = await search_products();
const low = products.filter(p => p.stock < 5);
const body = low.map(p => `- ${p.name} (${p.stock} left)`).join('\n');
const receipt = await send_email('ops@example.com', `Restock needed: ${low.length} items`, body);
return { sent: receipt.status === 'queued', items: low.map(p => p.id) };
// === email_each_active_user
const users = await list_users();
const sent = [];
for (const u of users.filter(u => u.active)) {
  const r = await send_email({ to: u.email, subject: 'Hello', body: `Hi ${u.name.split(' ')[0]}!` });
  sent.push(r.id);
}
return sent;
// === function_helper_format
function formatPrice(amount, currency = 'USD') {
  const symbol = currency === 'USD' ? '$' : currency === 'EUR' ? '€' : currency + ' ';
  return `${symbol}${amount.toFixed(2)}`;
}
const quotes = await Promise.all(['AAPL', 'SAP'].map(s => get_stock_price(s)));
return quotes.map(q => formatPrice(q.price, q.currency));
// === arrow_helper_initials
const initials = (name) => name.split(' ').map(p => p[0]).join('').toUpperCase();
const users = await list_users();
return users.map(u => initials(u.name));
// === main_wrapper
async function main() {
  const users = await list_users();
  const admins = users.filter(u => u.role === 'admin');
  return { admins: admins.map(a => a.name), total: users.length };
}
return main();
// === async_iife_wrapper
return (async () => {
  const w = await get_weather('London');
  return w.humidity > 80 ? 'humid' : 'ok';
})();
// === whole_arrow_program
async () => {
  const events = await list_events('2024-05-07');
  return events.length;
}
// === early_return_guard
const user = await get_user(3);
if (!user.active) {
  return { status: 'inactive', name: user.name };
}
const orders = await get_orders(user.id);
return { status: 'active', orders: orders.length };
// === let_accumulator_string
let report = '';
const users = await list_users();
for (const u of users) {
  report += `${u.name} <${u.email}>\n`;
}
return report.trim();
// === for_index_loop
const users = await list_users();
const lines = [];
for (let i = 0; i < users.length; i++) {
  lines.push(`${i + 1}. ${users[i].name}`);
}
return lines;
// === counters_let
const orders = await get_orders(1);
let items = 0, units = 0;
for (const o of orders) {
  items += o.items.length;
  for (const it of o.items) units += it.qty;
}
return { items, units };
// === object_keys_values
const w = await get_weather("Paris");
const keys = Object.keys(w);
const numeric = Object.entries(w).filter(([k, v]) => typeof v === 'number').map(([k]) => k);
return { keys, numeric };
// === json_stringify_pretty
const user = await get_user(2);
const { id, name, email } = user;
return JSON.stringify({ id, name, email }, null, 2);
// === destructure_rename_default
const { tempC: temperature, conditions, uv = 'n/a' } = await get_weather('Tokyo');
return `${conditions}, ${temperature}°C, UV ${uv}`;
// === nested_destructure
const { forecast: [first, second] } = await get_weather('Paris');
return { first: first.day, second: second.day, delta: second.high - first.high };
// === spread_merge_objects
const user = await get_user(1);
const extra = { lastLogin: '2024-05-01', role: 'owner' };
const merged = { ...user, ...extra };
return { role: merged.role, lastLogin: merged.lastLogin, keys: Object.keys(merged).length };
// === ternary_chain_labels
const w = await get_weather('London');
const label = w.tempC > 25 ? 'hot' : w.tempC > 15 ? 'mild' : w.tempC > 5 ? 'cool' : 'cold';
const wind = w.wind_kph >= 20 ? 'windy' : 'calm';
return `${label} and ${wind}`;
// === switch_status
const orders = await get_orders(1);
return orders.map(o => {
  switch (o.status) {
    case 'shipped':
      return `${o.id} is on its way`;
    case 'pending':
      return `${o.id} is being prepared`;
    default:
      return `${o.id}: ${o.status}`;
  }
});
// === regex_replace_names
const users = await list_users();
return users.map(u => u.email.replace(/@example\.com$/, '@corp.example'));
// === regex_capture_groups
const events = await list_events();
return events.map(e => {
  const m = e.start.match(/^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/);
  return m ? `${m[3]}/${m[2]} ${m[4]}h${m[5]}` : null;
});
// === date_add_days
const user = await get_user(4);
const signup = new Date(user.signup);
const trialEnd = new Date(signup.getTime() + 14 * 24 * 60 * 60 * 1000);
return trialEnd.toISOString().split('T')[0];
// === date_age_in_days
const users = await list_users();
const ref = Date.parse('2024-06-01T00:00:00Z');
return users.map(u => ({ name: u.name, days: Math.floor((ref - Date.parse(u.signup)) / 86400000) }));
// === date_month_names
const orders = await get_orders(1);
const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
return orders.map(o => { const d = new Date(o.createdAt); return `${months[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`; });
// === math_rounding
const q = await get_stock_price('AAPL');
return {
  floor: Math.floor(q.price),
  ceil: Math.ceil(q.price),
  round: Math.round(q.price),
  trunc: Math.trunc(q.change_pct),
  pct: `${(q.change_pct).toFixed(1)}%`,
  abs: Math.abs(q.change_pct),
};
// === flatmap_tags
const users = await list_users();
const tags = users.flatMap(u => u.tags);
const freq = {};
tags.forEach(t => { freq[t] = (freq[t] || 0) + 1; });
return Object.keys(freq).sort((a, b) => freq[b] - freq[a] || a.localeCompare(b));
// === some_every_find
const users = await list_users();
return {
  anyInactive: users.some(u => !u.active),
  allHaveEmail: users.every(u => u.email.includes('@')),
  firstEngineer: users.find(u => u.role === 'engineer')?.name,
  idx: users.findIndex(u => u.city === 'Portland'),
};
// === map_lookup_by_id
const [users, orders1, orders2] = await Promise.all([list_users(), get_orders(1), get_orders(2)]);
const byId = new Map(users.map(u => [u.id, u]));
return [...orders1, ...orders2].map(o => `${o.id} -> ${byId.get(o.userId).name}`);
// === promise_all_object
const [weather, events, quote] = await Promise.all([
  get_weather('Paris'),
  list_events('2024-05-06'),
  get_stock_price('AAPL'),
]);
return {
  briefing: `Paris ${Math.round(weather.tempC)}°C; ${events.length} meetings; AAPL ${quote.price}`,
};
// === console_log_steps
console.log("Fetching users...");
const users = await list_users();
console.log(`Got ${users.length} users`);
const names = users.map(u => u.name);
console.log(names);
return names.length;
// === comments_everywhere
// Step 1: get the products
const products = await search_products({ category: 'jackets' }); // jackets only
/* Step 2: pick the best rated */
const best = products.sort((a, b) => b.rating - a.rating)[0];
// Step 3: report
return { best: best.name, rating: best.rating };
// === no_semicolons_style
const users = await list_users()
const engineers = users.filter(u => u.role === 'engineer')
const avgAge = engineers.reduce((s, u) => s + u.age, 0) / engineers.length
return { engineers: engineers.length, avgAge }
// === let_reassigned_max
const products = await search_products();
let best = null;
for (const p of products) {
  if (best === null || p.rating > best.rating) {
    best = p;
  }
}
return best.name;
// === while_pagination_like
const all = await search_products();
const pageSize = 2;
const pages = [];
let i = 0;
while (i < all.length) {
  pages.push(all.slice(i, i + pageSize).map(p => p.id));
  i += pageSize;
}
return pages;
// === entries_for_of
const w = await get_weather('Tokyo');
const parts = [];
for (const [key, value] of Object.entries(w)) {
  if (typeof value !== 'object') parts.push(`${key}=${value}`);
}
return parts.join('&');
// === json_roundtrip_clone
const user = await get_user(2);
const copy = JSON.parse(JSON.stringify(user));
copy.name = copy.name.toUpperCase();
return [user.name, copy.name];
// === template_multiline
const w = await get_weather('Paris');
const text = `Weather report
City: ${w.city}
Now: ${w.tempC}°C (${w.conditions})
Humidity: ${w.humidity}%`;
return text;
// === number_parsing
const csv = await read_file('/data/sales.csv');
const units = csv.split('\n').slice(1).filter(Boolean).map(l => Number(l.split(',')[2]));
return { units, total: units.reduce((a, b) => a + b), max: Math.max(...units), min: Math.min(...units) };
// === includes_filter_chain
const events = await list_events();
const mine = events.filter(e => e.attendees.includes('grace@example.com')).map(e => e.title);
return mine.length ? mine : ['nothing'];
// === sort_copy_localecompare
const users = await list_users();
const sorted = [...users].sort((a, b) => a.city.localeCompare(b.city));
return sorted.map(u => u.city);
// === reduce_to_object_spread
const products = await search_products();
return products.reduce((acc, p) => ({ ...acc, [p.id]: p.price }), {});
// === chained_optional_calls
const users = await list_users();
const u = users.find(x => x.id === 4);
return u?.manager?.name?.toUpperCase() ?? 'NONE';
// === nullish_defaults_args
const events = await list_events();
return events.map(e => (e.location ?? 'remote').toLowerCase());
// === compose_user_weather
const user = await get_user(2);
let weather;
try {
  weather = await get_weather(user.city);
} catch {
  weather = null;
}
return { name: user.name, city: user.city, weather: weather ? weather.conditions : 'unknown' };
// === top_level_object_return
const [users, events] = await Promise.all([list_users(), list_events()]);
return {
  userCount: users.length,
  eventCount: events.length,
  ratio: (events.length / users.length).toFixed(2),
  generatedFor: users.filter(u => u.role === 'admin').map(u => u.name)[0],
};
// === string_methods_mix
const results = await search_web('python', 5);
return results.map(r => ({
  slug: r.title.toLowerCase().replace(/\s+/g, '-'),
  short: r.snippet.length > 20 ? r.snippet.slice(0, 20) + '…' : r.snippet,
  upper: r.title.toUpperCase().startsWith('PYTHON'),
}));
// === object_from_entries_filter
const w = await get_weather('London');
const { forecast, ...current } = w;
return Object.fromEntries(Object.entries(current).filter(([, v]) => typeof v === 'number'));
// === let_total_if_else
const orders = await get_orders(1);
let shipped = 0;
let pending = 0;
for (const o of orders) {
  if (o.status === 'shipped') {
    shipped++;
  } else if (o.status === 'pending') {
    pending++;
  }
}
return `shipped: ${shipped}, pending: ${pending}`;
// === array_join_csv_out
const products = await search_products({ category: 'jackets' });
const header = 'id,name,price';
const rows = products.map(p => [p.id, p.name, p.price].join(','));
return [header, ...rows].join('\n');
// === then_chain
const names = await list_users().then(users => users.map(u => u.name.split(' ')[0]));
return names;
// === pop_extension_map
const files = await list_files('/data');
return files.map(f => ({ name: f.name, ext: f.name.split('.').pop() }));
// === groupby_push_reduce
const users = await list_users();
const grouped = users.reduce((acc, u) => {
  (acc[u.role] = acc[u.role] || []).push(u.name);
  return acc;
}, {});
return grouped;
// === groupby_push_reduce_if
const products = await search_products();
const byCat = products.reduce((groups, p) => {
  if (!groups[p.category]) {
    groups[p.category] = [];
  }
  groups[p.category].push(p.name);
  return groups;
}, {});
return byCat;
// === object_groupby
const products = await search_products();
const groups = Object.groupBy(products, p => p.brand);
return Object.fromEntries(Object.entries(groups).map(([k, v]) => [k, v.length]));
// === tool_passed_to_map
const cities = ['Paris', 'Tokyo'];
const reports = await Promise.all(cities.map(get_weather));
return reports.map(r => r.conditions);
// === for_await_style
const ids = [1, 2];
const names = [];
for (const id of ids) {
  const { name } = await get_user(id);
  names.push(name);
}
return names.join(' & ');
// === intl_number_format
const q = await get_stock_price('MSFT');
const fmt = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
return fmt.format(q.price * 100);
// === to_locale_string_plain
const products = await search_products();
const total = products.reduce((s, p) => s + p.price * p.stock, 0);
return total.toLocaleString();
// === error_in_template
try {
  await get_weather('Nowhere');
} catch (e) {
  return `Failed: ${e.message}`;
}
// === promise_allsettled_status
const results = await Promise.allSettled([get_user(1), get_user(77), get_user(2)]);
return results.map(r => r.status === 'fulfilled' ? r.value.name : r.reason.message);
// === array_at_last
const events = await list_events();
const last = events.at(-1);
return { first: events[0].title, last: last.title };
// === structured_clone_change
const w = await get_weather('Paris');
const copy = structuredClone(w);
copy.tempC = Math.round(copy.tempC);
return [w.tempC, copy.tempC];
// === nested_object_counters
const orders = [...await get_orders(1), ...await get_orders(2)];
const stats = { total: 0, byStatus: {} };
for (const o of orders) {
  stats.total += 1;
  stats.byStatus[o.status] = (stats.byStatus[o.status] || 0) + 1;
}
return stats;
// === array_includes_set_diff
const [a, b] = await Promise.all([get_orders(1), get_orders(2)]);
const skusA = new Set(a.flatMap(o => o.items.map(i => i.sku)));
const skusB = new Set(b.flatMap(o => o.items.map(i => i.sku)));
const both = [...skusA].filter(s => skusB.has(s));
const onlyA = [...skusA].filter(s => !skusB.has(s));
return { both, onlyA };
// === find_throw_if_missing
const users = await list_users();
const grace = users.find(u => u.name.startsWith('Grace'));
if (!grace) throw new Error('Grace not found');
return grace.email;
// === date_to_iso_and_locale
const event = (await list_events('2024-05-08'))[0];
const d = new Date(event.start);
return { iso: d.toISOString(), date: d.toISOString().slice(0, 10), hour: d.getUTCHours() };
// === date_local_getters
const e = (await list_events())[1];
const d = new Date(e.start);
return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')} ${d.getHours()}:${String(d.getMinutes()).padStart(2, '0')}`;
// === to_locale_date
const e = (await list_events())[0];
return new Date(e.start).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
// === sum_helper_function
function sum(arr) {
  return arr.reduce((a, b) => a + b, 0);
}
const orders = await get_orders(2);
return orders.map(o => sum(o.items.map(i => i.price * i.qty)).toFixed(2));
// === let_array_reassigned
let results = await search_products();
results = results.filter(p => p.stock > 0);
results = results.sort((a, b) => a.price - b.price);
return results.map(p => p.name);
// === conditional_push_object
const users = await list_users();
const report = [];
for (const u of users) {
  const entry = { name: u.name };
  if (u.manager) entry.manager = u.manager.name;
  report.push(entry);
}
return report;
// === object_assign_result
const user = await get_user(3);
const result = Object.assign({}, { id: user.id }, { name: user.name, status: user.active ? 'active' : 'inactive' });
return result;
// === json_stringify_array
const products = await search_products({ category: 'accessories' });
return JSON.stringify(products.map(p => p.name));
// === string_split_words_count
const notes = await read_file('/data/notes.md');
const words = notes.toLowerCase().match(/[a-z]+/g);
const freq = {};
for (const w of words) freq[w] = (freq[w] || 0) + 1;
return Object.entries(freq).filter(([, n]) => n > 1).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
// === number_to_fixed_percent
const results = await search_web('python javascript', 5);
return results.map(r => `${r.title}: ${(r.score * 100).toFixed(0)}%`);
// === map_entries_loop
const events = await list_events();
const byDay = new Map();
for (const e of events) {
  const day = e.start.slice(0, 10);
  byDay.set(day, [...(byDay.get(day) ?? []), e.title]);
}
const out = [];
for (const [day, titles] of byDay) {
  out.push(`${day}: ${titles.join(', ')}`);
}
return out;
// === index_of_and_substring
const cfg = await read_file('/data/config.json');
const start = cfg.indexOf('"retries"');
return cfg.substring(start, start + 12);
// === array_every_empty
const files = await list_files('/data');
const dirs = files.filter(f => f.type === 'dir');
return { dirs: dirs.map(d => d.name), allEmpty: dirs.every(d => d.size === 0) };
// === math_max_by_key
const w = await get_weather('London');
const wettest = w.forecast.reduce((a, b) => (b.rain > a.rain ? b : a));
return `${wettest.day} (${Math.round(wettest.rain * 100)}% chance)`;
// === parse_float_sum_prices
const products = await search_products();
const total = products.map(p => parseFloat(p.price.toFixed(2))).reduce((a, b) => a + b, 0);
return Number(total.toFixed(2));
// === string_pad_table
const quotes = await Promise.all(['AAPL', 'MSFT', 'SAP'].map(s => get_stock_price(s)));
const header = 'SYMBOL'.padEnd(8) + 'PRICE'.padStart(10);
const rows = quotes.map(q => q.symbol.padEnd(8) + q.price.toFixed(2).padStart(10));
return [header, ...rows].join('\n');
// === keys_length_check
const cfg = JSON.parse(await read_file('/data/config.json'));
return Object.keys(cfg.endpoints).length > 1 ? Object.keys(cfg.endpoints) : 'single';
// === exponent_and_modulo
const orders = await get_orders(1);
const n = orders.length;
return { squared: n ** 2, even: n % 2 === 0, half: Math.floor(n / 2) };
// === let_string_conditional_append
const w = await get_weather('Tokyo');
let msg = `It is ${w.tempC}°C in ${w.city}.`;
if (w.humidity > 50) msg += ' Humid.';
if (w.wind_kph < 10) msg += ' Little wind.';
return msg;
// === break_in_loop
const products = await search_products();
let found = null;
for (const p of products) {
  if (p.brand === 'Nord') {
    found = p.name;
    break;
  }
}
return found;
// === continue_in_loop
const users = await list_users();
const names = [];
for (const u of users) {
  if (!u.active) continue;
  if (u.tags.length === 0) continue;
  names.push(u.name);
}
return names;
// === sort_numeric_desc_slice
const products = await search_products();
const top3 = products.map(p => p.rating).sort((a, b) => b - a).slice(0, 3);
return top3;
// === object_entries_map_format
const rates = { EUR: await get_exchange_rate('USD', 'EUR'), GBP: await get_exchange_rate('USD', 'GBP') };
return Object.entries(rates).map(([cur, r]) => `1 USD = ${r} ${cur}`).join('; ');
// === string_error_catch
try {
  const f = await read_file('/nope');
  return f;
} catch (err) {
  console.error('read failed', err);
  return 'fallback';
}
// === mutate_items_for_of
const users = await list_users();
for (const u of users) {
  u.displayName = u.name.toUpperCase();
}
return users.map(u => u.displayName);
// === mutate_items_foreach
const products = await search_products();
products.forEach(p => {
  p.priceWithTax = Math.round(p.price * 1.2 * 100) / 100;
});
return products.map(({ id, priceWithTax }) => ({ id, priceWithTax }));
// === sort_in_place_then_read
const products = await search_products();
products.sort((a, b) => a.price - b.price);
return { cheapest: products[0].name, priciest: products[products.length - 1].name };
// === shared_reference_alias
const user = await get_user(1);
const alias = user;
alias.name = 'Changed';
return user.name;
// === delete_key
const user = await get_user(2);
delete user.manager;
delete user.tags;
return Object.keys(user);
// === to_fixed_rounding
const prices = [1.005, 2.345, 0.615, 10.235];
return prices.map(p => p.toFixed(2));
// === math_round_negative
const q = await get_stock_price('AAPL');
return [Math.round(q.change_pct), Math.round(-2.5), Math.round(2.5), Math.round(-0.5 + 0.2)];
// === default_sort_numbers
const products = await search_products();
return products.map(p => p.stock).sort();
// === string_compare_sort
const ids = ['o-10', 'o-9', 'o-100', 'o-1'];
return [...ids].sort();
// === integer_keys_order
const byId = {};
const users = await list_users();
for (const u of users.slice().reverse()) byId[u.id] = u.name;
return Object.keys(byId);
// === json_stringify_undefined
const user = await get_user(4);
return JSON.stringify({ name: user.name, nickname: undefined, manager: user.manager?.name, extra: null });
// === reduce_empty_no_init
const events = await list_events('2030-01-01');
try {
  return events.map(e => e.title).reduce((a, b) => a + ', ' + b);
} catch (e) {
  return 'no events';
}
// === loose_equality
const user = await get_user(1);
return [user.id == '1', user.manager == undefined, user.age === '36', 0 == '', null == 0];
// === post_increment_in_expression
const users = await list_users();
let n = 0;
const numbered = users.map(u => `${++n}. ${u.name}`);
return { numbered, n };
// === closure_counter
const users = await list_users();
let count = 0;
users.forEach(u => { if (u.active) count++; });
return count;
// === length_zero_reset
const events = await list_events();
let batch = [];
const batches = [];
for (const e of events) {
  batch.push(e.id);
  if (batch.length === 2) {
    batches.push(batch);
    batch = [];
  }
}
if (batch.length) batches.push(batch);
return batches;
// === number_string_concat
const orders = await get_orders(1);
return orders.map(o => o.items.length + ' items: ' + o.items.map(i => i.qty + i.price).join('/'));
// === string_number_plus
const w = await get_weather('Paris');
return '' + w.tempC + w.humidity + ' / ' + (w.tempC + w.humidity);
// === array_in_template (difference: `${array}` is compact JSON)
const users = await list_users();
const tags = users[0].tags;
return `Tags: ${tags}`;
// === object_in_template (difference: `${object}` is compact JSON)
const u = await get_user(2);
return `Manager: ${u.manager}`;
// === for_in_object
const w = await get_weather('Tokyo');
const keys = [];
for (const k in w) {
  if (k !== 'forecast') keys.push(k);
}
return keys;
// === for_in_array
const files = await list_files('/data');
const idx = [];
for (const i in files) idx.push(i);
return idx;
// === nested_ternary_in_map_with_index
const results = await search_web('python javascript node rust', 10);
return results.map((r, i) => i === 0 ? `★ ${r.title}` : i < 3 ? `• ${r.title}` : r.title);
// === array_destructure_swap
let [a, b] = await Promise.all([get_exchange_rate('USD', 'EUR'), get_exchange_rate('USD', 'GBP')]);
if (a > b) [a, b] = [b, a];
return { low: a, high: b };
// === includes_on_string_and_array
const cfg = await read_file('/data/config.json');
return [cfg.includes('retries'), JSON.parse(cfg).features.includes('search'), 'export'.includes('')];
// === number_is_integer_filter
const products = await search_products();
return products.filter(p => Number.isInteger(p.price)).map(p => p.id);
// === math_min_empty
const products = await search_products({ category: 'hats' });
const cheapest = Math.min(...products.map(p => p.price));
return cheapest === Infinity ? 'none' : cheapest;
// === parse_int_leading
const notes = await read_file('/data/notes.md');
return notes.split('\n').map(l => parseInt(l)).filter(n => !isNaN(n));
// === string_split_limit_and_trim
const csv = await read_file('/data/sales.csv');
return csv.split('\n', 2).map(l => l.split(',').map(c => c.trim().toUpperCase()));
// === sort_by_two_keys
const users = await list_users();
return users
  .slice()
  .sort((a, b) => (a.role === b.role ? a.age - b.age : a.role < b.role ? -1 : 1))
  .map(u => `${u.role}:${u.age}`);
// === unique_by_key_map
const orders = [...(await get_orders(1)), ...(await get_orders(2))];
const items = orders.flatMap(o => o.items);
const unique = [...new Map(items.map(i => [i.sku, i])).values()];
return unique.map(i => i.name);
// === last_element_length_minus_one
const results = await search_web('python', 5);
return results[results.length - 1].url;
// === percent_change_calc
const before = await get_stock_price('MSFT');
const after = { ...before, price: before.price * (1 + before.change_pct / 100) };
return ((after.price - before.price) / before.price * 100).toFixed(2) + '%';
// === object_values_sum
const counts = { a: 3, b: 4, c: 5 };
const w = await get_weather('London');
counts.d = w.humidity;
return Object.values(counts).reduce((s, n) => s + n, 0);
// === async_helper_with_retry
async function fetchWeather(city, retries = 2) {
  for (let attempt = 0; attempt <= retries; attempt++) {
    try {
      return await get_weather(city);
    } catch (e) {
      if (attempt === retries) throw e;
    }
  }
}
try {
  const w = await fetchWeather('Gotham');
  return w.tempC;
} catch (e) {
  return `gave up: ${e.message}`;
}
// === array_fill_map_index
const days = Array.from({ length: 3 }, (_, i) => `2024-05-0${i + 6}`);
const perDay = await Promise.all(days.map(d => list_events(d)));
return days.map((d, i) => `${d}: ${perDay[i].length}`);
// === string_repeat_bar_chart
const w = await get_weather('Tokyo');
return w.forecast.map(d => `${d.day} ${'#'.repeat(Math.round(d.high / 5))} ${d.high}`).join('\n');
// === date_diff_hours_minutes
const [e] = await list_events('2024-05-08');
const ms = new Date(e.end) - new Date(e.start);
const h = Math.floor(ms / 3600000);
const m = Math.floor((ms % 3600000) / 60000);
return `${h}:${m.toString().padStart(2, '0')}`;
// === number_toString_radix
const users = await list_users();
return users.map(u => u.id.toString(2).padStart(4, '0'));
// === ternary_null_vs_undefined
const users = await list_users();
return users.map(u => u.manager === null ? 'top' : u.manager === undefined ? 'unknown' : u.manager.id);
// === recursive_helper_flatten
function flatten(value, prefix = '') {
  return Object.entries(value).flatMap(([k, v]) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? flatten(v, `${prefix}${k}.`)
      : [[`${prefix}${k}`, v]]
  );
}
const cfg = JSON.parse(await read_file('/data/config.json'));
return Object.fromEntries(flatten(cfg));
// === replace_all_and_trim
const notes = await read_file('/data/notes.md');
return notes.replaceAll('TODO:', '[ ]').replaceAll('DONE:', '[x]').trimEnd().split('\n').slice(2);
// === split_regex_separator
const line = 'alpha ,beta,  gamma , delta';
const parts = line.split(/\s*,\s*/);
const results = await Promise.all(parts.map(p => search_web(p)));
return parts.map((p, i) => `${p}:${results[i].length}`);
// === locale_compare_numeric
const names = ['file10.txt', 'file2.txt', 'File1.txt', 'file1.txt'];
return [...names].sort((a, b) => a.localeCompare(b, undefined, { numeric: true, sensitivity: 'base' }));
// === to_precision_and_exponent
const q = await get_stock_price('MSFT');
return [q.price.toPrecision(3), (q.price * 1e6).toExponential(2), (0.000123).toFixed(5), (1234.5678).toFixed(0)];
// === modulo_negative
const w = await get_weather('London');
return [-7 % 3, w.wind_kph % 5, ((-7 % 3) + 3) % 3, 7.5 % 2];
// === date_only_parse
const d = new Date('2024-05-06');
return [d.getUTCDay(), d.toISOString(), d.getTime()];
// === date_set_hours_copy
const e = (await list_events())[0];
const start = new Date(e.start);
const reminder = new Date(start.getTime() - 15 * 60 * 1000);
return reminder.toISOString();
// === intl_compact
const total = (await search_products()).reduce((s, p) => s + p.price * p.stock, 0);
return new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 }).format(total);
// === number_with_commas_regex
const total = (await search_products()).reduce((s, p) => s + p.price * p.stock * 100, 0);
return Math.round(total).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
// === switch_fallthrough
const users = await list_users();
return users.map(u => {
  let level;
  switch (u.role) {
    case 'admin':
    case 'owner':
      level = 3;
      break;
    case 'engineer':
      level = 2;
      break;
    default:
      level = 1;
  }
  return level;
});
// === do_while_loop
const all = await search_products();
let i = 0;
let sum = 0;
do {
  sum += all[i].price;
  i++;
} while (sum < 300 && i < all.length);
return { i, sum };
// === labeled_break
const events = await list_events();
let found = null;
outer: for (const e of events) {
  for (const a of e.attendees) {
    if (a.startsWith('grace')) {
      found = e.id;
      break outer;
    }
  }
}
return found;
// === default_param_from_earlier
const fmt = (n, digits = 2, suffix = digits > 1 ? '' : '!') => n.toFixed(digits) + suffix;
const q = await get_stock_price('AAPL');
return [fmt(q.price), fmt(q.price, 1), fmt(q.price, 0)];
// === rest_params_helper
function sumAll(...nums) {
  return nums.reduce((a, b) => a + b, 0);
}
const [a, b, c] = await Promise.all(['AAPL', 'MSFT', 'SAP'].map(s => get_stock_price(s)));
return sumAll(a.price, b.price, c.price).toFixed(2);
// === array_from_set_sort
const users = await list_users();
return Array.from(new Set(users.flatMap(u => u.tags))).sort().reverse();
// === object_entries_of_array
const files = await list_files('/data');
return Object.entries(files.map(f => f.name)).map(([i, n]) => `${i}:${n}`);
// === string_raw_and_escape
const notes = await read_file('/data/notes.md');
return { lines: notes.split('\n').length, hasTab: notes.includes('\t'), quoted: JSON.stringify(notes.split('\n')[0]) };
// === number_isnan_guard
const csv = await read_file('/data/sales.csv');
const values = csv.trim().split('\n').map(l => Number(l.split(',')[3]));
return values.filter(v => !Number.isNaN(v));
// === boolean_coercion_filter
const events = await list_events();
return events.map(e => e.location).filter(Boolean);
// === chained_array_methods_long
const orders = [...await get_orders(1), ...await get_orders(2), ...await get_orders(3)];
return orders
  .filter(o => o.status !== 'cancelled')
  .flatMap(o => o.items.map(i => ({ ...i, order: o.id })))
  .sort((a, b) => b.price * b.qty - a.price * a.qty)
  .slice(0, 3)
  .map(i => `${i.order}/${i.sku}: ${(i.price * i.qty).toFixed(2)}`);
// === while_with_index_search
const results = await search_web('python javascript rust node', 10);
let idx = 0;
while (idx < results.length && results[idx].score < 0.8) {
  idx++;
}
return idx < results.length ? results[idx].title : 'none';
// === nested_map_objects
const events = await list_events();
const users = await list_users();
const byEmail = new Map(users.map(u => [u.email, u]));
return events.map(e => ({
  id: e.id,
  roles: [...new Set(e.attendees.map(a => byEmail.get(a)?.role ?? 'guest'))].sort(),
}));
// === ternary_with_await
const user = await get_user(3);
const orders = user.active ? await get_orders(user.id) : [];
return orders.length;
// === conditional_await_in_if
let weather = null;
const user = await get_user(1);
if (user.city) {
  weather = await get_weather(user.city);
}
return weather ? `${user.name}: ${weather.conditions}` : user.name;
// === promise_all_entries_object
const symbols = ['AAPL', 'MSFT'];
const entries = await Promise.all(symbols.map(async s => [s, (await get_stock_price(s)).price]));
return Object.fromEntries(entries);
// === async_arrow_helper
const priceOf = async (symbol) => {
  const q = await get_stock_price(symbol);
  return q.price;
};
const a = await priceOf('AAPL');
const m = await priceOf('MSFT');
return { ratio: +(m / a).toFixed(4) };
// === string_char_ops
const users = await list_users();
return users.map(u => u.name.charAt(0) + u.name.slice(1).toLowerCase().split('').reverse().join('').slice(0, 3) + u.name.charCodeAt(0));
// === math_misc
const w = await get_weather('Tokyo');
return [Math.hypot(3, 4), Math.sign(-w.tempC), Math.cbrt(27), Math.log10(1000), Math.pow(2, 10), Math.min(w.tempC, 20)];
// === array_some_nested_every
const orders = await get_orders(2);
return orders.map(o => ({ id: o.id, allCheap: o.items.every(i => i.price < 50), anyMulti: o.items.some(i => i.qty > 1) }));
// === map_callback_member_sets
const products = await search_products();
return products.map(p => {
  const item = { id: p.id, name: p.name };
  item.price = `$${p.price.toFixed(2)}`;
  if (p.stock === 0) item.soldOut = true;
  if (p.rating >= 4.5) {
    item.badge = 'top rated';
  }
  return item;
});
// === loop_row_with_tool_call
const users = await list_users();
const rows = [];
for (const u of users) {
  const row = { user: u.name };
  row.orders = (await get_orders(u.id)).length;
  if (row.orders === 0) row.note = 'no orders yet';
  rows.push(row);
}
return rows;
// === foreach_row_else
const events = await list_events();
const out = [];
events.forEach(e => {
  const summary = { title: e.title };
  if (e.location) summary.where = e.location;
  else summary.where = 'online';
  summary.people = e.attendees.length;
  out.push(summary);
});
return out;
// === retry_for_loop_rethrow
async function fetchUser(id) {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await get_user(id);
    } catch (err) {
      if (attempt === 2) throw err;
    }
  }
}
const user = await fetchUser(2);
return { name: user.name, role: user.role };
// === retry_while_attempts
let attempts = 0;
while (attempts < 3) {
  try {
    const w = await get_weather('Atlantis');
    return { city: w.city, attempts };
  } catch (e) {
    attempts++;
  }
}
return { error: 'weather unavailable', attempts };
// === retry_break_on_success
let price = null;
for (const symbol of ['XYZ', 'MSFT', 'AAPL']) {
  try {
    price = await get_stock_price(symbol);
    break;
  } catch (e) {
    console.log(`no quote for ${symbol}: ${e.message}`);
  }
}
return price ? `${price.symbol}: ${price.price}` : 'no quote';
// === promise_race_first_call
const quote = await Promise.race([
  get_stock_price('AAPL'),
  new Promise(resolve => setTimeout(resolve, 5000)),
]);
return quote ? quote.price : 'timed out';
// === all_settled_reason_text
const results = await Promise.allSettled(['Paris', 'Atlantis', 'Tokyo'].map(c => get_weather(c)));
return results.map((r, i) =>
  r.status === 'fulfilled' ? `${r.value.city}: ${r.value.tempC}°C` : `#${i} failed (${String(r.reason)})`
);
// === error_class_instanceof
try {
  return JSON.parse(await read_file('/data/notes.md'));
} catch (e) {
  if (e instanceof SyntaxError) return { invalid: true, kind: e.name };
  throw e;
}
// === date_style_medium
const events = await list_events();
return events.map(e => ({
  title: e.title,
  when: new Date(e.start).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }),
}));
// === date_setter_in_loop
const orders = await get_orders(1);
const due = [];
for (const o of orders) {
  const d = new Date(o.createdAt);
  d.setUTCDate(d.getUTCDate() + 14);
  due.push({ id: o.id, due: d.toISOString().slice(0, 10) });
}
return due;
// === group_by_no_semicolons
const products = await search_products()
const byBrand = {}
for (const p of products) {
  (byBrand[p.brand] ??= []).push(p.name)
}
return byBrand
// === to_spliced_remove_first
const users = await list_users();
const names = users.map(u => u.name);
return { rest: names.toSpliced(0, 1), withNew: names.toSpliced(1, 0, 'New Hire') };
// === sales_csv_totals
const text = await read_file('/data/sales.csv');
const [header, ...lines] = text.trim().split('\n');
const cols = header.split(',');
const rows = lines.map(l => Object.fromEntries(l.split(',').map((v, i) => [cols[i], v])));
const byRegion = {};
for (const r of rows) {
  const revenue = Number(r.units) * Number(r.price);
  byRegion[r.region] = (byRegion[r.region] || 0) + revenue;
}
return Object.entries(byRegion).sort((a, b) => b[1] - a[1]).map(([region, total]) => `${region}: $${total.toFixed(2)}`);
// === todo_lines
const notes = await read_file('/data/notes.md');
const todos = notes.split('\n').filter(l => l.startsWith('TODO:')).map(l => l.slice(5).trim());
const emails = notes.match(/[\w.]+@[\w.]+\.\w+/g) || [];
return { todos, count: todos.length, emails };
// === config_endpoints
const cfg = JSON.parse(await read_file('/data/config.json'));
const hosts = Object.values(cfg.endpoints).map(u => new URL(u).hostname);
return { retries: cfg.retries ?? 1, hosts, hasExport: cfg.features.includes('export'), debug: !!cfg.debug };
// === orders_spend_per_user
const users = await list_users();
const spend = await Promise.all(users.map(async u => {
  const orders = await get_orders(u.id);
  const total = orders.filter(o => o.status !== 'cancelled')
    .reduce((s, o) => s + o.items.reduce((t, it) => t + it.qty * it.price, 0), 0);
  return { name: u.name.split(' ')[0], total: Math.round(total * 100) / 100 };
}));
return spend.filter(x => x.total > 0).sort((a, b) => b.total - a.total);
// === manager_chain
const u = await get_user(4);
const chain = [u.name];
let m = u.manager;
while (m) {
  const boss = await get_user(m.id);
  chain.push(boss.name);
  m = boss.manager;
}
return chain.join(' -> ');
// === events_by_day
const events = await list_events();
const byDay = events.reduce((acc, e) => {
  const day = e.start.slice(0, 10);
  acc[day] = [...(acc[day] || []), e.title];
  return acc;
}, {});
const busiest = Object.keys(byDay).reduce((a, b) => byDay[a].length >= byDay[b].length ? a : b);
return { byDay, busiest };
// === meeting_minutes
const events = await list_events('2024-05-06');
const minutes = events.map(e => (new Date(e.end) - new Date(e.start)) / 60000);
return { minutes, total: minutes.reduce((a, b) => a + b, 0), longest: events[minutes.indexOf(Math.max(...minutes))].title };
// === portfolio_eur
const symbols = ['AAPL', 'MSFT', 'SAP'];
const quotes = await Promise.all(symbols.map(s => get_stock_price(s)));
const usdToEur = await get_exchange_rate('USD', 'EUR');
const inEur = quotes.map(q => ({ symbol: q.symbol, eur: q.currency === 'EUR' ? q.price : +(q.price * usdToEur).toFixed(2) }));
const gainers = quotes.filter(q => q.change_pct > 0).map(q => q.symbol);
return { inEur, gainers, total: inEur.reduce((s, x) => s + x.eur, 0).toFixed(2) };
// === products_cheapest_in_stock_per_category
const products = await search_products({});
const best = {};
for (const p of products) {
  if (p.stock === 0) continue;
  if (!best[p.category] || p.price < best[p.category].price) best[p.category] = p;
}
return Object.fromEntries(Object.entries(best).map(([c, p]) => [c, p.name]));
// === brands_avg_rating
const products = await search_products({});
const brands = [...new Set(products.map(p => p.brand))];
return brands.map(b => {
  const ps = products.filter(p => p.brand === b);
  return { brand: b, avg: +(ps.reduce((s, p) => s + p.rating, 0) / ps.length).toFixed(2), n: ps.length };
}).sort((a, b) => b.avg - a.avg || a.brand.localeCompare(b.brand));
// === search_dedupe
const queries = ['python', 'async', 'guide'];
const results = await Promise.all(queries.map(q => search_web(q, 5)));
const seen = new Set();
const merged = [];
for (const list of results) for (const r of list) if (!seen.has(r.url)) { seen.add(r.url); merged.push(r); }
return merged.sort((a, b) => b.score - a.score).map(r => r.title);
// === recent_pages
const pages = await search_web('python javascript rust node', 10);
const cutoff = new Date('2024-01-01');
return pages.filter(p => new Date(p.published) >= cutoff).map(p => ({ t: p.title, y: new Date(p.published).getFullYear() }));
// === files_summary
const files = await list_files('/data');
const onlyFiles = files.filter(f => f.type === 'file');
const totalKb = onlyFiles.reduce((s, f) => s + f.size, 0) / 1024;
const newest = onlyFiles.reduce((a, b) => a.modified > b.modified ? a : b);
return `${onlyFiles.length} files, ${totalKb.toFixed(1)} KB, newest: ${newest.name}`;
// === files_ext_count
const files = await list_files('/data');
const counts = {};
files.filter(f => f.type === 'file').forEach(f => { const ext = f.name.split('.').pop(); counts[ext] = (counts[ext] ?? 0) + 1; });
return counts;
// === safe_weather
async function safeWeather(city) {
  try { return await get_weather(city); } catch (e) { return { city, error: e.message }; }
}
const all = await Promise.all(['Paris', 'Mordor'].map(safeWeather));
return all.map(w => w.error ? `${w.city}: ${w.error}` : `${w.city}: ${w.tempC}`);
// === allsettled_users
const ids = [1, 9, 3];
const res = await Promise.allSettled(ids.map(id => get_user(id)));
return res.map((r, i) => r.status === 'fulfilled' ? r.value.name : `#${ids[i]} failed`);
// === rain_days
const w = await get_weather('London');
const rainy = w.forecast.filter(d => d.rain >= 0.5);
const avgHigh = w.forecast.reduce((s, d) => s + d.high, 0) / w.forecast.length;
return { rainy: rainy.map(d => d.day), avgHigh: Math.round(avgHigh * 10) / 10, umbrella: rainy.length > 1 ? 'yes' : 'no' };
// === send_to_active_admins
const users = await list_users();
const admins = users.filter(u => u.active && u.role === 'admin');
const sent = [];
for (const a of admins) {
  const r = await send_email(a.email, 'Weekly report', `Hello ${a.name.split(' ')[0]}, here is your report.`);
  sent.push(r.id);
}
return sent;
// === signup_months
const users = await list_users();
const months = users.map(u => new Date(u.signup).toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }));
return months;
// === age_stats
const users = await list_users();
const ages = users.map(u => u.age).sort((a, b) => a - b);
const mid = Math.floor(ages.length / 2);
const median = ages.length % 2 ? ages[mid] : (ages[mid - 1] + ages[mid]) / 2;
const mean = ages.reduce((a, b) => a + b) / ages.length;
const sd = Math.sqrt(ages.reduce((s, a) => s + (a - mean) ** 2, 0) / ages.length);
return { median, mean, sd: Number(sd.toFixed(3)), min: ages[0], max: ages[ages.length - 1] };
// === tags_frequency
const users = await list_users();
const freq = users.flatMap(u => u.tags).reduce((m, t) => ({ ...m, [t]: (m[t] || 0) + 1 }), {});
const top = Object.entries(freq).sort(([, a], [, b]) => b - a)[0];
return { freq, top: top[0] };
// === order_items_table
const orders = await get_orders(1);
const lines = [];
for (const o of orders) {
  for (const { name, qty, price } of o.items) lines.push(`${o.id} | ${name.padEnd(10)} | ${String(qty).padStart(2)} | ${(qty * price).toFixed(2)}`);
}
return lines.join('\n');
// === sku_totals_map
const [o1, o2] = await Promise.all([get_orders(1), get_orders(2)]);
const totals = new Map();
for (const o of [...o1, ...o2]) for (const it of o.items) totals.set(it.sku, (totals.get(it.sku) || 0) + it.qty);
return Object.fromEntries([...totals].sort((a, b) => a[0].localeCompare(b[0])));
// === first_shipped
const orders = await get_orders(2);
const shipped = orders.find(o => o.status === 'shipped');
const idx = orders.findIndex(o => o.status === 'delivered');
return { shipped: shipped?.id, deliveredAt: idx, none: orders.find(o => o.status === 'lost')?.id ?? null };
// === label_switch
const users = await list_users();
return users.map(u => {
  switch (u.role) {
    case 'admin': return `${u.name} (A)`;
    case 'engineer': return `${u.name} (E)`;
    default: return u.name;
  }
});
// === weather_compare_labels
const names = ['Paris', 'London', 'Tokyo'];
const ws = await Promise.all(names.map(get_weather));
const avg = ws.reduce((s, w) => s + w.tempC, 0) / ws.length;
return ws.map(w => `${w.city} is ${w.tempC > avg ? 'above' : w.tempC < avg ? 'below' : 'at'} average (${(w.tempC - avg).toFixed(1)})`);
// === weather_nested_destructure
const { forecast: [today, ...rest], humidity: hum = 0 } = await get_weather('Tokyo');
return { today: today.day, restDays: rest.map(({ day }) => day), hum };
// === string_building
const users = await list_users();
let report = 'Users:\n';
users.forEach((u, i) => { report += `${i + 1}. ${u.name}${u.active ? '' : ' (inactive)'}\n`; });
return report.trimEnd();
// === chunk
const users = await list_users();
const ids = users.map(u => u.id);
const chunks = [];
for (let i = 0; i < ids.length; i += 3) chunks.push(ids.slice(i, i + 3));
return chunks;
// === zip
const a = await get_weather('Paris'), b = await get_weather('Tokyo');
return a.forecast.map((d, i) => ({ day: d.day, diff: b.forecast[i].high - d.high }));
// === optional_call
const u = await get_user(1);
return [u.manager?.name ?? 'none', u.tags?.[5] ?? 'no tag', u.email?.toUpperCase()];
// === number_format
const q = await get_stock_price('MSFT');
return [q.price.toLocaleString('en-US', { style: 'currency', currency: 'USD' }), (q.change_pct / 100).toLocaleString('en-US', { style: 'percent', minimumFractionDigits: 1 }), Intl.NumberFormat('de-DE').format(1234567.891)];
// === date_math
const events = await list_events();
const first = new Date(events[0].start);
const next = new Date(first.getTime() + 7 * 24 * 3600 * 1000);
return [next.toISOString().slice(0, 10), first.getUTCDay(), first.toISOString().replace('T', ' ').slice(0, 16)];
