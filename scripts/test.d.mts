// Types of test.mjs, for the tests that import it (e2e/test/fresh-machine.test.ts, test-runner.test.ts).
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
export interface TestFailure {
  readonly file: string;
  readonly name: string;
  readonly message: string;
}
export function failuresOf(report: Record<string, unknown> | undefined, root?: string): TestFailure[];
export function totalLines(results: readonly WorkspaceResult[]): string[];
export function testedWorkspaces(root?: string, only?: readonly string[]): string[];
/** One vitest process: a workspace alone, or several small ones as projects of one run. */
export interface PlannedRun {
  readonly dirs: string[];
  readonly seconds: number;
}
export function planRuns(dirs: readonly string[], times: Record<string, number>, root?: string): PlannedRun[];
export interface RunResult extends WorkspaceResult {
  readonly code: number | null;
  readonly seconds: number;
  readonly cpu: number | undefined;
  readonly output: string;
  readonly failures: TestFailure[];
}
export function resultsOf(
  dirs: readonly string[],
  report: { testResults?: readonly Record<string, unknown>[] } | undefined,
  run: { code: number | null; seconds: number; cpu: number | undefined; output: string },
): RunResult[];
