// Types of check-errors.mjs, for the test that imports it (e2e/test/repo-rules.test.ts).
export function errorHandlingProblems(root?: string): string[];
