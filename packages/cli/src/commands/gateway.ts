/**
 * `tool-search gateway`: the OpenAI-compatible gateway over a kernel built
 * from the config, until SIGINT/SIGTERM (or `io.signal`). With
 * `--provider-mode mock-openai` the provider is the in-process mock, so it
 * runs without a key or network. Heavy modules load only here.
 */
import { dirname, join, resolve } from 'node:path';
import { defaultStateDir } from '@tool-search/plugin-mcp';
import { Option, type Command } from 'commander';
import type { Approver } from '@tool-search/plugin-approvals';
import { CONFIG_FILE_NAME, resolvePaths, type ProviderConfig, type ToolSearchConfig } from '@tool-search/config';
import type { GatewayControl, RestartRecord, RestartRequest } from '@tool-search/plugin-gateway';
import type { SessionStore } from '@tool-search/sessions';
import { CliUsageError, type CliIO } from '../io.js';
import { port, stopped } from './serving.js';
import { createCliKernel, loadCliConfig, rememberConfigFolder, withConfigOption, withConfigSections, type ConfigFlags, type LoadedCliConfig } from '../options.js';
import { EXPOSURE_MODES } from './exposure.js';
import { appliedToolSearch, runSettingOf } from '../tool-search-setting.js';
import { createCliState } from '../state.js';
import { startCliOtel } from '../otel.js';

export const PROVIDER_MODES = ['config', 'mock-openai', 'mock-anthropic'] as const;
export const APPROVAL_MODES = ['prompt', 'http', 'deny'] as const;
/** The model name the gateway sends to the in-process mock (it answers to any). */
export const MOCK_PROVIDER_MODEL = 'mock-model';
/** The model name sent to the in-process Anthropic mock. */
export const MOCK_ANTHROPIC_MODEL = 'mock-claude';

interface GatewayFlags extends ConfigFlags {
  readonly port?: number;
  readonly host?: string;
  readonly providerMode: (typeof PROVIDER_MODES)[number];
  readonly mode?: string;
  readonly approvals?: (typeof APPROVAL_MODES)[number];
}

export function registerGatewayCommand(program: Command, io: CliIO): void {
  withConfigOption(program.command('gateway').description('serve the gateway (POST /v1/chat/completions, /v1/responses, /v1/messages) until Ctrl-C'))
    .option('--port <port>', 'port (default gateway.port, else 0 = a free port)', port)
    .option('--host <host>', 'host (default gateway.host, else 127.0.0.1; other hosts need auth.keys)')
    .addOption(new Option('--provider-mode <mode>', 'provider: from the config, or an in-process mock (OpenAI or Anthropic wire format)').choices(PROVIDER_MODES).default('config'))
    .addOption(new Option('--mode <mode>', 'exposure mode for every run (default: per run, the toolSearch setting for its agent and provider/model)').choices(EXPOSURE_MODES))
    .addOption(new Option('--approvals <how>', 'who answers approvals (default: prompt on a TTY, else deny)').choices(APPROVAL_MODES))
    .action(async (flags: GatewayFlags) => {
      await serve(flags, io);
    });
}

/**
 * Serves until SIGINT/SIGTERM (or `io.signal`). SIGUSR1 (the `gateway` tool's `restart`, or `kill -USR1`) restarts
 * in-process: the config is read again and checked, and only if it loads does the running gateway close and a new one
 * start from it, on the same port unless the config names another. In-process sessions and the mock provider survive
 * the restart.
 */
async function serve(flags: GatewayFlags, io: CliIO): Promise<void> {
  let loaded = await loadCliConfig(flags, io);
  const mock = await mockProvider(flags.providerMode);
  const sessions = new (await import('@tool-search/sessions')).MemorySessionStore();
  // commands.restart: false: only the gateway tool's own writes restart; a bare SIGUSR1 is ignored (OpenClaw's rule).
  const restarts = restartSignals(() => loaded.config.commands?.restart !== false, (line) => io.stderr.write(`${line}\n`));
  let lastRestart: RestartRecord | undefined;
  let port: number | undefined;
  const stop = stopped(io.signal); // listening before the URL is out: a SIGTERM right after it still shuts down cleanly
  try {
    for (;;) {
      const control = gatewayControl(flags, io, loaded, restarts, () => lastRestart);
      const instance = await startInstance(flags, io, loaded.config, { mock, sessions, control, ...(port !== undefined ? { port } : {}) });
      port = instance.port;
      let next: LoadedCliConfig | undefined;
      while (!next) {
        const request = await Promise.race([stop.then(() => undefined), restarts.next()]);
        if (!request) {
          await instance.close();
          return;
        }
        // The new config must load before the running gateway stops: a broken file keeps the old one serving.
        try {
          next = await loadCliConfig(flags, io);
          await control.check(next.config);
        } catch (error) {
          next = undefined;
          io.stderr.write(`gateway: restart refused, still serving the previous config: ${error instanceof Error ? error.message : String(error)}\n`);
          continue;
        }
        lastRestart = { at: new Date().toISOString(), reason: request.reason, ...(request.note ? { note: request.note } : {}), ...(request.sessionId ? { sessionId: request.sessionId } : {}), count: (lastRestart?.count ?? 0) + 1 };
        io.stderr.write(`gateway: restarting in-process (SIGUSR1: ${request.reason})\n`);
        await instance.close(true);
      }
      loaded = next;
      // The port the config or flag names wins; otherwise the one the gateway had, so clients keep their URL.
      if (flags.port === undefined && loaded.config.gateway?.port !== undefined) port = loaded.config.gateway.port;
    }
  } finally {
    restarts.close();
    await mock?.close();
  }
}

