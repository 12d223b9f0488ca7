// Types of pack-all.mjs, for the test that imports it (e2e/test/packed.test.ts).
export interface PackedPackage {
  readonly name: string;
  readonly filename: string;
  readonly files: readonly { path: string }[];
}
export function packAll(root: string, dest: string, env?: NodeJS.ProcessEnv): Promise<PackedPackage[]>;
