/**
 * Exposure modes under load (issue 30): the same turns — find `fake_plugin_tool_0005` and call it — from N
 * concurrent sessions through one in-process gateway over a 1,000-tool catalog, in `direct`, `tools` and `code`
 * mode, code mode on each sandbox: a process per run (the default), a warm process pool sized to the sessions,
 * and the QuickJS worker backend. Turns/s and p99 per turn; the provider is the scripted mock in this process.
 */
import OpenAI from 'openai';
import type { ToolSearchConfig } from '@tool-search/config';
import { openaiUpstream, startGatewayServer } from '@tool-search/gateway';
import { startMockOpenAI } from '@tool-search/mock-openai';
import { createToolSearchKernel } from '@tool-search/preset';
import { median, msSince, percentile, round } from './stats.js';

export interface ModeLoadPlan {
  readonly tools: number;
  readonly sessions: number;
  readonly turns: number;
}

export const MODE_LOAD_FULL: ModeLoadPlan = { tools: 1000, sessions: 20, turns: 5 };
export const MODE_LOAD_QUICK: ModeLoadPlan = { tools: 36, sessions: 2, turns: 2 };

export interface ModeLoadRow {
  readonly setup: string;
  readonly mode: string;
  readonly turns: number;
  readonly errors: number;
  readonly turnsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

export interface ModeLoadResult {
  readonly plan: ModeLoadPlan;
  readonly rows: readonly ModeLoadRow[];
}

interface Setup {
  readonly setup: string;
  readonly mode: 'direct' | 'tools' | 'code';
  readonly toolSearch?: Record<string, unknown>;
}

const TARGET = 'fake_plugin_tool_0005';

export async function measureModeLoad(plan: ModeLoadPlan): Promise<ModeLoadResult> {
  const setups: Setup[] = [
    { setup: 'direct', mode: 'direct' },
    { setup: 'tools', mode: 'tools' },
    { setup: 'code, process per run', mode: 'code', toolSearch: { sandbox: 'process' } },
    { setup: `code, warm pool of ${plan.sessions}`, mode: 'code', toolSearch: { sandbox: 'process', warmPool: plan.sessions, maxConcurrent: plan.sessions } },
    { setup: 'code, QuickJS worker', mode: 'code', toolSearch: { sandbox: 'quickjs', maxConcurrent: plan.sessions } },
  ];
  const provider = await startMockOpenAI({ record: { maxRequests: 0 } });
  const rows: ModeLoadRow[] = [];
  try {
    for (const setup of setups) rows.push(await measureSetup(setup, plan, provider.url));
  } finally {
    await provider.close();
  }
  return { plan, rows };
}

async function measureSetup(setup: Setup, plan: ModeLoadPlan, providerUrl: string): Promise<ModeLoadRow> {
  const config: ToolSearchConfig = {
    plugins: { 'fake-catalog': { tools: plan.tools, core: true } },
    tools: { toolSearch: setup.mode === 'direct' ? false : ({ mode: setup.mode, ...setup.toolSearch } as ToolSearchConfig['tools'] extends { toolSearch?: infer T } ? Exclude<T, boolean | undefined> : never) },
  } as ToolSearchConfig;
  const { kernel } = await createToolSearchKernel(config);
  const gateway = await startGatewayServer({ kernel, upstream: openaiUpstream(new OpenAI({ baseURL: providerUrl, apiKey: 'mock', maxRetries: 0 }), 'mock-model'), mode: setup.mode, log: () => {}, countTokens: false });
  try {
    const client = new OpenAI({ baseURL: gateway.url, apiKey: 'unused', maxRetries: 0, timeout: 60_000 });
    await turn(client, 'warm', setup.mode);
    const latencies: number[] = [];
    let errors = 0;
    const started = process.hrtime.bigint();
    await Promise.all(
      Array.from({ length: plan.sessions }, async (_, session) => {
        for (let t = 0; t < plan.turns; t++) {
          const start = process.hrtime.bigint();
          const ok = await turn(client, `load-${session}`, setup.mode).catch(() => false);
          latencies.push(msSince(start));
          if (!ok) errors++;
        }
      }),
    );
    const seconds = msSince(started) / 1000;
    return {
      setup: setup.setup,
      mode: setup.mode,
      turns: latencies.length,
      errors,
      turnsPerSecond: round(latencies.length / seconds, 1),
      p50Ms: round(median(latencies), 1),
      p99Ms: round(percentile(latencies, 99), 1),
    };
  } finally {
    await gateway.close();
    await kernel.close();
  }
}

/** One turn; true when the answer quotes the tool's result and the gateway ran the mode it was given. */
async function turn(client: OpenAI, session: string, mode: string): Promise<boolean> {
  const completion = await client.chat.completions.create(
    { model: 'mock-model', messages: [{ role: 'user', content: `tool search qa check target=${TARGET}` }] },
    { headers: { 'x-session-id': session } },
  );
  const field = (completion as unknown as { tool_search?: { mode?: string } }).tool_search;
  return (completion.choices[0]?.message.content ?? '').includes('FAKE_TOOL_OK') && field?.mode === mode;
}

export function modeLoadSection(r: ModeLoadResult, heading: string): string[] {
  const tools = r.rows.find((row) => row.setup === 'tools');
  const best = [...r.rows].filter((row) => row.mode === 'code').sort((a, b) => b.turnsPerSecond - a.turnsPerSecond)[0];
  const ratio = tools && best ? round(best.turnsPerSecond / tools.turnsPerSecond, 2) : undefined;
  return [
    heading,
    '',
    `${r.plan.sessions} concurrent sessions × ${r.plan.turns} turns each over ${r.plan.tools} fake tools (every turn finds and calls one tool, then answers),`,
    'one in-process gateway, the scripted provider in the same process, all on the same cores.',
    '',
    '| setup | turns | errors | turns/s | p50 per turn | p99 per turn |',
    '|---|---|---|---|---|---|',
    ...r.rows.map((row) => `| ${row.setup} | ${row.turns} | ${row.errors} | ${row.turnsPerSecond} | ${row.p50Ms} ms | ${row.p99Ms} ms |`),
    '',
    ...(ratio !== undefined ? [`Fastest code setup (${best!.setup}) / tools mode: **${ratio}×** (goal ≥ 0.8×).`, ''] : []),
  ];
}
