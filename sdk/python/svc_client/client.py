"""The synchronous client."""

from __future__ import annotations

import re
import threading
import time
import urllib.parse
import uuid
from typing import Any, Callable, Mapping, Optional

from ._operation import Operation
from ._operations import OPERATIONS
from .errors import SvcTimeoutError, TaskFailedError
from .schemas import CreatedWebhook, CurrentUser, StorageEntry, StorageWrite, Task, User
from .transport import RetryInfo, Session, Tokens, Transport, raise_for

#: Statuses after which a task does not change any more.
TERMINAL_STATUSES = ("success", "failure", "timeout", "revoked")


def parse_command(command: str) -> tuple[str, str]:
    """``acme/echo``, ``@acme/echo`` or ``acme.echo`` -> ``("acme", "echo")``."""
    match = re.fullmatch(r"@?([^/.]+)[/.]([^/]+)", command)
    if not match:
        raise ValueError(f'a command is "namespace/name", not {command!r}')
    return match.group(1), match.group(2)


def result_of(task: Task) -> Any:
    """The result of a terminal task, or its failure raised as TaskFailedError."""
    if task["status"] == "success":
        return task.get("result")
    error = task.get("error") or {}
    code = {"timeout": "TIMEOUT", "revoked": "TASK_REVOKED"}.get(task["status"], "TASK_FAILED")
    raise TaskFailedError(error.get("message") or f"task {task['task_id']} ended {task['status']}", task,
                          status=0, code=code, type=error.get("type"), correlation_id=task.get("correlation_id"),
                          details={"task_id": task["task_id"], "status": task["status"]})


def multipart(fields: Mapping[str, str], files: Mapping[str, tuple[str, bytes, str]]) -> tuple[bytes, str]:
    """A multipart/form-data body of text ``fields`` and ``files`` (name -> (filename, bytes, type))."""
    boundary = uuid.uuid4().hex
    chunks: list[bytes] = []
    for name, value in fields.items():
        chunks.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
    for name, (filename, data, content_type) in files.items():
        chunks.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\nContent-Type: {content_type}\r\n\r\n'.encode())
        chunks.append(data + b"\r\n")
    chunks.append(f"--{boundary}--\r\n".encode())
    return b"".join(chunks), f"multipart/form-data; boundary={boundary}"


def _operation_method(name: str, op: Operation) -> Callable[..., Any]:
    def call(self: "Client", *path_args: str, body: Any = None, files: Optional[Mapping[str, tuple[str, bytes, str]]] = None,
             fields: Optional[Mapping[str, str]] = None, headers: Optional[Mapping[str, str]] = None, **query: Any) -> Any:
        return self.call(op, *path_args, body=body, files=files, fields=fields, headers=headers, **query)

    call.__name__ = name
    call.__qualname__ = f"Client.{name}"
    call.__doc__ = f"``{op.method} {op.path}`` (operation ``{op.operation_id}``): the ``data`` of its answer."
    return call


