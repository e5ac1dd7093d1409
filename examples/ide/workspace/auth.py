"""Authentication for the example service (a workspace for the RFC's IDE examples)."""

from __future__ import annotations

import hashlib
import hmac
import time
from dataclasses import dataclass, field

TOKEN_PREFIX = "Bearer "
SECRET = b"example-secret"
TOKEN_LIFETIME = 3600


@dataclass
class Session:
    """A logged-in session."""

    user: str
    issued: float = field(default_factory=time.time)

    def expired(self, now: float) -> bool:
        """Whether the session is older than the token lifetime."""
        return now - self.issued > TOKEN_LIFETIME

    def refresh(self) -> None:
        """Renew the session."""
        self.issued = time.time()


def sign(user: str) -> str:
    """A signed token for a user."""
    digest = hmac.new(SECRET, user.encode(), hashlib.sha256).hexdigest()
    return f"{TOKEN_PREFIX}{user}.{digest}"


def split(token: str) -> tuple[str, str]:
    user, _, digest = token.removeprefix(TOKEN_PREFIX).partition(".")
    return user, digest


def validateToken(token: str) -> bool:
    """Check a bearer token's signature."""
    if not token.startswith(TOKEN_PREFIX):
        return False
    user, digest = split(token)
    expected = hmac.new(SECRET, user.encode(), hashlib.sha256).hexdigest()
    return hmac.compare_digest(digest, expected)
