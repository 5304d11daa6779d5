"""Checking that a webhook delivery is the platform's."""

from __future__ import annotations

import hashlib
import hmac
import time
from typing import Optional, Union


def verify_webhook(secret: str, header: Optional[str], raw_body: Union[str, bytes], *,
                   tolerance_seconds: int = 300, now: Optional[float] = None) -> bool:
    """Whether a delivery is signed by the platform with ``secret``.

    ``header`` is its ``Svc-Signature`` (``t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">``),
    ``raw_body`` the body exactly as received. A time more than ``tolerance_seconds`` away is
    refused, so a captured delivery cannot be replayed later; digests compare in constant time.

    >>> verify_webhook(secret, request.headers.get("Svc-Signature"), request.get_data())
    """
    if not header or not secret:
        return False
    parts = dict(part.strip().split("=", 1) for part in header.split(",") if "=" in part)
    t, given = parts.get("t", ""), parts.get("v1", "")
    if not t.isdigit() or not given:
        return False
    if abs((time.time() if now is None else now) - int(t)) > tolerance_seconds:
        return False
    body = raw_body.encode() if isinstance(raw_body, str) else raw_body
    expected = hmac.new(secret.encode(), t.encode() + b"." + body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, given.lower())
