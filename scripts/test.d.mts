// Types of test.mjs, for the tests that import it (e2e/test/fresh-machine.test.ts).
export interface WorkspaceCounts {
  readonly files: number;
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  readonly failedFiles: number;
}
export interface WorkspaceResult extends WorkspaceCounts {
  readonly dir: string;
  readonly crashed: boolean;
}
export function countsOf(report: Record<string, unknown>): WorkspaceCounts;
export function totalLines(results: readonly WorkspaceResult[]): string[];
export function testedWorkspaces(root?: string, only?: readonly string[]): string[];
