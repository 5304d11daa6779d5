"""Sending requests: credentials, renewal of an expired access token, and retries."""

from __future__ import annotations

import base64
import json
import random
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Optional

from .errors import NetworkError, error_of_response, retry_after_seconds

#: Renew this long before the access token expires, so a request never leaves with a stale one.
EARLY_SECONDS = 5.0
#: Sign-in paths: sent without credentials; a 401 from them means wrong credentials.
_PUBLIC_AUTH = ("/api/v1/auth/login", "/api/v1/auth/register", "/api/v1/auth/refresh",
                "/api/v1/auth/refresh-cookie", "/api/v1/auth/change-password/login")
_IDEMPOTENT_METHODS = ("GET", "HEAD", "PUT", "DELETE", "OPTIONS")


@dataclass
class Tokens:
    access_token: str
    refresh_token: Optional[str] = None
    #: When the access token expires, in seconds since the epoch.
    expires_at: Optional[float] = None


@dataclass(frozen=True)
class RetryInfo:
    attempt: int
    method: str
    url: str
    #: The status retried, or 0 when no answer came.
    status: int
    wait_seconds: float


@dataclass
class Response:
    status: int
    headers: Mapping[str, str]
    body: Any


def expiry_of(token: str) -> Optional[float]:
    """The ``exp`` of a JWT, in seconds; None for anything else."""
    parts = token.split(".")
    if len(parts) != 3:
        return None
    try:
        claims = json.loads(base64.urlsafe_b64decode(parts[1] + "=" * (-len(parts[1]) % 4)))
    except (ValueError, UnicodeDecodeError):
        return None
    exp = claims.get("exp") if isinstance(claims, dict) else None
    return float(exp) if isinstance(exp, (int, float)) else None


class Session:
    """Who the client is: an API key, or an access token and the refresh token that renews it.

    Renewals are single-flight (a lock): refresh tokens are single use, and the same one sent
    twice ends the session as a stolen copy would.
    """

    def __init__(self, on_tokens: Optional[Callable[[Tokens], None]] = None) -> None:
        self.api_key: Optional[str] = None
        self.tokens: Optional[Tokens] = None
        self._on_tokens = on_tokens
        self._lock = threading.Lock()

    def use_api_key(self, api_key: str) -> None:
        self.api_key, self.tokens = api_key, None

    def use_tokens(self, tokens: Tokens, announce: bool = True) -> None:
        self.api_key = None
        expires_at = tokens.expires_at if tokens.expires_at is not None else expiry_of(tokens.access_token)
        self.tokens = Tokens(tokens.access_token, tokens.refresh_token, expires_at)
        if announce and self._on_tokens:
            self._on_tokens(self.tokens)

    def clear(self) -> None:
        self.api_key, self.tokens = None, None

    @property
    def renewable(self) -> bool:
        return self.api_key is None and self.tokens is not None and bool(self.tokens.refresh_token)


