/**
 * Headless Chromium for the page tests: Debian's /usr/bin/chromium (or CHROMIUM_PATH) driven by playwright-core,
 * never a downloaded browser, with a fresh profile each launch; axe-core for accessibility.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { chromiumPath } from '@tool-search/testing';

// CHROMIUM_PATH, else the Chromium on PATH (as the product finds it): a PATH without one skips these tests.
export const CHROMIUM = chromiumPath() ?? '/usr/bin/chromium';
export const chromiumMissing = chromiumPath()
  ? undefined
  : 'chromium is not installed (apt-get install -y chromium, or set CHROMIUM_PATH)';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launch(): Promise<BrowserContext> {
  return chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'tool-search-inspect-chromium-')), {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1280, height: 900 },
  });
}

/** Everything the page logs as an error, and every uncaught exception. */
export function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

const axeSource = (): string => {
  const require = createRequire(import.meta.url);
  return (require('axe-core') as { source: string }).source;
};

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core's violations of impact serious or critical on the page as it is now. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated over the DevTools protocol, so the page's CSP (scripts from 'self' only) stays as it is.
  // (Expressions as strings: these tests compile without the DOM library, which the preset's sources do not take.)
  if (!(await page.evaluate<boolean>("'axe' in window"))) await page.evaluate(axeSource());
  const violations = await page.evaluate<
    AxeViolation[]
  >(`axe.run(document, { resultTypes: ['violations'] }).then((result) =>
    result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) })))`);
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
