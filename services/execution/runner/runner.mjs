// Pack runner: a child process of the execution service that serves the commands of one pack
// version. It is started inside the worker's sandbox (own network and PID namespaces, an
// unprivileged uid, kernel limits: src/runners/runner-sandbox.ts) with Node's permission model
// (reads limited to the pack folder, no writes, no child processes, no workers), a heap ceiling
// and an empty environment. It is handed to `node -e`, so it needs no file of its own.
//
// It talks to the service over the pipe on fd 3 in frames (src/runners/runner-frames.ts):
// [u32 header bytes][u32 payload bytes][JSON header][payload]. Inputs, results and hook values
// travel as JSON text in the payload, which JSON.parse reads at any depth without recursing.
// The message shapes are described in src/runners/runner-protocol.ts.
import { AsyncLocalStorage } from 'node:async_hooks';
import { Socket } from 'node:net';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { format } from 'node:util';

const settings = JSON.parse(process.argv.at(-1));
const memoryUsage = process.memoryUsage.rss;
// process.exit runs 'exit' listeners that pack code may have added to keep the process alive;
// the native exit captured before any pack code loads cannot be intercepted.
const exit = process.reallyExit.bind(process);
const channel = new Socket({ fd: 3, readable: true, writable: true });

/** id of the call whose code is running, so console output is attributed to it. */
const currentCall = new AsyncLocalStorage();
/** id → AbortController of each call in progress. */
const calls = new Map();
/** entry path → Promise of its default export, so each module is imported once. */
const entries = new Map();
/** callId → {resolve, reject} of each hook awaiting the parent's answer. */
const pendingHooks = new Map();
let lastHookId = 0;

function send(header, payload = '') {
  const head = Buffer.from(JSON.stringify(header));
  const body = Buffer.from(payload);
  const prefix = Buffer.allocUnsafe(8);
  prefix.writeUInt32BE(head.length, 0);
  prefix.writeUInt32BE(body.length, 4);
  channel.write(Buffer.concat([prefix, head, body]));
}

// The permission model does not cover signals: without this a pack could signal any process
// its uid may (the PID namespace already hides every process but itself).
const denySignals = () => {
  throw Object.assign(new Error('Sending signals is not allowed in a pack'), { code: 'ERR_ACCESS_DENIED' });
};
for (const name of ['kill', '_kill']) Object.defineProperty(process, name, { value: denySignals, writable: false, configurable: false });

// Only where the kernel's memory limit could not be set: off-heap memory (Buffers) escapes
// --max-old-space-size, so watch the whole process (a timer, which a busy loop delays).
if (settings.rssLimitBytes > 0) {
  setInterval(() => {
    if (memoryUsage() > settings.rssLimitBytes) exit(settings.memoryExitCode);
  }, 200).unref();
}

// RLIMIT_CPU's soft limit: ask to be retired; the kernel kills the runner at the hard limit.
process.on('SIGXCPU', () => send({ type: 'cpu-exhausted' }));

function describe(error) {
  if (!(error instanceof Error)) return { type: 'Error', message: String(error) };
  const type = error.constructor?.name && error.constructor.name !== 'Error' ? error.constructor.name : error.name;
  return typeof error.code === 'string' ? { type, message: error.message, code: error.code } : { type, message: error.message };
}

function log(id, level, args) {
  send({ type: 'log', id, level }, format(...args));
}

// Console and standard streams travel over the channel like ctx.log, so each line is attributed
// to the call that wrote it; the pipes only carry what bypasses them (crash reports, fatal errors).
const consoleLevels = { debug: 'debug', trace: 'debug', log: 'info', info: 'info', warn: 'warn', error: 'error' };
for (const [method, level] of Object.entries(consoleLevels)) {
  console[method] = (...args) => log(currentCall.getStore() ?? null, level, args);
}
for (const [stream, level] of [[process.stdout, 'info'], [process.stderr, 'warn']]) {
  stream.write = (chunk, encoding, done) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    send({ type: 'log', id: currentCall.getStore() ?? null, level }, text);
    (typeof encoding === 'function' ? encoding : done)?.();
    return true;
  };
}

function callHook(id, hook, args) {
  lastHookId += 1;
  const callId = lastHookId;
  return new Promise((resolvePromise, reject) => {
    pendingHooks.set(callId, { resolve: resolvePromise, reject });
    send({ type: 'hook', id, callId, hook }, JSON.stringify(args ?? null));
  });
}

