/**
 * Debian's Chromium for the gateway's browser tests, started as a plain process (no playwright) so a page's requests
 * are exactly a browser's; `attacker.test` resolves to 127.0.0.1 (a foreign site on this machine).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumPath } from '@tool-search/testing';

// CHROMIUM_PATH, else the Chromium on PATH (as the product finds it): a PATH without one skips these tests.
const CHROMIUM = chromiumPath();
export const chromiumMissing = CHROMIUM
  ? undefined
  : 'chromium is not installed (apt-get install -y chromium, or set CHROMIUM_PATH)';

/** Opens `url` in a headless Chromium with a fresh profile, in a process group of its own. */
export function openChromium(url: string): { browser: ChildProcess; profile: string } {
  const profile = mkdtempSync(join(tmpdir(), 'tool-search-gateway-chromium-'));
  const browser = spawn(
    CHROMIUM ?? 'chromium',
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--host-resolver-rules=MAP attacker.test 127.0.0.1',
      `--user-data-dir=${profile}`,
      url,
    ],
    // Its own process group: the renderer and helper processes end with it.
    { stdio: 'ignore', detached: true },
  );
  return { browser, profile };
}

/** Kills the browser's process group (only the processes this test started) and waits for the browser to exit. */
export async function closeChromium(browser: ChildProcess, profile: string): Promise<void> {
  const exited = new Promise((resolve) => browser.once('exit', resolve));
  if (browser.exitCode === null && browser.pid !== undefined) process.kill(-browser.pid, 'SIGKILL');
  await exited;
  rmSync(profile, { recursive: true, force: true, maxRetries: 5 });
}
