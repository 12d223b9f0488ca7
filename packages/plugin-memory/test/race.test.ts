// A process inside the workspace swaps memory/d between a folder holding its own secret.md and a symlink to an
// outside folder holding another, as fast as it can, while memory_get and memory_search read below it. A
// check-then-read (resolve the path, then readFile it) can be redirected between the steps; the fd-relative walk of
// @tool-search/workspace must never return the outside file's text. (The former synchronous read leaked 0 of 3,000
// here, measured: its window is narrow; the test guards the fd-relative path against regressions.)
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createKernel } from '@tool-search/kernel';
import { raceFolders, startSymlinkRacer, type SymlinkRacer } from '@tool-search/testing';
import { confinedAccessIsRaceFree } from '@tool-search/workspace';
import { memoryPlugin } from '../src/index.js';

const READS = 3000;

let racer: SymlinkRacer | undefined;
afterEach(() => {
  racer?.stop();
});

if (!confinedAccessIsRaceFree)
  console.warn(
    'skipping the memory symlink race test: /proc/self/fd is not available, so file access is not fd-relative here',
  );
describe.skipIf(!confinedAccessIsRaceFree)(
  'memory reads under a racer swapping a folder for a symlink to outside',
  () => {
    it(`returns the outside file's text in none of ${READS} memory_get and memory_search calls`, async () => {
      const { workspace: ws, outside } = raceFolders('memory-race');
      mkdirSync(join(ws, 'memory'));
      writeFileSync(join(outside, 'secret.md'), 'OUTSIDE-SECRET note');
      const kernel = createKernel({ plugins: [memoryPlugin({ workspace: ws })] });
      const run = await kernel.createRun();
      racer = await startSymlinkRacer(ws, outside, {
        folder: 'memory/d',
        parked: 'memory-parked',
        insideFile: { name: 'secret.md', text: 'inside note' },
      });
      const leaked: string[] = [];
      const answers: string[] = [];
      for (let i = 0; i < READS; i++) {
        const got = await run.call('memory_get', { path: 'memory/d/secret.md' });
        const text = JSON.stringify(got);
        if (text.includes('OUTSIDE-SECRET')) leaked.push(text);
        answers.push(got.status === 'error' ? got.error.code : got.status);
        if (i % 10 === 0) {
          const found = JSON.stringify(await run.call('memory_search', { query: 'note' }));
          if (found.includes('OUTSIDE-SECRET')) leaked.push(found);
        }
      }
      racer.stop();
      await run.close();
      await kernel.close();
      expect(leaked).toEqual([]);
      // Every call answered: a result or a coded error, never a crash.
      expect(answers.every((status) => status === 'ok' || /^[A-Z_]+$/.test(status))).toBe(true);
    }, 600_000);
  },
);
