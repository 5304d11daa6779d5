# Pack runner for Python packs: the counterpart of runner.mjs, speaking the same frames over the
# same pipe (fd 3), started through the same sandbox chain (src/worker/runners/runner-sandbox.ts):
# own network, PID and mount namespaces, an unprivileged uid, kernel limits, and seccomp.py's
# filter, which for Python runners also refuses execve, fork and new processes, since Python has
# no permission model of its own. Its source is handed over as an argument, so it needs no file
# of its own. Standard library only.
#
# Frames: [u32 header bytes][u32 payload bytes][JSON header][payload] (runner-frames.ts). Shapes:
# runner-protocol.ts. Each command is a function `run(input, ctx)`, plain or `async def`. Plain
# functions run on a thread of their own so that the event loop keeps reading frames (hook
# answers, cancels); their `ctx` calls block and return the value, where an `async def`'s return
# awaitables.
import asyncio
import concurrent.futures
import contextvars
import errno
import importlib
import importlib.util
import inspect
import json
import os
import signal
import socket
import struct
import sys
import threading
import types

SETTINGS = json.loads(sys.argv[-1])
PACK_DIR = os.getcwd()
pack_path_set = False


def use_pack_folder():
    """The pack and its vendored dependencies first on sys.path, nothing of the host's
    site-packages (-S). Done at the first call, not at start: a spare runner is given its pack's
    files after it started (the worker's RunnerPool)."""
    global pack_path_set
    if pack_path_set:
        return
    pack_path_set = True
    vendor = os.path.join(PACK_DIR, "vendor")
    # Pure-Python wheels in vendor/ import from the archive itself (zipimport), as pip would have
    # installed them; workers have unpacked them into vendor/ already.
    wheels = sorted(os.path.join(vendor, name) for name in os.listdir(vendor) if name.endswith(".whl")) if os.path.isdir(vendor) else []
    sys.path[:] = [PACK_DIR, vendor] + wheels + [path for path in sys.path if path and path != PACK_DIR]
    importlib.invalidate_caches()

# Thread stacks are private writable memory, which RLIMIT_DATA counts: keep them small and few.
threading.stack_size(2 * 1024 * 1024)
SYNC_THREADS = 16

current_call = contextvars.ContextVar("svc_call", default=None)
loop = None
writer = None
loop_thread = None
executor = None
# id -> (Signal, asyncio.Task) of each call in progress.
calls = {}
# entry -> Future of its function, so that each module is imported once.
entries = {}
# callId -> Future of each hook awaiting the parent's answer.
pending_hooks = {}
last_hook_id = 0


def frame(header, payload=b""):
    head = json.dumps(header, separators=(",", ":")).encode("utf-8")
    if isinstance(payload, str):
        payload = payload.encode("utf-8", "replace")
    return struct.pack(">II", len(head), len(payload)) + head + payload


def send(header, payload=b""):
    data = frame(header, payload)
    if threading.get_ident() == loop_thread:
        writer.write(data)
    else:
        loop.call_soon_threadsafe(writer.write, data)


def describe(error):
    described = {"type": type(error).__name__, "message": str(error) or type(error).__name__}
    code = getattr(error, "code", None)
    if isinstance(error, OSError) and error.errno in errno.errorcode:
        code = errno.errorcode[error.errno]
    if isinstance(code, str):
        described["code"] = code
    return described


class PackOutput:
    """sys.stdout and sys.stderr: text travels over the channel, attributed to the call that wrote it."""

    def __init__(self, level):
        self.level = level
        self.encoding = "utf-8"

    def write(self, text):
        text = str(text)
        if text.strip():
            send({"type": "log", "id": current_call.get(), "level": self.level}, text)
        return len(text)

    def flush(self):
        pass

    def isatty(self):
        return False


sys.stdout = PackOutput("info")
sys.stderr = PackOutput("warn")


class Signal:
    """`ctx.signal`: set when the call is cancelled or times out. Long loops should look at it."""

    def __init__(self):
        self.aborted = False
        self.reason = None

    def throw_if_aborted(self):
        if self.aborted:
            raise CancelledCommand(self.reason or "The command was cancelled")


class CancelledCommand(Exception):
    pass


