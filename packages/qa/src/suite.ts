/**
 * The QA scenario `tool-search-gateway-e2e`: the same scripted request sent
 * through the gateway's HTTP endpoint once per exposure lane (direct, code,
 * tools, directory) over the core tools and the scenario's temporary fake
 * plugin (fixture.ts), compared from what the provider actually received and
 * from the session logs (assertions.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import {
  anthropicUpstream,
  openaiUpstream,
  startGatewayServer,
  type TurnLedger,
  type Upstream,
} from '@tool-search/gateway';
import { startMockOpenAI, type RecordedRequest } from '@tool-search/mock-openai';
import { startMockAnthropic } from '@tool-search/mock-anthropic';
import { COMPARED_MODES, type ToolSearchConfig } from '@tool-search/config';
import type { ApprovalRequest } from '@tool-search/plugin-approvals';
import {
  createTokenCounter,
  readSessionLog,
  sessionFileName,
  summarizeSession,
  type SessionLogEntry,
  type TelemetrySummary,
} from '@tool-search/telemetry';
import { createToolSearchKernel } from '@tool-search/preset';
import type { KernelPlugin } from '@tool-search/kernel';
import { assertLanes, controlCallsIn, ORIGIN_OF_LANE, type ControlCallReport } from './assertions.js';
import { createFixturePlugin, FIXTURE_PLUGIN_ID, type FixturePlugin } from './fixture.js';

export const SCENARIO = 'tool-search-gateway-e2e';
export const LANES = COMPARED_MODES;
export type LaneName = (typeof LANES)[number];
/** The scripted provider behind the gateway: OpenAI Chat Completions or Anthropic Messages wire format. */
export const PROVIDER_MODES = ['mock-openai', 'mock-anthropic'] as const;
export type ProviderMode = (typeof PROVIDER_MODES)[number];

export interface SuiteOptions {
  /** Plugin tools in the fake catalog (default 1,000). */
  readonly tools?: number;
  /** The tool the scripted model must reach (default `fake_plugin_tool_0017`). */
  readonly target?: string;
  readonly lanes?: readonly LaneName[];
  /** Default `mock-openai`. */
  readonly providerMode?: ProviderMode;
}

/** The whole turn of a lane, discovery included (the gateway's `tool_search.ledger`). */
export interface TurnTotals {
  readonly requests: number;
  readonly bytes: number;
  readonly tokens: number | null;
  readonly discoveryRequests: number;
  /** This turn's bytes over the direct lane's whole turn. */
  readonly ratioToDirect: number | null;
}

export interface LaneReport {
  readonly lane: LaneName;
  readonly toolsDeclared: number;
  readonly requestBytes: number;
  readonly tokens: number;
  readonly searches: number;
  readonly describes: number;
  readonly calls: number;
  readonly targetCalled: boolean;
  readonly ratioToDirect: number | null;
  /** Names of the tools in the first request the provider received. */
  readonly declaredNames: readonly string[];
  /** The run's direct-only tools (effective catalog, `catalogMode: 'direct-only'`): every lane must show each of them. */
  readonly directOnlyNames: readonly string[];
  /** The first request's tools as the provider received them (name, description, parameters). */
  readonly declared: readonly { readonly name: string; readonly description?: string; readonly parameters?: unknown }[];
  /** The bridge's own telemetry: one entry per control-tool call (`tool_search_code`, `tool_call`, …). */
  readonly controlCalls: readonly ControlCallReport[];
  readonly finalAnswer: string;
  readonly summary: TelemetrySummary;
  readonly turn: TurnTotals;
}

export interface SuiteResult {
  readonly scenario: string;
  readonly providerMode: ProviderMode;
  readonly tools: number;
  readonly target: string;
  readonly lanes: readonly LaneReport[];
  readonly assertions: readonly { readonly name: string; readonly ok: boolean; readonly detail?: string }[];
  readonly ok: boolean;
}

