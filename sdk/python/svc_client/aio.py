"""The asyncio client: the synchronous client's requests on worker threads, its waiting on the event loop."""

from __future__ import annotations

import asyncio
import functools
from typing import Any, Callable, Mapping, Optional

from ._operations import OPERATIONS
from .client import TERMINAL_STATUSES, Client, result_of
from .errors import SvcTimeoutError
from .schemas import Task
from .transport import RetryInfo, Tokens


def _async_operation(name: str) -> Callable[..., Any]:
    async def call(self: "AsyncClient", *args: Any, **kwargs: Any) -> Any:
        return await self._in_thread(getattr(self.sync, name), *args, **kwargs)

    call.__name__ = name
    call.__qualname__ = f"AsyncClient.{name}"
    call.__doc__ = getattr(Client, name).__doc__
    return call


class AsyncClient:
    """The same operations and helpers as Client, as coroutines.

    Each request runs on a worker thread (``asyncio.to_thread``: urllib blocks), so requests of
    one client go out concurrently; waiting for a task sleeps on the event loop. Cancelling
    ``run()`` (``asyncio.CancelledError``, ``asyncio.timeout``) cancels the task on the platform.
    """

    def __init__(self, base_url: str, *, api_key: Optional[str] = None, access_token: Optional[str] = None,
                 refresh_token: Optional[str] = None, on_tokens: Optional[Callable[[Tokens], None]] = None,
                 max_retries: int = 3, max_retry_wait: float = 60.0, timeout: float = 60.0,
                 on_retry: Optional[Callable[[RetryInfo], None]] = None) -> None:
        self.sync = Client(base_url, api_key=api_key, access_token=access_token, refresh_token=refresh_token,
                           on_tokens=on_tokens, max_retries=max_retries, max_retry_wait=max_retry_wait,
                           timeout=timeout, on_retry=on_retry)
        self.session = self.sync.session

    async def _in_thread(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        return await asyncio.to_thread(functools.partial(fn, *args, **kwargs))

    async def run(self, command: str, input: Optional[Mapping[str, Any]] = None, *, run_async: bool = False,
                  idempotency_key: Optional[str] = None, timeout: Optional[float] = None) -> Any:
        """As Client.run; cancelling the coroutine (or ``timeout`` passing) cancels the task."""
        answer = await self._in_thread(self.sync._submit, command, input, run_async, idempotency_key)
        if "task_id" not in answer:
            return answer["result"]
        try:
            task = await asyncio.wait_for(self.wait(answer["task_id"]), timeout)
        except asyncio.TimeoutError:
            await self._in_thread(self.sync._cancel_quietly, answer["task_id"])
            raise SvcTimeoutError(f"{command} gave no result within {timeout} s", status=0, code="CLIENT_TIMEOUT",
                                  details={"task_id": answer["task_id"]}) from None
        except asyncio.CancelledError:
            await asyncio.shield(self._in_thread(self.sync._cancel_quietly, answer["task_id"]))
            raise
        return result_of(task)

    async def wait(self, task_id: str, *, interval: float = 0.1, max_interval: float = 2.0) -> Task:
        """Polls a task until it is terminal (bound it with ``asyncio.timeout`` or ``wait_for``)."""
        pause = interval
        while True:
            task = await self.get_task(task_id)
            if task["status"] in TERMINAL_STATUSES:
                return task
            await asyncio.sleep(pause)
            pause = min(pause * 1.5, max_interval)


_SYNC_HELPERS = ["sign_in", "use_tokens", "use_api_key", "sign_out", "me", "start", "cancel", "call",
                 "storage_get", "storage_put", "storage_delete", "storage_list", "packs_publish", "packs_install",
                 "packs_list", "packs_uninstall", "dashboards_list", "dashboards_create", "dashboards_upload",
                 "usage_get", "usage_history", "webhooks_create", "webhooks_list", "webhooks_deliveries"]

for _name in [*OPERATIONS, *_SYNC_HELPERS]:
    setattr(AsyncClient, _name, _async_operation(_name))
