/**
 * Can this runtime start an isolated child? Checked once per process by
 * starting a real sandbox child and waiting for it to say it is ready (the
 * child itself refuses to start without an active permission model).
 */
import { sandboxCommand } from './node-flags.js';
import { spawnSandbox } from './process.js';

export type SandboxSupport = { readonly ok: true } | { readonly ok: false; readonly reason: string };

const PROBE_TIMEOUT_MS = 10_000;
let cached: Promise<SandboxSupport> | undefined;

export function checkSandboxSupport(): Promise<SandboxSupport> {
  cached ??= probe();
  return cached;
}

async function probe(): Promise<SandboxSupport> {
  try {
    sandboxCommand(16);
  } catch (error) {
    return { ok: false, reason: messageOf(error) };
  }
  let child;
  try {
    child = spawnSandbox({ memoryMb: 32, maxLineBytes: 4096 });
  } catch (error) {
    return { ok: false, reason: `the sandbox process could not be started: ${messageOf(error)}` };
  }
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the sandbox process did not start within ${PROBE_TIMEOUT_MS} ms`)), PROBE_TIMEOUT_MS);
  });
  try {
    await Promise.race([child.ready, timeout]);
    return { ok: true };
  } catch (error) {
    return { ok: false, reason: `the sandbox process could not be started: ${messageOf(error)}` };
  } finally {
    clearTimeout(timer);
    await child.kill();
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
