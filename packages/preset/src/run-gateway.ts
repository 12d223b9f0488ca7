/**
 * The gateway front end, composed: `runGateway` serves the OpenAI-compatible gateway over a front end built from the
 * config (state, telemetry, approvals, sessions, cron, kernel) until SIGINT/SIGTERM or `signal`, and restarts it
 * in-process on SIGUSR1 (the `gateway` tool's `restart`, or `kill -USR1`): the config is read again and checked, and
 * only if it loads does the running gateway drain, close and a new one start from it, on the same port unless the
 * config names another. In-process sessions survive the restart. The gateway and auth modules load only when called.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import type { ApiKeys } from '@tool-search/auth';
import { CONFIG_FILE_NAME, defaultAgentOf, type ToolSearchConfig } from '@tool-search/config';
import { errorMessage } from '@tool-search/kernel';
import type { Approver } from '@tool-search/plugin-approvals';
import type { GatewayControl, RestartRecord, RestartRequest } from '@tool-search/plugin-gateway';
import { MemorySessionStore, wakeSession } from '@tool-search/sessions';
import { MemoryStateStore, type StateStore } from '@tool-search/state';
import { approvalsRoute } from './approvals-http.js';
import { createFrontEnd, type FrontEnd, type FrontEndOptions } from './front-end.js';
import {
  DRAIN_MS,
  drained,
  gatewayControl,
  restartRecord,
  restartSignals,
  restartWakeNote,
  type RestartSignals,
} from './gateway-restart.js';
import { healthRoute } from './health-http.js';
import { createToolSearchKernel } from './preset.js';
import { stopped } from './stopped.js';
import { appliedToolSearch, runSettingOf } from './tool-search-setting.js';
import { OPTIONAL_CAPABILITIES, requireCapability } from './capabilities.js';
import { gatewaySandboxFor } from './sandboxed-runs.js';

/** A loaded config and the file it came from (the file the `gateway` tool edits). */
export interface LoadedGatewayConfig {
  readonly config: ToolSearchConfig;
  readonly path?: string | undefined;
}

export interface GatewayRunOptions
  extends Omit<FrontEndOptions, 'approvals' | 'sessions' | 'sessionStore' | 'gateway' | 'sessionLogDir'> {
  /** Reads the config: at start and again for each restart. Its `provider` is the upstream the gateway talks to. */
  readonly load: () => Promise<LoadedGatewayConfig>;
  /** Folder the session log folder and the default config file resolve from. Default `process.cwd()`. */
  readonly cwd?: string;
  /** The file the `gateway` tool edits when `load` names none, from `cwd`. Default `tool-search.json`. */
  readonly configPath?: string | undefined;
  /** Default `gateway.host`, else `127.0.0.1` (other hosts need `auth.keys`). */
  readonly host?: string | undefined;
  /** Default `gateway.port`, else 0 (a free port); a restart keeps the port unless the new config names another. */
  readonly port?: number | undefined;
  /** Exposure mode for every run; default per run, the toolSearch setting of its agent and provider/model. */
  readonly mode?: string | undefined;
  /** Who answers approvals: `'queue'` (answered over `/v1/approvals` by any replica), an approver, or `null` (deny). */
  readonly approvals?: 'queue' | Approver | null;
  /** Stops the gateway; without it, SIGINT or SIGTERM does. */
  readonly signal?: AbortSignal | undefined;
  /** Operator lines: restarts, refused restarts, an ignored SIGUSR1. */
  readonly log?: (line: string) => void;
  /** Called each time the gateway listens: at start and after each restart. */
  readonly onListening?: (gateway: ListeningGateway) => void;
}

export interface ListeningGateway extends StartedGateway {
  readonly front: FrontEnd;
  /** The session logs folder (`gateway.sessions.dir`, else `session.logDir`), resolved. */
  readonly sessionLogDir?: string;
}

export interface StartedGateway {
  readonly url: string;
  readonly port: number;
  /** The HTTP server, for draining the requests in flight before an in-process restart. */
  readonly server: Server;
  readonly mode: string;
  readonly model: string;
}

