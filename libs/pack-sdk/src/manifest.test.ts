import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { PackFormatError } from './errors.js';
import { MAX_COMMANDS, MAX_MANIFEST_BYTES, MAX_RETRIES, MAX_TIMEOUT_SECONDS } from './limits.js';
import { parseManifest, queueForTimeout } from './manifest.js';

const echo = {
  name: 'echo',
  description: 'Returns its input',
  entry: 'commands/echo.js',
  input_schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
};

function manifest(overrides: { pack?: Record<string, unknown>; commands?: Array<Record<string, unknown>>; extra?: Record<string, unknown> } = {}) {
  return stringify({
    schema_version: 1,
    pack: { namespace: 'acme', name: 'text-tools', version: '1.2.0', visibility: 'public', ...overrides.pack },
    commands: overrides.commands ?? [echo],
    ...overrides.extra,
  }, { aliasDuplicateObjects: false });
}

function failure(text: string): PackFormatError {
  try {
    parseManifest(text);
  } catch (err) {
    if (err instanceof PackFormatError) return err;
    throw err;
  }
  throw new Error('expected parseManifest to fail');
}

describe('parseManifest', () => {
  it('applies the defaults: private, 30 s, no retries, fast queue, no tags, examples, output schema or annotations', () => {
    const parsed = parseManifest(manifest({ pack: { visibility: undefined } }));
    expect(parsed.pack).toEqual({ namespace: 'acme', name: 'text-tools', version: '1.2.0', description: '', visibility: 'private' });
    expect(parsed.commands[0]).toEqual({ ...echo, output_schema: null, annotations: {}, ui: null, timeout: 30, retries: 0, queue: 'fast', tags: [], examples: [] });
  });

  it('keeps the issue example as written', () => {
    const text = `schema_version: 1
pack:
  namespace: acme
  name: text-tools
  version: 1.2.0
  description: Text helpers
  visibility: public
commands:
  - name: echo
    description: Returns its input
    entry: ./commands/echo.js
    input_schema: { type: object, properties: { text: { type: string } }, required: [text] }
    timeout: 30
    retries: 0
    queue: fast
    tags: [text]
    examples: [{ description: Say hi, input: { text: hi } }]
`;
    const parsed = parseManifest(text);
    expect(parsed.commands[0]).toMatchObject({ entry: 'commands/echo.js', tags: ['text'], examples: [{ description: 'Say hi', input: { text: 'hi' } }] });
  });

  it.each([
    [10, 'fast'],
    [30, 'fast'],
    [31, 'medium'],
    [300, 'medium'],
    [301, 'long'],
    [3600, 'long'],
  ])('derives the queue of a %i s command: %s', (timeout, queue) => {
    expect(queueForTimeout(timeout)).toBe(queue);
    expect(parseManifest(manifest({ commands: [{ ...echo, timeout }] })).commands[0]!.queue).toBe(queue);
  });

  it('keeps an output_schema and annotations as written', () => {
    const output_schema = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };
    const annotations = { title: 'Echo', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
    const [command] = parseManifest(manifest({ commands: [{ ...echo, output_schema, annotations }] })).commands;
    expect(command).toMatchObject({ output_schema, annotations });
  });

  it('refuses an output_schema that is not an object schema or does not compile, and unknown annotations', () => {
    expect(failure(manifest({ commands: [{ ...echo, output_schema: { type: 'string' } }] })).details).toMatchObject({ field: 'commands.0.output_schema', issue: 'the root of output_schema must have type: object' });
    const broken = failure(manifest({ commands: [{ ...echo, output_schema: { type: 'object', properties: { n: { type: 'nonsense' } } } }] }));
    expect(broken.details).toMatchObject({ field: 'commands.0.output_schema', issue: expect.stringContaining('is not a valid JSON Schema') });
    expect(failure(manifest({ commands: [{ ...echo, annotations: { dangerous: true } }] })).code).toBe('MANIFEST_INVALID');
    expect(failure(manifest({ commands: [{ ...echo, annotations: { readOnlyHint: 'yes' } }] })).details).toMatchObject({ field: 'commands.0.annotations.readOnlyHint' });
  });

  it("keeps a command's ui dashboard, and refuses one that is no dashboard name", () => {
    expect(parseManifest(manifest({ commands: [{ ...echo, ui: { dashboard: 'echo-board' } }] })).commands[0]!.ui).toEqual({ dashboard: 'echo-board' });
    expect(failure(manifest({ commands: [{ ...echo, ui: { dashboard: 'Echo Board' } }] })).details).toMatchObject({ field: 'commands.0.ui.dashboard' });
    expect(failure(manifest({ commands: [{ ...echo, ui: { dashboard: 'echo-board', url: 'https://evil.test' } }] })).code).toBe('MANIFEST_INVALID');
  });

  it('refuses a timeout longer than the named queue allows', () => {
    const error = failure(manifest({ commands: [{ ...echo, queue: 'fast', timeout: 31 }] }));
    expect(error.code).toBe('MANIFEST_INVALID');
    expect(error.details.field).toBe('commands.0.timeout');
  });

  it.each([
    ['not YAML', 'pack: [unclosed', 'line 1'],
    ['a YAML list', '- a\n- b', '(root)'],
    ['a missing schema_version', manifest().replace('schema_version: 1\n', ''), 'schema_version'],
    ['schema_version 2', manifest({ extra: { schema_version: 2 } }), 'schema_version'],
    ['an unknown top-level field', manifest({ extra: { runtime: 'node20' } }), 'runtime'],
    ['a namespace with "@"', manifest({ pack: { namespace: '@acme' } }), 'pack.namespace'],
    ['an uppercase pack name', manifest({ pack: { name: 'Text' } }), 'pack.name'],
    ['a version that is not semver', manifest({ pack: { version: '1.2' } }), 'pack.version'],
    ['a version with a v prefix', manifest({ pack: { version: 'v1.2.0' } }), 'pack.version'],
    ['a number as version', manifest().replace("version: 1.2.0", 'version: 1.2'), 'pack.version'],
    ['an unknown visibility', manifest({ pack: { visibility: 'secret' } }), 'pack.visibility'],
    ['no commands', manifest({ commands: [] }), 'commands'],
    ['a command name with an underscore', manifest({ commands: [{ ...echo, name: 'say_hi' }] }), 'commands.0.name'],
    ['a missing entry field', manifest({ commands: [{ ...echo, entry: undefined }] }), 'commands.0.entry'],
    ['an entry that is not JavaScript', manifest({ commands: [{ ...echo, entry: 'commands/echo.ts' }] }), 'commands.0.entry'],
    ['the same command twice', manifest({ commands: [echo, echo] }), 'commands.1.name'],
    ['an unknown queue', manifest({ commands: [{ ...echo, queue: 'slow' }] }), 'commands.0.queue'],
    ['a typo in a command field', manifest({ commands: [{ ...echo, timout: 5 }] }), 'commands.0.timout'],
    ['an example that does not match the input schema', manifest({ commands: [{ ...echo, examples: [{ input: { text: 1 } }] }] }), 'commands.0.examples.0.input'],
    ['a NUL character in a description', manifest({ commands: [{ ...echo, description: 'a\u0000b' }] }), 'commands.0.description'],
    ['a NUL character written as a YAML escape', manifest().replace('description: Returns its input', 'description: "Returns\\0 its input"'), 'commands.0.description'],
    ['a NUL character in a key of the input schema', manifest({ commands: [{ ...echo, input_schema: { type: 'object', properties: { 'te\u0000xt': {} } } }] }), 'commands.0.input_schema.properties.te\u0000xt'],
  ])('refuses %s with MANIFEST_INVALID naming the field', (_label, text, field) => {
    const error = failure(text);
    expect(error.code).toBe('MANIFEST_INVALID');
    expect(error.details.field).toBe(field);
    expect(error.message).toContain(field);
  });

  it('reads proposed schedules with their defaults (UTC, empty input and description)', () => {
    const parsed = parseManifest(manifest({ extra: { schedules: [{ command: 'echo', cron: '0 7 * * 1-5', timezone: 'Europe/Berlin', input: { text: 'hi' }, description: 'Weekdays' }, { command: 'echo', cron: '@daily', input: { text: 'x' } }] } }));
    expect(parsed.schedules).toEqual([
      { command: 'echo', cron: '0 7 * * 1-5', timezone: 'Europe/Berlin', input: { text: 'hi' }, description: 'Weekdays' },
      { command: 'echo', cron: '@daily', timezone: 'UTC', input: { text: 'x' }, description: '' },
    ]);
    expect(parseManifest(manifest()).schedules).toEqual([]);
  });

  it.each([
    [{ command: 'shout', cron: '@daily' }, 'schedules.0.command'],
    [{ command: 'echo', cron: '0 0 7 * * *', input: { text: 'x' } }, 'schedules.0.cron'],
    [{ command: 'echo', cron: 'daily', input: { text: 'x' } }, 'schedules.0.cron'],
    [{ command: 'echo', cron: '@daily', timezone: 'Mars/Base', input: { text: 'x' } }, 'schedules.0.timezone'],
    [{ command: 'echo', cron: '@daily', input: { text: 3 } }, 'schedules.0.input'],
    [{ command: 'echo', cron: '@daily' }, 'schedules.0.input'],
  ])('refuses the proposed schedule %j at %s', (schedule, field) => {
    expect(failure(manifest({ extra: { schedules: [schedule] } })).details).toMatchObject({ field });
  });

  it('refuses YAML whose aliases expand exponentially', () => {
    const levels = ['a: &a [x, x, x, x, x, x, x, x, x]'];
    for (let n = 1; n < 9; n++) levels.push(`${String.fromCharCode(97 + n)}: &${String.fromCharCode(97 + n)} [${Array(9).fill(`*${String.fromCharCode(96 + n)}`).join(', ')}]`);
    const error = failure(levels.join('\n'));
    expect(error.code).toBe('MANIFEST_INVALID');
    expect(error.message).toContain('YAML');
  });

  it('lists every problem, not only the first', () => {
    const error = failure(manifest({ pack: { name: 'Bad' }, commands: [{ ...echo, timeout: 0 }] }));
    expect((error.details.issues as unknown[]).length).toBe(2);
    expect(error.message).toContain('(and 1 more)');
  });

  describe('limits at the edge', () => {
    it(`accepts ${MAX_COMMANDS} commands and refuses ${MAX_COMMANDS + 1}`, () => {
      const commands = (n: number) => Array.from({ length: n }, (_, i) => ({ ...echo, name: `c${i}` }));
      expect(parseManifest(manifest({ commands: commands(MAX_COMMANDS) })).commands).toHaveLength(MAX_COMMANDS);
      expect(failure(manifest({ commands: commands(MAX_COMMANDS + 1) })).details.field).toBe('commands');
    });

    it(`accepts a timeout of ${MAX_TIMEOUT_SECONDS} s and refuses one more, and 0`, () => {
      expect(parseManifest(manifest({ commands: [{ ...echo, timeout: MAX_TIMEOUT_SECONDS }] })).commands[0]!.queue).toBe('long');
      expect(failure(manifest({ commands: [{ ...echo, timeout: MAX_TIMEOUT_SECONDS + 1 }] })).details.field).toBe('commands.0.timeout');
      expect(failure(manifest({ commands: [{ ...echo, timeout: 0 }] })).details.field).toBe('commands.0.timeout');
    });

    it(`accepts ${MAX_RETRIES} retries and refuses ${MAX_RETRIES + 1}`, () => {
      expect(parseManifest(manifest({ commands: [{ ...echo, retries: MAX_RETRIES }] })).commands[0]!.retries).toBe(MAX_RETRIES);
      expect(failure(manifest({ commands: [{ ...echo, retries: MAX_RETRIES + 1 }] })).details.field).toBe('commands.0.retries');
    });

    it('accepts an MCP tool name of 64 characters and refuses 65', () => {
      // "acme__" + pack + "__" + command: 6 + 2 = 8 characters around the names.
      const pack = 'p'.repeat(20);
      const fits = 'c'.repeat(64 - 8 - pack.length);
      expect(parseManifest(manifest({ pack: { name: pack }, commands: [{ ...echo, name: fits }] })).commands[0]!.name).toBe(fits);
      const error = failure(manifest({ pack: { name: pack }, commands: [{ ...echo, name: `${fits}c` }] }));
      expect(error.code).toBe('MANIFEST_INVALID');
      expect(error.message).toContain('65 characters');
    });

    it(`accepts a pack.yaml of ${MAX_MANIFEST_BYTES} bytes and refuses one more`, () => {
      const base = manifest();
      const padded = (size: number) => `${base}#${'x'.repeat(size - Buffer.byteLength(base) - 2)}\n`;
      expect(Buffer.byteLength(padded(MAX_MANIFEST_BYTES))).toBe(MAX_MANIFEST_BYTES);
      expect(parseManifest(padded(MAX_MANIFEST_BYTES)).pack.name).toBe('text-tools');
      expect(failure(padded(MAX_MANIFEST_BYTES + 1)).code).toBe('MANIFEST_INVALID');
    });
  });

  describe('network', () => {
    it('gives a pack no network unless it declares it', () => {
      expect(parseManifest(manifest()).network).toEqual({ egress: false, hosts: [] });
      expect(parseManifest(manifest({ extra: { network: { egress: true } } })).network).toEqual({ egress: true, hosts: [] });
      expect(parseManifest(manifest({ extra: { network: { egress: true, hosts: ['api.example.com', '*.example.org'] } } })).network.hosts).toEqual(['api.example.com', '*.example.org']);
    });

    it.each([
      ['a host that is an address', { egress: true, hosts: ['127.0.0.1'] }],
      ['a host with a port', { egress: true, hosts: ['example.com:8080'] }],
      ['an unknown field', { egress: true, proxy: 'x' }],
      ['no egress', { hosts: ['example.com'] }],
    ])('refuses %s', (_label, network) => {
      expect(failure(manifest({ extra: { network } })).code).toBe('MANIFEST_INVALID');
    });
  });

  describe('ssh_targets', () => {
    it('allows a pack no SSH target unless it lists them', () => {
      expect(parseManifest(manifest()).ssh_targets).toEqual({ allowed: [] });
      expect(parseManifest(manifest({ extra: { ssh_targets: { allowed: ['build-box', 'db-1'] } } })).ssh_targets.allowed).toEqual(['build-box', 'db-1']);
      expect(parseManifest(manifest({ extra: { ssh_targets: { allowed: ['*'] } } })).ssh_targets.allowed).toEqual(['*']);
    });

    it.each([
      ['a name not in kebab-case', { allowed: ['Build_Box'] }],
      ['a name over 128 characters', { allowed: ['a'.repeat(129)] }],
      ['a pattern other than *', { allowed: ['build-*'] }],
      ['a name twice', { allowed: ['a', 'a'] }],
      ['no allowed list', {}],
      ['an unknown field', { allowed: [], hosts: [] }],
    ])('refuses %s', (_label, ssh_targets) => {
      expect(failure(manifest({ extra: { ssh_targets } })).code).toBe('MANIFEST_INVALID');
    });
  });

  describe('entry paths', () => {
    it.each(['../outside.js', 'commands/../../outside.js', '/etc/evil.js', 'commands\\echo.js', 'C:/evil.js'])('refuses %s with PACKAGE_PATH_INVALID', (entry) => {
      const error = failure(manifest({ commands: [{ ...echo, entry }] }));
      expect(error.code).toBe('PACKAGE_PATH_INVALID');
      expect(error.details.field).toBe('commands.0.entry');
    });
  });

  describe('runtime: python', () => {
    const python = (entry: string, extra: Record<string, unknown> = {}) => manifest({ commands: [{ ...echo, entry }], extra: { runtime: 'python', ...extra } });

    it('is node unless the manifest says python, with its python range', () => {
      expect(parseManifest(manifest())).toMatchObject({ runtime: 'node', python: null });
      expect(parseManifest(python('text_tools.echo:run', { python: '>=3.10' }))).toMatchObject({ runtime: 'python', python: '>=3.10', commands: [{ entry: 'text_tools.echo:run' }] });
    });

    it('takes entries as package.module:function or a .py file', () => {
      expect(parseManifest(python('echo:run')).commands[0]?.entry).toBe('echo:run');
      expect(parseManifest(python('./commands/echo.py')).commands[0]?.entry).toBe('commands/echo.py');
    });

    it.each([
      ['a JavaScript entry', python('commands/echo.js'), 'commands.0.entry'],
      ['a module entry without a function', python('text_tools.echo'), 'commands.0.entry'],
      ['a python range it cannot read', python('echo:run', { python: '3.10+' }), 'python'],
      ['a python range on a Node pack', manifest({ extra: { python: '>=3.10' } }), 'python'],
      ['an unknown runtime', manifest({ extra: { runtime: 'ruby' } }), 'runtime'],
    ])('refuses %s with MANIFEST_INVALID naming the field', (_label, text, field) => {
      const error = failure(text);
      expect(error.code).toBe('MANIFEST_INVALID');
      expect(error.details.field).toBe(field);
    });

    it('refuses a module entry on a Node pack, and a .py file outside the package', () => {
      expect(failure(manifest({ commands: [{ ...echo, entry: 'echo:run' }] })).code).toBe('PACKAGE_PATH_INVALID');
      expect(failure(python('../outside.py')).code).toBe('PACKAGE_PATH_INVALID');
    });
  });

  describe('input_schema', () => {
    it.each([
      ['an unknown type', { type: 'object', properties: { text: { type: 'text' } } }],
      ['a misspelt keyword', { type: 'object', requird: ['text'] }],
      ['a root that is not an object', { type: 'string' }],
      ['an unknown $schema', { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' }],
      ['an unresolvable $ref', { type: 'object', properties: { a: { $ref: 'https://example.test/remote.json' } } }],
      ['an unknown format', { type: 'object', properties: { a: { type: 'string', format: 'colour' } } }],
    ])('refuses %s with INPUT_SCHEMA_INVALID', (_label, input_schema) => {
      const error = failure(manifest({ commands: [{ ...echo, input_schema }] }));
      expect(error.code).toBe('INPUT_SCHEMA_INVALID');
      expect(error.details.field).toBe('commands.0.input_schema');
    });

    it('accepts draft-07 and draft 2020-12 schemas, with standard formats', () => {
      const draft07 = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { at: { type: 'string', format: 'date-time' } }, definitions: { x: { type: 'string' } } };
      const draft2020 = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { email: { type: 'string', format: 'email' } }, $defs: { x: { type: 'string' } } };
      const parsed = parseManifest(manifest({ commands: [{ ...echo, input_schema: draft07 }, { ...echo, name: 'other', input_schema: draft2020 }] }));
      expect(parsed.commands.map((c) => c.input_schema)).toEqual([draft07, draft2020]);
    });
  });
});
