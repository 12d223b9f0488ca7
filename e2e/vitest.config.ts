import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineProject, mergeConfig } from 'vitest/config';
import base from '../vitest.config.base.js';

// Most e2e files wait on real processes (gateways, replicas, Redis, README blocks, a nested npm test), so two of them
// run at once. The files that bound a time (a liveness probe answered within a second, a 1.5 s code timeout
// cancelling an MCP call, a tool list changing under a running server, a concurrent call answered during a hostile
// one) run afterwards, one at a time, with nothing else of this package beside them.
// Measured back to back on this loaded 2-core machine (issue 34): 672 s -> 460 s for the package, same CPU time.
// (Projects extending this config add their include to the base's, so each project names what it leaves out.)
const ALONE = ['test/stall-fuzz.test.ts', 'test/code-cancel.test.ts', 'test/vanishing.test.ts', 'test/hostile-inputs.test.ts'];
// Every test file, sub-folders included (test/mcp-server: the MCP server's tests that need the preset).
const ALL = (readdirSync(fileURLToPath(new URL('./test', import.meta.url)), { recursive: true }) as string[])
  .filter((file) => file.endsWith('.test.ts'))
  .map((file) => `test/${file}`);

export default mergeConfig(
  base,
  defineProject({
    test: {
      testTimeout: 120000,
      projects: [
        { extends: true, test: { name: 'e2e', exclude: ALONE, maxWorkers: 2, sequence: { groupOrder: 0 } } },
        { extends: true, test: { name: 'e2e (one at a time)', exclude: ALL.filter((file) => !ALONE.includes(file)), maxWorkers: 1, sequence: { groupOrder: 1 } } },
      ],
    },
  }),
);
