import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { launchChromium, type TestBrowser } from './browser.js';

/** Where a console test's screenshots go (git-ignored): one folder per test file, emptied and printed when it starts. */
export function screenshotFolder(name: string): string {
  const dir = join(import.meta.dirname, '..', '..', '.artifacts', 'console', name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  console.log(`console screenshots: ${dir}`);
  return dir;
}

export interface ConsolePage {
  page: Page;
  /**
   * Every `console.error` and uncaught error of the page (and of frames in it), and every answer
   * of 500 or more, so far. Chromium reports a 4xx answer to `fetch` as a console error of its
   * own ("Failed to load resource"); those are the API's answers to what a person tried (a wrong
   * password, signed out), which the page shows, so they are not counted.
   */
  problems: string[];
  /** Saves a full-page screenshot named after the step, numbered in order. */
  shot(step: string): Promise<void>;
}

/** Screenshots taken so far per folder: steps are numbered across the tabs of a file. */
const shots = new Map<string, number>();

/**
 * A tab of the console at `origin`, watched for console errors and uncaught exceptions (a test
 * expects none), with screenshots into `folder`.
 */
export async function openConsole(browser: TestBrowser, origin: string, folder: string, path = '/'): Promise<ConsolePage> {
  const page = await browser.context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !/^Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())) problems.push(`console.error: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 500) problems.push(`${response.status()} from ${response.url()}`);
  });
  await page.goto(`${origin}${path}`);
  return {
    page,
    problems,
    async shot(step) {
      const count = (shots.get(folder) ?? 0) + 1;
      shots.set(folder, count);
      await page.screenshot({ path: join(folder, `${String(count).padStart(2, '0')}-${step}.png`), fullPage: true });
    },
  };
}

/** Signs `who` in through the sign-in page the tab shows (or is sent to). */
export async function signInThroughPage(page: Page, who: { email: string; password: string }): Promise<void> {
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.getByLabel('E-mail').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
}

/**
 * A console test's Chromium: tabs of the console on the fleet at `fleetUrl`, named
 * `http://localhost:<port>` as a person's browser would (the refresh cookie is `localhost`'s).
 * `closeTabs` (after each test) fails on any problem a tab saw.
 */
export class ConsoleBrowser {
  readonly origin: string;
  readonly #tabs: ConsolePage[] = [];

  private constructor(
    readonly browser: TestBrowser,
    fleetUrl: string,
    readonly folder: string,
  ) {
    this.origin = `http://localhost:${new URL(fleetUrl).port}`;
  }

  static async launch(fleetUrl: string, folder: string): Promise<ConsoleBrowser> {
    return new ConsoleBrowser(await launchChromium(), fleetUrl, folder);
  }

  async open(path = '/'): Promise<ConsolePage> {
    const tab = await openConsole(this.browser, this.origin, this.folder, path);
    this.#tabs.push(tab);
    return tab;
  }

  async closeTabs(): Promise<void> {
    for (const tab of this.#tabs.splice(0)) {
      expect(tab.problems).toEqual([]);
      await tab.page.close();
    }
  }

  close(): Promise<void> {
    return this.browser.close();
  }
}
