import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parse, stringify, TomlError } from 'smol-toml';
import type { CliEnv } from './env.js';
import { validationError } from './errors.js';
import type { Tokens } from '@svc/client';

/**
 * `~/.config/svc/config.toml`: tables auth, registry, dev and build. Values are read in this
 * order: `SVC_*` variable, config file, default. The file holds the token, so it is written
 * with mode 0600 (its folder 0700), whatever the umask.
 */

type KeyType = 'string' | 'url' | 'integer' | 'boolean' | 'log-level';

export interface KeySpec {
  type: KeyType;
  default?: string | number | boolean;
  /** Never printed in full. */
  secret?: boolean;
  /** The environment variable that overrides it. */
  env?: keyof CliEnv;
  envName?: string;
  description: string;
}

export const DEFAULT_URL = 'http://localhost:8080';
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;

export const CONFIG_KEYS = {
  'auth.token': { type: 'string', secret: true, env: 'token', envName: 'SVC_TOKEN', description: 'Access token or API key sent as Bearer' },
  'auth.refresh_token': { type: 'string', secret: true, description: 'Refresh token of the signed-in session (renews auth.token)' },
  'auth.session_expires_at': { type: 'string', description: 'When the session ends if it is not used (its refresh token\'s end; each renewal moves it)' },
  'auth.api_key': { type: 'string', secret: true, description: 'API key for the MCP endpoint (made by `svc mcp` when missing)' },
  'registry.url': { type: 'url', default: DEFAULT_URL, env: 'registryUrl', envName: 'SVC_REGISTRY_URL', description: 'Base URL of the platform (its gateway)' },
  'registry.timeout': { type: 'integer', default: 60, description: 'Seconds an HTTP request may take' },
  'dev.port': { type: 'integer', default: 8080, description: 'Port of `svc pack dev`' },
  'dev.reload': { type: 'boolean', default: true, description: 'Reload `svc pack dev` when files change' },
  'dev.log_level': { type: 'log-level', default: 'debug', env: 'logLevel', envName: 'SVC_LOG_LEVEL', description: 'Log level of `svc pack dev`' },
  'build.output_dir': { type: 'string', default: './dist', description: 'Where `svc pack build` writes' },
  'build.sign_packages': { type: 'boolean', default: false, description: 'Sign every package `svc pack build` makes' },
  'build.signing_key': { type: 'string', description: 'Ed25519 private key (PEM) used to sign; default signing-key.pem beside this file' },
} as const satisfies Record<string, KeySpec>;

export type ConfigKey = keyof typeof CONFIG_KEYS;
export type ConfigValue = string | number | boolean;
export type ConfigSource = 'env' | 'file' | 'default' | 'unset';

/** What is known of a key: its type, default, whether it is secret, the variable that overrides it. */
export function keySpec(key: ConfigKey): KeySpec {
  return CONFIG_KEYS[key];
}

export function isConfigKey(key: string): key is ConfigKey {
  return Object.hasOwn(CONFIG_KEYS, key);
}

function requireKey(key: string): ConfigKey {
  if (isConfigKey(key)) return key;
  throw validationError(`Unknown config key "${key}"; known keys: ${Object.keys(CONFIG_KEYS).join(', ')}`, { code: 'CONFIG_KEY_UNKNOWN', details: { key } });
}

/** Parses a value given on the command line or in the environment into the key's type. */
export function parseConfigValue(key: ConfigKey, raw: string): ConfigValue {
  const spec: KeySpec = CONFIG_KEYS[key];
  const bad = (expected: string) => validationError(`${key} must be ${expected}, not "${raw}"`, { code: 'CONFIG_VALUE_INVALID', details: { key, value: raw } });
  switch (spec.type) {
    case 'integer': {
      if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) throw bad('a positive integer');
      return Number(raw);
    }
    case 'boolean': {
      const lower = raw.toLowerCase();
      if (['true', '1', 'yes'].includes(lower)) return true;
      if (['false', '0', 'no'].includes(lower)) return false;
      throw bad('true or false');
    }
    case 'url': {
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        throw bad('an http(s) URL');
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw bad('an http(s) URL');
      return raw.replace(/\/+$/, '');
    }
    case 'log-level': {
      if (!(LOG_LEVELS as readonly string[]).includes(raw)) throw bad(`one of ${LOG_LEVELS.join(', ')}`);
      return raw;
    }
    default:
      return raw;
  }
}

