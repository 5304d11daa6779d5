import { MAX_TOOL_NAME_LENGTH, toolName } from '@svc/pack-sdk';
import type { PackTemplate } from '../choices.js';
import { packageJsonText } from '../scaffold.js';

/**
 * The files of `svc pack new` for each template. Commands are plain ES modules (no build step);
 * tests run on Node's own test runner (`svc pack test`), so a new pack needs nothing installed.
 */

export interface PackTemplateInput {
  namespace: string;
  name: string;
  author: string | undefined;
}

const CONTEXT_HELPER = `// A stand-in for the platform's command context (ctx), for unit tests of commands.
// \`svc pack dev\` and \`svc pack exec\` run commands in the platform's own runner instead.

/** ctx with in-memory storage, given secrets and a silent log. */
export function testContext({ secrets = {}, tenant = 'test-tenant', user = 'test-user' } = {}) {
  const entries = new Map();
  return {
    tenant,
    user,
    correlationId: 'test-correlation-id',
    signal: new AbortController().signal,
    secrets: Object.freeze({ ...secrets }),
    log: { debug() {}, info() {}, warn() {}, error() {} },
    storage: {
      async get(key) {
        return entries.has(key) ? { key, value: entries.get(key), created_at: new Date(0).toISOString(), expires_at: null } : null;
      },
      async put(key, value) {
        const created = !entries.has(key);
        entries.set(key, value);
        return { key, created, expires_at: null };
      },
      async delete(key) {
        return { deleted: entries.delete(key) };
      },
      async list({ prefix = '' } = {}) {
        const keys = [...entries.keys()].filter((key) => key.startsWith(prefix)).sort();
        return { keys, total: keys.length };
      },
    },
    ssh: {
      async exec() {
        throw new Error('no SSH in unit tests');
      },
    },
    // Token reports count toward nothing in unit tests.
    usage: {
      async llm() {},
    },
    // Progress reports go nowhere in unit tests.
    async progress() {},
  };
}
`;

const HELLO = `/**
 * Greets someone. A command is the default export of its entry file: it receives the input,
 * already checked against input_schema in pack.yaml, and the context (ctx), and returns
 * something JSON can carry.
 */
export default async function hello(input, ctx) {
  ctx.log.info('greeting', input.name);
  return { greeting: \`Hello, \${input.name}!\` };
}
`;

const HELLO_TEST = `import assert from 'node:assert/strict';
import { test } from 'node:test';
import hello from '../commands/hello.js';
import { testContext } from './context.js';

test('hello greets by name', async () => {
  assert.deepEqual(await hello({ name: 'Ada' }, testContext()), { greeting: 'Hello, Ada!' });
});
`;

const NOTES = `/**
 * Keeps short notes in the caller's storage: each tenant that runs the command has storage of
 * its own, so one tenant never sees another's notes.
 */
export default async function notes(input, ctx) {
  const key = \`notes:\${input.topic}\`;
  if (input.action === 'add') {
    const previous = await ctx.storage.get(key);
    const list = [...(previous?.value?.items ?? []), input.text];
    await ctx.storage.put(key, { items: list }, { ttl: 30 * 24 * 3600 });
    return { topic: input.topic, count: list.length };
  }
  const stored = await ctx.storage.get(key);
  return { topic: input.topic, items: stored?.value?.items ?? [] };
}
`;

const NOTES_TEST = `import assert from 'node:assert/strict';
import { test } from 'node:test';
import notes from '../commands/notes.js';
import { testContext } from './context.js';

test('notes keeps what is added, per topic', async () => {
  const ctx = testContext();
  await notes({ action: 'add', topic: 'ideas', text: 'a loom for numbers' }, ctx);
  assert.deepEqual(await notes({ action: 'list', topic: 'ideas' }, ctx), { topic: 'ideas', items: ['a loom for numbers'] });
  assert.deepEqual(await notes({ action: 'list', topic: 'other' }, ctx), { topic: 'other', items: [] });
});
`;

const REPORT = `/**
 * A slower command: its timeout (120 s) puts it on the medium queue, so the platform runs it as
 * a task to poll. It stops early when the run is cancelled (ctx.signal).
 */
export default async function report(input, ctx) {
  const words = input.text.split(/\\s+/).filter(Boolean);
  const counts = {};
  for (const word of words) {
    if (ctx.signal.aborted) throw new Error('cancelled');
    const lower = word.toLowerCase();
    counts[lower] = (counts[lower] ?? 0) + 1;
  }
  const top = Object.entries(counts)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, input.top ?? 5)
    .map(([word, count]) => ({ word, count }));
  return { words: words.length, top };
}
`;

