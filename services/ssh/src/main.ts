import { runService } from '@svc/platform';
import { createSshService, sshConfigFromEnv } from './app.js';
import { loadSshEnv } from './env.js';

const env = loadSshEnv(process.env);
await runService('ssh', env, (deps) => createSshService({ ...deps, config: sshConfigFromEnv(env) }));
