/**
 * A tool-list change made before the page's event stream opened (a slow start, a reconnect) still reloads the
 * catalog: the stream's first event (`hello`) carries the count of changes, and the page takes it like a later one.
 * Before, the page listened only for later changes and kept the old catalog (the refresh test in page.test.ts
 * failed this way on a loaded machine).
 */
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, launch } from './browser.js';
import { startFixture, type Fixture } from './helpers.js';

if (chromiumMissing) console.log(`skipping the inspect reconnect test: ${chromiumMissing}`);

describe.skipIf(chromiumMissing !== undefined)('the inspect page and a change before its event stream', () => {
  let fixture: Fixture;
  let browser: BrowserContext;
  beforeAll(async () => {
    fixture = await startFixture();
    browser = await launch();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await fixture?.close();
  });

  it('reloads the catalog from the count the stream starts with', async () => {
    const page = await browser.newPage();
    // The event stream waits until the change is made.
    let release!: () => void;
    const changed = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/events', async (route) => {
      await changed;
      await route.continue();
    });
    await page.goto(new URL('?view=catalog&server=github', fixture.server.url).href);
    await expect.poll(() => page.getByRole('link', { name: 'create_issue' }).count(), { timeout: 60_000 }).toBe(1);
    const run = await fixture.preset.kernel.createRun({});
    try {
      expect((await run.call('mcp:github:enable_toolset', { toolset: 'projects' })).status).toBe('ok');
    } finally {
      await run.close();
    }
    // The server has counted the change (what `hello` will carry) before the stream opens.
    const liveVersion = async () =>
      ((await (await fetch(new URL('api/live', fixture.server.url))).json()) as { version: number }).version;
    await expect.poll(liveVersion, { timeout: 60_000 }).toBe(1);
    release();
    await expect.poll(() => page.getByRole('link', { name: 'list_projects' }).count(), { timeout: 60_000 }).toBe(1);
    await page.close();
  }, 180_000);
});
