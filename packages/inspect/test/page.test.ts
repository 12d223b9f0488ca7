import { copyFileSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chromiumMissing, consoleErrors, launch, seriousViolations } from './browser.js';
import { startFixture, writeGatewaySession, type Fixture } from './helpers.js';

if (chromiumMissing) console.log(`skipping inspect page tests: ${chromiumMissing}`);

/** Screenshots go to a temp folder; `npm run screenshots` (INSPECT_SCREENSHOTS=1) copies them into the package for the README. */
const SHOTS = mkdtempSync(join(tmpdir(), 'tool-search-inspect-shots-'));
const README_SHOTS = fileURLToPath(new URL('../screenshots/', import.meta.url));

describe.skipIf(chromiumMissing !== undefined)('the inspect page in headless Chromium', () => {
  let fixture: Fixture;
  let browser: BrowserContext;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    fixture = await startFixture();
    // A session written by a real gateway (tools mode, mock OpenAI over HTTP): two turns, read then write.
    await writeGatewaySession(fixture.sessionsDir, 'gateway-session', [
      { target: 'read', args: { path: 'notes.txt' } },
      { target: 'write', args: { path: 'notes.txt', content: 'hello' } },
      { target: 'read', args: { path: 'notes.txt' }, loop: 4 },
    ]);
    browser = await launch();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await fixture?.close();
    if (process.env['INSPECT_SCREENSHOTS'] === '1') {
      mkdirSync(README_SHOTS, { recursive: true });
      for (const name of ['search.png', 'session.png']) copyFileSync(join(SHOTS, name), join(README_SHOTS, name));
    }
  });

  beforeEach(async () => {
    page = await browser.newPage();
    errors = consoleErrors(page);
  });

  afterEach(async () => {
    // No console errors on any page the test opened.
    expect(errors).toEqual([]);
    await page.close();
  });

  /** A property of the focused element (a string expression: these tests compile without the DOM library). */
  const focused = (property: string) => page.evaluate<string | undefined>(`document.activeElement?.${property}`);
  const open = (query = '') => page.goto(new URL(query, fixture.server.url).href);

  it('searches "create a GitHub issue" and lists create_issue first, the query in the URL', async () => {
    await open('?view=search');
    await page.getByLabel('Find a tool').fill('create a GitHub issue');
    await page.getByLabel('Find a tool').press('Enter');
    const first = page.locator('ol.hits > li').first();
    await expect.poll(() => first.locator('.hit-name').textContent(), { timeout: 60_000 }).toBe('create_issue');
    expect(new URL(page.url()).searchParams.get('q')).toBe('create a GitHub issue');
    await expect.poll(() => first.locator('.parts').textContent()).toContain('name ×3: create, issue');
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'search.png'), fullPage: false });
    // A shared link opens the same search.
    await open(`?q=${encodeURIComponent('create a GitHub issue')}`);
    await expect
      .poll(() => page.locator('ol.hits > li .hit-name').first().textContent(), { timeout: 60_000 })
      .toBe('create_issue');
  }, 120_000);

  it('marks weak matches and says why nothing matched well', async () => {
    await open(`?q=${encodeURIComponent('qqzzyx')}`);
    await expect.poll(() => page.locator('ul.misses').textContent(), { timeout: 60_000 }).toContain('qqzzyx');
  }, 120_000);

  it('opens a denied tool from the catalog and shows the deny step', async () => {
    await open('?view=catalog');
    await page.getByLabel('Status').selectOption('denied');
    await page.getByRole('link', { name: 'delete_repository' }).click();
    const dropped = page.locator('ol.steps li.dropped');
    await expect.poll(() => dropped.first().textContent(), { timeout: 60_000 }).toContain('dropped');
    expect(await dropped.first().textContent()).toContain('delete_repository');
    expect(await page.getByRole('heading', { level: 2 }).first().textContent()).toContain('denied');
    expect(await page.locator('pre[aria-label="Input schema JSON"]').textContent()).toContain('"repo"');
    expect(await seriousViolations(page)).toEqual([]);
  }, 120_000);

  it("shows a server's hostile description as text and runs none of it", async () => {
    await open('?view=tool&tool=mcp:github:get_readme');
    const description = page.locator('article > p').nth(1);
    await expect.poll(() => description.textContent(), { timeout: 60_000 }).toContain('<img src=x onerror=');
    expect(await description.textContent()).toContain('<script>window.__inspectXss=2</script>');
    expect(await page.evaluate<unknown>('window.__inspectXss')).toBeUndefined();
    expect(await page.locator('article img, article script').count()).toBe(0);
  }, 120_000);

  it("switches agent and shows that agent's catalog", async () => {
    await open('?view=catalog');
    const execStatus = page
      .locator('tr', { has: page.getByRole('link', { name: 'exec', exact: true }) })
      .locator('td')
      .last();
    await expect.poll(() => execStatus.textContent(), { timeout: 60_000 }).toContain('allowed');
    await page.getByLabel('Agent').selectOption('support');
    await expect.poll(() => execStatus.textContent(), { timeout: 60_000 }).toContain('denied');
    expect(new URL(page.url()).searchParams.get('agent')).toBe('support');
    expect(await seriousViolations(page)).toEqual([]);
  }, 120_000);

  it('opens the session a gateway wrote and shows its calls in order, with searches and the ledger', async () => {
    const log = readFileSync(join(fixture.sessionsDir, 'gateway-session.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; name?: string });
    const called = log.filter((entry) => entry.type === 'tool-call').map((entry) => entry.name);
    // read; write (blocked: it needs an approval nobody can give); read looped until loop detection blocks it.
    expect(called.slice(0, 3)).toEqual(['read', 'write', 'read']);
    expect(called.length).toBeGreaterThan(3);
    await open('?view=sessions');
    await page.getByRole('link', { name: 'gateway-session' }).click();
    const calls = page.locator('ol.timeline li.call .call-name');
    await expect.poll(() => calls.allTextContents(), { timeout: 60_000 }).toEqual(called);
    expect(await page.locator('ol.timeline li.search').count()).toBeGreaterThanOrEqual(2);
    expect(await page.locator('ol.timeline li.call .rank').first().textContent()).toContain('rank 1');
    expect(await page.locator('ol.timeline li.ledger').count()).toBe(3);
    expect(await page.locator('ol.timeline li.approval').textContent()).toMatch(
      /core:core:write → deny by unconfigured/,
    );
    expect(await page.locator('ol.timeline li.call.blocked').count()).toBeGreaterThanOrEqual(2);
    expect(await page.locator('ol.timeline li.loop').allTextContents()).toEqual(
      expect.arrayContaining([expect.stringContaining('critical')]),
    );
    // The zero-hit search is highlighted, in the list and in the timeline.
    expect(await page.locator('ol.timeline li.search.zero-hit').count()).toBe(1);
    expect(await page.locator('ol.timeline li.search.zero-hit').textContent()).toContain('0 hits');
    expect(
      await page
        .locator('tr', { has: page.getByRole('link', { name: 'gateway-session' }) })
        .locator('.badge.zero-hit')
        .textContent(),
    ).toBe('1');
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'session.png'), fullPage: false });
  }, 120_000);

  it('compares the modes (native too) in a chart and a table', async () => {
    await open('?view=exposure');
    const rows = page.locator('table tbody tr th');
    await expect
      .poll(() => rows.allTextContents(), { timeout: 60_000 })
      .toEqual(['direct', 'code', 'tools', 'directory', 'native']);
    expect(await page.locator('canvas[role="img"]').getAttribute('aria-label')).toContain('direct');
    expect(await seriousViolations(page)).toEqual([]);
  }, 120_000);

  it('shows the GitHub MCP server connected with its protocol version', async () => {
    await open('?view=live');
    const row = page.locator('tr', { has: page.getByRole('rowheader', { name: 'github' }) });
    await expect.poll(() => row.textContent(), { timeout: 60_000 }).toContain('connected');
    expect(await row.textContent()).toMatch(/\d{4}-\d{2}-\d{2}/);
    expect(await seriousViolations(page)).toEqual([]);
  }, 120_000);

  it('works with the keyboard only: nav, search, a result, the tool page', async () => {
    await open('');
    await expect.poll(() => page.locator('table tbody tr').count(), { timeout: 60_000 }).toBeGreaterThan(0);
    // Tab to the "Search" view link and follow it.
    for (let i = 0; i < 15 && (await focused('textContent')) !== 'Search'; i++) await page.keyboard.press('Tab');
    expect(await focused('textContent')).toBe('Search');
    await page.keyboard.press('Enter');
    // Focus lands on the view's heading; the search field is a Tab or two away.
    await expect.poll(() => focused('tagName')).toBe('H1');
    for (let i = 0; i < 10 && (await focused('type')) !== 'search'; i++) await page.keyboard.press('Tab');
    await page.keyboard.type('create a GitHub issue');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.locator('ol.hits > li .hit-name').first().textContent(), { timeout: 60_000 })
      .toBe('create_issue');
    for (let i = 0; i < 20 && (await focused('textContent')) !== 'create_issue'; i++) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#tool-heading').textContent(), { timeout: 60_000 }).toContain('create_issue');
  }, 120_000);

  it('refreshes the catalog and the live view when a server says its tool list changed', async () => {
    await open('?view=catalog&server=github');
    await expect.poll(() => page.getByRole('link', { name: 'create_issue' }).count(), { timeout: 60_000 }).toBe(1);
    expect(await page.getByRole('link', { name: 'list_projects' }).count()).toBe(0);
    // A real call through the kernel: the server adds a toolset and sends notifications/tools/list_changed.
    const run = await fixture.preset.kernel.createRun({});
    try {
      const outcome = await run.call('mcp:github:enable_toolset', { toolset: 'projects' });
      expect(outcome.status).toBe('ok');
    } finally {
      await run.close();
    }
    // No reload: the page hears the change over server-sent events and reads the catalog again.
    await expect.poll(() => page.getByRole('link', { name: 'list_projects' }).count(), { timeout: 60_000 }).toBe(1);
    await page.getByRole('link', { name: 'Live' }).click();
    await expect.poll(() => page.locator('caption').textContent(), { timeout: 60_000 }).toContain('1 changes seen');
  }, 120_000);
});