class Client:
    """The svc platform's client (standard library only).

    Every operation of ``/openapi.json`` is a method named after its operation id in snake case
    (``client.list_api_keys()``, ``client.get_task(task_id)``): path parameters in order, then
    ``body=`` (JSON) or ``files=`` (multipart), ``headers=``, and query parameters as keywords.
    Around them: ``sign_in``, ``run``/``start``, ``wait``, and the ``storage_*``, ``packs_*``,
    ``dashboards_*``, ``usage_*`` and ``webhooks_*`` helpers. Failures raise SvcError subclasses.
    """

    def __init__(self, base_url: str, *, api_key: Optional[str] = None, access_token: Optional[str] = None,
                 refresh_token: Optional[str] = None, on_tokens: Optional[Callable[[Tokens], None]] = None,
                 max_retries: int = 3, max_retry_wait: float = 60.0, timeout: float = 60.0,
                 on_retry: Optional[Callable[[RetryInfo], None]] = None) -> None:
        self.session = Session(on_tokens)
        self.transport = Transport(base_url, self.session, max_retries=max_retries, max_retry_wait=max_retry_wait,
                                   timeout=timeout, on_retry=on_retry)
        if api_key:
            self.session.use_api_key(api_key)
        elif access_token or refresh_token:
            self.session.use_tokens(Tokens(access_token or "", refresh_token, None if access_token else 0), announce=False)

    # -- every operation ---------------------------------------------------------------------

    def call(self, op: Operation, *path_args: str, body: Any = None, files: Optional[Mapping[str, tuple[str, bytes, str]]] = None,
             headers: Optional[Mapping[str, str]] = None, fields: Optional[Mapping[str, str]] = None, **query: Any) -> Any:
        """Sends one operation; answers the ``data`` of its body (the whole body when it has none)."""
        if len(path_args) != len(op.path_params):
            raise TypeError(f"{op.operation_id} takes {len(op.path_params)} path parameters {op.path_params}, got {len(path_args)}")
        path = op.path
        for name, value in zip(op.path_params, path_args):
            path = path.replace("{" + name + "}", _quote(str(value)))
        known = {name for name, _ in op.query}
        unknown = set(query) - known
        if unknown:
            raise TypeError(f"{op.operation_id} has no query parameter {sorted(unknown)}")
        what = f"{op.method} {op.path}"
        if files is not None or fields is not None:
            raw, content_type = multipart(fields or {}, files or {})
            response = self.transport.request(op.method, path, query=query, raw_body=raw, content_type=content_type, headers=headers)
        else:
            response = self.transport.request(op.method, path, query=query, json_body=body, headers=headers)
        raise_for(response, what)
        if isinstance(response.body, dict) and "data" in response.body:
            return response.body["data"]
        return response.body

    # -- signing in --------------------------------------------------------------------------

    def sign_in(self, email: str, password: str) -> User:
        """Signs in with e-mail and password; later requests carry the access token and renew it."""
        data = self.login(body={"email": email, "password": password})
        tokens = data["tokens"]
        self.session.use_tokens(Tokens(tokens["accessToken"], tokens["refreshToken"], tokens["expiresAt"] / 1000))
        return data["user"]

    def use_tokens(self, access_token: str, refresh_token: Optional[str] = None) -> None:
        self.session.use_tokens(Tokens(access_token, refresh_token))

    def use_api_key(self, api_key: str) -> None:
        self.session.use_api_key(api_key)

    def sign_out(self) -> None:
        """Ends this session on the platform and forgets its tokens."""
        self.logout()
        self.session.clear()

    def me(self) -> CurrentUser:
        return self.get_current_user()

    # -- commands and tasks ------------------------------------------------------------------

    def run(self, command: str, input: Optional[Mapping[str, Any]] = None, *, run_async: bool = False,
            idempotency_key: Optional[str] = None, timeout: Optional[float] = None,
            cancel: Optional[threading.Event] = None) -> Any:
        """Runs a command and answers its result: a synchronous run's at once, a task's once it has
        finished. A failed task raises TaskFailedError. ``timeout`` (seconds) passing or ``cancel``
        being set cancels the task and raises SvcTimeoutError (``CLIENT_TIMEOUT``) or TaskCancelled."""
        deadline = None if timeout is None else time.monotonic() + timeout
        answer = self._submit(command, input, run_async, idempotency_key)
        if "task_id" not in answer:
            return answer["result"]
        try:
            task = self.wait(answer["task_id"], deadline=deadline, cancel=cancel)
        except BaseException:
            self._cancel_quietly(answer["task_id"])
            raise
        return result_of(task)

    def start(self, command: str, input: Optional[Mapping[str, Any]] = None, *, idempotency_key: Optional[str] = None) -> dict[str, Any]:
        """Starts a command as a task and answers at once: ``task_id``, ``status_url``, ``replayed``."""
        answer = self._submit(command, input, True, idempotency_key)
        if "task_id" not in answer:
            raise ValueError(f"{command} answered without a task")
        return answer

    def _submit(self, command: str, input: Optional[Mapping[str, Any]], run_async: bool, idempotency_key: Optional[str]) -> dict[str, Any]:
        namespace, name = parse_command(command)
        headers = {"idempotency-key": idempotency_key} if idempotency_key else {}
        path = f"/api/v1/commands/{_quote(namespace)}/{_quote(name)}"
        response = self.transport.request("POST", path, query={"async": "true"} if run_async else None, json_body=dict(input or {}), headers=headers)
        raise_for(response, f"POST {path}")
        data = response.body["data"]
        if response.status == 202:
            return {**data, "replayed": response.headers.get("idempotent-replayed") == "true"}
        return {"result": data.get("result")}

    def wait(self, task_id: str, *, timeout: Optional[float] = None, deadline: Optional[float] = None,
             cancel: Optional[threading.Event] = None, interval: float = 0.1, max_interval: float = 2.0) -> Task:
        """Polls a task, the pause growing by half up to ``max_interval``, until it is terminal."""
        if deadline is None and timeout is not None:
            deadline = time.monotonic() + timeout
        pause = interval
        while True:
            task = self.get_task(task_id)
            if task["status"] in TERMINAL_STATUSES:
                return task
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise SvcTimeoutError(f"task {task_id} still {task['status']}", status=0, code="CLIENT_TIMEOUT", details={"task_id": task_id})
            wait = pause if left is None else min(pause, left)
            if cancel is not None:
                if cancel.wait(wait):
                    raise TaskCancelled(task_id)
            else:
                time.sleep(wait)
            pause = min(pause * 1.5, max_interval)

    def cancel(self, task_id: str) -> dict[str, Any]:
        return self.cancel_task(task_id)

    def _cancel_quietly(self, task_id: str) -> None:
        try:
            self.cancel_task(task_id)
        except Exception:  # noqa: BLE001 - best effort: the task may have ended meanwhile
            pass

    # -- helpers -----------------------------------------------------------------------------

    def storage_get(self, key: str) -> StorageEntry:
        return self.get_storage_entry(key)

    def storage_put(self, key: str, data: Mapping[str, Any], ttl: Optional[int] = None) -> StorageWrite:
        return self.put_storage_entry(key, body={"data": dict(data), "ttl": ttl})

    def storage_delete(self, key: str) -> dict[str, Any]:
        return self.delete_storage_entry(key)

    def storage_list(self, **query: Any) -> dict[str, Any]:
        return self.list_storage_keys(**query)

    def packs_publish(self, tarball: bytes) -> dict[str, Any]:
        """Publishes a package (a ``.tar.gz`` with ``pack.yaml`` at its root)."""
        return self.publish_pack(files={"package": ("pack.tar.gz", tarball, "application/gzip")})

    def packs_install(self, name: str, version: str = "latest") -> dict[str, Any]:
        return self.install_pack(body={"name": name, "version": version})

    def packs_list(self) -> Any:
        return self.list_installed_packs()

    def packs_uninstall(self, pack_id: str) -> Any:
        return self.uninstall_pack(pack_id)

    def dashboards_list(self) -> Any:
        return self.list_dashboards()

    def dashboards_create(self, **body: Any) -> dict[str, Any]:
        return self.create_dashboard(body=body)

    def dashboards_upload(self, dashboard_id: str, version: str, bundle: bytes) -> dict[str, Any]:
        return self.call(OPERATIONS["upload_dashboard_version"], dashboard_id, fields={"version": version},
                         files={"bundle": ("bundle.tar.gz", bundle, "application/gzip")})

    def usage_get(self) -> dict[str, Any]:
        return self.get_usage()

    def usage_history(self) -> Any:
        return self.get_usage_history()

    def webhooks_create(self, url: str, events: list[str], description: Optional[str] = None) -> CreatedWebhook:
        """Registers an endpoint; the answer's ``secret`` (shown once) is what verify_webhook checks with."""
        body: dict[str, Any] = {"url": url, "events": events}
        if description is not None:
            body["description"] = description
        return self.create_webhook(body=body)

    def webhooks_list(self) -> Any:
        return self.list_webhooks()

    def webhooks_deliveries(self, webhook_id: str, **query: Any) -> Any:
        return self.list_webhook_deliveries(webhook_id, **query)


class TaskCancelled(Exception):
    """``run()`` or ``wait()`` stopped because its ``cancel`` event was set (the task was cancelled)."""

    def __init__(self, task_id: str) -> None:
        super().__init__(f"task {task_id} cancelled")
        self.task_id = task_id


def _quote(value: str) -> str:
    return urllib.parse.quote(value, safe="")


for _name, _op in OPERATIONS.items():
    setattr(Client, _name, _operation_method(_name, _op))