export async function runQaSuite(options: SuiteOptions = {}): Promise<SuiteResult> {
  const tools = options.tools ?? 1000;
  const target = options.target ?? 'fake_plugin_tool_0017';
  const targetId = `plugin:${FIXTURE_PLUGIN_ID}:${target}`;
  const tokens = createTokenCounter('o200k_base');
  const lanes: LaneReport[] = [];
  let fixture: FixturePlugin | undefined;
  const providerMode = options.providerMode ?? 'mock-openai';
  await withProvider(async (provider, logDir) => {
    fixture = await createFixturePlugin(logDir, tools);
    for (const lane of options.lanes ?? LANES) {
      const driven = await driveLane({
        provider,
        logDir,
        lane,
        config: suiteConfig(tools, lane),
        plugins: [fixture.plugin],
        message: `tool search qa check target=${target}`,
      });
      lanes.push(await report(lane, driven, targetId, (text) => tokens.count(text)));
    }
  }, providerMode);
  const direct = lanes.find((l) => l.lane === 'direct');
  const withRatios = lanes.map((l) => ({
    ...l,
    ratioToDirect: direct ? round(l.requestBytes / direct.requestBytes) : null,
    turn: { ...l.turn, ratioToDirect: direct ? round(l.turn.bytes / direct.turn.bytes) : null },
  }));
  const assertions = assertLanes(withRatios, fixture!, target, targetId);
  return {
    scenario: SCENARIO,
    providerMode,
    tools,
    target,
    lanes: withRatios,
    assertions,
    ok: assertions.every((a) => a.ok),
  };
}

/**
 * The e2e config: the 25 fake core tools (the plugin tools come from the scenario's temporary plugin), the lane's
 * mode, and both guards on (they must not disturb the main scenario). `tools` is kept for callers that size the config.
 */
export function suiteConfig(
  _tools: number,
  lane: LaneName,
  extra: { loopDetection?: object; approvals?: object } = {},
): ToolSearchConfig {
  return {
    plugins: { 'fake-catalog': { tools: 0, core: true } },
    tools: {
      toolSearch: lane === 'direct' ? false : { mode: lane },
      loopDetection: { enabled: true, ...extra.loopDetection },
      approvals: { require: ['exec', 'group:runtime'], ...extra.approvals },
    },
  } as ToolSearchConfig;
}

interface Driven {
  readonly received: readonly RecordedRequest[];
  readonly summary: TelemetrySummary;
  readonly entries: readonly SessionLogEntry[];
  readonly finalAnswer: string;
  readonly approvals: readonly ApprovalRequest[];
  readonly ledger: TurnLedger;
  readonly directOnlyNames: readonly string[];
}

/** A running mock provider: what it received, and an upstream that talks to it. */
export interface Provider {
  readonly requests: readonly RecordedRequest[];
  readonly path: string;
  upstream(): Upstream;
  close(): Promise<void>;
}

async function startProvider(mode: ProviderMode): Promise<Provider> {
  if (mode === 'mock-anthropic') {
    const mock = await startMockAnthropic();
    return {
      requests: mock.requests,
      path: '/v1/messages',
      upstream: () =>
        anthropicUpstream(new Anthropic({ baseURL: mock.url, apiKey: 'mock-key', maxRetries: 0 }), 'mock-claude'),
      close: () => mock.close(),
    };
  }
  const mock = await startMockOpenAI();
  return {
    requests: mock.requests,
    path: '/v1/chat/completions',
    upstream: () => openaiUpstream(new OpenAI({ baseURL: mock.url, apiKey: 'mock-key', maxRetries: 0 }), 'mock-model'),
    close: () => mock.close(),
  };
}

export async function withProvider<T>(
  fn: (provider: Provider, logDir: string) => Promise<T>,
  mode: ProviderMode = 'mock-openai',
): Promise<T> {
  const logDir = await mkdtemp(join(tmpdir(), 'tool-search-e2e-'));
  const provider = await startProvider(mode);
  try {
    return await fn(provider, logDir);
  } finally {
    await provider.close();
    await rm(logDir, { recursive: true, force: true });
  }
}

/** One lane: a kernel from the preset, a gateway in front of the mock provider, one scripted request through HTTP. */
export async function driveLane(input: {
  provider: Provider;
  logDir: string;
  lane: LaneName;
  config: ToolSearchConfig;
  /** Extra plugins for the kernel (the scenario's temporary fake plugin). */
  plugins?: readonly KernelPlugin[];
  message: string;
  approve?: 'allow' | 'deny';
  maxSteps?: number;
}): Promise<Driven> {
  const approvals: ApprovalRequest[] = [];
  const first = input.provider.requests.length;
  const { kernel } = await createToolSearchKernel(input.config, {
    sessionLogDir: input.logDir,
    plugins: input.plugins ?? [],
    approve: async (request) => {
      approvals.push(request);
      return input.approve ?? 'deny';
    },
  });
  // What the catalog itself marks direct-only (the fixture's tool, and any other plugin's), not a name written here.
  const probe = await kernel.createRun({});
  const directOnlyNames = probe.catalog.filter((tool) => tool.catalogMode === 'direct-only').map((tool) => tool.name);
  await probe.close();
  const gateway = await startGatewayServer({
    kernel,
    upstream: input.provider.upstream(),
    mode: input.lane,
    maxSteps: input.maxSteps ?? 8,
  });
  try {
    const client = new OpenAI({ baseURL: gateway.url, apiKey: 'unused-on-loopback', maxRetries: 0 });
    const sessionId = `e2e-${input.lane}-${first}`;
    const completion = await client.chat.completions.create(
      { model: 'mock-model', messages: [{ role: 'user', content: input.message }] },
      { headers: { 'x-session-id': sessionId } },
    );
    const received = input.provider.requests.slice(first).filter((r) => r.path === input.provider.path);
    const entries = await readSessionLog(join(input.logDir, sessionFileName(sessionId)));
    const { ledger } = (completion as unknown as { tool_search: { ledger: TurnLedger } }).tool_search;
    return {
      received,
      summary: summarizeSession(entries),
      entries,
      finalAnswer: completion.choices[0]?.message.content ?? '',
      approvals,
      ledger,
      directOnlyNames,
    };
  } finally {
    await gateway.close();
    await kernel.close();
  }
}

