import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The environment `svc` reads, read once here and nowhere else. `SVC_*` variables override the
 * config file.
 */
export interface CliEnv {
  token: string | undefined;
  registryUrl: string | undefined;
  apiUrl: string | undefined;
  /** Where the config file is when neither `--config` nor `SVC_CONFIG` says otherwise. */
  defaultConfigPath: string;
  configPath: string | undefined;
  logLevel: string | undefined;
  skipUpdateCheck: boolean;
  /** `NO_COLOR` or `TERM=dumb`: no spinners or colours even on a terminal. */
  plain: boolean;
  /** The Python of Python packs' local runs and tests (`SVC_PYTHON`, default `python3`). */
  python: string;
}

const TRUTHY = new Set(['1', 'true', 'yes']);

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

export function readEnv(env: NodeJS.ProcessEnv = process.env): CliEnv {
  const configHome = nonEmpty(env.XDG_CONFIG_HOME) ?? join(nonEmpty(env.HOME) ?? homedir(), '.config');
  return {
    token: nonEmpty(env.SVC_TOKEN),
    registryUrl: nonEmpty(env.SVC_REGISTRY_URL),
    apiUrl: nonEmpty(env.SVC_API_URL),
    defaultConfigPath: join(configHome, 'svc', 'config.toml'),
    configPath: nonEmpty(env.SVC_CONFIG),
    logLevel: nonEmpty(env.SVC_LOG_LEVEL),
    skipUpdateCheck: TRUTHY.has((env.SVC_SKIP_UPDATE_CHECK ?? '').trim().toLowerCase()),
    plain: env.NO_COLOR !== undefined || env.TERM === 'dumb',
    python: nonEmpty(env.SVC_PYTHON) ?? 'python3',
  };
}
