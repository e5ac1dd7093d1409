"""Tools as code-mode prompts give them to models (search, users, orders, weather, calendar,
files, prices, currency conversion, tickets by page, web pages, mail), each a Python function
for dialectic and its JavaScript twin for Node, both reading the one data set below; and the
harness that runs a corpus of programs through both and classifies each as ``same``,
``refused``, ``wrong`` or ``crash`` (tests/expressions/test_model_programs.py,
test_model_tasks.py, test_model_agents.py; their shared checks: corpus_checks.py)."""

from __future__ import annotations

import json
import math
import re
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dialectic import Failure, FunctionDescription, Runtime
from dialectic.registry.descriptions import Optional

from .program_oracle import NODE_ENCODE, same

USERS: list[dict[str, Any]] = [
    {"id": 1, "name": "Ada Lovelace", "email": "ada@example.com", "role": "admin",
     "active": True, "age": 36, "city": "London", "tags": ["math", "poetry"],
     "signup": "2023-01-15T09:30:00Z", "manager": None},
    {"id": 2, "name": "Alan Turing", "email": "alan@example.com", "role": "engineer",
     "active": True, "age": 41, "city": "Manchester", "tags": ["math", "crypto"],
     "signup": "2023-03-02T14:00:00Z", "manager": {"id": 1, "name": "Ada Lovelace"}},
    {"id": 3, "name": "Grace Hopper", "email": "grace@example.com", "role": "engineer",
     "active": False, "age": 85, "city": "New York", "tags": ["compilers"],
     "signup": "2022-11-20T08:15:00Z", "manager": {"id": 1, "name": "Ada Lovelace"}},
    {"id": 4, "name": "Linus Torvalds", "email": "linus@example.com", "role": "support",
     "active": True, "age": 54, "city": "Portland", "tags": [],
     "signup": "2024-02-29T23:45:00Z", "manager": {"id": 2, "name": "Alan Turing"}},
]  # fmt: skip
ORDERS: list[dict[str, Any]] = [
    {"id": "o-100", "userId": 1, "status": "shipped", "createdAt": "2024-05-01T10:00:00Z",
     "items": [{"sku": "KB-1", "name": "Keyboard", "qty": 1, "price": 49.99},
               {"sku": "MS-2", "name": "Mouse", "qty": 2, "price": 19.5}]},
    {"id": "o-101", "userId": 1, "status": "pending", "createdAt": "2024-05-03T16:20:00Z",
     "items": [{"sku": "MN-7", "name": "Monitor", "qty": 1, "price": 229}]},
    {"id": "o-102", "userId": 2, "status": "delivered", "createdAt": "2024-04-11T07:05:00Z",
     "items": [{"sku": "CB-3", "name": "USB-C cable", "qty": 3, "price": 9.99},
               {"sku": "KB-1", "name": "Keyboard", "qty": 1, "price": 49.99}]},
    {"id": "o-103", "userId": 3, "status": "cancelled", "createdAt": "2024-03-28T12:00:00Z",
     "items": [{"sku": "HD-4", "name": "Headphones", "qty": 1, "price": 89.0}]},
    {"id": "o-104", "userId": 2, "status": "shipped", "createdAt": "2024-05-06T09:45:00Z",
     "items": [{"sku": "MS-2", "name": "Mouse", "qty": 1, "price": 19.5}]},
]  # fmt: skip
WEATHER: dict[str, Any] = {
    "Paris": {"city": "Paris", "tempC": 18.4, "conditions": "Partly cloudy", "humidity": 62,
              "wind_kph": 14, "forecast": [{"day": "Mon", "high": 21, "low": 12, "rain": 0.1},
                                           {"day": "Tue", "high": 19, "low": 11, "rain": 0.6},
                                           {"day": "Wed", "high": 23, "low": 13, "rain": 0}]},
    "London": {"city": "London", "tempC": 14.2, "conditions": "Rain", "humidity": 81,
               "wind_kph": 22, "forecast": [{"day": "Mon", "high": 16, "low": 9, "rain": 0.8},
                                            {"day": "Tue", "high": 15, "low": 10, "rain": 0.9},
                                            {"day": "Wed", "high": 17, "low": 8, "rain": 0.3}]},
    "Tokyo": {"city": "Tokyo", "tempC": 24.9, "conditions": "Sunny", "humidity": 55,
              "wind_kph": 8, "forecast": [{"day": "Mon", "high": 27, "low": 19, "rain": 0},
                                          {"day": "Tue", "high": 28, "low": 20, "rain": 0.2},
                                          {"day": "Wed", "high": 25, "low": 18, "rain": 0.7}]},
}  # fmt: skip
EVENTS: list[dict[str, Any]] = [
    {"id": "e1", "title": "Standup", "start": "2024-05-06T09:00:00Z",
     "end": "2024-05-06T09:15:00Z", "attendees": ["ada@example.com", "alan@example.com"],
     "location": "Zoom"},
    {"id": "e2", "title": "Design review", "start": "2024-05-06T13:30:00Z",
     "end": "2024-05-06T15:00:00Z", "attendees": ["ada@example.com", "grace@example.com",
                                                   "linus@example.com"], "location": "Room 4"},
    {"id": "e3", "title": "1:1 Alan", "start": "2024-05-07T10:00:00Z",
     "end": "2024-05-07T10:30:00Z", "attendees": ["alan@example.com"], "location": None},
    {"id": "e4", "title": "Quarterly planning", "start": "2024-05-08T14:00:00Z",
     "end": "2024-05-08T17:00:00Z", "attendees": ["ada@example.com", "alan@example.com",
                                                   "grace@example.com"], "location": "Room 1"},
]  # fmt: skip
FILES: dict[str, Any] = {
    "/data": [
        {"name": "sales.csv", "size": 2048, "type": "file", "modified": "2024-05-01T08:00:00Z"},
        {"name": "config.json", "size": 312, "type": "file", "modified": "2024-04-20T12:30:00Z"},
        {"name": "archive", "size": 0, "type": "dir", "modified": "2024-01-02T00:00:00Z"},
        {"name": "notes.md", "size": 1536, "type": "file", "modified": "2024-05-05T19:10:00Z"},
    ],
}
CONTENTS = {
    "/data/sales.csv": "region,product,units,price\nnorth,widget,12,2.5\nsouth,gadget,3,10\n"
    "north,gadget,5,10\neast,widget,7,2.5\n",
    "/data/config.json": '{"retries": 3, "endpoints": {"api": "https://api.example.com/v1",'
    ' "auth": "https://auth.example.com"}, "features": ["search", "export"], "debug": false}',
    "/data/notes.md": "# Notes\n\nTODO: ship v2\nDONE: fix login\nTODO: write docs\n"
    "Contact: ops@example.com, dev@example.com\n",
}
PRICES: dict[str, Any] = {
    "AAPL": {"symbol": "AAPL", "price": 189.84, "currency": "USD", "change_pct": -0.42},
    "MSFT": {"symbol": "MSFT", "price": 414.2, "currency": "USD", "change_pct": 1.18},
    "SAP": {"symbol": "SAP", "price": 172.5, "currency": "EUR", "change_pct": 0.07},
}
SITES: dict[str, Any] = {
    "https://api.example.com/health": {"status": 200, "body": "OK"},
    "https://api.example.com/version": {"status": 200, "body": '{"major": 2, "minor": 7}'},
}
RATES = {"USD": 1.0, "EUR": 0.92, "GBP": 0.79, "JPY": 155.3}
PRODUCTS: list[dict[str, Any]] = [
    {"id": "p1", "name": "Trail Runner", "category": "shoes", "price": 120, "rating": 4.6,
     "stock": 14, "brand": "Peak"},
    {"id": "p2", "name": "City Walker", "category": "shoes", "price": 85.5, "rating": 4.1,
     "stock": 0, "brand": "Urban"},
    {"id": "p3", "name": "Rain Shell", "category": "jackets", "price": 199.99, "rating": 4.8,
     "stock": 3, "brand": "Peak"},
    {"id": "p4", "name": "Down Parka", "category": "jackets", "price": 310, "rating": 4.4,
     "stock": 7, "brand": "Nord"},
    {"id": "p5", "name": "Wool Socks", "category": "accessories", "price": 18, "rating": 4.9,
     "stock": 120, "brand": "Nord"},
]  # fmt: skip
PAGES: list[dict[str, Any]] = [
    {"title": "Python asyncio tutorial", "url": "https://docs.example.org/asyncio",
     "snippet": "Learn asyncio: tasks, gather and event loops.", "score": 0.93,
     "published": "2024-02-10"},
    {"title": "Node.js streams in depth", "url": "https://blog.example.com/node-streams",
     "snippet": "Readable, writable and transform streams explained.", "score": 0.81,
     "published": "2023-11-05"},
    {"title": "Rust async book", "url": "https://rust.example.net/async",
     "snippet": "Futures, executors and async/await in Rust.", "score": 0.77,
     "published": "2024-04-22"},
    {"title": "JavaScript promises guide", "url": "https://dev.example.com/promises",
     "snippet": "Promise.all, allSettled and async error handling.", "score": 0.88,
     "published": "2024-01-30"},
    {"title": "Python packaging guide", "url": "https://docs.example.org/packaging",
     "snippet": "pyproject.toml, wheels and publishing.", "score": 0.64,
     "published": "2023-08-14"},
]  # fmt: skip
TICKETS: list[dict[str, Any]] = [
    {"id": "T-1", "title": "Login fails on Safari", "status": "open", "priority": "high",
     "assignee": "ada@example.com", "created": "2024-05-01T09:12:00Z", "labels": ["bug", "web"]},
    {"id": "T-2", "title": "Add CSV export", "status": "closed", "priority": "low",
     "assignee": "alan@example.com", "created": "2024-04-18T15:40:00Z", "labels": ["feature"]},
    {"id": "T-3", "title": "Crash on empty cart", "status": "open", "priority": "critical",
     "assignee": None, "created": "2024-05-03T11:05:00Z", "labels": ["bug"]},
    {"id": "T-4", "title": "Slow search results", "status": "in_progress", "priority": "high",
     "assignee": "grace@example.com", "created": "2024-04-29T08:00:00Z",
     "labels": ["perf", "search"]},
    {"id": "T-5", "title": "Typo in footer", "status": "closed", "priority": "low",
     "assignee": "ada@example.com", "created": "2024-03-11T17:25:00Z", "labels": []},
    {"id": "T-6", "title": "Dark mode colours", "status": "open", "priority": "medium",
     "assignee": "linus@example.com", "created": "2024-05-05T20:30:00Z",
     "labels": ["feature", "web"]},
    {"id": "T-7", "title": "Timeout calling payments API", "status": "in_progress",
     "priority": "critical", "assignee": "alan@example.com", "created": "2024-05-06T06:45:00Z",
     "labels": ["bug", "payments"]},
]  # fmt: skip
DATA: dict[str, Any] = {
    "users": USERS, "orders": ORDERS, "weather": WEATHER, "events": EVENTS, "files": FILES,
    "contents": CONTENTS, "prices": PRICES, "rates": RATES, "products": PRODUCTS,
    "pages": PAGES, "tickets": TICKETS, "sites": SITES,
}  # fmt: skip


