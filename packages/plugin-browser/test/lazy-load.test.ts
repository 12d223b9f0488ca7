/**
 * playwright-core loads when a browser starts, not with the plugin: every process that lists the core tools (a
 * gateway, `serve mcp`, the CLI) imports this package, and most of them never open a browser. Checked in a fresh
 * Node process on the built package (this test process may hold playwright-core from other files already).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { chromiumMissing } from './helpers.js';

const here = fileURLToPath(new URL('..', import.meta.url));
const built = existsSync(fileURLToPath(new URL('../dist/index.js', import.meta.url)));
if (!built)
  console.warn('skipping the playwright-core load check: packages/plugin-browser is not built (npm run build)');
// The tool is listed only where a Chromium is found.
const runnable = built && !chromiumMissing('the playwright-core load check');

// Lists the browser tool through a kernel, then counts the playwright-core modules Node loaded; then imports it, so the
// count is shown to see it when it is there.
const SCRIPT = `
import { createRequire } from 'node:module';
import { createKernel } from '@tool-search/kernel';
import { browserPlugin } from '@tool-search/plugin-browser';
const loaded = () => Object.keys(createRequire(import.meta.url).cache).filter((file) => file.includes('playwright-core')).length;
const kernel = createKernel({ plugins: [browserPlugin({ workspace: process.cwd() })] });
const run = await kernel.createRun({});
const listed = run.catalog.some((tool) => tool.name === 'browser');
const before = loaded();
await run.close();
await kernel.close();
await import('playwright-core');
console.log(JSON.stringify({ listed, before, after: loaded() }));
`;

describe.skipIf(!runnable)('loading playwright-core', () => {
  it('a process that lists the browser tool has not loaded it; importing it shows up in the same count', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', SCRIPT], {
      cwd: here,
    });
    const { listed, before, after } = JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(listed).toBe(true);
    expect(before).toBe(0);
    expect(after).toBeGreaterThan(0);
  });
});