/** A secret shown the way `config get/list` and `status` show it: its first characters only. */
export function maskSecret(value: string): string {
  return value.length <= 12 ? '****' : `${value.slice(0, 10)}…(${value.length} characters)`;
}

export interface ConfigEntry {
  key: ConfigKey;
  value: ConfigValue | undefined;
  source: ConfigSource;
  description: string;
}

type Table = Record<string, unknown>;

export class Config {
  private constructor(
    readonly path: string,
    private readonly data: Table,
    private readonly env: CliEnv,
  ) {}

  /** Reads the config file at `path` (absent: empty); a file that is not TOML is a validation error. */
  static async load(path: string, env: CliEnv): Promise<Config> {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return new Config(path, {}, env);
      throw err;
    }
    try {
      return new Config(path, parse(text) as Table, env);
    } catch (err) {
      const where = err instanceof TomlError ? ` (line ${err.line}, column ${err.column})` : '';
      throw validationError(`The config file ${path} is not valid TOML${where}: ${(err as Error).message.split('\n')[0]}`, { code: 'CONFIG_INVALID', details: { path } });
    }
  }

  /** The value in the file, if any, ignoring the environment. */
  fileValue(key: ConfigKey): ConfigValue | undefined {
    const [table, name] = key.split('.') as [string, string];
    const value = (this.data[table] as Table | undefined)?.[name];
    if (value === undefined) return undefined;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
    throw validationError(`${key} in ${this.path} must be a plain value`, { code: 'CONFIG_INVALID', details: { key } });
  }

  entry(key: string): ConfigEntry {
    const known = requireKey(key);
    const spec: KeySpec = CONFIG_KEYS[known];
    const fromEnv = spec.env ? this.env[spec.env] : undefined;
    if (typeof fromEnv === 'string') return { key: known, value: parseConfigValue(known, fromEnv), source: 'env', description: spec.description };
    const fromFile = this.fileValue(known);
    if (fromFile !== undefined) return { key: known, value: fromFile, source: 'file', description: spec.description };
    if (spec.default !== undefined) return { key: known, value: spec.default, source: 'default', description: spec.description };
    return { key: known, value: undefined, source: 'unset', description: spec.description };
  }

  get(key: ConfigKey): ConfigValue | undefined {
    return this.entry(key).value;
  }

  string(key: ConfigKey): string | undefined {
    const value = this.get(key);
    return value === undefined ? undefined : String(value);
  }

  list(): ConfigEntry[] {
    return (Object.keys(CONFIG_KEYS) as ConfigKey[]).map((key) => this.entry(key));
  }

  /** A table of the file that is not one of the known keys' (e.g. `[mcp.servers.x]`). */
  table(name: string): Table | undefined {
    const value = this.data[name];
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Table) : undefined;
  }

  set(key: ConfigKey, value: ConfigValue | undefined): void {
    const [table, name] = key.split('.') as [string, string];
    const current = (this.data[table] as Table | undefined) ?? {};
    if (value === undefined) delete current[name];
    else current[name] = value;
    if (Object.keys(current).length === 0) delete this.data[table];
    else this.data[table] = current;
  }

  /** Writes the file atomically with mode 0600 in a folder of mode 0700. */
  async save(): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    const temporary = `${this.path}.${process.pid}.tmp`;
    await writeFile(temporary, `${stringify(this.data)}\n`, { mode: 0o600 });
    await chmod(temporary, 0o600);
    await rename(temporary, this.path);
  }
}

/** The keys that make up the signed-in session, written together. */
export const SESSION_KEYS = ['auth.token', 'auth.refresh_token', 'auth.session_expires_at'] as const satisfies readonly ConfigKey[];

/** Puts a session's tokens into `config` (not saved); a session without a refresh token clears the stored one. */
export function setSession(config: Config, tokens: Tokens): void {
  config.set('auth.token', tokens.accessToken);
  config.set('auth.refresh_token', tokens.refreshToken);
  config.set('auth.session_expires_at', tokens.refreshToken && tokens.refreshExpiresAt ? new Date(tokens.refreshExpiresAt).toISOString() : undefined);
}
