// Types of system-packages.mjs, for the tests that import it (e2e/test/fresh-machine.test.ts).
export interface SystemPackage {
  readonly name: string;
  readonly binary: string;
  readonly why: string;
}
export const SYSTEM_PACKAGES: readonly SystemPackage[];
export function missingSystemPackages(env?: NodeJS.ProcessEnv): SystemPackage[];
export function pathWithout(binaries: readonly string[], folder: string, path?: string): string;
export function testFilesNeedingSystemPackages(root: string, exclude?: readonly string[]): string[];