/** Serves until stopped; resolves once everything it started is closed. A config that does not load or start rejects. */
export async function runGateway(options: GatewayRunOptions): Promise<void> {
  const {
    load,
    cwd = process.cwd(),
    configPath,
    host,
    port,
    mode,
    approvals = null,
    signal,
    log = () => undefined,
    onListening,
    ...frontOptions
  } = options;
  const env = frontOptions.env ?? process.env;
  const createKernel = frontOptions.createKernel ?? createToolSearchKernel;
  let loaded = await load();
  const sessionStore = new MemorySessionStore(); // outlives restarts
  const sandboxMarks = new MemoryStateStore(); // …and so do its sessions' sandbox marks (with Redis both live there)
  // commands.restart: false: only the gateway tool's own writes restart; a bare SIGUSR1 is ignored (OpenClaw's rule).
  const restarts = restartSignals(() => loaded.config.commands?.restart !== false, log);
  const stop = stopped(signal); // listening before the URL is out: a SIGTERM right after it still shuts down cleanly
  let lastRestart: RestartRecord | undefined;
  // The restart just done and who asked for it: once the new gateway serves, that session is woken with the result.
  let justRestarted: RestartRequest | undefined;
  let listenPort = port;
  // The config that last served, and its port: a restarted config that does not start falls back to it.
  let lastGood: { loaded: LoadedGatewayConfig; port: number } | undefined;
  let failed: { request: RestartRequest; error: string } | undefined;
  /** Builds the front end of `config` and listens (every start step); closes what it built when a step fails. */
  const open = async ({ config, path }: LoadedGatewayConfig) => {
    const auth = (await import('@tool-search/auth')).createApiKeys(config.auth, env); // a bad auth.keys entry stops us first
    const control = gatewayControl(
      path ?? resolve(cwd, configPath ?? CONFIG_FILE_NAME),
      createKernel,
      restarts,
      () => lastRestart,
      { env, host, provider: config.provider },
    );
    const logDir = config.gateway?.sessions?.dir ?? config.session?.logDir;
    const sessionLogDir = logDir !== undefined ? resolve(cwd, logDir) : undefined;
    const front = await createFrontEnd(config, {
      defaultSandbox: 'quickjs', // code mode under load: see PresetOptions.defaultSandbox
      ...frontOptions,
      approvals,
      sessions: true,
      sessionStore,
      gateway: control,
      metrics: 'gateway',
      ...(sessionLogDir ? { sessionLogDir } : {}),
    });
    const marks = front.state.kind === 'redis' ? {} : { sandboxMarks };
    const gateway = await startGateway(front, config, { auth, env, host, port: listenPort, mode, ...marks }).catch(
      async (error: unknown) => {
        await front.close();
        throw error;
      },
    );
    return { control, front, gateway, sessionLogDir };
  };
  try {
    for (;;) {
      let opened: Awaited<ReturnType<typeof open>>;
      try {
        opened = await open(loaded);
      } catch (error) {
        // A restarted config that passed its checks but does not start (its port taken, …): serve the last good one.
        if (!lastGood || lastGood.loaded === loaded) throw error;
        log(`gateway: the restarted config did not start (${errorMessage(error)}); serving the last good config again`);
        if (justRestarted) failed = { request: justRestarted, error: errorMessage(error) };
        justRestarted = undefined;
        ({ loaded } = lastGood);
        listenPort = lastGood.port;
        continue;
      }
      const { control, front, gateway, sessionLogDir } = opened;
      listenPort = gateway.port;
      lastGood = { loaded, port: gateway.port };
      onListening?.({ ...gateway, front, ...(sessionLogDir ? { sessionLogDir } : {}) });
      const wake = (request: RestartRequest, outcome: Parameters<typeof restartWakeNote>[1]) => {
        if (!request.sessionId || !front.sessionHost) return;
        // In the background: serving does not wait for the woken agent's turn.
        void wakeSession(front.sessionHost, request.sessionId, restartWakeNote(request, outcome)).then((how) =>
          log(
            `gateway: ${how === 'unknown-session' ? 'no session to wake' : `session ${request.sessionId} ${how}`} after the restart`,
          ),
        );
      };
      if (justRestarted && lastRestart) wake(justRestarted, { ok: true, record: lastRestart });
      if (failed) wake(failed.request, { ok: false, error: failed.error });
      justRestarted = undefined;
      failed = undefined;
      const next = await nextConfig(load, control, restarts, stop, log, (request, error) =>
        wake(request, { ok: false, error }),
      );
      if (!next) return void (await front.close());
      lastRestart = restartRecord(next.request, lastRestart);
      justRestarted = next.request;
      log(`gateway: restarting in-process (SIGUSR1: ${next.request.reason})`);
      await drained(gateway.server, DRAIN_MS);
      await front.close();
      loaded = next.loaded;
      if (port === undefined && loaded.config.gateway?.port !== undefined) listenPort = loaded.config.gateway.port;
    }
  } finally {
    restarts.close();
  }
}