class PlatformError(Exception):
    """A `ctx` call the platform refused; its class name is the platform's error type."""

    def __init__(self, message, code=None):
        super().__init__(message)
        self.code = code


platform_errors = {}


def platform_error(description):
    name = str(description.get("type") or "PlatformError")
    cls = platform_errors.get(name)
    if cls is None:
        cls = type(name if name.isidentifier() else "PlatformError", (PlatformError,), {})
        platform_errors[name] = cls
    return cls(str(description.get("message", "")), description.get("code"))


async def call_hook(call_id, hook, args):
    global last_hook_id
    last_hook_id += 1
    hook_id = last_hook_id
    future = loop.create_future()
    pending_hooks[hook_id] = future
    send({"type": "hook", "id": call_id, "callId": hook_id, "hook": hook}, json.dumps(args, allow_nan=False))
    return await future


def settle_hook(header, payload):
    future = pending_hooks.pop(header.get("callId"), None)
    if future is None or future.done():
        return
    if header.get("ok"):
        future.set_result(json.loads(payload) if payload else None)
    else:
        future.set_exception(platform_error(header.get("error") or {}))


class Capability:
    """Calls back to the worker: awaitable from `async def`, blocking from a plain function."""

    def __init__(self, call_id):
        self._call_id = call_id

    def _hook(self, name, args):
        coroutine = call_hook(self._call_id, name, args)
        if threading.get_ident() == loop_thread:
            return coroutine
        return asyncio.run_coroutine_threadsafe(coroutine, loop).result()


def _without_none(values):
    return {key: value for key, value in values.items() if value is not None}


class Storage(Capability):
    def get(self, key):
        return self._hook("storage.get", {"key": key})

    def put(self, key, value, ttl=None):
        return self._hook("storage.put", _without_none({"key": key, "value": value, "ttl": ttl}))

    def delete(self, key):
        return self._hook("storage.delete", {"key": key})

    def list(self, prefix=None, limit=None):
        return self._hook("storage.list", _without_none({"prefix": prefix, "limit": limit}))


class Ssh(Capability):
    def exec(self, target, command, timeout=None):
        """`timeout` in milliseconds, as in Node packs."""
        return self._hook("ssh.exec", _without_none({"target": target, "command": command, "timeoutMs": timeout}))


class Usage(Capability):
    def llm(self, model, input, output, byok=None):
        return self._hook("usage.llm", _without_none({"model": model, "input": input, "output": output, "byok": byok}))


class Log:
    def __init__(self, call_id):
        self._call_id = call_id

    def _send(self, level, args):
        send({"type": "log", "id": self._call_id, "level": level}, " ".join(str(arg) for arg in args))

    def debug(self, *args):
        self._send("debug", args)

    def info(self, *args):
        self._send("info", args)

    def warn(self, *args):
        self._send("warn", args)

    warning = warn

    def error(self, *args):
        self._send("error", args)


class Context:
    """`ctx`: who the call is for, and what it may ask of the platform."""

    def __init__(self, call_id, context, cancel_signal):
        self.tenant = context.get("tenant")
        self.user = context.get("user")
        self.correlation_id = context.get("correlationId")
        # The run's trace (W3C traceparent) when the platform traces, to pass on to what the command calls.
        self.traceparent = context.get("traceparent")
        # The caller's secrets of this pack, only those it declares (empty when it declares none).
        self.secrets = types.MappingProxyType(dict(context.get("secrets") or {}))
        self.signal = cancel_signal
        self.log = Log(call_id)
        self.storage = Storage(call_id)
        self.ssh = Ssh(call_id)
        self.usage = Usage(call_id)
        self._fetch = Capability(call_id)

    def fetch(self, url, method=None, headers=None, body=None):
        return self._fetch._hook("net.fetch", _without_none({"url": str(url), "method": method, "headers": headers, "body": body}))


def load_function(entry):
    """`package.module:function`, or a file of the pack whose `run` is the command."""
    if ":" in entry:
        module_name, _, name = entry.partition(":")
        module = importlib.import_module(module_name)
    else:
        name = "run"
        module_name = "svc_pack_entry_%d" % len(sys.modules)
        spec = importlib.util.spec_from_file_location(module_name, os.path.join(PACK_DIR, entry))
        if spec is None or spec.loader is None:
            raise ImportError("%s is not a Python module" % entry)
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        spec.loader.exec_module(module)
    function = getattr(module, name, None)
    if not callable(function):
        raise TypeError("%s does not define a command function %s(input, ctx)" % (entry, name))
    return function


