// Types of check-layering.mjs, for the test that imports it (e2e/test/repo-rules.test.ts).
export const LAYERING_EXCEPTIONS: Map<string, string>;
export function layeringProblems(root?: string): string[];
