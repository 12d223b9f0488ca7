// Types of check-packages.mjs, for the tests that import it (e2e/test/packed.test.ts).
export interface WorkspacePackage {
  readonly dir: string;
  readonly pkg: { name: string; version: string; private?: boolean; [key: string]: unknown };
}
export function workspaceDirs(root?: string): string[];
export function publicPackages(root?: string): WorkspacePackage[];
export function checkPackages(options?: { root?: string; fix?: boolean }): string[];
export function packageProblems(
  pkg: Record<string, unknown>,
  options: { version: string; privateNames: ReadonlySet<string>; fix?: boolean },
): string[];