interface Instance {
  readonly port: number;
  /** `drain`: stop accepting, let the requests in flight finish (up to `DRAIN_MS`), then close; else close at once. */
  close(drain?: boolean): Promise<void>;
}

/** How long a restart waits for the replies in flight (OpenClaw drains 30 s too). */
const DRAIN_MS = 30_000;

/** One gateway from one config: state, telemetry, kernel, upstream and HTTP server, closed together. */
async function startInstance(
  flags: GatewayFlags,
  io: CliIO,
  config: ToolSearchConfig,
  host: { mock: Awaited<ReturnType<typeof mockProvider>>; sessions: SessionStore; control: GatewayControl; port?: number },
): Promise<Instance> {
  // API keys first: a bad auth.keys entry stops the command before anything starts.
  const auth = (await import('@tool-search/auth')).createApiKeys(config.auth, io.env ?? process.env);
  const [{ startGatewayServer, createUpstream, sessionTurnRunner }, { SharedApprovalQueue }, { approvalsRoute }, { promptApprover }, { createSessionHost, StateSessionStore }, { healthRoute }] = await Promise.all([
    import('@tool-search/gateway'),
    import('@tool-search/plugin-approvals'),
    import('../approvals-http.js'),
    import('../approvals.js'),
    import('@tool-search/sessions'),
    import('../health-http.js'),
  ]);

  const approvals = flags.approvals ?? (io.stdin?.isTTY ? 'prompt' : 'deny');
  if (approvals === 'prompt' && !io.stdin?.isTTY) throw new CliUsageError('--approvals prompt needs a terminal on stdin; use --approvals http');

  const logDir = config.gateway?.sessions?.dir ?? config.session?.logDir;
  const sessionLogDir = logDir !== undefined ? resolve(io.cwd, logDir) : undefined;
  // Shared state (Redis with `state.redis.url`): connected before anything listens, closed last.
  const state = await createCliState(config, io);
  const otel = await startCliOtel(config, state.replicaId); // telemetry.otlp: before the kernel, shut down last
  // Over the state store, so with Redis an approval asked on one replica is answered through any (in-process otherwise).
  const queue = approvals === 'http' ? new SharedApprovalQueue(state) : undefined;
  const approve: Approver | null = queue ? queue.approve : approvals === 'prompt' ? promptApprover(io)! : null;
  // The gateway runs turns, so the session tools are listed here (and only here); the runner is bound once the provider is known.
  // Sessions move to the shared store only with Redis; in-process they outlive a restart (the serve loop's store).
  const sessionHost = createSessionHost({ store: state.kind === 'redis' ? new StateSessionStore(state) : host.sessions });
  // Cron jobs persist in a `cron` folder beside the session logs (gateway.sessions.dir), else in the state folder.
  const cronDir = sessionLogDir ? join(dirname(sessionLogDir), 'cron') : join(defaultStateDir(io.env ?? process.env), 'cron');
  // The provider first: the kernel's tools that call it (image) must see the one this gateway talks to, mock or not.
  const { mock } = host;
  const provider = mock?.provider ?? config.provider ?? {};
  const kernelConfig = mock ? withConfigSections(config, { provider: mock.provider }) : config;
  const { kernel, toolSearch } = await createCliKernel(kernelConfig, io, { approve, sessionHost, cronDir, state, gateway: host.control, ...(sessionLogDir ? { sessionLogDir } : {}) }).catch(
    async (error: unknown) => {
      await queue?.close();
      await state.close();
      await otel.shutdown();
      throw error;
    },
  );
  const closers: (() => Promise<void>)[] = [() => kernel.close(), async () => queue?.close(), () => state.close(), () => otel.shutdown()];
  let server: import('node:http').Server | undefined;
  const close = async (drain = false) => {
    if (drain && server) await drained(server, DRAIN_MS);
    for (const closer of closers) await closer().catch(() => undefined);
  };
  try {
    const upstream = createUpstream(provider, io.env ?? process.env);
    const model = upstream.model;
    const mode = flags.mode ?? toolSearch.mode;
    // Each run gets the toolSearch setting (mode and search limits) of its agent and provider/model; --mode fixes the mode.
    const toolSearchFor = (party: { agentId?: string; provider: string; model: string }) => {
      const applied = appliedToolSearch(config, party, flags.mode);
      return { mode: applied.mode, ...runSettingOf(applied) };
    };
    const env = io.env ?? process.env;
    sessionHost.bind(sessionTurnRunner({ kernel, upstream, mode, toolSearchFor, upstreamFor: (other) => createUpstream({ ...provider, model: other }, env) }));
    const token = config.gateway?.auth?.token;
    const gateway = await startGatewayServer({
      kernel,
      upstream,
      mode,
      toolSearchFor,
      host: flags.host ?? config.gateway?.host ?? '127.0.0.1',
      port: host.port ?? flags.port ?? config.gateway?.port ?? 0, // a restart keeps the port it had (the serve loop decides)
      auth,
      state, // with keys, which key owns each session: shared by the replicas
      ...(token ? { token } : {}),
      routes: [healthRoute(state), ...(queue ? [approvalsRoute(queue)] : [])],
    });
    closers.unshift(() => gateway.close());
    server = gateway.server;
    io.stdout.write(`${gateway.url}\n`);
    io.stderr.write(
      `gateway: mode ${mode}, model ${model}${flags.providerMode.startsWith('mock-') ? ` (${flags.providerMode} provider)` : ''}, approvals ${approvals}` +
        `${queue ? ` (GET/POST ${gateway.url}/approvals)` : ''}, state ${state.kind} as replica ${state.replicaId}${sessionLogDir ? `, session logs in ${sessionLogDir}` : ''}; Ctrl-C stops\n`,
    );
    return { port: gateway.port, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** What the `gateway` tool may do to this gateway: its config file, the checks a start makes, and the SIGUSR1 restart. */
function gatewayControl(flags: GatewayFlags, io: CliIO, loaded: LoadedCliConfig, restarts: RestartSignals, last: () => RestartRecord | undefined): GatewayControl {
  const configPath = loaded.path ?? resolve(io.cwd, flags.config ?? CONFIG_FILE_NAME);
  return {
    configPath,
    async check(config) {
      // As `config set` checks: relative paths from the file's folder, then every plugin's own options (a kernel built and closed).
      const resolved = rememberConfigFolder(resolvePaths(config, dirname(configPath)), dirname(configPath));
      const { kernel } = await createCliKernel(resolved, io, { approve: null });
      await kernel.close();
    },
    restart: (request) => restarts.schedule(request),
    lastRestart: last,
  };
}

/** Resolves once the server stopped accepting and every request in flight got its reply (idle keep-alive sockets are closed as they go idle), or after `ms`. */
function drained(server: import('node:http').Server, ms: number): Promise<void> {
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

interface RestartSignals {
  /** The next SIGUSR1, with the request that scheduled it (an external `kill -USR1` has reason `SIGUSR1`). */
  next(): Promise<RestartRequest>;
  /** SIGUSR1 to this process after `delayMs`. */
  schedule(request: RestartRequest): void;
  close(): void;
}

/** SIGUSR1 handling for the serve loop; timers still pending when it closes never fire (an unhandled SIGUSR1 would open Node's inspector). */
function restartSignals(external: () => boolean, log: (line: string) => void): RestartSignals {
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

/** The in-process mock provider of `--provider-mode mock-openai | mock-anthropic`, as a config `provider`. */
async function mockProvider(mode: GatewayFlags['providerMode']): Promise<{ provider: ProviderConfig; close(): Promise<void> } | undefined> {
  if (mode === 'mock-openai') {
    const { startMockOpenAI } = await import('@tool-search/mock-openai');
    const mock = await startMockOpenAI();
    return { provider: { baseURL: mock.url, apiKey: 'mock', model: MOCK_PROVIDER_MODEL }, close: () => mock.close() };
  }
  if (mode === 'mock-anthropic') {
    const { startMockAnthropic } = await import('@tool-search/mock-anthropic');
    const mock = await startMockAnthropic();
    return { provider: { kind: 'anthropic', baseURL: mock.url, apiKey: 'mock', model: MOCK_ANTHROPIC_MODEL }, close: () => mock.close() };
  }
  return undefined;
}