const REPORT_TEST = `import assert from 'node:assert/strict';
import { test } from 'node:test';
import report from '../commands/report.js';
import { testContext } from './context.js';

test('report counts words, most frequent first', async () => {
  const result = await report({ text: 'b a b c b a', top: 2 }, testContext());
  assert.deepEqual(result, { words: 6, top: [{ word: 'b', count: 3 }, { word: 'a', count: 2 }] });
});
`;

const WHOAMI = `/**
 * Says whether a pack secret is set (\`svc secrets set PACK API_TOKEN …\`). The platform hands the
 * caller's secrets that pack.yaml declares to the command as ctx.secrets (locally, svc pack dev
 * and exec read .svc/secrets.json); never log or return them.
 */
export default async function checkSecret(input, ctx) {
  const token = ctx.secrets?.[input.name];
  return { name: input.name, present: typeof token === 'string' && token.length > 0, length: token?.length ?? 0 };
}
`;

const WHOAMI_TEST = `import assert from 'node:assert/strict';
import { test } from 'node:test';
import checkSecret from '../commands/check-secret.js';
import { testContext } from './context.js';

test('check-secret says whether a secret is set, never what it is', async () => {
  const result = await checkSecret({ name: 'API_TOKEN' }, testContext({ secrets: { API_TOKEN: 's3cret' } }));
  assert.deepEqual(result, { name: 'API_TOKEN', present: true, length: 6 });
  assert.equal(JSON.stringify(result).includes('s3cret'), false);
});
`;

/** The template's commands by role, named after the pack. */
export interface CommandNames {
  hello: string;
  notes: string;
  report: string;
  secret: string;
}

/**
 * Command names are unique within a namespace, so a template's commands are named after the
 * pack (`<pack>-hello`, `<pack>-notes`, …): two packs made from one template publish side by
 * side. The prefix is shortened when the MCP tool name (`ns__pack__command`) would be too long.
 */
export function templateCommandNames(input: Pick<PackTemplateInput, 'namespace' | 'name'>): CommandNames {
  const room = MAX_TOOL_NAME_LENGTH - toolName(input.namespace, input.name, '').length - '-check-secret'.length;
  const prefix = input.name.slice(0, room).replace(/-+$/, '');
  // No room at all (a namespace and pack name near the limit themselves): the bare names.
  const named = (role: string) => (room > 0 && prefix ? `${prefix}-${role}` : role);
  return { hello: named('hello'), notes: named('notes'), report: named('report'), secret: named('check-secret') };
}

function manifest(input: PackTemplateInput, description: string, commands: string, secrets = ''): string {
  return `# The pack's manifest: svc pack validate checks it exactly as the registry will.
schema_version: 1
pack:
  namespace: ${input.namespace}
  name: ${input.name}
  version: 0.1.0
  description: ${description}
  visibility: private   # public | unlisted | private | organization
commands:
${commands}${secrets}`;
}

const HELLO_COMMAND = (names: CommandNames) => `  - name: ${names.hello}
    description: Greets someone by name
    entry: commands/hello.js
    input_schema:
      type: object
      properties:
        name: { type: string, minLength: 1, maxLength: 100, description: Who to greet }
      required: [name]
      additionalProperties: false
    timeout: 10
    tags: [example]
    examples:
      - description: Greet Ada
        input: { name: Ada }
`;

const NOTES_COMMAND = (names: CommandNames) => `  - name: ${names.notes}
    description: Adds to or lists the notes of a topic, kept in the caller's storage
    entry: commands/notes.js
    input_schema:
      type: object
      properties:
        action: { enum: [add, list], description: What to do }
        topic: { type: string, pattern: '^[a-z0-9-]{1,40}$', description: The topic's name }
        text: { type: string, maxLength: 500, description: The note (for add) }
      required: [action, topic]
      additionalProperties: false
    timeout: 15
    retries: 1
    tags: [storage]
    examples:
      - description: Add a note
        input: { action: add, topic: ideas, text: a loom for numbers }
`;

const REPORT_COMMAND = (names: CommandNames) => `  - name: ${names.report}
    description: Counts the words of a text and lists the most frequent
    entry: commands/report.js
    input_schema:
      type: object
      properties:
        text: { type: string, maxLength: 100000, description: The text to count }
        top: { type: integer, minimum: 1, maximum: 50, default: 5, description: How many words to list }
      required: [text]
      additionalProperties: false
    timeout: 120          # over 30 s: the medium queue, run as a task
    tags: [text]
    examples:
      - description: Count a sentence
        input: { text: the quick fox and the lazy dog }
`;

