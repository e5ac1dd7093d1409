"""What Node.js computes for expressions over a context value ``x``: the oracle of the
value-for-value tests (Node is installed by set-up)."""

from __future__ import annotations

import json
import shutil
import subprocess
from typing import Any

_SCRIPT = (
    "const progs = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
    "const base = %s;"
    "process.stdout.write(JSON.stringify(progs.map(p => {"
    "  const x = JSON.parse(JSON.stringify(base));"
    "  try { const v = (new Function('x', 'return (' + p + ');'))(x);"
    "        return {ok: JSON.parse(JSON.stringify(v === undefined ? null : v))}; }"
    "  catch (e) { return {error: String(e)}; } })));"
)


def node_values(programs: list[str], x: Any) -> list[dict[str, Any]]:
    """For each expression, ``{"ok": its value as JSON}`` or ``{"error": ...}`` (each run with a
    fresh copy of ``x``)."""
    node = shutil.which("node")
    assert node is not None, "set-up installs Node.js"
    done = subprocess.run(
        [node, "-e", _SCRIPT % json.dumps(x)],
        input=json.dumps(programs),
        capture_output=True,
        text=True,
        check=True,
    )
    out: list[dict[str, Any]] = json.loads(done.stdout)
    return out
