/** "A tool that cannot work on a deployment is not listed there, and a diagnostic says why." */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@tool-search/kernel';
import { findChromium } from '@tool-search/chromium';
import { browserPlugin } from '../src/index.js';
import { browserRun, chromiumMissing, tempDir } from './helpers.js';

function notExecutable(): string {
  const path = join(tempDir('not-exec'), 'chromium');
  writeFileSync(path, 'not a program', { mode: 0o644 });
  return path;
}

describe('browser is listed only where it can work', () => {
  it.skipIf(chromiumMissing('the "listed where Chromium runs" test'))(
    'is listed when a Chromium is found on PATH',
    async () => {
      expect(findChromium(undefined)).toEqual({ path: expect.stringMatching(/chrom/) });
      const run = await browserRun({ stateDir: tempDir('listed') });
      expect(run.tool('browser')?.id).toBe('core:core:browser');
      await run.close();
    },
  );

  it.each([
    ['browser.enabled is false', { browser: { enabled: false } }, /browser\.enabled is false/],
    ['no Chromium on PATH', { env: { PATH: '/nonexistent' } }, /no Chromium on PATH.*Debian package chromium/],
    [
      'executablePath is not an executable',
      { browser: { executablePath: notExecutable() } },
      /browser\.executablePath/,
    ],
  ])('not listed when %s, with a TOOL_NOT_CONFIGURED diagnostic saying why', async (_why, options, reason) => {
    const run = await browserRun({ stateDir: tempDir('absent'), ...options });
    expect(run.tool('browser')).toBeUndefined();
    const diagnostic = run.diagnostics.find((entry) => entry.toolId === 'core:core:browser');
    expect(diagnostic).toMatchObject({ code: ErrorCode.TOOL_NOT_CONFIGURED });
    expect(diagnostic?.message).toMatch(reason);
    await run.close();
  });

  it.each([
    [{ profiles: { Bad_Name: {} } }, '/browser/profiles'],
    [{ profiles: { both: { cdpPort: 18810, cdpUrl: 'http://127.0.0.1:9222' } } }, '/browser/profiles/both'],
    [{ defaultProfile: 'UPPER' }, '/browser/defaultProfile'],
    [{ actionTimeoutMs: 'soon' }, '/browser/actionTimeoutMs'],
  ])('a bad browser config is CONFIG_INVALID naming the path (%j)', (browser, path) => {
    expect(() => browserPlugin({ browser: browser as never })).toThrow(
      expect.objectContaining({ code: ErrorCode.CONFIG_INVALID, path: expect.stringContaining(path) }),
    );
  });
});
