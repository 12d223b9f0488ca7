/**
 * The optional `diffs` tool: a read-only viewer for before/after text or a unified patch, rendered to PNG or PDF
 * through the system Chromium (real headless Chromium here, no mock).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, ErrorCode, type Run } from '@tool-search/kernel';
import { findChromium } from '@tool-search/chromium';
import { diffHtml, diffsPlugin, toPatches } from '../src/index.js';

// The renders need Chromium on PATH; without it only the listing diagnostic and the HTML escaping are tested here.
const CHROMIUM = 'path' in findChromium(undefined);
if (!CHROMIUM) console.warn('skipping the diffs renders: chromium is not installed (apt-get install -y chromium)');

const outputDir = mkdtempSync(join(tmpdir(), 'tool-search-diffs-'));
let run: Run;
beforeAll(async () => {
  run = await createKernel({ plugins: [diffsPlugin({ outputDir, maxLines: 50 })] }).createRun({});
});
afterAll(async () => run?.close());

const PATCH = `diff --git a/src/app.ts b/src/app.ts
--- a/src/app.ts
+++ b/src/app.ts
@@ -1,3 +1,3 @@
 import { start } from './start';
-start({ port: 80 });
+start({ port: 8080 });
 export {};
diff --git a/README.md b/README.md
--- a/README.md
+++ b/README.md
@@ -1,2 +1,3 @@
 # App
+Runs on port 8080.
 Done.
`;

const details = (outcome: Awaited<ReturnType<Run['call']>>) => {
  if (outcome.status !== 'ok') throw new Error(JSON.stringify(outcome));
  return outcome.result.structuredContent as {
    filePath: string;
    fileFormat: string;
    files: number;
    additions: number;
    deletions: number;
    truncated: boolean;
  };
};

describe.skipIf(!CHROMIUM)('diffs renders before/after text or a unified patch to PNG or PDF', () => {
  it('before/after → a PNG file, answered as MEDIA:<path> with details.filePath', async () => {
    const outcome = await run.call('diffs', {
      before: 'one\ntwo\nthree\n',
      after: 'one\n2\nthree\nfour\n',
      path: 'notes.txt',
      title: 'Notes',
    });
    const result = details(outcome);
    expect(result).toMatchObject({ fileFormat: 'png', files: 1, additions: 2, deletions: 1, truncated: false });
    const png = readFileSync(result.filePath);
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.readUInt32BE(20)).toBeGreaterThan(50); // the image has height
    expect(outcome.status === 'ok' && outcome.result.content[0]).toEqual({
      type: 'text',
      text: `MEDIA:${result.filePath}`,
    });
  }, 60_000);

  it('a unified patch of two files → a PDF', async () => {
    const result = details(await run.call('diffs', { patch: PATCH, fileFormat: 'pdf' }));
    expect(result).toMatchObject({ fileFormat: 'pdf', files: 2, additions: 2, deletions: 1 });
    expect(readFileSync(result.filePath).subarray(0, 5).toString()).toBe('%PDF-');
  }, 60_000);

  it('draws at most maxLines lines and says it cut', async () => {
    const before = Array.from({ length: 200 }, (_, i) => `line ${i}`).join('\n');
    const after = Array.from({ length: 200 }, (_, i) => `LINE ${i}`).join('\n');
    expect(details(await run.call('diffs', { before, after })).truncated).toBe(true);
  }, 60_000);
});

describe('diffs is read-only and inert', () => {
  it('escapes every piece of input: markup in a diff is shown, never run or loaded', async () => {
    let hits = 0;
    const server = createServer((_req, res) => {
      hits++;
      res.end('x');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const hostile = `<script>fetch('http://127.0.0.1:${port}/script')</script><img src="http://127.0.0.1:${port}/img"><link rel="stylesheet" href="http://127.0.0.1:${port}/css">`;
    const { html } = diffHtml(
      toPatches({ before: 'safe\n', after: `${hostile}\n`, path: '"><script>alert(1)</script>' }),
      '<b>t</b>',
      100,
    );
    expect(html).not.toMatch(/<script>|<img |<link rel/);
    expect(html).toContain('&lt;script&gt;');
    if (CHROMIUM) details(await run.call('diffs', { before: 'safe\n', after: `${hostile}\n`, fileFormat: 'pdf' }));
    expect(hits).toBe(0);
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }, 60_000);

  it.skipIf(!CHROMIUM).each([
    ['neither text nor patch', {}],
    ['only before', { before: 'x' }],
    ['both patch and before/after', { patch: PATCH, before: 'a', after: 'b' }],
    ['a patch that is not a unified diff', { patch: 'hello world' }],
    ['input over maxInputBytes', { before: 'x'.repeat(2_000_001), after: '' }],
  ])('refuses %s with DIFFS_INPUT_INVALID', async (_name, args) => {
    const outcome = await run.call('diffs', args);
    expect(outcome.status === 'error' && outcome.error.code).toBe('DIFFS_INPUT_INVALID');
  });
});

describe('diffs is listed only where Chromium runs', () => {
  it('no Chromium: not listed, and a diagnostic says why', async () => {
    const bare = await createKernel({ plugins: [diffsPlugin({ outputDir }, { PATH: '/nonexistent' })] }).createRun({});
    expect(bare.tool('diffs')).toBeUndefined();
    expect(bare.diagnostics).toContainEqual(
      expect.objectContaining({
        code: ErrorCode.TOOL_NOT_CONFIGURED,
        toolId: 'plugin:diffs:diffs',
        message: expect.stringMatching(/Debian package chromium/),
      }),
    );
    await bare.close();
  });

  it.skipIf(!CHROMIUM)('is plugin:diffs:diffs where it runs', () => {
    expect(run.tool('diffs')?.id).toBe('plugin:diffs:diffs');
  });
});
