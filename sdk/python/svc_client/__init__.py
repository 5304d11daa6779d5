"""svc-client: the svc platform's client for Python 3.10+, standard library only.

>>> from svc_client import Client
>>> svc = Client("http://localhost:8080")
>>> svc.sign_in("ada@example.com", "analytical")
>>> svc.run("ada/echo", {"text": "hi"})
"""

from . import schemas
from ._operations import API_VERSION, OPERATIONS
from .aio import AsyncClient
from .client import TERMINAL_STATUSES, Client, TaskCancelled, parse_command
from .errors import (
    AuthenticationError,
    CommandError,
    ConflictError,
    GoneError,
    NetworkError,
    NotFoundError,
    PayloadTooLargeError,
    PermissionDeniedError,
    RateLimitError,
    ServerError,
    ServiceUnavailableError,
    SvcError,
    SvcTimeoutError,
    TaskFailedError,
    ValidationError,
)
from .transport import RetryInfo, Tokens
from .webhook import verify_webhook

__version__ = "0.1.0"

__all__ = [
    "schemas", "API_VERSION", "OPERATIONS", "AsyncClient", "Client", "TERMINAL_STATUSES", "TaskCancelled", "parse_command",
    "AuthenticationError", "CommandError", "ConflictError", "GoneError", "NetworkError", "NotFoundError",
    "PayloadTooLargeError", "PermissionDeniedError", "RateLimitError", "ServerError", "ServiceUnavailableError",
    "SvcError", "SvcTimeoutError", "TaskFailedError", "ValidationError", "RetryInfo", "Tokens", "verify_webhook",
]
