"""The errors of svc_client: one base class, one subclass per kind of failure."""

from __future__ import annotations

import email.utils
import time
from typing import Any, Mapping, Optional


class SvcError(Exception):
    """Every failure: an answer outside 2xx, no answer at all, or a task that did not succeed.

    ``status`` is the HTTP status (0 when no answer came), ``code`` the platform's machine code
    (``VALIDATION_FAILED``, ``IDEMPOTENCY_CONFLICT``...), ``type`` its ``error.type``,
    ``details`` its ``error.details``, ``correlation_id`` the request's id and ``retry_after``
    the seconds the platform asked to wait.
    """

    def __init__(self, message: str, *, status: int, code: str = "UNKNOWN", type: Optional[str] = None,
                 details: Optional[Mapping[str, Any]] = None, correlation_id: Optional[str] = None,
                 retry_after: Optional[int] = None) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.code = code
        self.type = type
        self.details = dict(details or {})
        self.correlation_id = correlation_id
        self.retry_after = retry_after

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}({self.message!r}, status={self.status}, code={self.code!r})"


class ValidationError(SvcError):
    """400: the body, query or path was refused (``details['field']`` names what)."""


class AuthenticationError(SvcError):
    """401: no credentials, or ones that are wrong, expired or revoked (after a renewal was tried)."""


class PermissionDeniedError(SvcError):
    """403: signed in, but not allowed."""


class NotFoundError(SvcError):
    """404: no such thing for this caller."""


class SvcTimeoutError(SvcError):
    """408: the command ran past its timeout; also a client-side ``timeout`` (status 0, ``CLIENT_TIMEOUT``)."""


class ConflictError(SvcError):
    """409: ``IDEMPOTENCY_CONFLICT``, ``TASK_REVOKED``, a task already finished, a name taken..."""


class GoneError(SvcError):
    """410: a task's result past retention."""


class PayloadTooLargeError(SvcError):
    """413: the body is over its limit."""


class RateLimitError(SvcError):
    """429: a rate limit or quota, after the retries the client was allowed."""


class CommandError(SvcError):
    """502 ``INTEGRATION_ERROR``: the command threw (``type`` is its error class) or its runner died."""


class ServiceUnavailableError(SvcError):
    """503: the platform cannot serve now; try again."""


class ServerError(SvcError):
    """Any other 5xx."""


class NetworkError(SvcError):
    """No answer: the connection failed or was cut."""


class TaskFailedError(SvcError):
    """A task ``run()`` or ``wait()`` waited for ended ``failure``, ``timeout`` or ``revoked``; ``task`` is its last state."""

    def __init__(self, message: str, task: Mapping[str, Any], **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.task = dict(task)


_BY_STATUS: dict[int, type[SvcError]] = {
    400: ValidationError, 401: AuthenticationError, 403: PermissionDeniedError, 404: NotFoundError,
    408: SvcTimeoutError, 409: ConflictError, 410: GoneError, 413: PayloadTooLargeError,
    429: RateLimitError, 502: CommandError, 503: ServiceUnavailableError,
}

_DEFAULT_CODES = {400: "VALIDATION_FAILED", 401: "AUTHENTICATION_FAILED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND",
                  408: "TIMEOUT", 429: "RATE_LIMITED", 502: "INTEGRATION_ERROR", 503: "SERVICE_UNAVAILABLE"}


def retry_after_seconds(headers: Mapping[str, str]) -> Optional[int]:
    """Seconds of a ``Retry-After`` header (delta-seconds or an HTTP date), if it has a usable one."""
    value = (headers.get("retry-after") or "").strip()
    if not value:
        return None
    if value.isdigit():
        return int(value)
    try:
        at = email.utils.parsedate_to_datetime(value).timestamp()
    except (TypeError, ValueError):
        return None
    return max(0, int(at - time.time() + 0.999))


def error_of_response(status: int, headers: Mapping[str, str], body: Any, what: str) -> SvcError:
    """The error of an answer outside 2xx, from its body: full, reduced (only ``message``) or not JSON."""
    error = body.get("error") if isinstance(body, dict) and isinstance(body.get("error"), dict) else {}
    kind = _BY_STATUS.get(status) or (ServerError if status >= 500 else SvcError)
    text = body[:200] if isinstance(body, str) and body else None
    return kind(
        error.get("message") or text or f"{what} answered {status}",
        status=status,
        code=error.get("code") or _DEFAULT_CODES.get(status) or f"HTTP_{status}",
        type=error.get("type"),
        details=error.get("details") if isinstance(error.get("details"), dict) else None,
        correlation_id=error.get("correlation_id") or headers.get("x-request-id"),
        retry_after=error.get("retry_after") if isinstance(error.get("retry_after"), int) else retry_after_seconds(headers),
    )
