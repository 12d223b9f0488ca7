/**
 * The gateway's in-process restart (OpenClaw's SIGUSR1): the signals that ask for it, the control the `gateway` tool
 * acts through (its config file, the checks a start makes, the restart), and the drain that lets replies finish.
 */
import { dirname } from 'node:path';
import { resolvePaths, type ToolSearchConfig } from '@tool-search/config';
import type { GatewayControl, RestartRecord, RestartRequest } from '@tool-search/plugin-gateway';
import type { Preset, PresetOptions } from './preset.js';

/** How long a restart waits for the replies in flight (OpenClaw drains 30 s too). */
export const DRAIN_MS = 30_000;

/** What the `gateway` tool may do to this gateway: its config file, the checks a start makes, and the SIGUSR1 restart. */
export function gatewayControl(
  configPath: string,
  createKernel: (config: ToolSearchConfig, options: PresetOptions) => Promise<Preset>,
  restarts: RestartSignals,
  last: () => RestartRecord | undefined,
): GatewayControl {
  return {
    configPath,
    async check(config) {
      // As `config set` checks: relative paths from the file's folder, then every plugin's own options (a kernel built and closed).
      const folder = dirname(configPath);
      const { kernel } = await createKernel(resolvePaths(config, folder), { approve: null, baseDir: folder });
      await kernel.close();
    },
    restart: (request) => restarts.schedule(request),
    lastRestart: last,
  };
}

/** Resolves once the server stopped accepting and every request in flight got its reply (idle keep-alive sockets are closed as they go idle), or after `ms`. */
export function drained(server: import('node:http').Server, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setInterval(() => server.closeIdleConnections(), 50);
    const deadline = setTimeout(finish, ms);
    function finish() {
      clearInterval(timer);
      clearTimeout(deadline);
      resolve();
    }
    server.close(finish);
  });
}

export interface RestartSignals {
  /** The next SIGUSR1, with the request that scheduled it (an external `kill -USR1` has reason `SIGUSR1`). */
  next(): Promise<RestartRequest>;
  /** SIGUSR1 to this process after `delayMs`. */
  schedule(request: RestartRequest): void;
  close(): void;
}

/** SIGUSR1 handling for the serve loop; timers still pending when it closes never fire (an unhandled SIGUSR1 would open Node's inspector). */
export function restartSignals(external: () => boolean, log: (line: string) => void): RestartSignals {
  const pending: RestartRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let waiting: ((request: RestartRequest) => void) | undefined;
  let queued: RestartRequest | undefined; // a signal while the gateway was (re)starting: served once it listens
  const onSignal = () => {
    if (!pending.length && !external()) return log('gateway: SIGUSR1 ignored: commands.restart is false');
    const request = pending.shift() ?? { delayMs: 0, reason: 'SIGUSR1' };
    pending.length = 0; // several scheduled restarts coalesce into one
    const wake = waiting;
    waiting = undefined;
    if (wake) wake(request);
    else queued = request;
  };
  process.on('SIGUSR1', onSignal);
  return {
    next: () =>
      new Promise((resolve) => {
        if (queued) {
          resolve(queued);
          queued = undefined;
        } else waiting = resolve;
      }),
    schedule(request) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        pending.push(request);
        process.kill(process.pid, 'SIGUSR1');
      }, request.delayMs);
      timers.add(timer);
    },
    close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      process.off('SIGUSR1', onSignal);
    },
  };
}

/**
 * The note the session that asked for a restart is woken with: what restarted it and how it ended (the config now
 * served, or why the gateway refused it and still serves the previous one).
 */
export function restartWakeNote(
  request: RestartRequest,
  outcome: { readonly ok: true; readonly record: RestartRecord } | { readonly ok: false; readonly error: string },
): { from: string; status: string; content: string } {
  const asked = request.action ?? 'restart';
  const lines = [`[gateway restart finished]`, `Status: ${outcome.ok ? 'ok' : 'error'}`];
  if (outcome.ok) {
    const changed = request.changedPaths?.length ? ` (changed: ${request.changedPaths.join(', ')})` : '';
    lines.push(
      `Result: the gateway restarted in-process after ${asked}${changed} and serves ${request.hash ? `the config ${request.hash}` : 'its config'}; restart #${outcome.record.count} at ${outcome.record.at}.`,
    );
  } else {
    lines.push(
      `Result: the restart after ${asked} was refused: ${outcome.error}; the gateway still serves the previous config.`,
    );
  }
  lines.push(`Reason: ${request.reason}`);
  if (request.note) lines.push(`Note: ${request.note}`);
  return { from: 'gateway', status: outcome.ok ? 'ok' : 'error', content: lines.join('\n') };
}

/** The record a restart leaves for `config.get` (when, why, how many so far). */
export function restartRecord(request: RestartRequest, last: RestartRecord | undefined): RestartRecord {
  return {
    at: new Date().toISOString(),
    reason: request.reason,
    ...(request.note ? { note: request.note } : {}),
    ...(request.sessionId ? { sessionId: request.sessionId } : {}),
    count: (last?.count ?? 0) + 1,
  };
}
