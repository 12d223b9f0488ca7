/**
 * Issue 46 item 8: the inspect page marks the demo catalog's fakes as fakes (a `demo: true` catalog row, a "fake" badge
 * in the table and on the tool page) and, with nothing configured, says the catalog is the demo one and how to get the
 * real tools. Through the HTTP API and in real Chromium, against a preset kernel built from an empty config.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createToolSearchKernel, type Preset } from '@tool-search/preset';
import { startInspectServer, type InspectServer } from '../src/index.js';
import { chromiumMissing, consoleErrors, launch, seriousViolations } from './browser.js';
import { startFixture, type Fixture } from './helpers.js';

const INVENTORY = ['browser', 'gateway', 'canvas', 'nodes', 'message'];

interface Row {
  id: string;
  name: string;
  source: string;
  demo?: boolean;
}

let demo: { preset: Preset; server: InspectServer };
let mixed: Fixture;

beforeAll(async () => {
  // No config at all, as a newcomer runs `tool-search inspect`: the preset falls back to the demo catalog.
  const preset = await createToolSearchKernel({}, { baseDir: mkdtempSync(join(tmpdir(), 'inspect-demo-')) });
  const server = await startInspectServer({
    kernel: preset.kernel,
    config: {},
    demoCatalog: preset.demoCatalog,
    countTokens: false,
  });
  demo = { preset, server };
  // Fakes beside real tools: the fake catalog and a GitHub MCP server (official SDK, stdio).
  mixed = await startFixture();
}, 180_000);

afterAll(async () => {
  await demo?.server.close();
  await demo?.preset.kernel.close();
  await mixed?.close();
});

async function catalog(url: string): Promise<Row[]> {
  const response = await fetch(new URL('/api/catalog', url));
  return ((await response.json()) as { tools: Row[] }).tools;
}

describe('the inspect API marks fakes', () => {
  it('every row of the demo catalog is demo: true, the inventory names included; meta says it is the demo', async () => {
    const rows = await catalog(demo.server.url);
    expect(rows).toHaveLength(1025);
    expect(rows.every((row) => row.demo === true)).toBe(true);
    expect(INVENTORY.filter((name) => rows.some((row) => row.name === name))).toEqual(INVENTORY);
    const meta = (await (await fetch(new URL('/api/meta', demo.server.url))).json()) as { demoCatalog: boolean };
    expect(meta.demoCatalog).toBe(true);
  });

  it('beside real tools only the fakes carry the mark', async () => {
    const rows = await catalog(mixed.server.url);
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get('core:core:gateway')?.demo).toBe(true);
    expect(byId.get('mcp:github:create_issue')).toBeDefined();
    expect(rows.filter((row) => row.source === 'mcp').every((row) => row.demo === undefined)).toBe(true);
    const tool = (await (await fetch(new URL('/api/tool?id=core:core:gateway', mixed.server.url))).json()) as {
      tool: Row;
    };
    expect(tool.tool.demo).toBe(true);
  });

  it('search hits say which are fakes, in rank order', async () => {
    const response = await fetch(
      new URL(`/api/search?q=${encodeURIComponent('restart the gateway')}`, mixed.server.url),
    );
    const body = (await response.json()) as { result: { hits: { id: string }[] }; demo: boolean[] };
    expect(body.demo).toHaveLength(body.result.hits.length);
    body.result.hits.forEach((hit, i) => expect(body.demo[i], hit.id).toBe(!hit.id.startsWith('mcp:')));
    expect(body.result.hits.map((hit) => hit.id)).toContain('core:core:gateway');
  });
});

if (chromiumMissing) console.log(`skipping the inspect fake-marking page tests: ${chromiumMissing}`);

describe.skipIf(chromiumMissing !== undefined)('the inspect page marks fakes, in headless Chromium', () => {
  let browser: BrowserContext;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    browser = await launch();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    page = await browser.newPage();
    errors = consoleErrors(page);
  });
  afterEach(async () => {
    expect(errors).toEqual([]);
    await page.close();
  });

  const rowOf = (name: string) =>
    page.locator('tbody tr').filter({ has: page.getByRole('link', { name, exact: true }) });

  it('with nothing configured: the note names the demo catalog and the command for the real tools; rows say fake', async () => {
    await page.goto(new URL('?view=catalog', demo.server.url).href);
    const note = page.locator('main > p.note').first();
    await expect.poll(() => note.textContent(), { timeout: 60_000 }).toContain('demo catalog');
    expect(await note.textContent()).toContain("tool-search config set plugins.core '{}'");
    expect(await note.textContent()).toContain('fakes that do nothing');
    await expect.poll(() => rowOf('gateway').locator('.badge.fake').textContent(), { timeout: 60_000 }).toBe('fake');
    expect(await page.locator('section[aria-labelledby="catalog-heading"] p.note').textContent()).toContain(
      '1025 of them are',
    );
    expect(await seriousViolations(page)).toEqual([]);
  }, 120_000);

  it('beside real tools: the fake has the badge, the MCP tool has none; the tool page says a call does nothing', async () => {
    await page.goto(new URL('?view=catalog', mixed.server.url).href);
    await expect.poll(() => rowOf('message').locator('.badge.fake').count(), { timeout: 60_000 }).toBe(1);
    expect(await rowOf('create_pull_request').locator('.badge.fake').count()).toBe(0);
    expect(await page.locator('main > p.note').count()).toBe(0); // not the demo catalog: something is configured
    await rowOf('browser').getByRole('link', { name: 'browser', exact: true }).click();
    const heading = page.getByRole('heading', { level: 2 }).first();
    await expect.poll(() => heading.textContent(), { timeout: 60_000 }).toContain('fake');
    expect(await page.locator('article p.note').textContent()).toContain('calling it does nothing');
    expect(await seriousViolations(page)).toEqual([]);
  }, 120_000);

  it('a search hit on a fake has the badge; a real MCP hit has none', async () => {
    await page.goto(new URL(`?q=${encodeURIComponent('create a GitHub issue')}`, mixed.server.url).href);
    const first = page.locator('ol.hits > li').first();
    await expect.poll(() => first.locator('.hit-name').textContent(), { timeout: 60_000 }).toBe('create_issue');
    expect(await first.locator('.badge.fake').count()).toBe(0);
    await page.goto(new URL(`?q=${encodeURIComponent('restart the gateway')}`, mixed.server.url).href);
    const gateway = page.locator('ol.hits > li').filter({ has: page.locator('.hit-name', { hasText: /^gateway$/ }) });
    await expect.poll(() => gateway.locator('.badge.fake').count(), { timeout: 60_000 }).toBe(1);
  }, 120_000);
});
