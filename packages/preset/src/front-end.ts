/**
 * What a front end (the gateway, `serve mcp`) needs around the kernel, composed in one place: the shared state store
 * (Redis with `state.redis`, else in-process), OpenTelemetry export (`telemetry.otlp`), the approval queue, the
 * gateway's sessions and cron folder, and the kernel itself, plus one `close()` that ends them in the right order
 * (the kernel first, the state store and the exporter last, so the final spans are flushed). A front end parses its
 * arguments and makes one call.
 */
import { join } from 'node:path';
import { cronDirBesideSessions, type ToolSearchConfig } from '@tool-search/config';
import { SharedApprovalQueue, type Approver } from '@tool-search/plugin-approvals';
import { createSessionHost, StateSessionStore, type SessionHost, type SessionStore } from '@tool-search/sessions';
import { createStateStore, type StateStore } from '@tool-search/state';
import type { MetricsPlugin } from '@tool-search/metrics';
import { createToolSearchKernel, type Preset, type PresetOptions } from './preset.js';
import { capabilityInstalled, capabilityMissing, OPTIONAL_CAPABILITIES, requireCapability } from './capabilities.js';

export interface FrontEndOptions extends Omit<PresetOptions, 'state' | 'sessionHost' | 'cronDir' | 'approve'> {
  /** Environment for the state store's and exporter's secrets and for the default state folder. Default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  /** Who answers approvals: `'queue'` (a queue over the state store, answered over HTTP by any replica), an approver, or `null` (deny). */
  readonly approvals?: 'queue' | Approver | null;
  /** The front end runs agent turns (the gateway): list the session tools and the `cron` tool under `plugins.core`. */
  readonly sessions?: boolean;
  /** With `sessions` and no Redis: the in-process store to use (the gateway keeps one across in-process restarts). */
  readonly sessionStore?: SessionStore;
  /** The state store's first problem of each outage (it reconnects by itself). */
  readonly onStateError?: (error: Error) => void;
  /** Builds the kernel (default `createToolSearchKernel`); the CLI passes its own, which adds the terminal's MCP client. */
  readonly createKernel?: (config: ToolSearchConfig, options: PresetOptions) => Promise<Preset>;
  /** Version reported to the OTLP collector. Default `0.1.0`. */
  readonly serviceVersion?: string;
  /** Counts for `GET /metrics` (`@tool-search/metrics`, loaded only then), labelled with this front end's name. */
  readonly metrics?: 'gateway' | 'mcp';
}

export interface FrontEnd extends Preset {
  readonly state: StateStore;
  /** With `approvals: 'queue'`: the queue its HTTP route answers. */
  readonly approvalQueue?: SharedApprovalQueue;
  /** With `sessions`: the session host the front end binds its turn runner to. */
  readonly sessionHost?: SessionHost;
  /** With `sessions`: where cron jobs persist (a `cron` folder beside the session logs, else in the state folder). */
  readonly cronDir?: string;
  /** With `metrics`: what answers `GET /metrics` (the plugin, or a 501 naming the package to install when it is missing). */
  readonly metrics?: Pick<MetricsPlugin, 'route' | 'setSessions'>;
  /** Runs `close` first when the front end closes (a server started over this kernel). */
  onClose(close: () => Promise<void>): void;
  /** Closes what was added with `onClose`, then the kernel, the approval queue, the state store and the exporter; never throws. */
  close(): Promise<void>;
}

