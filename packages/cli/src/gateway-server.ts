/**
 * The gateway server over a front end: the upstream (configured or an in-process mock), the session turn runner,
 * the HTTP routes (health, approvals) and the one stderr line saying how it runs. Heavy modules load only here.
 */
import type { ApiKeys } from '@tool-search/auth';
import type { ProviderConfig, ToolSearchConfig } from '@tool-search/config';
import type { FrontEnd } from '@tool-search/preset';
import type { CliIO } from './io.js';
import { appliedToolSearch, runSettingOf } from './tool-search-setting.js';

export const PROVIDER_MODES = ['config', 'mock-openai', 'mock-anthropic'] as const;
export type ProviderMode = (typeof PROVIDER_MODES)[number];
/** The model name the gateway sends to the in-process mock (it answers to any). */
export const MOCK_PROVIDER_MODEL = 'mock-model';
/** The model name sent to the in-process Anthropic mock. */
export const MOCK_ANTHROPIC_MODEL = 'mock-claude';

export interface GatewayServerOptions {
  /** The API keys of `auth.keys` (`createApiKeys`), checked before anything started. */
  readonly auth: ApiKeys;
  readonly host?: string | undefined;
  readonly port?: number | undefined;
  /** Exposure mode for every run; default per run, the toolSearch setting of its agent and provider/model. */
  readonly mode?: string | undefined;
  readonly provider: ProviderConfig | Record<string, never>;
}

/** Starts the gateway on `front` and returns its URL; the server closes with the front end. */
export async function startCliGateway(front: FrontEnd, config: ToolSearchConfig, io: CliIO, options: GatewayServerOptions): Promise<CliGateway> {
  const [{ startGatewayServer, createUpstream, sessionTurnRunner, capabilitiesFromConfig }, { approvalsRoute }, { healthRoute }] = await Promise.all([
    import('@tool-search/gateway'),
    import('./approvals-http.js'),
    import('./health-http.js'),
  ]);
  const env = io.env ?? process.env;
  const { kernel, state } = front;
  const upstream = createUpstream(options.provider, env);
  const mode = options.mode ?? front.toolSearch.mode;
  // Each run gets the toolSearch setting (mode and search limits) of its agent and provider/model; --mode fixes the mode.
  const toolSearchFor = (party: { agentId?: string; provider: string; model: string }) => {
    const applied = appliedToolSearch(config, party, options.mode);
    return { mode: applied.mode, ...runSettingOf(applied) };
  };
  const upstreamFor = (other: string) => createUpstream({ ...options.provider, model: other }, env);
  front.sessionHost?.bind(sessionTurnRunner({ kernel, upstream, mode, toolSearchFor, upstreamFor }));
  const token = config.gateway?.auth?.token;
  const gateway = await startGatewayServer({
    kernel,
    upstream,
    mode,
    toolSearchFor,
    // gateway.capabilities: which upstreams take deferred tools themselves, ahead of the built-in table.
    capabilities: capabilitiesFromConfig(config.gateway?.capabilities),
    host: options.host ?? config.gateway?.host ?? '127.0.0.1',
    port: options.port ?? config.gateway?.port ?? 0,
    auth: options.auth,
    state, // with keys, which key owns each session: shared by the replicas
    ...(token ? { token } : {}),
    routes: [healthRoute(state), ...(front.approvalQueue ? [approvalsRoute(front.approvalQueue)] : [])],
  });
  front.onClose(() => gateway.close());
  return { url: gateway.url, port: gateway.port, server: gateway.server, mode, model: upstream.model };
}

export interface CliGateway {
  readonly url: string;
  readonly port: number;
  /** The HTTP server, for draining the requests in flight before an in-process restart. */
  readonly server: import('node:http').Server;
  readonly mode: string;
  readonly model: string;
}

/** The in-process mock provider of `--provider-mode mock-openai | mock-anthropic`, as a config `provider`. */
export async function mockProvider(mode: ProviderMode): Promise<{ provider: ProviderConfig; close(): Promise<void> } | undefined> {
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
