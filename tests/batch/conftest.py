"""The batch tests' plugin module is imported by name (``batch_plugin``) in this process, in CLI
subprocesses and in Dask worker processes (spawned with this process's ``sys.path``)."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = str(Path(__file__).parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)