class Transport:
    """JSON over urllib, with the session's credentials, one renewal on a 401, a 429 waited out
    as ``Retry-After`` says (any method: refused before anything was done), and 503, 504 and lost
    connections retried only for requests safe to send twice."""

    def __init__(self, base_url: str, session: Session, *, max_retries: int = 3, max_retry_wait: float = 60.0,
                 timeout: float = 60.0, on_retry: Optional[Callable[[RetryInfo], None]] = None,
                 user_agent: str = "svc-client-python") -> None:
        self.base_url = base_url.rstrip("/")
        self.session = session
        self.max_retries = max_retries
        self.max_retry_wait = max_retry_wait
        self.timeout = timeout
        self.on_retry = on_retry
        self.user_agent = user_agent

    def request(self, method: str, path: str, *, query: Optional[Mapping[str, Any]] = None, json_body: Any = None,
                raw_body: Optional[bytes] = None, content_type: Optional[str] = None,
                headers: Optional[Mapping[str, str]] = None) -> Response:
        url = self.base_url + path
        params = {k: _query_value(v) for k, v in (query or {}).items() if v is not None}
        if params:
            url += "?" + urllib.parse.urlencode(params)
        sent_headers = {"accept": "application/json", "user-agent": self.user_agent, **(headers or {})}
        body = raw_body
        if json_body is not None:
            body = json.dumps(json_body).encode()
            sent_headers["content-type"] = "application/json"
        elif content_type:
            sent_headers["content-type"] = content_type
        public = path in _PUBLIC_AUTH
        safe = method in _IDEMPOTENT_METHODS or any(k.lower() == "idempotency-key" for k in sent_headers)
        renewed = False
        attempt = 0
        while True:
            authorization = None if public else self._authorization()
            if authorization:
                sent_headers["authorization"] = authorization
            try:
                response = self._send(method, url, body, sent_headers)
            except NetworkError as err:
                if not safe or attempt >= self.max_retries:
                    raise err
                status, wait = 0, _backoff(attempt)
            else:
                status = response.status
                if response.status == 401 and authorization and not renewed and self.session.renewable:
                    renewed = True
                    if self.refresh():
                        continue
                    return response
                retry_wait = self._retry_wait(response, safe, attempt)
                if retry_wait is None or attempt >= self.max_retries or retry_wait > self.max_retry_wait:
                    return response
                wait = retry_wait
            attempt += 1
            if self.on_retry:
                self.on_retry(RetryInfo(attempt, method, url, status, wait))
            time.sleep(wait)

    def _retry_wait(self, response: Response, safe: bool, attempt: int) -> Optional[float]:
        after = retry_after_seconds(response.headers)
        if response.status == 429:
            return float(after if after is not None else 1)
        if response.status in (503, 504) and safe:
            return float(after) if after is not None else _backoff(attempt)
        return None

    def _authorization(self) -> Optional[str]:
        if self.session.api_key:
            return f"Bearer {self.session.api_key}"
        tokens = self.session.tokens
        if tokens and self.session.renewable and (not tokens.access_token or (tokens.expires_at is not None and tokens.expires_at - time.time() < EARLY_SECONDS)):
            self.refresh(seen=tokens)
        tokens = self.session.tokens
        return f"Bearer {tokens.access_token}" if tokens and tokens.access_token else None

    def refresh(self, seen: Optional[Tokens] = None) -> bool:
        """Renews the access token, rotating the refresh token; False when it cannot be renewed."""
        before = seen or self.session.tokens
        with self.session._lock:
            # Another thread renewed while this one waited for the lock: use its tokens.
            if self.session.tokens is not before:
                return self.session.tokens is not None
            tokens = self.session.tokens
            if not tokens or not tokens.refresh_token:
                return False
            response = self._send("POST", self.base_url + "/api/v1/auth/refresh",
                                  json.dumps({"refreshToken": tokens.refresh_token}).encode(),
                                  {"content-type": "application/json", "accept": "application/json", "user-agent": self.user_agent})
            if response.status in (400, 401):
                self.session.tokens = None
                return False
            if response.status != 200:
                raise error_of_response(response.status, response.headers, response.body, "POST /api/v1/auth/refresh")
            data = response.body["data"]
            self.session.use_tokens(Tokens(data["accessToken"], data.get("refreshToken"), data["expiresAt"] / 1000))
            return True

    def _send(self, method: str, url: str, body: Optional[bytes], headers: Mapping[str, str]) -> Response:
        request = urllib.request.Request(url, data=body, method=method, headers=dict(headers))
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as answer:
                return _response(answer.status, answer.headers, answer.read())
        except urllib.error.HTTPError as answer:
            with answer:
                return _response(answer.code, answer.headers, answer.read())
        except (urllib.error.URLError, OSError) as err:
            raise NetworkError(f"{method} {url}: {getattr(err, 'reason', err)}", status=0, code="NETWORK_ERROR") from err


def _response(status: int, headers: Any, raw: bytes) -> Response:
    lowered = {k.lower(): v for k, v in headers.items()}
    text = raw.decode("utf-8", "replace")
    try:
        body: Any = json.loads(text) if text else None
    except ValueError:
        body = text
    return Response(status, lowered, body)


def _query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _backoff(attempt: int) -> float:
    return min(8.0, 0.25 * 2 ** attempt) * (0.8 + random.random() * 0.4)


def raise_for(response: Response, what: str) -> None:
    """Raises the SvcError of an answer outside 2xx."""
    if not 200 <= response.status < 300:
        raise error_of_response(response.status, response.headers, response.body, what)