def _copy(v: Any) -> Any:
    return json.loads(json.dumps(v))


def search_web(query: str, limit: int = 3) -> Any:
    words = query.lower().split()
    hits = [p for p in PAGES if any(w in p["title"].lower() for w in words)]
    return _copy(hits[:limit])


def get_user(id: int) -> Any:
    for u in USERS:
        if u["id"] == id:
            return _copy(u)
    raise Failure(f"user {id} not found")


def list_users() -> Any:
    return _copy(USERS)


def get_orders(userId: int) -> Any:
    return _copy([o for o in ORDERS if o["userId"] == userId])


def get_weather(city: str) -> Any:
    if city not in WEATHER:
        raise Failure(f"unknown city: {city}")
    return _copy(WEATHER[city])


def list_events(date: str | None = None) -> Any:
    return _copy([e for e in EVENTS if date is None or e["start"].startswith(date)])


def list_files(path: str) -> Any:
    if path not in FILES:
        raise Failure(f"no such directory: {path}")
    return _copy(FILES[path])


def read_file(path: str) -> Any:
    if path not in CONTENTS:
        raise Failure(f"ENOENT: {path}")
    return CONTENTS[path]


def get_stock_price(symbol: str) -> Any:
    if symbol not in PRICES:
        raise Failure(f"unknown symbol {symbol}")
    return _copy(PRICES[symbol])


