"""One operation of the platform's OpenAPI document, as the generated table names it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Optional


@dataclass(frozen=True)
class Operation:
    operation_id: str
    method: str
    path: str
    #: Names of the path's `{placeholders}`, in order.
    path_params: tuple[str, ...]
    #: Query parameters: name and the Python type of its value.
    query: tuple[tuple[str, type], ...]
    #: What the request body is, if it has one.
    body: Optional[Literal["json", "multipart"]]
