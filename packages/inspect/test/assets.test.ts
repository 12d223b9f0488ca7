import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { describe, expect, it } from 'vitest';

const PACKAGE = fileURLToPath(new URL('..', import.meta.url));

describe('the committed page assets', () => {
  it('are what web/ builds to today (run npm run build:web and commit assets/ when this fails)', async () => {
    const out = mkdtempSync(join(tmpdir(), 'tool-search-inspect-assets-'));
    await build({
      configFile: join(PACKAGE, 'web/vite.config.ts'),
      logLevel: 'silent',
      build: { outDir: out, emptyOutDir: true },
    });
    const committed = join(PACKAGE, 'assets');
    expect(readdirSync(out).sort()).toEqual(readdirSync(committed).sort());
    const digest = (dir: string, file: string) =>
      createHash('sha256')
        .update(readFileSync(join(dir, file)))
        .digest('hex');
    for (const file of readdirSync(out)) expect(digest(out, file), file).toBe(digest(committed, file));
  }, 120_000);

  it('load nothing from another origin (no CDN)', () => {
    for (const file of readdirSync(join(PACKAGE, 'assets'))) {
      const text = readFileSync(join(PACKAGE, 'assets', file), 'utf8');
      expect(text, file).not.toMatch(/(src|href)=["']?(https?:)?\/\//);
      expect(text, file).not.toMatch(/import\s*\(?\s*["']https?:/);
    }
  });
});