def get_exchange_rate(base: str, target: str) -> Any:
    return round(RATES[target] / RATES[base], 6)


def search_products(category: str | None = None, max_price: float | None = None) -> Any:
    return _copy(
        [
            p
            for p in PRODUCTS
            if (category is None or p["category"] == category)
            and (max_price is None or p["price"] <= max_price)
        ]
    )


def list_tickets(cursor: str | None = None, limit: int = 3) -> Any:
    """A page of tickets from ``cursor`` (an offset as text) and the next page's cursor."""
    start = int(cursor) if cursor else 0
    end = start + limit
    return _copy(
        {"tickets": TICKETS[start:end], "next_cursor": str(end) if end < len(TICKETS) else None}
    )


def convert_currency(amount: float, from_currency: str, to_currency: str) -> Any:
    rate = math.floor(RATES[to_currency] / RATES[from_currency] * 1e6 + 0.5) / 1e6
    converted = math.floor(amount * rate * 100 + 0.5) / 100
    return {"from": from_currency, "to": to_currency, "rate": rate, "converted": converted}


def fetch_url(url: str) -> Any:
    """A page's status and body; a host that is down times out (SITES)."""
    if "down." in url:
        raise Failure(f"timeout fetching {url}")
    return _copy(SITES.get(url, {"status": 404, "body": ""}))