export async function createFrontEnd(config: ToolSearchConfig, options: FrontEndOptions = {}): Promise<FrontEnd> {
  const {
    env = process.env,
    approvals = null,
    sessions = false,
    sessionStore,
    onStateError,
    createKernel = createToolSearchKernel,
    serviceVersion = '0.1.0',
    metrics: metricsFor,
    ...presetOptions
  } = options;
  if ((config.state as { redis?: unknown } | undefined)?.redis)
    requireCapability(OPTIONAL_CAPABILITIES.redis, 'state.redis (shared state in Redis)');
  // Connected before anything listens: a Redis that does not answer stops the front end with STATE_UNAVAILABLE.
  const state = await createStateStore(config.state ?? {}, { env, ...(onStateError ? { onError: onStateError } : {}) });
  const closers: (() => Promise<void>)[] = [() => state.close()];
  const closeAll = async () => {
    // Each closer runs even when one before it fails: a failed close must not leave a process or a socket behind.
    for (const close of closers.splice(0)) await close().catch(() => undefined);
  };
  try {
    // telemetry.otlp: started before the kernel (the telemetry plugin takes the global providers when it is built), shut down last.
    if (config.telemetry?.otlp) {
      requireCapability(OPTIONAL_CAPABILITIES.otlp, 'telemetry.otlp (OTLP export)');
      const { startOtlpExport } = await import('@tool-search/otel-export');
      const otel = await startOtlpExport(config.telemetry.otlp, { replicaId: state.replicaId, serviceVersion });
      closers.push(() => otel.shutdown());
    }
    // Over the state store, so with Redis an approval asked on one replica is answered through any.
    const approvalQueue = approvals === 'queue' ? new SharedApprovalQueue(state) : undefined;
    if (approvalQueue) closers.unshift(() => approvalQueue.close());
    // Sessions move to the shared store only with Redis: in-process, the memory store's Map is the cheaper one.
    const sessionHost = sessions
      ? createSessionHost(
          state.kind === 'redis'
            ? { store: new StateSessionStore(state) }
            : sessionStore
              ? { store: sessionStore }
              : {},
        )
      : undefined;
    const cronDir = sessions ? await cronFolder(config, presetOptions.sessionLogDir, env) : undefined;
    const approve = approvalQueue ? approvalQueue.approve : approvals === 'queue' ? null : approvals;
    // Loaded only for the front ends that serve it, and only where installed (the CLI brings it; an adapter user does not).
    const metrics =
      metricsFor && capabilityInstalled(OPTIONAL_CAPABILITIES.metrics)
        ? (await import('@tool-search/metrics')).metricsPlugin({ frontEnd: metricsFor, state })
        : undefined;
    if (metrics && sessionHost) metrics.setSessions(async () => (await sessionHost.store.list()).length);
    const preset = await createKernel(config, {
      ...presetOptions,
      ...(metrics ? { observers: [...(presetOptions.observers ?? []), metrics] } : {}),
      state,
      approve,
      ...(sessionHost ? { sessionHost } : {}),
      ...(cronDir ? { cronDir } : {}),
    });
    closers.unshift(() => preset.kernel.close());
    return {
      ...preset,
      state,
      ...(approvalQueue ? { approvalQueue } : {}),
      ...(sessionHost ? { sessionHost } : {}),
      ...(cronDir ? { cronDir } : {}),
      ...(metrics ? { metrics } : metricsFor ? { metrics: metricsMissing() } : {}),
      onClose: (close) => void closers.unshift(close),
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}

/** Cron jobs persist in a `cron` folder beside the session logs (gateway.sessions.dir), else in the state folder. */
async function cronFolder(
  config: ToolSearchConfig,
  sessionLogDir: string | undefined,
  env: NodeJS.ProcessEnv,
): Promise<string> {
  const beside = cronDirBesideSessions(config, process.cwd(), sessionLogDir);
  if (beside !== undefined) return beside;
  // The subpath alone: the MCP SDK stays unloaded for a front end without MCP servers.
  const { defaultStateDir } = await import('@tool-search/plugin-mcp/state-dir');
  return join(defaultStateDir(env), 'cron');
}

/** `GET /metrics` where `@tool-search/metrics` is not installed: 501 with the install line, instead of a bare 404. */
function metricsMissing(): Pick<MetricsPlugin, 'route' | 'setSessions'> {
  const error = capabilityMissing(OPTIONAL_CAPABILITIES.metrics, 'GET /metrics');
  const body = JSON.stringify({ error: { code: error.code, message: error.message, details: error.details } });
  return {
    setSessions: () => undefined,
    route: async (req, res) => {
      if (req.method !== 'GET' || new URL(req.url ?? '/', 'http://front').pathname !== '/metrics') return false;
      res.writeHead(501, { 'content-type': 'application/json' });
      res.end(body);
      return true;
    },
  };
}