function settleHook(header, payload) {
  const pending = pendingHooks.get(header.callId);
  if (!pending) return;
  pendingHooks.delete(header.callId);
  if (header.ok) return pending.resolve(payload.length > 0 ? JSON.parse(payload.toString('utf8')) : undefined);
  const error = new Error(header.error.message);
  error.name = header.error.type;
  if (header.error.code) error.code = header.error.code;
  pending.reject(error);
}

function commandContext(id, context, signal) {
  const hook = (name, args) => callHook(id, name, args);
  return {
    log: {
      debug: (...args) => log(id, 'debug', args),
      info: (...args) => log(id, 'info', args),
      warn: (...args) => log(id, 'warn', args),
      error: (...args) => log(id, 'error', args),
    },
    signal,
    tenant: context.tenant,
    user: context.user,
    correlationId: context.correlationId,
    // The run's trace (W3C traceparent) when the platform traces, to pass on to what the command calls.
    traceparent: context.traceparent,
    // The caller's secrets of this pack, only those it declares (empty when it declares none).
    secrets: Object.freeze({ ...context.secrets }),
    storage: {
      get: (key) => hook('storage.get', { key }),
      put: (key, value, options = {}) => hook('storage.put', { key, value, ttl: options.ttl }),
      delete: (key) => hook('storage.delete', { key }),
      list: (options = {}) => hook('storage.list', { prefix: options.prefix, limit: options.limit }),
    },
    ssh: {
      // `timeout` (ms, as Node's child_process.exec names it); `timeoutMs` as ctx.fetch names it.
      exec: (target, command, options = {}) => hook('ssh.exec', { target, command, timeoutMs: options.timeout ?? options.timeoutMs }),
    },
    usage: {
      llm: (report = {}) => hook('usage.llm', { model: report.model, input: report.input, output: report.output, byok: report.byok }).then(() => undefined),
    },
    fetch: (url, options = {}) => hook('net.fetch', { url: String(url), method: options.method, headers: options.headers, body: options.body }),
    progress: (done, total, message) => hook('task.progress', { done, total, message }).then(() => undefined),
  };
}

async function importHandler(entry) {
  const module = await import(pathToFileURL(resolve(entry)).href);
  if (typeof module.default !== 'function') throw new TypeError(`${entry} does not export a command function as default`);
  return module.default;
}

function handlerOf(entry) {
  let handler = entries.get(entry);
  if (!handler) {
    handler = importHandler(entry);
    entries.set(entry, handler);
  }
  return handler;
}

function sendResult(id, value) {
  const json = JSON.stringify(value) ?? 'null';
  const size = Buffer.byteLength(json);
  if (size > settings.resultLimitBytes) {
    const message = `Command result is ${size} bytes of JSON, more than the limit of ${settings.resultLimitBytes}`;
    return send({ type: 'result', id, ok: false, error: { type: 'ResultTooLargeError', message } });
  }
  send({ type: 'result', id, ok: true }, json);
}

async function run(header, payload) {
  const { id, entry, context } = header;
  const controller = new AbortController();
  calls.set(id, controller);
  try {
    const input = JSON.parse(payload.toString('utf8'));
    const handler = await handlerOf(entry);
    const value = await currentCall.run(id, () => handler(input, commandContext(id, context, controller.signal)));
    sendResult(id, value);
  } catch (error) {
    send({ type: 'result', id, ok: false, error: describe(error) });
  } finally {
    calls.delete(id);
  }
}

function cancel({ id, reason }) {
  const message = reason === 'timeout' ? 'The command timed out' : 'The command was cancelled';
  calls.get(id)?.abort(new DOMException(message, reason === 'timeout' ? 'TimeoutError' : 'AbortError'));
}

function onFrame(header, payload) {
  if (header.type === 'run') return void run(header, payload);
  if (header.type === 'cancel') return cancel(header);
  if (header.type === 'hook-result') return settleHook(header, payload);
}

// The service is trusted: frames are read without limits.
let pending = Buffer.alloc(0);
channel.on('data', (chunk) => {
  pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
  while (pending.length >= 8) {
    const headerBytes = pending.readUInt32BE(0);
    const total = 8 + headerBytes + pending.readUInt32BE(4);
    if (pending.length < total) return;
    const header = JSON.parse(pending.toString('utf8', 8, 8 + headerBytes));
    const payload = pending.subarray(8 + headerBytes, total);
    pending = pending.subarray(total);
    onFrame(header, payload);
  }
});
// The service is gone: nobody can use our answers any more.
channel.on('close', () => exit(0));
channel.on('error', () => exit(0));
send({ type: 'ready' });
