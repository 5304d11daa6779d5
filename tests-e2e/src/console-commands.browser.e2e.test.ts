import { beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, signUp, type TestUser } from './support/accounts.js';
import { signInThroughPage } from './support/console-browser.js';
import { consoleSuite } from './support/console-suite.js';
import { installPack } from './support/execution.js';
import { oneMode } from './support/fleet.js';

/** Each test walks several pages and waits for tasks on two shared cores. */
const STEPS_MS = 90_000;

const greetSchema = {
  type: 'object',
  properties: { name: { type: 'string', title: 'Name', minLength: 1 }, times: { type: 'integer', title: 'Times', minimum: 1, maximum: 5 } },
  required: ['name'],
};
const napSchema = { type: 'object', properties: { ms: { type: 'integer', title: 'Milliseconds', minimum: 0 } }, required: ['ms'] };

const CODE = {
  'commands/greet.js': 'export default async (input) => ({ greeting: Array.from({ length: input.times ?? 1 }, () => `hello ${input.name}`).join(" ") });\n',
  'commands/steps.js':
    'export default async (input, ctx) => { for (let i = 1; i <= 3; i++) { ctx.log.info(`step ${i} of 3`); ctx.progress(i, 3, `step ${i}`); await new Promise((r) => setTimeout(r, 300)); } return { steps: 3 }; };\n',
  'commands/nap.js':
    'export default async (input, ctx) => new Promise((resolve, reject) => { ctx.log.info("napping"); const t = setTimeout(() => resolve({ slept: input.ms }), input.ms); ctx.signal.addEventListener("abort", () => { clearTimeout(t); reject(new Error("aborted")); }); });\n',
};

