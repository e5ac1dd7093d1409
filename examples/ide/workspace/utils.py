"""Small helpers for the example service."""

from __future__ import annotations

import re

TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_.-]+$")


def normalize(text: str) -> str:
    """Trim and lower-case a user name."""
    return text.strip().lower()


def validateToken(token: str) -> bool:
    """Check only the shape of a token (no signature check)."""
    return bool(TOKEN_SHAPE.match(token.removeprefix("Bearer ")))
