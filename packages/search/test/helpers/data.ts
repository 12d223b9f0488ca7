import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');

/** `../shared/data` beside the checkout (or `TOOL_SEARCH_SHARED_DATA`, for a worktree that sits elsewhere). */
export const dataDir = process.env['TOOL_SEARCH_SHARED_DATA'] ?? path.resolve(repoRoot, '..', 'shared', 'data');

/** Whether the shared data is there; says why a suite skips when it is not. */
export function sharedDataPresent(suite: string): boolean {
  const present = existsSync(path.join(dataDir, 'mcp-catalog.json'));
  if (!present)
    console.warn(
      `skipping ${suite}: ${path.join(dataDir, 'mcp-catalog.json')} is missing (the public tool-retrieval data set — 3,675 real MCP tool definitions and labeled queries — is not in this repository: put it at ../shared/data beside the checkout, or point TOOL_SEARCH_SHARED_DATA at it; see "Shared data" in the root README; quality-sample.test.ts still runs the small in-repo sample)`,
    );
  return present;
}
