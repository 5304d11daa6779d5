import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseManifest } from '@svc/pack-sdk';
import { suiteHome } from '../testing/run-cli.js';

describe('svc schedule and the scheduled template (no platform)', () => {
  const home = suiteHome();
  const run = home.run;

  it('scaffolds a scheduled project whose pack proposes a schedule that validates', async () => {
    const made = await run(['project', 'init', 'orbit', '--template', 'scheduled', '--namespace', 'ada']);
    expect(made.code, made.stdout).toBe(0);
    const manifest = parseManifest(await readFile(join(home.dir, 'orbit', 'pack', 'pack.yaml'), 'utf8'));
    expect(manifest.schedules).toEqual([{ command: 'orbit-report', cron: '0 7 * * 1-5', timezone: 'Europe/Berlin', input: { text: 'the week ahead', top: 5 }, description: 'Weekday morning word count' }]);
    const checked = await run(['pack', 'validate'], join(home.dir, 'orbit', 'pack'));
    expect(checked.code, checked.stdout).toBe(0);
    expect(await readFile(join(home.dir, 'orbit', 'docs', 'SCHEDULING.md'), 'utf8')).toContain('svc schedule resume');
  });

  it('refuses a command that is not namespace.name, and an input that is not a JSON object, before asking the platform', async () => {
    const badCommand = await run(['schedule', 'create', 'no-dot', '--cron', '@daily']);
    expect([badCommand.code, badCommand.json().error.code]).toEqual([3, 'COMMAND_INVALID']);
    const badInput = await run(['schedule', 'create', 'ada.report', '--cron', '@daily', '--input', '[1,2]']);
    expect([badInput.code, badInput.json().error.code]).toEqual([3, 'INPUT_INVALID']);
    const badLimit = await run(['schedule', 'list', '--limit', '1000']);
    expect(badLimit.code).toBe(3);
  });
});
