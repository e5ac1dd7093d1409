"""Fixtures of the effects tests (SPEC 17): a runtime with the in-memory file system of
:mod:`memfs` (the real BFCL ``GorillaFileSystem`` signatures)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from memfs import MemoryFS, fs_functions

from dialectic import Runtime


@pytest.fixture
def make_fs() -> Callable[..., tuple[Runtime, MemoryFS]]:
    def make(*, use_async: bool = False, **options: Any) -> tuple[Runtime, MemoryFS]:
        fs = MemoryFS()
        rt = Runtime(load_entry_points=False, **options)
        rt.register(*fs_functions(fs, use_async=use_async))
        return rt, fs

    return make
