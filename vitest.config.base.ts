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
    pool: 'forks',
  },
});
