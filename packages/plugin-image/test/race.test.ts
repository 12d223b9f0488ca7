// A process inside the workspace swaps a folder for a symlink to outside as fast as it can while `image` reads
// below that folder. A check-then-open read (resolve the path, then stat and readFile it) can be redirected between
// the steps (the former read let 2 of 5,000 calls read the outside image, measured); the fd-relative walk of
// @tool-search/workspace must never read it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createKernel } from '@tool-search/kernel';
import { startMockOpenAI, type MockOpenAI } from '@tool-search/mock-openai';
import { raceFolders, startSymlinkRacer, type SymlinkRacer } from '@tool-search/testing';
import { confinedAccessIsRaceFree } from '@tool-search/workspace';
import { imagePlugin } from '@tool-search/plugin-image';

const GIF = Buffer.from([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 4, 0, 3, 0, 0, 0, 0, 0x3b]);
const READS = 5000;

let racer: SymlinkRacer | undefined;
let mock: MockOpenAI;
beforeAll(async () => {
  mock = await startMockOpenAI();
});
afterEach(() => {
  racer?.stop();
});
afterAll(async () => mock.close());

if (!confinedAccessIsRaceFree)
  console.warn(
    'skipping the image symlink race test: /proc/self/fd is not available, so file access is not fd-relative here',
  );
describe.skipIf(!confinedAccessIsRaceFree)(
  'image reads under a racer swapping a folder for a symlink to outside',
  () => {
    it(`reads the outside image in none of ${READS} calls`, async () => {
      const { workspace: ws, outside } = raceFolders('image-race');
      writeFileSync(join(outside, 'secret.gif'), GIF);
      const kernel = createKernel({
        plugins: [imagePlugin({ workspace: ws, model: 'mock-vision', baseURL: mock.url, apiKey: 'mock' })],
      });
      const run = await kernel.createRun();
      racer = await startSymlinkRacer(ws, outside);
      const outcomes: Record<string, number> = {};
      for (let i = 0; i < READS; i++) {
        const outcome = await run.call('image', { image: 'd/secret.gif' });
        const key = outcome.status === 'error' ? outcome.error.code : outcome.status;
        outcomes[key] = (outcomes[key] ?? 0) + 1;
      }
      racer.stop();
      await run.close();
      await kernel.close();
      // Inside, d/ only ever holds nothing: any `ok` read the outside file.
      expect(outcomes.ok ?? 0).toBe(0);
      expect(Object.keys(outcomes).every((key) => /^[A-Z_]+$/.test(key))).toBe(true);
    }, 600_000);
  },
);
