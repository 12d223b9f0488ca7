import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKernel, type ToolCallOutcome } from '@tool-search/kernel';
import { fsPlugin, type FsPluginOptions } from '@tool-search/plugin-fs';

/** A fresh workspace (`ws`) next to a folder outside it (`outside`), and a run over the file tools. */
export async function fsRun(options: Omit<FsPluginOptions, 'workspace'> = {}) {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'plugin-fs-')));
  const ws = join(base, 'ws');
  const outside = join(base, 'outside');
  mkdirSync(ws);
  mkdirSync(outside);
  const kernel = createKernel({ plugins: [fsPlugin({ workspace: ws, ...options })] });
  const run = await kernel.createRun();
  return { ws, outside, run, close: () => kernel.close() };
}

export function textOf(outcome: ToolCallOutcome): string {
  if (outcome.status !== 'ok') throw new Error(`expected ok, got ${JSON.stringify(outcome)}`);
  const first = outcome.result.content[0];
  return first?.type === 'text' ? first.text : '';
}

export function codeOf(outcome: ToolCallOutcome): string | undefined {
  return outcome.status === 'error' ? outcome.error.code : undefined;
}
