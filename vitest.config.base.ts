import { defineConfig } from 'vitest/config';

// Tests resolve sibling packages to their TypeScript sources through the
// "@tool-search/source" export condition, so a change in the kernel is seen
// by every package's tests without a rebuild.
export const sourceCondition = '@tool-search/source';

export default defineConfig({
  resolve: { conditions: [sourceCondition, 'import', 'node', 'default'] },
  ssr: { resolve: { conditions: [sourceCondition, 'import', 'node', 'default'], externalConditions: [sourceCondition] } },
  test: {
    include: ['test/**/*.test.ts'],
    restoreMocks: true,
    clearMocks: true,
    testTimeout: 20000,
    hookTimeout: 30000,
    watch: false,
    // One forked worker runs many files of a package, keeping the modules it imported (the TypeScript sources of the
    // kernel, preset and their libraries) instead of importing them again per file: preset 268 s -> 52 s on a loaded
    // machine. Files do not share state through globals here; a package whose tests mock modules (vi.mock) sets
    // `isolate: true` in its own config.
    pool: 'forks',
    isolate: false,
    // Transformed modules are kept on disk (node_modules/.experimental-vitest-cache, keyed by content and config) and
    // shared by every workspace's vitest process: the kernel's and preset's TypeScript is transformed once per run,
    // not once per workspace that imports it (ai-sdk: 10.9 s of CPU -> 7.1 s, transform 3.7 s -> 0.3 s).
    experimental: { fsModuleCache: true },
  },
});
