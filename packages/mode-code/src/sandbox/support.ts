/**
 * Can this runtime start a sandbox? Each backend is checked once per process
 * for real: the Node child by starting one and waiting for it to say it is
 * ready (it refuses to start without an active permission model), QuickJS by
 * running `return 1 + 1` in a real worker and runtime.
 */
import { sandboxCommand } from './node-flags.js';
import { spawnSandbox, type SandboxChild } from './process.js';
import { createQuickJSSandbox } from './quickjs.js';
import { errorMessage } from '@tool-search/kernel';

export type SandboxSupport = { readonly ok: true } | { readonly ok: false; readonly reason: string };

const PROBE_TIMEOUT_MS = 10_000;
let cached: Promise<SandboxSupport> | undefined;
let quickjs: Promise<SandboxSupport> | undefined;

export function checkSandboxSupport(): Promise<SandboxSupport> {
  cached ??= probe();
  return cached;
}

/** Runs `return 1 + 1` through a real QuickJS worker; the worker then stays warm for the first run. */
export function checkQuickJSSupport(): Promise<SandboxSupport> {
  quickjs ??= new Promise<SandboxSupport>((resolve) => {
    let sandbox: SandboxChild;
    try {
      sandbox = createQuickJSSandbox({ memoryMb: 16, timeoutMs: PROBE_TIMEOUT_MS });
    } catch (error) {
      return resolve({ ok: false, reason: `the QuickJS interpreter could not start: ${errorMessage(error)}` });
    }
    const timer = setTimeout(
      () => answer({ ok: false, reason: `the QuickJS interpreter did not answer within ${PROBE_TIMEOUT_MS} ms` }),
      PROBE_TIMEOUT_MS,
    );
    let answered = false;
    const answer = (support: SandboxSupport) => {
      if (answered) return;
      answered = true;
      clearTimeout(timer);
      void sandbox.kill().then(() => resolve(support));
    };
    sandbox.listen((event) => {
      if (event.type === 'exit')
        return answer({
          ok: false,
          reason: `the QuickJS interpreter could not start: ${event.exit.stderr || 'it exited'}`,
        });
      if (event.message.t === 'done')
        answer(
          event.message.ok && event.message.json === '2'
            ? { ok: true }
            : { ok: false, reason: 'the QuickJS interpreter did not compute 1 + 1' },
        );
    });
    sandbox.send({
      t: 'run',
      code: 'return 1 + 1',
      limits: { maxBridgeCalls: 1, maxPendingCalls: 1, maxLogBytes: 100, maxLogLines: 1, maxResultBytes: 100 },
    });
  });
  return quickjs;
}

async function probe(): Promise<SandboxSupport> {
  try {
    sandboxCommand(16);
  } catch (error) {
    return { ok: false, reason: errorMessage(error) };
  }
  let child;
  try {
    child = spawnSandbox({ memoryMb: 32, maxLineBytes: 4096 });
  } catch (error) {
    return { ok: false, reason: `the sandbox process could not be started: ${errorMessage(error)}` };
  }
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the sandbox process did not start within ${PROBE_TIMEOUT_MS} ms`)),
      PROBE_TIMEOUT_MS,
    );
  });
  try {
    await Promise.race([child.ready, timeout]);
    return { ok: true };
  } catch (error) {
    return { ok: false, reason: `the sandbox process could not be started: ${errorMessage(error)}` };
  } finally {
    clearTimeout(timer);
    await child.kill();
  }
}
