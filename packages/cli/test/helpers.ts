import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, type CliIO } from '../src/index.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in-process against buffers; `extra` adds io fields (plugins, stdin, signal). */
export async function cli(
  argv: string[],
  cwd = folder(),
  extra: Partial<Omit<CliIO, 'stdout' | 'stderr' | 'cwd'>> = {},
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    cwd,
    ...extra,
  });
  return { code, stdout, stderr };
}

/** A temporary folder holding the given files. */
export function folder(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'tool-search-cli-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** A config with a small fake catalog (25 core tools + `tools` plugin tools). */
export function smallCatalog(tools = 3, extra = ''): string {
  return folder({
    'tool-search.json': `{ plugins: { "fake-catalog": { tools: ${tools}, core: true } }${extra ? `, ${extra}` : ''} }`,
  });
}
