/** The optional `diffs` plugin is its own package, loaded from the config by name like a third-party plugin. */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { Kernel } from '@tool-search/kernel';
import { createToolSearchKernel } from '@tool-search/preset';
import { noteSkipped, systemProgramOnPath } from '@tool-search/testing';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const built = existsSync(join(repo, 'packages', 'plugin-diffs', 'dist', 'index.js'));
if (!built)
  console.log(
    'skipping diffs-module.test.ts: needs the built @tool-search/plugin-diffs (npm run build, or npx tsc -b packages/plugin-diffs/tsconfig.build.json)',
  );

const chromium = systemProgramOnPath('chromium');
if (built && !chromium) noteSkipped('diffs-module.test.ts (the diffs tool renders in Chromium)', 'chromium');

let kernel: Kernel | undefined;
afterEach(async () => {
  await kernel?.close();
  kernel = undefined;
});

describe.skipIf(!built || !chromium)('plugins: { "@tool-search/plugin-diffs": … }', () => {
  it('loads the diffs plugin by its package name, checks its options and renders a patch to PNG', async () => {
    const outputDir = mkdtempSync(join(tmpdir(), 'preset-diffs-'));
    const loaded = await createToolSearchKernel(
      { plugins: { '@tool-search/plugin-diffs': { outputDir } } },
      { baseDir: repo },
    );
    kernel = loaded.kernel;
    expect(loaded.modules).toContainEqual(
      expect.objectContaining({ id: '@tool-search/plugin-diffs', name: '@tool-search/plugin-diffs' }),
    );
    const run = await kernel.createRun();
    expect(run.tool('diffs')?.id).toBe('plugin:diffs:diffs');
    const outcome = await run.call('diffs', { before: 'a\n', after: 'b\n', path: 'x.txt' });
    if (outcome.status !== 'ok') throw new Error(JSON.stringify(outcome));
    const { filePath } = outcome.result.structuredContent as { filePath: string };
    expect(filePath.startsWith(outputDir)).toBe(true);
    expect(readFileSync(filePath).subarray(1, 4).toString()).toBe('PNG');
  }, 60_000);

  it("is unaffected by the config's provider: its factory keeps its one-argument call and finds Chromium on PATH", async () => {
    const outputDir = mkdtempSync(join(tmpdir(), 'preset-diffs-'));
    const loaded = await createToolSearchKernel(
      {
        provider: { baseURL: 'http://127.0.0.1:9/v1', model: 'm', apiKey: 'k' },
        plugins: { '@tool-search/plugin-diffs': { outputDir } },
      },
      { baseDir: repo },
    );
    kernel = loaded.kernel;
    const outcome = await (await kernel.createRun()).call('diffs', {
      before: 'a\n',
      after: 'b\n',
      path: 'x.txt',
      fileFormat: 'pdf',
    });
    if (outcome.status !== 'ok') throw new Error(JSON.stringify(outcome));
    const { filePath } = outcome.result.structuredContent as { filePath: string };
    expect(readFileSync(filePath).subarray(0, 5).toString()).toBe('%PDF-');
  }, 60_000);

  it('refuses options its schema does not allow, naming the module', async () => {
    await expect(
      createToolSearchKernel({ plugins: { '@tool-search/plugin-diffs': { colour: 'red' } } }, { baseDir: repo }),
    ).rejects.toMatchObject({ code: 'OPTIONS_INVALID', details: { module: '@tool-search/plugin-diffs' } });
  });
});
