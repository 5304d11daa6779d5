// Pack runner: a child process of the execution service that serves the commands of one pack
// version over IPC. It is started with Node's permission model (reads limited to the pack
// folder, no writes, no child processes, no workers), a heap ceiling and an empty environment.
// The message shapes are described in src/runners/runner-protocol.ts.
import { AsyncLocalStorage } from 'node:async_hooks';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { format } from 'node:util';

const settings = JSON.parse(process.argv[2]);
const send = process.send.bind(process);
const memoryUsage = process.memoryUsage.rss;
// process.exit runs 'exit' listeners that pack code may have added to keep the process alive;
// the native exit captured before any pack code loads cannot be intercepted.
const exit = process.reallyExit.bind(process);

/** id of the call whose code is running, so console output is attributed to it. */
const currentCall = new AsyncLocalStorage();
/** id → AbortController of each call in progress. */
const calls = new Map();
/** entry path → Promise of its default export, so each module is imported once. */
const entries = new Map();
/** callId → {resolve, reject} of each hook awaiting the parent's answer. */
const pendingHooks = new Map();
let lastHookId = 0;

// The permission model does not cover signals: without this a pack could kill the service.
const denySignals = () => {
  throw Object.assign(new Error('Sending signals is not allowed in a pack'), { code: 'ERR_ACCESS_DENIED' });
};
for (const name of ['kill', '_kill']) Object.defineProperty(process, name, { value: denySignals, writable: false, configurable: false });

// Off-heap memory (Buffers, ArrayBuffers) escapes --max-old-space-size; watch the whole process.
setInterval(() => {
  if (memoryUsage() > settings.rssLimitBytes) exit(settings.memoryExitCode);
}, 200).unref();

function describe(error) {
  if (!(error instanceof Error)) return { type: 'Error', message: String(error) };
  const type = error.constructor?.name && error.constructor.name !== 'Error' ? error.constructor.name : error.name;
  return typeof error.code === 'string' ? { type, message: error.message, code: error.code } : { type, message: error.message };
}

function log(id, level, args) {
  send({ type: 'log', id, level, message: format(...args) });
}

// Console and standard streams travel over IPC like ctx.log, so each line is attributed to the
// call that wrote it; the pipes only carry what bypasses them (crash reports, fatal errors).
const consoleLevels = { debug: 'debug', trace: 'debug', log: 'info', info: 'info', warn: 'warn', error: 'error' };
for (const [method, level] of Object.entries(consoleLevels)) {
  console[method] = (...args) => log(currentCall.getStore() ?? null, level, args);
}
for (const [stream, level] of [[process.stdout, 'info'], [process.stderr, 'warn']]) {
  stream.write = (chunk, encoding, done) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    send({ type: 'log', id: currentCall.getStore() ?? null, level, message: text });
    (typeof encoding === 'function' ? encoding : done)?.();
    return true;
  };
}

function callHook(id, hook, args) {
  lastHookId += 1;
  const callId = lastHookId;
  return new Promise((resolvePromise, reject) => {
    pendingHooks.set(callId, { resolve: resolvePromise, reject });
    send({ type: 'hook', id, callId, hook, args });
  });
}

function settleHook(message) {
  const pending = pendingHooks.get(message.callId);
  if (!pending) return;
  pendingHooks.delete(message.callId);
  if (message.ok) return pending.resolve(message.value);
  const error = new Error(message.error.message);
  error.name = message.error.type;
  if (message.error.code) error.code = message.error.code;
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
    // The caller's secrets of this pack, only those it declares (empty when it declares none).
    secrets: Object.freeze({ ...context.secrets }),
    storage: {
      get: (key) => hook('storage.get', { key }),
      put: (key, value, options = {}) => hook('storage.put', { key, value, ttl: options.ttl }),
      delete: (key) => hook('storage.delete', { key }),
      list: (options = {}) => hook('storage.list', { prefix: options.prefix, limit: options.limit }),
    },
    ssh: {
      exec: (target, command, options = {}) => hook('ssh.exec', { target, command, timeoutMs: options.timeoutMs }),
    },
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
  send({ type: 'result', id, ok: true, json });
}

async function run({ id, entry, input, context }) {
  const controller = new AbortController();
  calls.set(id, controller);
  try {
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

process.on('message', (message) => {
  if (message.type === 'run') return void run(message);
  if (message.type === 'cancel') return cancel(message);
  if (message.type === 'hook-result') return settleHook(message);
});
// The service is gone: nobody can use our answers any more.
process.on('disconnect', () => exit(0));
send({ type: 'ready' });
