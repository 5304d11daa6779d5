// Lints the public OpenAPI document with Redocly, offline: the document is assembled in process
// and written to a temporary file; Redocly's telemetry and update notices are off, and its rules
// (redocly.yaml) are the built-in ones, so nothing is fetched.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => join(root, 'node_modules', '.bin', name);
const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };

function run(command, args) {
  return spawnSync(command, args, { cwd: root, env, stdio: 'inherit' }).status ?? 1;
}

const dir = mkdtempSync(join(tmpdir(), 'svc-openapi-'));
const file = join(dir, 'openapi.json');
let status = run(bin('tsx'), ['scripts/write-openapi.ts', file]);
if (status === 0) status = run(bin('redocly'), ['lint', file, '--config', join(root, 'redocly.yaml')]);
rmSync(dir, { recursive: true, force: true });
process.exit(status);
