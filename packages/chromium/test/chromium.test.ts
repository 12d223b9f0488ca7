import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_FLAGS, findChromium } from '../src/index.js';

const systemChromium = 'path' in findChromium(undefined);
if (!systemChromium)
  console.warn('skipping the system Chromium lookup: chromium is not installed (apt-get install -y chromium)');

describe('findChromium', () => {
  it.skipIf(!systemChromium)('finds the system Chromium on PATH', () => {
    expect(findChromium(undefined)).toEqual({ path: expect.stringMatching(/chrom/) });
  });

  it('finds any of the candidate names on PATH, the first folder first', () => {
    const [first, second] = [mkdtempSync(join(tmpdir(), 'chromium-a-')), mkdtempSync(join(tmpdir(), 'chromium-b-'))];
    writeFileSync(join(second, 'chromium'), '#!/bin/sh\n', { mode: 0o755 });
    writeFileSync(join(first, 'google-chrome'), '#!/bin/sh\n', { mode: 0o755 });
    expect(findChromium(undefined, { PATH: `${first}:${second}` })).toEqual({ path: join(first, 'google-chrome') });
  });

  it('takes an executable path as given, and says why a non-executable one cannot be used', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chromium-'));
    const script = join(dir, 'chromium');
    writeFileSync(script, '#!/bin/sh\n', { mode: 0o755 });
    expect(findChromium(script)).toEqual({ path: script });
    const plain = join(dir, 'plain');
    writeFileSync(plain, 'x', { mode: 0o644 });
    expect(findChromium(plain, process.env, 'browser.executablePath')).toEqual({
      missing: expect.stringMatching(/^browser\.executablePath \(.+\) is not an executable file$/),
    });
  });

  it('says what to install when PATH has none', () => {
    expect(findChromium(undefined, { PATH: '/nonexistent' }, 'diffs executablePath')).toEqual({
      missing: expect.stringMatching(/Debian package chromium.*diffs executablePath/),
    });
  });

  it('the flags are headless and quiet, never a sandbox-needing or networked default', () => {
    expect(CHROMIUM_FLAGS).toEqual(
      expect.arrayContaining([
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ]),
    );
  });
});
