import { expectCall } from './api.js';
import { publishAndInstall, type Developer } from './accounts.js';

/**
 * B5: publishes and installs `count` new packs, and times the first call of each: command
 * resolution, the package fetched and unpacked by the worker, a runner forked and the module
 * imported (a Python runner for `runtime` python). Returns each first call's milliseconds.
 */
export async function coldStarts(url: string, developer: Developer, label: string, count: number, runtime: 'node' | 'python' = 'node'): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const name = `cold-${runtime === 'python' ? 'py-' : ''}${label}-${i}`;
    await publishAndInstall(url, developer, name, name, runtime);
    const t0 = performance.now();
    await expectCall(200, url, `/api/v1/commands/${developer.slug}/${name}`, { token: developer.apiKey, body: { text: 'first' } });
    times.push(performance.now() - t0);
  }
  return times;
}
