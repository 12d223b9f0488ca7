/** `--client-tools F`: a JSON file of tools the client provides, checked before any run starts. */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ClientToolInput } from '@tool-search/preset';
import { errorMessage } from '@tool-search/kernel/errors';
import { CliInputError } from './io.js';

/** Reads and checks the file; throws `CLIENT_TOOL_INVALID` (exit 1) naming the bad entry. */
export async function readClientTools(file: string, cwd: string): Promise<readonly ClientToolInput[]> {
  const path = resolve(cwd, file);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new CliInputError(
      `cannot read --client-tools ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CliInputError(`--client-tools ${path} is not JSON: ${errorMessage(error)}`, { cause: error });
  }
  const { normalizeClientTools } = await import('@tool-search/preset');
  normalizeClientTools(parsed); // throws a coded error for the first bad entry
  return parsed as ClientToolInput[];
}