export interface GuardLaneReport {
  readonly lane: LaneName;
  readonly statuses: readonly string[];
  readonly approvalOrigins: readonly string[];
}

export interface GuardScenarioResult {
  readonly scenario: 'loop-detection' | 'approvals';
  readonly lanes: readonly GuardLaneReport[];
  readonly assertions: SuiteResult['assertions'];
  readonly ok: boolean;
}

/** Issue 7: a scripted model that loops is blocked at the critical threshold in every mode. */
export function runLoopScenario(options: { tools?: number; target?: string } = {}): Promise<GuardScenarioResult> {
  const loopDetection = { warningThreshold: 2, criticalThreshold: 4, globalCircuitBreakerThreshold: 50 };
  return runGuardScenario('loop-detection', options, {
    extra: { loopDetection },
    suffix: ' loop=6',
    maxSteps: 20,
    judge: (lane, statuses) => {
      const firstBlocked = statuses.indexOf('blocked');
      const ok =
        firstBlocked === loopDetection.criticalThreshold - 1 &&
        statuses.slice(0, firstBlocked).every((s) => s === 'ok');
      return { name: `${lane}: the looping call is blocked at the critical threshold`, ok, detail: statuses.join(',') };
    },
  });
}

/** Issue 7: a call needing approval is denied when the approver says no, in every mode (code bridge included). */
export function runApprovalScenario(options: { tools?: number; target?: string } = {}): Promise<GuardScenarioResult> {
  const target = options.target ?? 'fake_plugin_tool_0017';
  return runGuardScenario('approvals', options, {
    extra: { approvals: { require: [target] } },
    approve: 'deny',
    judge: (lane, statuses, approvalOrigins, finalAnswer) => {
      const origin = ORIGIN_OF_LANE[lane];
      const ok =
        statuses.length >= 1 &&
        statuses.every((s) => s === 'blocked') &&
        approvalOrigins.includes(origin) &&
        !finalAnswer.includes('FAKE_TOOL_OK');
      return {
        name: `${lane}: the approver's "no" blocks the call (origin ${origin})`,
        ok,
        detail: `${statuses.join(',')} asked from ${approvalOrigins.join(',')}`,
      };
    },
  });
}

/** One guard scenario: the scripted request in every lane with the guard configured, judged per lane from the session log. */
async function runGuardScenario(
  scenario: GuardScenarioResult['scenario'],
  options: { tools?: number; target?: string },
  spec: {
    extra: { loopDetection?: object; approvals?: object };
    suffix?: string;
    maxSteps?: number;
    approve?: 'allow' | 'deny';
    judge: (
      lane: LaneName,
      statuses: readonly string[],
      approvalOrigins: readonly string[],
      finalAnswer: string,
    ) => { name: string; ok: boolean; detail?: string };
  },
): Promise<GuardScenarioResult> {
  const target = options.target ?? 'fake_plugin_tool_0017';
  const targetId = `plugin:${FIXTURE_PLUGIN_ID}:${target}`;
  const lanes: GuardLaneReport[] = [];
  const assertions: { name: string; ok: boolean; detail?: string }[] = [];
  await withProvider(async (provider, logDir) => {
    const fixture = await createFixturePlugin(logDir, options.tools ?? 36);
    for (const lane of LANES) {
      const driven = await driveLane({
        provider,
        logDir,
        lane,
        plugins: [fixture.plugin],
        config: suiteConfig(options.tools ?? 36, lane, spec.extra),
        message: `tool search qa check target=${target}${spec.suffix ?? ''}`,
        ...(spec.maxSteps ? { maxSteps: spec.maxSteps } : {}),
        ...(spec.approve ? { approve: spec.approve } : {}),
      });
      const statuses = driven.summary.toolsCalled.filter((c) => c.id === targetId).map((c) => c.status);
      const approvalOrigins = driven.approvals.map((a) => a.origin);
      lanes.push({ lane, statuses, approvalOrigins });
      assertions.push(spec.judge(lane, statuses, approvalOrigins, driven.finalAnswer));
    }
  });
  return { scenario, lanes, assertions, ok: assertions.every((a) => a.ok) };
}