def function_of(entry):
    future = entries.get(entry)
    if future is None:
        use_pack_folder()
        # Imported on a thread: a module that loops at import time must not stop the channel.
        future = asyncio.ensure_future(loop.run_in_executor(executor, load_function, entry))
        entries[entry] = future
    return future


def send_result(call_id, value):
    text = json.dumps(value, allow_nan=False)
    size = len(text.encode("utf-8"))
    limit = SETTINGS["resultLimitBytes"]
    if size > limit:
        message = "Command result is %d bytes of JSON, more than the limit of %d" % (size, limit)
        return send({"type": "result", "id": call_id, "ok": False, "error": {"type": "ResultTooLargeError", "message": message}})
    send({"type": "result", "id": call_id, "ok": True}, text)


async def run(header, payload, cancel_signal):
    call_id = header["id"]
    current_call.set(call_id)
    try:
        value_input = json.loads(payload) if payload else None
        function = await function_of(header["entry"])
        ctx = Context(call_id, header.get("context") or {}, cancel_signal)
        if inspect.iscoroutinefunction(function):
            value = await function(value_input, ctx)
        else:
            context = contextvars.copy_context()
            value = await loop.run_in_executor(executor, context.run, function, value_input, ctx)
            if inspect.isawaitable(value):
                value = await value
        send_result(call_id, value)
    except BaseException as error:  # noqa: BLE001 - everything a pack raises is its answer
        send({"type": "result", "id": call_id, "ok": False, "error": describe(error)})
    finally:
        calls.pop(call_id, None)


def start_run(header, payload):
    cancel_signal = Signal()
    task = loop.create_task(run(header, payload, cancel_signal))
    calls[header["id"]] = (cancel_signal, task)


def cancel(header):
    found = calls.get(header.get("id"))
    if found is None:
        return
    cancel_signal, task = found
    cancel_signal.aborted = True
    cancel_signal.reason = "The command timed out" if header.get("reason") == "timeout" else "The command was cancelled"
    # An `async def` stops at its next await; a plain function runs on until it looks at
    # ctx.signal or its runner is killed.
    task.cancel()


def on_frame(header, payload):
    kind = header.get("type")
    if kind == "run":
        start_run(header, payload)
    elif kind == "cancel":
        cancel(header)
    elif kind == "hook-result":
        settle_hook(header, payload)


def watch_memory():
    """Only where the kernel's memory limit could not be set (see runner.mjs)."""
    limit = SETTINGS.get("rssLimitBytes", 0)
    page = os.sysconf("SC_PAGE_SIZE")
    with open("/proc/self/statm") as statm:
        resident = int(statm.read().split()[1]) * page
    if resident > limit:
        os._exit(SETTINGS["memoryExitCode"])
    loop.call_later(0.2, watch_memory)


async def main():
    global loop, writer, loop_thread, executor
    loop = asyncio.get_running_loop()
    loop_thread = threading.get_ident()
    executor = concurrent.futures.ThreadPoolExecutor(max_workers=SYNC_THREADS, thread_name_prefix="svc-command")
    reader, writer = await asyncio.open_connection(sock=socket.socket(fileno=3))
    # RLIMIT_CPU's soft limit: ask to be retired; the kernel kills the runner at the hard limit.
    loop.add_signal_handler(signal.SIGXCPU, lambda: send({"type": "cpu-exhausted"}))
    if SETTINGS.get("rssLimitBytes", 0) > 0 and os.path.exists("/proc/self/statm"):
        watch_memory()
    send({"type": "ready"})
    # The service is trusted: frames are read without limits.
    while True:
        try:
            prefix = await reader.readexactly(8)
            header_bytes, payload_bytes = struct.unpack(">II", prefix)
            header = json.loads(await reader.readexactly(header_bytes))
            payload = await reader.readexactly(payload_bytes) if payload_bytes else b""
        except (asyncio.IncompleteReadError, ConnectionError, OSError):
            # The service is gone: nobody can use our answers any more.
            os._exit(0)
        on_frame(header, payload)


asyncio.run(main())
