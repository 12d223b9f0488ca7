import { chmodSync, chownSync, mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { it } from 'vitest';
import {
  createKernel,
  type Kernel,
  type KernelPlugin,
  type Run,
  type RunRequest,
  type ToolCallOutcome,
} from '@tool-search/kernel';
import { execPlugin, type ExecPluginOptions } from '@tool-search/plugin-exec';
import { bubblewrapWorks } from '../src/sandbox.js';

/**
 * Whether the bubblewrap host runs here (the Debian package bubblewrap, with user namespaces). Tests of what the
 * sandbox confines run only then; elsewhere they skip, saying which package makes them run.
 */
export const SANDBOX_RUNS = bubblewrapWorks('bwrap');
if (!SANDBOX_RUNS)
  console.warn(
    'skipping the bubblewrap sandbox tests of @tool-search/plugin-exec: bwrap does not run here (apt-get install -y bubblewrap)',
  );

/** `it` for a test that needs the bubblewrap host. */
export const itSandboxed = (SANDBOX_RUNS ? it : it.skip) as typeof it;

export const OPEN = { security: 'full', ask: 'off' } as const;

export interface ExecEnv {
  readonly ws: string;
  readonly outside: string;
  readonly kernel: Kernel;
  run(request?: RunRequest): Promise<Run>;
  close(): Promise<void>;
}

const open: ExecEnv[] = [];

/**
 * Where bubblewrap does not run, exec is not listed on the default host (fail closed), so the tests of what exec does
 * (not of what the sandbox confines) run on the gateway host, as an operator would configure it there. A test that
 * names a host or a bwrap binary gets exactly what it asked for.
 */
function hostWhereSandboxMissing(options: Omit<ExecPluginOptions, 'workspace'>): Omit<ExecPluginOptions, 'workspace'> {
  const exec = (options.exec ?? {}) as Record<string, unknown>;
  if (SANDBOX_RUNS || options.bwrap !== undefined || exec.host !== undefined) return options;
  return { ...options, exec: { ...exec, host: 'gateway' } };
}

/** A workspace (`ws`) beside a folder outside it, and a kernel with the exec plugin over it. */
export function execEnv(
  options: Omit<ExecPluginOptions, 'workspace'> = {},
  extra: readonly KernelPlugin[] = [],
): ExecEnv {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'plugin-exec-')));
  const ws = join(base, 'ws');
  const outside = join(base, 'outside');
  mkdirSync(ws);
  mkdirSync(outside);
  sandboxOwns(base, ws);
  const kernel = createKernel({
    plugins: [execPlugin({ workspace: ws, ...hostWhereSandboxMissing(options) }), ...extra],
  });
  const env: ExecEnv = {
    ws,
    outside,
    kernel,
    run: (request) => kernel.createRun(request),
    close: () => kernel.close(),
  };
  open.push(env);
  return env;
}

/**
 * As root, what the preset does for its default workspace: the sandbox's user (uid 65534 on the host too) owns the
 * workspace and can reach it (mkdtemp's folder is 0700).
 */
export function sandboxOwns(base: string, ws: string): void {
  if (process.getuid?.() !== 0) return;
  chmodSync(base, 0o711);
  chownSync(ws, 65534, 65534);
}

export async function closeAll(): Promise<void> {
  await Promise.all(open.splice(0).map((env) => env.close()));
}

export function structured(outcome: ToolCallOutcome): Record<string, unknown> {
  if (outcome.status !== 'ok') throw new Error(`expected ok, got ${JSON.stringify(outcome)}`);
  return outcome.result.structuredContent as Record<string, unknown>;
}

export function codeOf(outcome: ToolCallOutcome): string | undefined {
  return outcome.status === 'error' ? outcome.error.code : undefined;
}

/** Polls a background session until it ends; returns the last poll and all output seen. */
export async function pollToEnd(
  run: Run,
  sessionId: string,
  maxPolls = 400,
): Promise<{ last: Record<string, unknown>; output: string; polls: number }> {
  let output = '';
  for (let polls = 1; polls <= maxPolls; polls++) {
    const last = structured(await run.call('process', { action: 'poll', sessionId }));
    output += String(last.output ?? '');
    if (last.status !== 'running') return { last, output, polls };
    await sleep(50);
  }
  throw new Error(`session ${sessionId} still running after ${maxPolls} polls`);
}

/** Whether any process on this machine has `marker` in its command line. */
export async function processRunning(marker: string): Promise<boolean> {
  const { execFileSync } = await import('node:child_process');
  const out = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
  return out.split('\n').some((line) => line.includes(marker) && !line.includes('ps -eo'));
}

/**
 * Whether every process with `marker` in its command line is gone, polled for up to `timeoutMs`: a kill is sent at
 * once, but on a loaded machine the process may take a moment to be reaped.
 */
export async function processGone(marker: string, timeoutMs = 15_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (await processRunning(marker)) {
    if (Date.now() > deadline) return false;
    await sleep(100);
  }
  return true;
}