def send_email(to: str, subject: str, body: str) -> Any:
    return {"id": f"msg-{len(to) + len(subject)}", "status": "queued", "to": to}


# name, implementation, parameters (in positional order), write effect
TOOLS: list[tuple[str, Callable[..., Any], dict[str, Any], bool]] = [
    ("search_web", search_web, {"query": "string", "limit": Optional("integer")}, False),
    ("get_user", get_user, {"id": "integer"}, False),
    ("list_users", list_users, {}, False),
    ("get_orders", get_orders, {"userId": "integer"}, False),
    ("get_weather", get_weather, {"city": "string"}, False),
    ("list_events", list_events, {"date": Optional("string")}, False),
    ("list_files", list_files, {"path": "string"}, False),
    ("read_file", read_file, {"path": "string"}, False),
    ("get_stock_price", get_stock_price, {"symbol": "string"}, False),
    ("get_exchange_rate", get_exchange_rate, {"base": "string", "target": "string"}, False),
    (
        "search_products",
        search_products,
        {"category": Optional("string"), "max_price": Optional("number")},
        False,
    ),
    (
        "list_tickets",
        list_tickets,
        {"cursor": Optional("string"), "limit": Optional("integer")},
        False,
    ),
    (
        "convert_currency",
        convert_currency,
        {"amount": "number", "from_currency": "string", "to_currency": "string"},
        False,
    ),
    ("fetch_url", fetch_url, {"url": "string"}, False),
    ("send_email", send_email, {"to": "string", "subject": "string", "body": "string"}, True),
]

# The twins: each takes positional arguments or one object of named ones, as section 1.5 binds
NODE_TOOLS = r"""
const D = DATA;
const copy = v => v === undefined ? undefined : JSON.parse(JSON.stringify(v));
const fail = m => { throw new Error(m); };
const impl = {
  search_web: ({query, limit = 3}) => {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    return D.pages.filter(p => words.some(w => p.title.toLowerCase().includes(w))).slice(0, limit);
  },
  get_user: ({id}) => D.users.find(u => u.id === id) ?? fail(`user ${id} not found`),
  list_users: () => D.users,
  get_orders: ({userId}) => D.orders.filter(o => o.userId === userId),
  get_weather: ({city}) => D.weather[city] ?? fail(`unknown city: ${city}`),
  list_events: ({date} = {}) =>
    D.events.filter(e => date === undefined || e.start.startsWith(date)),
  list_files: ({path}) => D.files[path] ?? fail(`no such directory: ${path}`),
  read_file: ({path}) => D.contents[path] ?? fail(`ENOENT: ${path}`),
  get_stock_price: ({symbol}) => D.prices[symbol] ?? fail(`unknown symbol ${symbol}`),
  get_exchange_rate: ({base, target}) => Math.round(D.rates[target] / D.rates[base] * 1e6) / 1e6,
  search_products: ({category, max_price}) => D.products.filter(p =>
    (category === undefined || p.category === category) &&
    (max_price === undefined || p.price <= max_price)),
  list_tickets: ({cursor, limit = 3}) => {
    const start = cursor ? Number(cursor) : 0, end = start + limit;
    return {tickets: D.tickets.slice(start, end),
            next_cursor: end < D.tickets.length ? String(end) : null};
  },
  convert_currency: ({amount, from_currency, to_currency}) => {
    const rate = Math.floor(D.rates[to_currency] / D.rates[from_currency] * 1e6 + 0.5) / 1e6;
    return {from: from_currency, to: to_currency, rate,
            converted: Math.floor(amount * rate * 100 + 0.5) / 100};
  },
  fetch_url: ({url}) => url.includes('down.') ? fail(`timeout fetching ${url}`)
    : D.sites[url] ?? {status: 404, body: ''},
  send_email: ({to, subject}) => ({id: `msg-${to.length + subject.length}`, status: 'queued', to}),
};
const TOOLS = {};
for (const [name, f] of Object.entries(impl)) {
  const params = PARAMS[name];
  TOOLS[name] = async (...args) => {
    const named = args.length === 1 && args[0] !== null && typeof args[0] === 'object' &&
      !Array.isArray(args[0]) && Object.keys(args[0]).every(k => params.includes(k));
    const kw = named ? args[0] : Object.fromEntries(params.map((p, i) => [p, args[i]]));
    for (const k of Object.keys(kw)) if (kw[k] === undefined) delete kw[k];
    return copy(f(kw));
  };
}
"""

