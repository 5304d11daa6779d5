import type { Command } from 'commander';
import { CONFIG_KEYS, isConfigKey, keySpec, maskSecret, parseConfigValue, type ConfigEntry, type ConfigKey } from '../config.js';
import type { Context } from '../context.js';
import { validationError } from '../errors.js';
import { action } from '../program.js';

function shown(entry: ConfigEntry): string | number | boolean | null {
  if (entry.value === undefined) return null;
  return keySpec(entry.key).secret ? maskSecret(String(entry.value)) : entry.value;
}

function known(key: string): ConfigKey {
  if (isConfigKey(key)) return key;
  throw validationError(`Unknown config key "${key}"; \`svc config list\` shows them all`, { code: 'CONFIG_KEY_UNKNOWN', details: { key, known: Object.keys(CONFIG_KEYS) } });
}

async function get(ctx: Context, key: string): Promise<void> {
  const entry = ctx.config.entry(known(key));
  const value = shown(entry);
  ctx.out.result({ key: entry.key, value, source: entry.source }, value === null ? '' : String(value));
}

async function set(ctx: Context, key: string, raw: string): Promise<void> {
  const name = known(key);
  const value = parseConfigValue(name, raw);
  ctx.config.set(name, value);
  await ctx.config.save();
  const entry = ctx.config.entry(name);
  if (entry.source === 'env') ctx.out.warn(`${name} is overridden by ${keySpec(name).envName ?? 'the environment'}`);
  ctx.out.result({ key: name, value: shown({ ...entry, value, source: 'file' }), path: ctx.config.path }, `${name} = ${String(shown({ ...entry, value }))}`);
}

async function list(ctx: Context): Promise<void> {
  const entries = ctx.config.list().map((entry) => ({ key: entry.key, value: shown(entry), source: entry.source, description: entry.description }));
  const width = Math.max(...entries.map((entry) => entry.key.length));
  const text = entries.map((entry) => `${entry.key.padEnd(width)}  ${entry.value === null ? '(unset)' : String(entry.value)}${entry.source === 'env' ? '  (from the environment)' : ''}`).join('\n');
  ctx.out.result({ path: ctx.config.path, entries }, text);
}

export function registerConfigCommands(program: Command): void {
  const config = program.command('config').description('read and change ~/.config/svc/config.toml');
  config
    .command('get')
    .description('print the value of a key (secrets shortened)')
    .argument('<key>', 'a key such as registry.url')
    .action(action((ctx, [key]) => get(ctx, key as string)));
  config
    .command('set')
    .description('set a key in the config file')
    .argument('<key>', 'a key such as registry.url')
    .argument('<value>', 'its new value')
    .action(action((ctx, [key, value]) => set(ctx, key as string, value as string)));
  config
    .command('list')
    .description('every key, its value and where it comes from')
    .action(action((ctx) => list(ctx)));
  config
    .command('path')
    .description('where the config file is')
    .action(action(async (ctx) => ctx.out.result({ path: ctx.config.path }, ctx.config.path)));
}
