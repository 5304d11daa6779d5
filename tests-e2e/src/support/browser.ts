import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`, which `.ci/run` does when it is missing); no browser is ever downloaded. */
export const CHROMIUM = '/usr/bin/chromium';

const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export interface TestBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Chromium through playwright-core, headless, on a fresh profile of its own (removed on
 * `close`): cookies, storage and service workers start empty, as a new victim's browser would.
 */
export async function launchChromium(): Promise<TestBrowser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get update && apt-get install -y chromium (.ci/run does it)`);
  const profile = await mkdtemp(join(tmpdir(), 'svc-e2e-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS, acceptDownloads: true });
  return {
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
