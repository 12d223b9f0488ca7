/**
 * The gateway's in-process restart (OpenClaw's SIGUSR1): the signals that ask for it, the control the `gateway` tool
 * acts through (its config file, the checks a start makes, the restart), and the drain that lets replies finish.
 */
import { dirname } from 'node:path';
import { resolvePaths, type ProviderConfig, type ToolSearchConfig } from '@tool-search/config';
import { ConfigError } from '@tool-search/kernel';
import type { GatewayControl, RestartRecord, RestartRequest, RestartScheduled } from '@tool-search/plugin-gateway';
import { isBuiltinPlugin } from './builtins.js';
import type { Preset, PresetOptions } from './preset.js';
import { OPTIONAL_CAPABILITIES, requireCapability } from './capabilities.js';

/** How long a restart waits for the replies in flight (OpenClaw drains 30 s too). */
export const DRAIN_MS = 30_000;
/** Restarts asked for through the gateway tool: never closer together than a drain, and at most this many a minute. */
export const MIN_RESTART_GAP_MS = DRAIN_MS;
export const MAX_RESTARTS_PER_MINUTE = 2;

type CreateKernel = (config: ToolSearchConfig, options: PresetOptions) => Promise<Preset>;

/** What a start takes from outside the file: the environment, the `--host` flag, the provider the front end gives. */
export interface StartCheckOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly host?: string | undefined;
  /** The provider the running gateway was given when the file names none (the CLI's mock provider). */
  readonly provider?: ProviderConfig | undefined;
}

/** What the `gateway` tool may do to this gateway: its config file, the checks a start makes, and the SIGUSR1 restart. */
export function gatewayControl(
  configPath: string,
  createKernel: CreateKernel,
  restarts: RestartSignals,
  last: () => RestartRecord | undefined,
  start: StartCheckOptions = {},
): GatewayControl {
  return {
    configPath,
    check: (config) => checkStart(config, dirname(configPath), createKernel, start),
    restart: (request) => restarts.schedule(request),
    lastRestart: last,
  };
}

/**
 * Every step a start takes short of listening, so a config that would not serve is refused before it is written or
 * restarted into: the API keys (a key from an unset variable fails here), the listen rule (a host other than loopback
 * needs keys), the upstream provider and `gateway.capabilities`, then every built-in plugin's options (a kernel built
 * and closed, relative paths from the file's folder). Plugin modules are not imported or run by a check: only a start
 * loads them (the gateway tool may not change `plugins` at all).
 */
export async function checkStart(
  config: ToolSearchConfig,
  folder: string,
  createKernel: CreateKernel,
  start: StartCheckOptions = {},
): Promise<void> {
  const env = start.env ?? process.env;
  const { createApiKeys, isLoopbackHost } = await import('@tool-search/auth');
  const keys = createApiKeys(config.auth, env);
  const host = start.host ?? config.gateway?.host ?? '127.0.0.1';
  if (!isLoopbackHost(host) && keys.size === 0 && !config.gateway?.auth?.token)
    throw new ConfigError(
      '/gateway/host',
      'auth',
      `gateway.host ${JSON.stringify(host)} is not loopback and the config has no auth.keys or gateway.auth.token: the gateway would not start`,
      { details: { host } },
    );
  requireCapability(OPTIONAL_CAPABILITIES.gateway, 'the gateway');
  const { createUpstream, capabilitiesFromConfig } = await import('@tool-search/gateway');
  createUpstream(config.provider ?? start.provider ?? {}, env);
  capabilitiesFromConfig(config.gateway?.capabilities);
  const { kernel } = await createKernel(resolvePaths(withoutPluginModules(config), folder), {
    approve: null,
    baseDir: folder,
  });
  await kernel.close();
}

/** The config with only the built-in plugins under `plugins` (the schema already checked each module entry's shape). */
function withoutPluginModules(config: ToolSearchConfig): ToolSearchConfig {
  if (!config.plugins) return config;
  return {
    ...config,
    plugins: Object.fromEntries(Object.entries(config.plugins).filter(([id]) => isBuiltinPlugin(id))),
  };
}

/**
 * When restarts asked for may happen: not sooner than `gapMs` after the previous one (its drain), and at most
 * `perMinute` in any minute. A cron job asking every second gets a restart per gap, not a gateway that never serves.
 */
export class RestartBudget {
  #started: number[] = [];
  constructor(
    readonly perMinute = MAX_RESTARTS_PER_MINUTE,
    readonly gapMs = MIN_RESTART_GAP_MS,
  ) {}

  /** The time a restart asked for at `now` after `delayMs` may happen, and why later, if it is. */
  plan(now: number, delayMs: number): { at: number; deferredBecause?: string } {
    const recent = this.#started.filter((t) => t > now - 60_000);
    let at = now + delayMs;
    let because: string | undefined;
    const last = recent.at(-1);
    if (last !== undefined && last + this.gapMs > at) {
      at = last + this.gapMs;
      because = `restarts are at least ${this.gapMs / 1000} s apart (the previous restart's drain)`;
    }
    if (recent.length >= this.perMinute) {
      const free = recent[recent.length - this.perMinute]! + 60_000;
      if (free > at) {
        at = free;
        because = `at most ${this.perMinute} restarts a minute`;
      }
    }
    return because ? { at, deferredBecause: because } : { at };
  }

  /** A restart began at `now`. */
  started(now: number): void {
    this.#started = [...this.#started.filter((t) => t > now - 60_000), now];
  }
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
  /**
   * SIGUSR1 to this process after `delayMs`, or later as the restart budget allows; while one is scheduled, a new
   * request joins it (one restart reloads every write before it) and becomes the request it reports.
   */
  schedule(request: RestartRequest): RestartScheduled;
  close(): void;
}

/** SIGUSR1 handling for the serve loop; timers still pending when it closes never fire (an unhandled SIGUSR1 would open Node's inspector). */
export function restartSignals(
  external: () => boolean,
  log: (line: string) => void,
  budget = new RestartBudget(),
  now: () => number = Date.now,
): RestartSignals {
  const pending: RestartRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let scheduled: { request: RestartRequest; at: number } | undefined;
  let waiting: ((request: RestartRequest) => void) | undefined;
  let queued: RestartRequest | undefined; // a signal while the gateway was (re)starting: served once it listens
  const onSignal = () => {
    if (!pending.length && !external()) return log('gateway: SIGUSR1 ignored: commands.restart is false');
    const request = pending.shift() ?? { delayMs: 0, reason: 'SIGUSR1' };
    pending.length = 0; // several scheduled restarts coalesce into one
    budget.started(now());
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
      if (scheduled) {
        scheduled.request = request;
        return { delayMs: Math.max(0, scheduled.at - now()), coalesced: true };
      }
      const asked = now();
      const plan = budget.plan(asked, request.delayMs);
      const delayMs = Math.max(0, plan.at - asked);
      const entry = (scheduled = { request, at: plan.at });
      const timer = setTimeout(() => {
        timers.delete(timer);
        scheduled = undefined;
        pending.push(entry.request);
        process.kill(process.pid, 'SIGUSR1');
      }, delayMs);
      timers.add(timer);
      return { delayMs, ...(plan.deferredBecause ? { deferredBecause: plan.deferredBecause } : {}) };
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
