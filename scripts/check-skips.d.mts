// Types of check-skips.mjs, for the test that imports it (e2e/test/repo-rules.test.ts).
export function silentSkips(root?: string): string[];
