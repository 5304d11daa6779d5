import Ajv2020 from 'ajv/dist/2020.js';
import semver from 'semver';
import { parseDocument } from 'yaml';
import { issuesFromAjv, type SchemaIssue } from './ajv-issues.js';
import { InputValidationTimeoutError } from './bounded-validation.js';
import { PackFormatError, type PackErrorCode } from './errors.js';
import { compileInputSchema, InputSchemaError, type InputValidator } from './input-schema.js';
import { DEFAULT_TIMEOUT_SECONDS, MAX_MANIFEST_BYTES, MAX_TOOL_NAME_LENGTH, QUEUE_MAX_TIMEOUT_SECONDS, QUEUES, type Queue, type Runtime } from './limits.js';
import { PACK_MANIFEST_SCHEMA } from './manifest-schema.js';
import { toolName, type Visibility } from './names.js';
import { checkPackagePath } from './paths.js';
import { cronProblem, timezoneProblem, type ProposedSchedule } from './schedule.js';
import { isPythonRange } from './python-range.js';

export const MANIFEST_FILE = 'pack.yaml';

export interface CommandExample {
  description: string;
  input: Record<string, unknown>;
}

/**
 * Hints about a command for agents, passed through to its MCP tool (`annotations`): the
 * protocol's defaults apply to any left out (not read-only, destructive, not idempotent, open world).
 */
export interface CommandAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** The UI of a command: a dashboard (by name) in the pack's own namespace. */
export interface CommandUi {
  dashboard: string;
}

/** A command as the platform keeps it: every default applied. */
export interface CommandManifest {
  name: string;
  description: string;
  /**
   * Node: path of the ES module inside the package whose default export is the handler. Python:
   * `package.module:function`, or the path of a `.py` file whose `run` is the handler.
   */
  entry: string;
  input_schema: Record<string, unknown>;
  /** JSON Schema (root `type: object`) of the result; results are checked against it, and MCP answers them as `structuredContent`. */
  output_schema: Record<string, unknown> | null;
  annotations: CommandAnnotations;
  /**
   * A dashboard of the pack's namespace that is the command's UI (`ui: {dashboard: <name>}`):
   * the MCP endpoint offers it to hosts that render MCP Apps, beside the tool's result.
   */
  ui: CommandUi | null;
  /** Seconds. */
  timeout: number;
  retries: number;
  queue: Queue;
  tags: string[];
  examples: CommandExample[];
}

/**
 * What a pack may reach beyond the platform. Without `egress: true` its code has no network at
 * all; with it, `ctx.fetch` makes HTTP(S) requests through the worker to public addresses only,
 * and only to `hosts` when they are listed (`*.example.com` for every name under one).
 */
export interface PackNetwork {
  egress: boolean;
  hosts: string[];
}

/** The caller's SSH targets a pack may run commands on through `ctx.ssh.exec`: names, or `*` for all. */
export interface PackSshTargets {
  allowed: string[];
}

export interface PackManifest {
  schema_version: 1;
  pack: { namespace: string; name: string; version: string; description: string; visibility: Visibility };
  /** What runs the commands; `node` unless the manifest says `python`. */
  runtime: Runtime;
  /** The Python versions a Python pack runs on (`>=3.10`, PEP 440 form); null when it names none. */
  python: string | null;
  commands: CommandManifest[];
  /** Names of the secrets its commands read as `ctx.secrets.NAME`; only these are handed to them. */
  secrets: string[];
  network: PackNetwork;
  ssh_targets: PackSshTargets;
  /** Schedules the pack proposes; each tenant that installs it gets them, paused. */
  schedules: ProposedSchedule[];
}

/** The `pack.yaml` fields as written, before defaults. */
interface RawCommand {
  name: string;
  description?: string;
  entry: string;
  input_schema: Record<string, unknown>;
  output_schema?: Record<string, unknown>;
  annotations?: CommandAnnotations;
  ui?: CommandUi;
  timeout?: number;
  retries?: number;
  queue?: Queue;
  tags?: string[];
  examples?: Array<{ description?: string; input: Record<string, unknown> }>;
}
interface RawManifest {
  schema_version: 1;
  pack: { namespace: string; name: string; version: string; description?: string; visibility?: Visibility };
  runtime?: Runtime;
  python?: string;
  commands: RawCommand[];
  secrets?: string[];
  network?: { egress: boolean; hosts?: string[] };
  ssh_targets?: { allowed: string[] };
  schedules?: Array<{ command: string; cron: string; timezone?: string; input?: Record<string, unknown>; description?: string }>;
}

