/**
 * Issue 41, the inspect page's rough edges, in headless Chromium: the exposure chart shows a bar for every mode (the
 * search modes are hundreds of times smaller than direct), a code run that failed shows as failed (not a green "ok"),
 * and nothing is wider than a phone (375 px) on any view.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createToolSearchKernel } from '@tool-search/preset';
import { chromiumMissing, consoleErrors, launch } from './browser.js';
import { fixtureConfig, startFixture, type Fixture } from './helpers.js';

if (chromiumMissing) console.log(`skipping inspect rough-edge tests: ${chromiumMissing}`);

/** A session whose one code run throws: tool_search_code answers `ok` with an error result. */
async function writeFailedCodeRun(sessionsDir: string, sessionId: string): Promise<void> {
  const preset = await createToolSearchKernel(fixtureConfig(sessionsDir));
  try {
    const run = await preset.kernel.createRun({ sessionId });
    try {
      const exposure = await run.exposure('code');
      const names = exposure.tools.map((tool) => tool.name);
      expect(names).toContain('tool_search_code');
      const outcome = await exposure.call('tool_search_code', { code: 'throw new Error("boom")' });
      expect(outcome).toMatchObject({ status: 'ok', result: { isError: true } });
    } finally {
      await run.close();
    }
  } finally {
    await preset.kernel.close();
  }
}

/** Per bar colour, how many separate bars (runs of columns at least 3 px tall, from the baseline up) the canvas draws. */
const BARS_SCRIPT = `(() => {
  const canvas = document.querySelector('.chart canvas');
  const { width, height } = canvas;
  const pixels = canvas.getContext('2d').getImageData(0, 0, width, height).data;
  const colours = { tools: [0x1f, 0x5f, 0xa8], tokens: [0x3b, 0x8a, 0x4a] };
  const out = {};
  for (const [name, [r, g, b]] of Object.entries(colours)) {
    const is = (x, y) => { const i = (y * width + x) * 4; return Math.abs(pixels[i] - r) < 8 && Math.abs(pixels[i + 1] - g) < 8 && Math.abs(pixels[i + 2] - b) < 8; };
    let baseline = -1;
    for (let y = height - 1; y >= 0 && baseline < 0; y--) for (let x = 0; x < width; x++) if (is(x, y)) { baseline = y; break; }
    let bars = 0, inBar = false;
    for (let x = 0; x < width; x++) {
      let tall = 0;
      for (let y = baseline; y >= 0 && is(x, y); y--) tall++;
      if (tall >= 3 && !inBar) bars++;
      inBar = tall >= 3;
    }
    out[name] = bars;
  }
  return out;
})()`;

describe.skipIf(chromiumMissing !== undefined)('inspect page rough edges (issue 41) in headless Chromium', () => {
  let fixture: Fixture;
  let browser: BrowserContext;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    fixture = await startFixture();
    await writeFailedCodeRun(fixture.sessionsDir, 'failed-code');
    browser = await launch();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await fixture?.close();
  });

  beforeEach(async () => {
    page = await browser.newPage();
    errors = consoleErrors(page);
  });

  afterEach(async () => {
    expect(errors).toEqual([]);
    await page.close();
  });

  const open = (query = '') => page.goto(new URL(query, fixture.server.url).href);

  it('draws a visible bar for every mode, the search modes beside a direct mode hundreds of times larger', async () => {
    await open('?view=exposure');
    const rows = page.locator('table tbody tr th');
    await expect.poll(() => rows.count(), { timeout: 60_000 }).toBe(5);
    const cells = await page.locator('table tbody tr td:nth-child(5)').allTextContents();
    expect(cells[0]).toMatch(/KiB/); // direct, in the table
    await expect
      .poll(() => page.evaluate<Record<string, number>>(BARS_SCRIPT), { timeout: 30_000 })
      .toEqual({
        tools: 5,
        tokens: 5,
      });
  }, 120_000);

  it('shows a code run that threw as failed, in red, not ok', async () => {
    await open('?view=sessions&session=failed-code');
    const control = page.locator('ol.timeline li.control');
    await expect.poll(() => control.count(), { timeout: 60_000 }).toBe(1);
    expect(await control.locator('.badge').textContent()).toBe('failed');
    expect(await control.locator('.badge').getAttribute('class')).toBe('badge failed');
    const colour = "getComputedStyle(document.querySelector('ol.timeline li.control .badge')).color";
    expect(await page.evaluate<string>(colour)).toBe('rgb(138, 28, 28)');
  }, 120_000);

  it('fits a 375 px wide phone screen on every view (no sideways scrolling)', async () => {
    await page.setViewportSize({ width: 375, height: 812 });
    const views = [
      ['', 'table tbody tr'],
      ['?q=create+a+GitHub+issue', 'ol.hits > li'],
      ['?view=tool&tool=mcp:github:create_issue', 'ol.steps li'],
      ['?view=exposure', 'table tbody tr'],
      ['?view=sessions', 'table tbody tr'],
      ['?view=sessions&session=failed-code', 'ol.timeline li'],
      ['?view=live', 'table tbody tr'],
    ] as const;
    const widths: Record<string, string> = {};
    for (const [query, ready] of views) {
      await open(query);
      await expect.poll(() => page.locator(ready).count(), { timeout: 60_000 }).toBeGreaterThan(0);
      const [scroll, client] = await page.evaluate<[number, number]>(
        '[document.scrollingElement.scrollWidth, document.scrollingElement.clientWidth]',
      );
      widths[query || 'catalog'] = `${scroll} <= ${client}`;
      expect(scroll, `${query || 'catalog'}: page ${scroll} px wide on a ${client} px screen`).toBeLessThanOrEqual(
        client,
      );
    }
  }, 180_000);
});
