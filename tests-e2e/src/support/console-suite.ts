import { afterAll, afterEach, beforeAll } from 'vitest';
import { adminToken } from './accounts.js';
import { client, type Call } from './client.js';
import { ConsoleBrowser, screenshotFolder } from './console-browser.js';
import { startTestFleet, type Mode, type TestFleet, type TestFleetOptions } from './fleet.js';

/** What a console test file drives: set by the suite's `beforeAll`, so read it in hooks and tests only. */
export class ConsoleSuite {
  fleet!: TestFleet;
  call!: Call;
  /** The operator's access token. */
  admin!: string;
  browser!: ConsoleBrowser;
}

export interface ConsoleSuiteOptions {
  /** Called as the fleet starts, after the file's earlier hooks: the options may name a fake one of them started. */
  fleet?: () => TestFleetOptions;
  /** Lets the console's tabs read the clipboard, for a test that reads back what a copy button put there. */
  clipboard?: boolean;
}

/**
 * A console test file's platform and Chromium, with screenshots in the folder `name`: called in
 * the file's `describe`, it starts both before the tests, closes each test's tabs after it
 * (failing on any problem they saw) and stops both at the end.
 *
 * vitest runs `beforeAll` hooks in the order they are registered and `afterAll` hooks in the
 * reverse, so a hook the file registers before this call (a fake the fleet's options name) runs
 * before the fleet starts and is undone after it stops; one registered after it (users, packs)
 * finds the fleet and the browser up.
 *
 * @example
 * const suite = consoleSuite(mode, 'password-reset', { fleet: () => ({ smtpUrl: smtp.url }) });
 * const { page } = await suite.browser.open('/login');
 */
export function consoleSuite(mode: Mode, name: string, options: ConsoleSuiteOptions = {}): ConsoleSuite {
  const folder = screenshotFolder(name);
  const suite = new ConsoleSuite();
  beforeAll(async () => {
    suite.fleet = await startTestFleet(mode, options.fleet?.());
    suite.call = client(suite.fleet.url);
    suite.admin = await adminToken(suite.call);
    suite.browser = await ConsoleBrowser.launch(suite.fleet.url, folder);
    if (options.clipboard) await suite.browser.browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.browser.origin });
  });
  afterEach(() => suite.browser.closeTabs());
  afterAll(async () => {
    await suite.browser?.close();
    await suite.fleet?.stop();
  });
  return suite;
}