async function report(
  lane: LaneName,
  driven: Driven,
  targetId: string,
  countTokens: (text: string) => Promise<number>,
): Promise<LaneReport> {
  const { received, summary, finalAnswer, ledger } = driven;
  const firstRequest = received[0];
  const declared = declaredTools(firstRequest?.body);
  const raw = firstRequest?.raw ?? '';
  return {
    lane,
    toolsDeclared: declared.length,
    requestBytes: Buffer.byteLength(raw),
    tokens: await countTokens(raw),
    searches: summary.searches,
    describes: summary.describes,
    calls: summary.toolsCalled.length,
    targetCalled: summary.toolsCalled.some((c) => c.id === targetId && c.status === 'ok'),
    ratioToDirect: null,
    declaredNames: declared.map((t) => t.name),
    directOnlyNames: driven.directOnlyNames,
    declared,
    controlCalls: controlCallsIn(driven.entries),
    finalAnswer,
    summary,
    turn: {
      requests: ledger.requests.length,
      bytes: ledger.total.bytes,
      tokens: ledger.total.tokens,
      discoveryRequests: ledger.discovery.requests,
      ratioToDirect: null,
    },
  };
}

/** The tools of a provider request, in either wire format: OpenAI `{ function: { name, description, parameters } }` or Anthropic `{ name, description, input_schema }`. */
function declaredTools(body: unknown): LaneReport['declared'] {
  const tools =
    (
      (body ?? {}) as {
        tools?: {
          name?: string;
          description?: string;
          input_schema?: unknown;
          function?: { name?: string; description?: string; parameters?: unknown };
        }[];
      }
    ).tools ?? [];
  return tools.map((t) =>
    t.function
      ? { name: t.function.name ?? '', description: t.function.description, parameters: t.function.parameters }
      : { name: t.name ?? '', description: t.description, parameters: t.input_schema },
  );
}

const round = (n: number) => Math.round(n * 10000) / 10000;

/** A fixed-width table for humans. */
export function formatSuite(result: SuiteResult): string {
  const header = [
    'lane',
    'tools declared',
    'request bytes',
    'tokens',
    'searches',
    'describes',
    'calls',
    'target called',
    'ratio to direct',
    'turn requests',
    'turn bytes',
    'turn tokens',
    'turn ratio',
  ];
  const rows = result.lanes.map((l) => [
    l.lane,
    String(l.toolsDeclared),
    String(l.requestBytes),
    String(l.tokens),
    String(l.searches),
    String(l.describes),
    String(l.calls),
    l.targetCalled ? 'yes' : 'NO',
    l.ratioToDirect === null ? '-' : `${(l.ratioToDirect * 100).toFixed(2)}%`,
    `${l.turn.requests} (${l.turn.discoveryRequests} discovery)`,
    String(l.turn.bytes),
    l.turn.tokens === null ? '-' : String(l.turn.tokens),
    l.turn.ratioToDirect === null ? '-' : `${(l.turn.ratioToDirect * 100).toFixed(2)}%`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  const checks = result.assertions.map((a) => `${a.ok ? 'ok  ' : 'FAIL'} ${a.name}${a.detail ? ` (${a.detail})` : ''}`);
  return [
    `${result.scenario}: ${result.tools} fake plugin tools + core tools, target ${result.target}, provider ${result.providerMode}`,
    'first request: the figures of the first provider request; turn: every request of the episode, discovery included',
    line(header),
    ...rows.map(line),
    '',
    ...checks,
    '',
    result.ok ? 'all assertions passed' : 'ASSERTIONS FAILED',
  ].join('\n');
}

/** The `--json` shape: `{ lanes: [...], assertions: [...] }`. */
export function toJson(result: SuiteResult): { lanes: object[]; assertions: object[] } {
  return {
    lanes: result.lanes.map((l) => ({
      lane: l.lane,
      toolsDeclared: l.toolsDeclared,
      requestBytes: l.requestBytes,
      tokens: l.tokens,
      searches: l.searches,
      describes: l.describes,
      calls: l.calls,
      targetCalled: l.targetCalled,
      ratioToDirect: l.ratioToDirect,
      turn: l.turn,
    })),
    assertions: result.assertions.map((a) => ({ name: a.name, ok: a.ok, ...(a.detail ? { detail: a.detail } : {}) })),
  };
}
