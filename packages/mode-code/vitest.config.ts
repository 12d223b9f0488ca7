import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineProject, mergeConfig } from 'vitest/config';
import base from '../../vitest.config.base.js';

// test/fallback.test.ts mocks the sandbox support module (vi.mock) and test/fallback-node.test.ts breaks the Node
// binary the probe spawns, so they run in a project of their own with fresh modules; every other file shares one worker's modules (the base's isolate: false) instead of importing the kernel
// again per file. Two workers: most of this package's time is waiting (code timeouts, killed children, memory bombs
// running out), not CPU, so two files at once about halve its wall time at the same CPU time (measured in issue 34).
// (Projects extending this config add their include to the base's, so each project names what it leaves out.)
const MOCKED = ['test/fallback.test.ts', 'test/fallback-node.test.ts'];
const ALL = readdirSync(fileURLToPath(new URL('./test', import.meta.url)))
  .filter((file) => file.endsWith('.test.ts'))
  .map((file) => `test/${file}`);

export default mergeConfig(
  base,
  defineProject({
    test: {
      maxWorkers: 2,
      projects: [
        { extends: true, test: { name: 'mode-code', exclude: MOCKED } },
        { extends: true, test: { name: 'mode-code (mocked modules)', exclude: ALL.filter((file) => !MOCKED.includes(file)), isolate: true } },
      ],
    },
  }),
);