NODE_SCRIPT = (
    r"""
"use strict";
const AsyncFunction = (async () => {}).constructor;
const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const DATA = input.data, PARAMS = input.params;
for (const m of ['log', 'info', 'warn', 'error', 'debug', 'table', 'dir']) console[m] = () => {};
"""
    + NODE_TOOLS
    + r"""
"""
    + NODE_ENCODE
    + r"""
(async () => {
  const out = [];
  const names = Object.keys(TOOLS);
  for (let src of input.programs) {
    // a whole program that is a function: its body runs (SPEC 10, code-mode convention)
    if (/^\s*async\s*\(\)\s*=>/.test(src)) src = 'return (' + src.trim().replace(/;$/, '') + ');';
    try {
      const f = new AsyncFunction(...names, '"use strict";\n' + src);
      let v = await f(...Object.values(TOOLS));
      // a whole program that is a function: its body runs (SPEC 10, code-mode convention)
      if (typeof v === 'function') v = await v();
      out.push({ok: enc(v)});
    } catch (e) { out.push({error: String(e).slice(0, 200)}); }
  }
  process.stdout.write(JSON.stringify(out));
})();
"""
)


def runtime() -> Runtime:
    rt = Runtime(load_entry_points=False)
    for name, fn, params, write in TOOLS:
        effects = "write" if write else "read"
        rt.register(FunctionDescription(name, name, fn, params, "any", effects=effects))
    return rt


def node_answers(sources: list[str]) -> list[dict[str, Any]]:
    node = shutil.which("node")
    assert node is not None, "set-up installs Node.js"
    params = {name: list(p) for name, _, p, _ in TOOLS}
    done = subprocess.run(
        [node, "-e", NODE_SCRIPT],
        input=json.dumps({"programs": sources, "data": DATA, "params": params}),
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    out: list[dict[str, Any]] = json.loads(done.stdout)
    return out


@dataclass
class Verdict:
    name: str
    kind: str  # same, refused, wrong, crash
    detail: str


def judge(rt: Runtime, name: str, source: str, answer: dict[str, Any]) -> Verdict:
    """Node's ``answer`` against dialectic's run of ``source`` (lenient, as models' text is
    run). A failure both sides share (a tool's error nobody catches) is ``same``."""
    try:
        out = rt.run(source, lang="plan")
    except Exception as e:  # a crash of the runtime is what this reports
        return Verdict(name, "crash", f"{type(e).__name__}: {e}")
    if out.status != "success":
        code = out.error.code if out.error is not None else "?"
        message = out.message or ""
        if code == "internal_error" or "unexpectedly" in message or "Traceback" in message:
            return Verdict(name, "crash", message)
        if out.status == "ambiguous":
            return Verdict(name, "crash", f"ambiguous: {message}")
        if "error" in answer and code == "thrown":
            return Verdict(name, "same", f"both fail: {answer['error']}")
        return Verdict(name, "refused", f"{code}: {message}")
    if "error" in answer:
        return Verdict(name, "wrong", f"ours {out.value!r}, Node threw {answer['error']}")
    why = same(out.value, answer["ok"])
    if why:
        detail = f"ours {json.dumps(out.value)}, Node {json.dumps(answer['ok'])}: {why}"
        return Verdict(name, "wrong", detail)
    return Verdict(name, "same", "")


def corpus(path: Path) -> list[tuple[str, str]]:
    """The programs of ``path``: each after a line ``// === name`` (``// === name
    (difference: why)`` for one whose value differs from Node's as a deliberate difference of
    SPEC 10 says)."""
    parts = re.split(r"^// === (.+)\n", path.read_text(), flags=re.M)
    return [(parts[i].strip(), parts[i + 1]) for i in range(1, len(parts), 2)]


def verdicts(path: Path) -> list[Verdict]:
    """Each program's verdict; ``difference`` where a program marked so differs from Node."""
    programs = corpus(path)
    rt = runtime()
    answers = node_answers([text for _, text in programs])
    out = []
    for (name, text), answer in zip(programs, answers, strict=True):
        v = judge(rt, name, text, answer)
        if v.kind == "wrong" and "(difference: " in name:
            v.kind = "difference"
        out.append(v)
    return out