/** Weighted count of alias expansions allowed in a pack.yaml (yaml's own measure). */
const MAX_YAML_ALIASES = 100;

/** Packs are private unless they say otherwise, so nothing is published to everyone by mistake. */
export const DEFAULT_VISIBILITY: Visibility = 'private';

/** One problem of a package: its code, the field of `pack.yaml` it is about, what is wrong; `command` and `entry` for a missing entry. */
export interface ManifestIssue {
  code: PackErrorCode;
  field: string;
  message: string;
  command?: string;
  entry?: string;
}
type Issue = ManifestIssue;

let manifestValidator: ReturnType<Ajv2020['compile']> | undefined;
function validateShape(document: unknown) {
  manifestValidator ??= new Ajv2020({ allErrors: true, strict: true, logger: false }).compile(PACK_MANIFEST_SCHEMA);
  return manifestValidator(document) ? [] : issuesFromAjv(manifestValidator.errors);
}

/** The queue a command runs on when `pack.yaml` does not name one: the shortest that fits its timeout. */
export function queueForTimeout(timeoutSeconds: number): Queue {
  return QUEUES.find((queue) => timeoutSeconds <= QUEUE_MAX_TIMEOUT_SECONDS[queue]) ?? 'long';
}

/**
 * The one error of a package's problems: the first in the message (with how many more) and its
 * code; every one in `details.issues`, so that an author fixes them all at once.
 */
export function manifestFailure(issues: ManifestIssue[]): PackFormatError {
  const [{ code, field, message, ...about }] = issues as [Issue, ...Issue[]];
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return new PackFormatError(code, `${MANIFEST_FILE}: ${field}: ${message}${more}`, {
    ...about,
    field,
    issue: message,
    issues: issues.map((issue) => ({ code: issue.code, field: issue.field, message: issue.message })),
  });
}

function fail(issues: Issue[]): never {
  throw manifestFailure(issues);
}

function readYaml(text: string): unknown {
  if (Buffer.byteLength(text) > MAX_MANIFEST_BYTES) {
    // A manifest the format refuses (400), not a request too large to read: the package itself fitted.
    throw new PackFormatError('MANIFEST_INVALID', `${MANIFEST_FILE} is larger than ${MAX_MANIFEST_BYTES} bytes`, { field: MANIFEST_FILE, limit_bytes: MAX_MANIFEST_BYTES });
  }
  const document = parseDocument(text, { uniqueKeys: true, prettyErrors: true });
  const [error] = document.errors;
  if (error) {
    const line = error.linePos?.[0]?.line;
    fail([{ code: 'MANIFEST_INVALID', field: line ? `line ${line}` : '(root)', message: `is not valid YAML: ${error.message.split('\n')[0]}` }]);
  }
  try {
    // Aliases can expand a small file into a huge object (the "billion laughs").
    return document.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (err) {
    fail([{ code: 'MANIFEST_INVALID', field: '(root)', message: `is not usable YAML: ${(err as Error).message}` }]);
  }
}

/** Where the first string or key holding U+0000 is (Postgres cannot store one in text or jsonb). */
function nulAt(value: unknown, at: string): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? at : undefined;
  if (!value || typeof value !== 'object') return undefined;
  for (const [key, item] of Object.entries(value)) {
    const field = at ? `${at}.${key}` : key;
    if (key.includes('\u0000')) return field;
    const found = nulAt(item, field);
    if (found) return found;
  }
  return undefined;
}

function normalise(raw: RawCommand, entry: string): CommandManifest {
  const timeout = raw.timeout ?? DEFAULT_TIMEOUT_SECONDS;
  return {
    name: raw.name,
    description: raw.description ?? '',
    entry,
    input_schema: raw.input_schema,
    output_schema: raw.output_schema ?? null,
    annotations: raw.annotations ?? {},
    ui: raw.ui ?? null,
    timeout,
    retries: raw.retries ?? 0,
    queue: raw.queue ?? queueForTimeout(timeout),
    tags: raw.tags ?? [],
    examples: (raw.examples ?? []).map((example) => ({ description: example.description ?? '', input: example.input })),
  };
}

