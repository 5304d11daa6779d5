import { dataOf } from '@svc/client';
import type { Command } from 'commander';
import type { Context } from '../context.js';
import { validationError } from '../errors.js';
import { action } from '../program.js';
import { packRef } from './packs.js';

interface SecretView {
  name: string;
  created_at: string;
  updated_at: string;
}

/** The path parameters of a pack's secrets (and of one of them). */
const paramsOf = (pack: string) => {
  const { namespace, name } = packRef(pack);
  return { namespace, pack: name };
};

/** `-` reads the value from standard input, so that it stays out of the shell's history. */
async function valueOf(ctx: Context, given: string): Promise<string> {
  if (given !== '-') return given;
  let text = '';
  for await (const chunk of ctx.io.stdin) text += typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8');
  const value = text.replace(/\r?\n$/, '');
  if (!value) throw validationError('No value on standard input', { code: 'VALUE_MISSING' });
  return value;
}

async function set(ctx: Context, pack: string, name: string, given: string): Promise<void> {
  const value = await valueOf(ctx, given);
  const data = await dataOf(ctx.client().api.PUT('/api/v1/secrets/{namespace}/{pack}/{name}', { params: { path: { ...paramsOf(pack), name } }, body: { value } }));
  ctx.out.result(data, `${data.created ? 'Set' : 'Replaced'} ${data.name} for ${data.pack}.`);
}

async function list(ctx: Context, pack: string, withDates: boolean): Promise<void> {
  const data = (await dataOf(ctx.client().api.GET('/api/v1/secrets/{namespace}/{pack}', { params: { path: paramsOf(pack) } }))) as { pack: string; secrets: SecretView[] };
  const lines = data.secrets.map((secret) => (withDates ? `${secret.name.padEnd(32)} set ${secret.created_at}, changed ${secret.updated_at}` : secret.name));
  const empty = `No secrets for ${data.pack}.`;
  ctx.out.result(data, lines.length ? [...lines, ...(withDates ? ['(values are never displayed)'] : [])].join('\n') : empty);
}

async function remove(ctx: Context, pack: string, name: string): Promise<void> {
  await dataOf(ctx.client().api.DELETE('/api/v1/secrets/{namespace}/{pack}/{name}', { params: { path: { ...paramsOf(pack), name } } }));
  ctx.out.result({ pack: packRef(pack).ref, name, deleted: true }, `Removed ${name} from ${packRef(pack).ref}.`);
}

/** `svc secrets`: a pack's secrets for your tenant, handed to its commands as ctx.secrets. */
export function registerSecretsCommands(program: Command): void {
  const secrets = program.command('secrets').description("a pack's secrets for your tenant, handed to its commands as ctx.secrets (values never displayed)");
  secrets
    .command('set')
    .description('set a secret (VALUE - reads it from standard input)')
    .argument('<pack>', '@namespace/name')
    .argument('<name>', 'the secret name, e.g. API_TOKEN')
    .argument('<value>', 'its value, or - for standard input')
    .action(action((ctx, [pack, name, value]) => set(ctx, pack as string, name as string, value as string)));
  secrets
    .command('list')
    .description('the names of the secrets set for a pack')
    .argument('<pack>', '@namespace/name')
    .action(action((ctx, [pack]) => list(ctx, pack as string, false)));
  secrets
    .command('remove')
    .description('remove a secret')
    .argument('<pack>', '@namespace/name')
    .argument('<name>', 'the secret name')
    .action(action((ctx, [pack, name]) => remove(ctx, pack as string, name as string)));
  secrets
    .command('show')
    .description('the secrets of a pack with when they were set, without their values')
    .argument('<pack>', '@namespace/name')
    .action(action((ctx, [pack]) => list(ctx, pack as string, true)));
}
