// Types of readme-blocks.mjs, for the test that runs the blocks (e2e/test/readme-blocks.test.ts).
export interface ShellBlock {
  readonly file: string;
  readonly line: number;
  readonly tags: readonly string[];
  readonly needs: readonly string[];
  readonly code: string;
}
export function readmes(root?: string): string[];
export function shellBlocks(root?: string): ShellBlock[];
export function installOnly(code: string): boolean;