export interface StartGatewayOptions {
  /** The API keys of `auth.keys` (`createApiKeys`), checked before anything started. */
  readonly auth: ApiKeys;
  readonly env?: NodeJS.ProcessEnv;
  readonly host?: string | undefined;
  readonly port?: number | undefined;
  readonly mode?: string | undefined;
  /** Where sessions once sandboxed are marked (default the front end's state store); it must live as long as the sessions. */
  readonly sandboxMarks?: StateStore;
}

/** Starts the gateway on `front` (upstream `config.provider`, session turns, health and approval routes); it closes with the front end. */
export async function startGateway(
  front: FrontEnd,
  config: ToolSearchConfig,
  options: StartGatewayOptions,
): Promise<StartedGateway> {
  requireCapability(OPTIONAL_CAPABILITIES.gateway, 'the gateway');
  const { startGatewayServer, createUpstream, sessionTurnRunner, capabilitiesFromConfig } = await import(
    '@tool-search/gateway'
  );
  const env = options.env ?? process.env;
  const provider = config.provider ?? {};
  const { kernel, state } = front;
  const upstream = createUpstream(provider, env);
  const mode = options.mode ?? front.toolSearch.mode;
  // Each run gets the toolSearch setting (mode and search limits) of its agent and provider/model; `mode` fixes the mode.
  const toolSearchFor = (party: { agentId?: string; provider: string; model: string }) => {
    const applied = appliedToolSearch(config, party, options.mode);
    return { mode: applied.mode, ...runSettingOf(applied) };
  };
  const upstreamFor = (other: string) => createUpstream({ ...provider, model: other }, env);
  // The agents and sessions the config sandboxes, and the sessions they started, run sandboxed: HTTP and session turns alike.
  const sandboxFor = gatewaySandboxFor(config, front.sessionHost?.store, options.sandboxMarks ?? state);
  const sandbox = sandboxFor ? { sandboxFor } : {};
  front.sessionHost?.bind(sessionTurnRunner({ kernel, upstream, mode, toolSearchFor, upstreamFor, ...sandbox }));
  const token = config.gateway?.auth?.token;
  const gateway = await startGatewayServer({
    kernel,
    upstream,
    mode,
    toolSearchFor,
    ...sandbox,
    // gateway.capabilities: which upstreams take deferred tools themselves, ahead of the built-in table.
    capabilities: capabilitiesFromConfig(config.gateway?.capabilities),
    // A request without x-session-id uses its agent's main session; without x-agent-id, the config's default agent's.
    defaultAgentId: defaultAgentOf(config),
    host: options.host ?? config.gateway?.host ?? '127.0.0.1',
    port: options.port ?? config.gateway?.port ?? 0,
    auth: options.auth,
    state, // with keys, which key owns each session: shared by the replicas
    ...(token ? { token } : {}),
    routes: [
      healthRoute(state),
      ...(front.metrics ? [front.metrics.route] : []),
      ...(front.approvalQueue ? [approvalsRoute(front.approvalQueue)] : []),
      ...front.gatewayPages.map((pages) => (req: IncomingMessage, res: ServerResponse) => pages.handle(req, res)),
    ],
  });
  // Plugins' pages link to where the gateway listens (loopback unless the operator binds it elsewhere).
  for (const pages of front.gatewayPages) pages.bind(new URL(gateway.url).origin);
  front.onClose(() => gateway.close());
  return { url: gateway.url, port: gateway.port, server: gateway.server, mode, model: upstream.model };
}

/** The config of the next restart, once one is asked for and its config loads (a broken file keeps the old one serving); undefined on stop. */
async function nextConfig(
  load: () => Promise<LoadedGatewayConfig>,
  control: GatewayControl,
  restarts: RestartSignals,
  stop: Promise<unknown>,
  log: (line: string) => void,
  refused: (request: RestartRequest, error: string) => void,
) {
  for (;;) {
    const request = await Promise.race([stop.then(() => undefined), restarts.next()]);
    if (!request) return undefined;
    try {
      const loaded = await load();
      await control.check(loaded.config);
      return { request, loaded };
    } catch (error) {
      const why = errorMessage(error);
      log(`gateway: restart refused, still serving the previous config: ${why}`);
      refused(request, why);
    }
  }
}
