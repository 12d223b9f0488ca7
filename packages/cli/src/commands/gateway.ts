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
import type { ProviderConfig } from '@tool-search/config';
import { CliUsageError, type CliIO } from '../io.js';
import { port, stopped } from './serving.js';
import { createCliKernel, loadCliConfig, withConfigOption, withConfigSections, type ConfigFlags } from '../options.js';
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

async function serve(flags: GatewayFlags, io: CliIO): Promise<void> {
  const { config } = await loadCliConfig(flags, io);
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
  // Sessions move to the shared store only with Redis: in-process, the memory store's Map is the cheaper one.
  const sessionHost = createSessionHost(state.kind === 'redis' ? { store: new StateSessionStore(state) } : {});
  // Cron jobs persist in a `cron` folder beside the session logs (gateway.sessions.dir), else in the state folder.
  const cronDir = sessionLogDir ? join(dirname(sessionLogDir), 'cron') : join(defaultStateDir(io.env ?? process.env), 'cron');
  // The provider first: the kernel's tools that call it (image) must see the one this gateway talks to, mock or not.
  const mock = await mockProvider(flags.providerMode);
  const provider = mock?.provider ?? config.provider ?? {};
  const kernelConfig = mock ? withConfigSections(config, { provider: mock.provider }) : config;
  const { kernel, toolSearch } = await createCliKernel(kernelConfig, io, { approve, sessionHost, cronDir, state, ...(sessionLogDir ? { sessionLogDir } : {}) }).catch(async (error: unknown) => {
    await mock?.close();
    await queue?.close();
    await state.close();
    await otel.shutdown();
    throw error;
  });
  const closers: (() => Promise<void>)[] = [...(mock ? [() => mock.close()] : []), () => kernel.close(), async () => queue?.close(), () => state.close(), () => otel.shutdown()];
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
      port: flags.port ?? config.gateway?.port ?? 0,
      auth,
      state, // with keys, which key owns each session: shared by the replicas
      ...(token ? { token } : {}),
      routes: [healthRoute(state), ...(queue ? [approvalsRoute(queue)] : [])],
    });
    closers.unshift(() => gateway.close());
    const stop = stopped(io.signal); // listening before the URL is out: a SIGTERM right after it still shuts down cleanly
    io.stdout.write(`${gateway.url}\n`);
    io.stderr.write(
      `gateway: mode ${mode}, model ${model}${flags.providerMode.startsWith('mock-') ? ` (${flags.providerMode} provider)` : ''}, approvals ${approvals}` +
        `${queue ? ` (GET/POST ${gateway.url}/approvals)` : ''}, state ${state.kind} as replica ${state.replicaId}${sessionLogDir ? `, session logs in ${sessionLogDir}` : ''}; Ctrl-C stops\n`,
    );
    await stop;
  } finally {
    for (const close of closers) await close().catch(() => undefined);
  }
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