/** An `output_schema` must be a usable JSON Schema whose root is an object, as MCP's `outputSchema` is. */
function outputSchemaIssues(schema: Record<string, unknown>, field: string): Issue[] {
  if (schema.type !== 'object') return [{ code: 'MANIFEST_INVALID', field, message: 'the root of output_schema must have type: object' }];
  try {
    compileInputSchema(schema);
    return [];
  } catch (err) {
    if (!(err instanceof InputSchemaError)) throw err;
    return [{ code: 'MANIFEST_INVALID', field, message: `is not a valid JSON Schema: ${err.message}` }];
  }
}

/** A Python entry naming a function of a module: `package.module:function`. */
export const PYTHON_MODULE_ENTRY = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*:[A-Za-z_][A-Za-z0-9_]*$/;

/** The entry in its normalised form, or the issue with it: an ES module for Node, a module function or `.py` file for Python. */
function checkEntry(entry: string, runtime: Runtime, field: string): { entry: string; issue?: Issue } {
  if (runtime === 'python' && PYTHON_MODULE_ENTRY.test(entry)) return { entry };
  const path = checkPackagePath(entry);
  if (path.problem) return { entry, issue: { code: 'PACKAGE_PATH_INVALID', field, message: `"${entry}" ${path.problem}` } };
  const form = runtime === 'python' ? /\.py$/ : /\.m?js$/;
  if (!form.test(entry)) {
    const expected = runtime === 'python' ? 'a Python function as package.module:function, or a .py file whose run(input, ctx) is the command' : 'a JavaScript module (.js or .mjs)';
    return { entry, issue: { code: 'MANIFEST_INVALID', field, message: `"${entry}" must name ${expected}` } };
  }
  return { entry: path.path ?? entry };
}

/**
 * The package files an entry's code may be in, any one of which must be there: the file itself,
 * or for `package.module:function` the module's `.py` file or its package's `__init__.py`.
 */
export function entryFiles(entry: string): string[] {
  if (!PYTHON_MODULE_ENTRY.test(entry)) return [entry];
  const module = entry.slice(0, entry.indexOf(':')).replaceAll('.', '/');
  return [`${module}.py`, `${module}/__init__.py`];
}

/** Checks one command beyond what the schema can say; returns its normalised form and its issues. */
function checkCommand(raw: RawCommand, index: number, manifest: RawManifest): { command: CommandManifest; issues: Issue[] } {
  const at = `commands.${index}`;
  const { pack } = manifest;
  const issues: Issue[] = [];
  const tool = toolName(pack.namespace, pack.name, raw.name);
  if (tool.length > MAX_TOOL_NAME_LENGTH) {
    issues.push({ code: 'MANIFEST_INVALID', field: `${at}.name`, message: `makes the MCP tool name "${tool}" ${tool.length} characters long; at most ${MAX_TOOL_NAME_LENGTH} are allowed` });
  }
  const entry = checkEntry(raw.entry, manifest.runtime ?? 'node', `${at}.entry`);
  if (entry.issue) issues.push(entry.issue);
  const command = normalise(raw, entry.entry);
  if (raw.queue && command.timeout > QUEUE_MAX_TIMEOUT_SECONDS[raw.queue]) {
    issues.push({ code: 'MANIFEST_INVALID', field: `${at}.timeout`, message: `${command.timeout} s is more than the ${raw.queue} queue allows (${QUEUE_MAX_TIMEOUT_SECONDS[raw.queue]} s)` });
  }
  let validate: InputValidator | undefined;
  try {
    validate = compileInputSchema(raw.input_schema);
  } catch (err) {
    if (!(err instanceof InputSchemaError)) throw err;
    issues.push({ code: 'INPUT_SCHEMA_INVALID', field: `${at}.input_schema`, message: `is not a valid JSON Schema: ${err.message}` });
  }
  if (raw.output_schema) issues.push(...outputSchemaIssues(raw.output_schema, `${at}.output_schema`));
  command.examples.forEach((example, n) => {
    let problems: SchemaIssue[];
    try {
      problems = validate?.(example.input) ?? [];
    } catch (err) {
      if (!(err instanceof InputValidationTimeoutError)) throw err;
      problems = [{ field: '(root)', message: err.message }];
    }
    if (problems.length > 0) {
      const [problem] = problems as [(typeof problems)[0]];
      issues.push({ code: 'MANIFEST_INVALID', field: `${at}.examples.${n}.input`, message: `does not match input_schema: ${problem.field}: ${problem.message}` });
    }
  });
  return { command, issues };
}