const SECRET_COMMAND = (names: CommandNames) => `  - name: ${names.secret}
    description: Says whether a pack secret is set for the caller, without showing it
    entry: commands/check-secret.js
    input_schema:
      type: object
      properties:
        name: { type: string, pattern: '^[A-Z][A-Z0-9_]{0,63}$', description: The secret's name }
      required: [name]
      additionalProperties: false
    timeout: 10
    tags: [secrets]
    examples:
      - description: Check API_TOKEN
        input: { name: API_TOKEN }
`;

function readme(input: PackTemplateInput, commands: string[], extra = ''): string {
  const ref = `${input.namespace}.${commands[0]}`;
  return `# @${input.namespace}/${input.name}

${input.author ? `By ${input.author}.\n\n` : ''}Commands: ${commands.map((c) => `\`${c}\``).join(', ')}.

\`\`\`sh
svc pack validate        # the registry's checks, locally
svc pack test            # the tests in tests/
svc pack dev             # a local server: http://localhost:8080/docs
svc pack exec ${input.namespace}/${commands[0]} --arg name=Ada
svc pack build           # dist/${input.namespace}-${input.name}-0.1.0.tar.gz
svc pack publish && svc install @${input.namespace}/${input.name}
svc run ${ref} --name=Ada
\`\`\`
${extra}`;
}

function packageJson(input: PackTemplateInput): string {
  return packageJsonText({ name: `${input.namespace}-${input.name}`, author: input.author, scripts: { test: 'svc pack test', validate: 'svc pack validate', dev: 'svc pack dev' } });
}

const CI_WORKFLOW = `# Checks the pack on every push: the registry's checks and the tests.
# svc comes from your platform (the repository variable SVC_URL, e.g. https://svc.example.com),
# so it is the version the platform runs.
name: pack
on: [push, pull_request]
jobs:
  check:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with: { node-version: 20 }
      - run: npm install -g "\${{ vars.SVC_URL }}/cli/svc-cli.tgz"
      - run: svc pack validate --strict
      - run: svc pack test
`;

/** Every file of a new pack made from `template`, by path. */
export function packTemplateFiles(template: PackTemplate, input: PackTemplateInput): Record<string, string> {
  const names = templateCommandNames(input);
  const common = {
    'package.json': packageJson(input),
    'tests/context.js': CONTEXT_HELPER,
    '.svcignore': '# Left out of the package (node_modules, .svc, dist and .git always are).\ntests/\n.gitignore\n',
    '.gitignore': '.svc/\ndist/\nnode_modules/\n',
    'commands/hello.js': HELLO,
    'tests/hello.test.js': HELLO_TEST,
  };
  if (template === 'basic') {
    return { ...common, 'pack.yaml': manifest(input, 'A first pack', HELLO_COMMAND(names)), 'README.md': readme(input, [names.hello]) };
  }
  const advanced = {
    ...common,
    'commands/notes.js': NOTES,
    'tests/notes.test.js': NOTES_TEST,
    'commands/report.js': REPORT,
    'tests/report.test.js': REPORT_TEST,
  };
  const three = HELLO_COMMAND(names) + NOTES_COMMAND(names) + REPORT_COMMAND(names);
  if (template === 'advanced') {
    return { ...advanced, 'pack.yaml': manifest(input, 'Greetings, notes and word counts', three), 'README.md': readme(input, [names.hello, names.notes, names.report]) };
  }
  return {
    ...advanced,
    'commands/check-secret.js': WHOAMI,
    'tests/check-secret.test.js': WHOAMI_TEST,
    'pack.yaml': manifest(input, 'Greetings, notes, word counts and a secret', three + SECRET_COMMAND(names), '# Secrets its commands read as ctx.secrets.NAME: only these are handed to them.\nsecrets: [API_TOKEN]\n'),
    'README.md': readme(input, [names.hello, names.notes, names.report, names.secret], '\nSecrets: `svc secrets set @' + `${input.namespace}/${input.name} API_TOKEN <value>` + '`; commands read them as `ctx.secrets.API_TOKEN`.\n'),
    '.github/workflows/pack.yml': CI_WORKFLOW,
    '.svcignore': '# Left out of the package (node_modules, .svc, dist and .git always are).\ntests/\n.gitignore\n.github/\n',
  };
}