describe.each(oneMode('embedded'))('the console: commands, tasks and packs (%s infrastructure)', (mode) => {
  const suite = consoleSuite(mode, 'commands');
  let dev: TestUser;
  let viewer: TestUser;
  let ns: string;
  const open = (path = '/') => suite.browser.open(path);

  beforeAll(async () => {
    [dev, viewer] = [await signUp(suite.call, suite.admin), await signUp(suite.call, suite.admin)];
    await createOrganization(suite.call, dev);
    ns = dev.slug;
    // Published over REST and released by its developer; the viewer installs it from the console.
    await installPack(suite.fleet.url, suite.call, dev, {
      namespace: ns,
      name: 'tools',
      commands: [
        { name: 'greet', input_schema: greetSchema, examples: [{ description: 'Ada twice', input: { name: 'Ada', times: 2 } }] },
        { name: 'steps', input_schema: { type: 'object', properties: {} }, queue: 'medium', timeout: 60 },
        { name: 'nap', input_schema: napSchema, queue: 'medium', timeout: 120 },
      ] as never,
      files: CODE,
    });
  });

  it('installs a pack, finds its command by search and namespace, and runs it from the generated form', async () => {
    const { page, shot } = await open('/packs');
    await signInThroughPage(page, viewer);
    await page.getByRole('heading', { name: 'Installed packs' }).waitFor();
    await page.getByLabel('Pack', { exact: true }).fill(`@${ns}/tools`);
    await page.getByRole('button', { name: 'Install' }).click();
    await page.getByRole('link', { name: `@${ns}/tools` }).waitFor();
    await shot('pack-installed');

    await page.getByRole('link', { name: 'Commands' }).click();
    await page.getByLabel('Search').fill('greet');
    await page.getByLabel('Namespace').fill(ns);
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('1 command');
    expect(new URL(page.url()).search).toBe(`?search=greet&namespace=${ns}`);
    await shot('catalogue-filtered');
    await page.getByRole('link', { name: `${ns}/greet` }).click();
    await page.getByRole('heading', { name: `${ns}/greet` }).waitFor();

    // The form checks the schema before anything is sent.
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByText('is required').first().waitFor();
    await shot('form-refused');

    await page.getByRole('button', { name: 'Use example: Ada twice' }).click();
    expect(await page.getByLabel('Name').inputValue()).toBe('Ada');
    await page.getByLabel('Times').fill('3');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect.poll(async () => JSON.parse((await page.getByTestId('result').textContent()) ?? 'null')).toEqual({ greeting: 'hello Ada hello Ada hello Ada' });
    await shot('sync-result');

    // A deep link to the command survives a reload.
    await page.reload();
    await page.getByRole('heading', { name: `${ns}/greet` }).waitFor();
  }, STEPS_MS);

  it('follows a task to its end with its logs, and cancels another', async () => {
    const { page, shot } = await open(`/commands/${ns}/steps`);
    await page.getByRole('heading', { name: `${ns}/steps` }).waitFor();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.waitForURL(/\/tasks\/[0-9a-f-]{36}$/);
    await expect.poll(() => page.getByTestId('task-status').textContent(), { timeout: 30_000 }).toBe('success');
    const logs = (await page.getByTestId('logs').textContent()) ?? '';
    expect(logs).toMatch(/step 1 of 3[\s\S]*step 2 of 3[\s\S]*step 3 of 3/);
    expect(JSON.parse((await page.getByTestId('result').textContent()) ?? 'null')).toEqual({ steps: 3 });
    expect(await page.getByRole('button', { name: 'Cancel task' }).count()).toBe(0);
    await shot('task-succeeded');

    await page.goto(`${suite.browser.origin}/commands/${ns}/nap`);
    await page.getByLabel('Milliseconds').fill('60000');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.waitForURL(/\/tasks\/[0-9a-f-]{36}$/);
    const taskId = page.url().split('/').pop()!;
    await expect.poll(() => page.getByTestId('task-status').textContent(), { timeout: 30_000 }).toBe('started');
    await shot('task-running');
    await page.getByRole('button', { name: 'Cancel task' }).click();
    await expect.poll(() => page.getByTestId('task-status').textContent(), { timeout: 30_000 }).toBe('revoked');
    await shot('task-cancelled');

    await page.getByRole('link', { name: 'Tasks' }).click();
    await page.getByLabel('Status').selectOption('revoked');
    await page.locator(`a[href="/tasks/${taskId}"]`).waitFor();
    // The heading row and the one revoked task, once the filtered list has replaced the whole one.
    await expect.poll(() => page.getByRole('table', { name: 'Tasks' }).getByRole('row').count()).toBe(2);
    await shot('task-list');
  }, STEPS_MS);

  it('runs a fast command as a task when asked, and uninstalls the pack', async () => {
    const { page, shot } = await open(`/commands/${ns}/greet`);
    await page.getByLabel('Name').fill('Grace');
    await page.getByLabel('Run as a task').check();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.waitForURL(/\/tasks\//);
    await expect.poll(() => page.getByTestId('task-status').textContent(), { timeout: 30_000 }).toBe('success');

    await page.getByRole('link', { name: 'Packs' }).click();
    await page.getByRole('button', { name: `Uninstall @${ns}/tools` }).click();
    await page.getByText('No packs installed.').waitFor();
    await shot('pack-uninstalled');
    const listed = await suite.call('/api/v1/packs', { token: viewer.token });
    expect(listed.body.data.packs).toEqual([]);
  }, STEPS_MS);

  it('browses the tenant’s storage by prefix, shows an entry and deletes one', async () => {
    for (const [key, n] of [['notes:a', 1], ['notes:b', 2], ['other', 3]] as const) {
      expect((await suite.call(`/api/v1/storage/${key}`, { method: 'PUT', token: viewer.token, body: { data: { n }, ttl: 3600 } })).status).toBe(201);
    }
    const { page, shot } = await open('/storage');
    await page.getByLabel('Key prefix').fill('notes:');
    await page.getByRole('button', { name: 'List' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('2 keys');
    await page.getByRole('button', { name: 'View notes:a' }).click();
    await expect.poll(async () => JSON.parse((await page.getByTestId('entry').textContent()) ?? 'null')).toEqual({ n: 1 });
    await shot('storage-entry');
    await page.getByRole('button', { name: 'Delete notes:b' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('1 key');
    expect((await suite.call('/api/v1/storage/notes:b', { token: viewer.token })).status).toBe(404);
    await page.reload();
    expect(await page.getByLabel('Key prefix').inputValue()).toBe('notes:');
  }, STEPS_MS);

  it('shows this month’s usage against the limits, runs by month as a chart, and by pack', async () => {
    // Usage is counted from events: the runs of the tests above arrive within moments. Waited for
    // over REST, so that the page is loaded once (each load renews the session, whose endpoint
    // is limited per address: a reload a second would meet that limit).
    await expect.poll(async () => (await suite.call('/api/v1/usage', { token: viewer.token })).body.data?.usage?.commands_executed ?? 0, { timeout: 45_000, interval: 1000 }).toBeGreaterThan(0);
    const { page, shot } = await open('/usage');
    const executed = await page.getByTestId('commands-executed').textContent();
    expect(Number((executed ?? '').split(' ')[0])).toBeGreaterThan(0);
    await page.getByRole('img', { name: 'Commands run by month' }).waitFor();
    await expect.poll(() => page.getByRole('table', { name: 'Usage by pack' }).getByRole('row').count(), { timeout: 30_000 }).toBeGreaterThan(1);
    await shot('usage');
  }, STEPS_MS);
});