/**
 * Parses and validates the text of a `pack.yaml`: YAML syntax, no U+0000 in any text, the
 * manifest's JSON Schema, a real semver version, unique command names, MCP tool-name length, entry paths that stay
 * inside the package, timeouts that fit the queue, each `input_schema` (draft 2020-12 or
 * draft-07) and the examples against it. Returns the manifest with every default applied, or
 * throws a PackFormatError whose `details.issues` lists every problem found.
 *
 * @example
 *   const manifest = parseManifest(readFileSync('pack.yaml', 'utf8'));
 *   manifest.commands[0].queue; // 'fast' when the timeout is 30 s or less and no queue is named
 */
export function parseManifest(text: string): PackManifest {
  const document = readYaml(text);
  const nul = nulAt(document, '');
  if (nul !== undefined) fail([{ code: 'MANIFEST_INVALID', field: nul || '(root)', message: 'must not contain the NUL character (U+0000)' }]);
  const shapeIssues = validateShape(document);
  if (shapeIssues.length > 0) fail(shapeIssues.map((issue) => ({ code: 'MANIFEST_INVALID', ...issue })));
  const raw = document as RawManifest;

  const issues: Issue[] = [];
  if (semver.valid(raw.pack.version) !== raw.pack.version) {
    issues.push({ code: 'MANIFEST_INVALID', field: 'pack.version', message: `"${raw.pack.version}" is not a semver version such as 1.2.0` });
  }
  const seen = new Set<string>();
  const commands = raw.commands.map((command, index) => {
    if (seen.has(command.name)) issues.push({ code: 'MANIFEST_INVALID', field: `commands.${index}.name`, message: `"${command.name}" is declared twice` });
    seen.add(command.name);
    const checked = checkCommand(command, index, raw);
    issues.push(...checked.issues);
    return checked.command;
  });
  const schedules = (raw.schedules ?? []).map((proposed, index) => {
    const schedule = { command: proposed.command, cron: proposed.cron, timezone: proposed.timezone ?? 'UTC', input: proposed.input ?? {}, description: proposed.description ?? '' };
    issues.push(...checkSchedule(schedule, `schedules.${index}`, commands));
    return schedule;
  });
  if (raw.python !== undefined && raw.runtime !== 'python') {
    issues.push({ code: 'MANIFEST_INVALID', field: 'python', message: 'is for Python packs: add runtime: python, or remove it' });
  } else if (raw.python !== undefined && !isPythonRange(raw.python)) {
    issues.push({ code: 'MANIFEST_INVALID', field: 'python', message: `"${raw.python}" is not a Python version range such as ">=3.10" or ">=3.10,<3.13"` });
  }
  if (issues.length > 0) fail(issues);

  return {
    schema_version: 1,
    pack: {
      namespace: raw.pack.namespace,
      name: raw.pack.name,
      version: raw.pack.version,
      description: raw.pack.description ?? '',
      visibility: raw.pack.visibility ?? DEFAULT_VISIBILITY,
    },
    runtime: raw.runtime ?? 'node',
    python: raw.python ?? null,
    commands,
    secrets: raw.secrets ?? [],
    network: { egress: raw.network?.egress ?? false, hosts: raw.network?.hosts ?? [] },
    ssh_targets: { allowed: raw.ssh_targets?.allowed ?? [] },
    schedules,
  };
}

/** A proposed schedule names a command of this pack, a usable time zone and cron, and an input its command takes. */
function checkSchedule(schedule: ProposedSchedule, at: string, commands: CommandManifest[]): Issue[] {
  const command = commands.find((c) => c.name === schedule.command);
  if (!command) return [{ code: 'MANIFEST_INVALID', field: `${at}.command`, message: `"${schedule.command}" is not a command of this pack` }];
  const zone = timezoneProblem(schedule.timezone);
  if (zone) return [{ code: 'MANIFEST_INVALID', field: `${at}.timezone`, message: zone }];
  const cron = cronProblem(schedule.cron, schedule.timezone);
  if (cron) return [{ code: 'MANIFEST_INVALID', field: `${at}.cron`, message: cron }];
  let problems: SchemaIssue[];
  try {
    problems = compileInputSchema(command.input_schema)(schedule.input);
  } catch (err) {
    // A schema that does not compile is the command's own issue; one too slow for this input is this input's.
    if (err instanceof InputSchemaError) return [];
    if (!(err instanceof InputValidationTimeoutError)) throw err;
    problems = [{ field: '(root)', message: err.message }];
  }
  const [problem] = problems;
  return problem ? [{ code: 'MANIFEST_INVALID', field: `${at}.input`, message: `does not match the input_schema of ${command.name}: ${problem.field}: ${problem.message}` }] : [];
}
