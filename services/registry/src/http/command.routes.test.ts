import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS_PAGE_LIMIT_MAX, COMMAND_SEARCH_MAX } from '@svc/contracts';
import { person, startRegistry, type RegistryHarness } from '../testing/harness.js';
import { packageOf, type TestPack } from '@svc/pack-sdk/testing';

const echoOutput = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };

describe('GET /api/v1/commands', () => {
  let h: RegistryHarness;
  const ada = person('ada');
  const bob = person('bob');
  const reader = person('reader', { developer: false });

  async function publishAndInstall(identity: typeof ada, p: TestPack) {
    const published = await h.http(identity).post('/api/v1/registry/packs').attach('package', await packageOf(p), 'p.tar.gz');
    expect(published.status, JSON.stringify(published.body)).toBe(201);
    expect((await h.http(identity).post('/api/v1/packs/install').send({ name: `@${p.namespace}/${p.name}` })).status).toBe(200);
  }

  beforeAll(async () => {
    h = await startRegistry();
    await publishAndInstall(ada, {
      namespace: 'ada',
      name: 'text-tools',
      version: '1.2.0',
      commands: [
        {
          name: 'echo',
          description: 'Returns its input',
          input_schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
          output_schema: echoOutput,
          annotations: { title: 'Echo', readOnlyHint: true },
          ui: { dashboard: 'echo-board' },
          timeout: 20,
          retries: 2,
          tags: ['text'],
          examples: [{ description: 'Say hi', input: { text: 'hi' } }],
        },
        { name: 'upper', description: 'Uppercases 100% of the text', timeout: 120 },
      ],
    });
    const many = Array.from({ length: 25 }, (_, i) => ({ name: `cmd-${String(i).padStart(2, '0')}`, description: 'One of many' }));
    await publishAndInstall(bob, { namespace: 'bob', name: 'many', commands: many });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('shows the detail view with retries, queue, examples, output schema, annotations and UI', async () => {
    const reply = await h.http(reader).get('/api/v1/commands/ada/echo');
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual({
      namespace: 'ada',
      name: 'echo',
      pack: 'text-tools',
      version: '1.2.0',
      description: 'Returns its input',
      input_schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      output_schema: echoOutput,
      annotations: { title: 'Echo', readOnlyHint: true },
      ui: { dashboard: 'echo-board' },
      output_format: 'json',
      timeout: 20,
      retries: 2,
      queue: 'fast',
      tags: ['text'],
      examples: [{ description: 'Say hi', input: { text: 'hi' } }],
    });
  });

  it('lists without retries and examples, 20 per page by default, with the spec pagination object', async () => {
    const reply = await h.http(reader).get('/api/v1/commands');
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({ total: 27, page: 1, pages: 2 });
    expect(reply.body.data.commands).toHaveLength(20);
    expect(reply.body.data.commands[0]).toEqual({
      namespace: 'ada',
      name: 'echo',
      pack: 'text-tools',
      version: '1.2.0',
      description: 'Returns its input',
      input_schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      output_schema: echoOutput,
      annotations: { title: 'Echo', readOnlyHint: true },
      ui: { dashboard: 'echo-board' },
      output_format: 'json',
      timeout: 20,
      queue: 'fast',
      tags: ['text'],
    });
    expect(reply.body.pagination).toEqual({ total: 27, page: 1, pages: 2, limit: 20, has_next: true, has_prev: false });
    const second = await h.http(reader).get('/api/v1/commands?page=2');
    expect(second.body.data.commands).toHaveLength(7);
    expect(second.body.pagination).toMatchObject({ has_next: false, has_prev: true });
    const beyond = await h.http(reader).get('/api/v1/commands?page=9');
    expect(beyond.body.data).toMatchObject({ commands: [], total: 27, page: 9, pages: 2 });
  });

  it('filters by namespace and searches names and descriptions, taking % literally', async () => {
    const byNamespace = await h.http(reader).get('/api/v1/commands?namespace=ada');
    expect(byNamespace.body.data.commands.map((c: { name: string }) => c.name)).toEqual(['echo', 'upper']);
    const byName = await h.http(reader).get('/api/v1/commands?search=ECH');
    expect(byName.body.data.commands.map((c: { name: string }) => c.name)).toEqual(['echo']);
    const byDescription = await h.http(reader).get('/api/v1/commands?search=100%25');
    expect(byDescription.body.data.commands.map((c: { name: string }) => c.name)).toEqual(['upper']);
    expect(byDescription.body.data.commands[0].ui).toBeNull();
    expect((await h.http(reader).get('/api/v1/commands?search=%25%25%25')).body.data.total).toBe(0);
    expect((await h.http(reader).get('/api/v1/commands?namespace=nobody')).body.data).toMatchObject({ commands: [], total: 0, pages: 0 });
  });

  it(`accepts a limit of ${COMMANDS_PAGE_LIMIT_MAX} and refuses ${COMMANDS_PAGE_LIMIT_MAX + 1}`, async () => {
    expect((await h.http(reader).get(`/api/v1/commands?limit=${COMMANDS_PAGE_LIMIT_MAX}`)).body.data.commands).toHaveLength(27);
    const over = await h.http(reader).get(`/api/v1/commands?limit=${COMMANDS_PAGE_LIMIT_MAX + 1}`);
    expect(over.status).toBe(400);
    expect(over.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'limit' } });
  });

  it(`accepts a search of ${COMMAND_SEARCH_MAX} characters and refuses ${COMMAND_SEARCH_MAX + 1}`, async () => {
    expect((await h.http(reader).get(`/api/v1/commands?search=${'a'.repeat(COMMAND_SEARCH_MAX)}`)).status).toBe(200);
    expect((await h.http(reader).get(`/api/v1/commands?search=${'a'.repeat(COMMAND_SEARCH_MAX + 1)}`)).body.error.code).toBe('VALIDATION_FAILED');
  });

  it.each([
    ['a page of 0', '?page=0'],
    ['a page that is not a number', '?page=two'],
    ['a limit of 0', '?limit=0'],
    ['a namespace with "@"', '?namespace=@ada'],
  ])('refuses %s with VALIDATION_FAILED', async (_label, query) => {
    expect((await h.http(reader).get(`/api/v1/commands${query}`)).body.error.code).toBe('VALIDATION_FAILED');
  });

  it('answers NOT_FOUND for an unknown command and VALIDATION_FAILED for a malformed path', async () => {
    expect((await h.http(reader).get('/api/v1/commands/ada/nothing')).body.error.code).toBe('NOT_FOUND');
    expect((await h.http(reader).get('/api/v1/commands/Ada/Echo')).body.error.code).toBe('VALIDATION_FAILED');
  });

  it('needs a caller', async () => {
    expect((await h.http().get('/api/v1/commands')).status).toBe(401);
  });
});
