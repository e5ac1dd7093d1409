"""The example service's request handler."""

from __future__ import annotations

import utils
from auth import Session, sign, validateToken


def handle(token: str) -> str:
    if not utils.validateToken(token):
        return "malformed token"
    if validateToken(token):
        session = Session("me")
        session.refresh()
        return "welcome " + session.user
    return "invalid signature"


def login(user: str) -> str:
    token = sign(utils.normalize(user))
    assert validateToken(token)
    return token
