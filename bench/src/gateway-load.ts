/**
 * Gateway under load (issue 22): many concurrent `direct`-mode requests, each
 * sending the whole catalog's schemas upstream (1.5 MB per provider request at
 * 1,000 tools). The gateway runs in a child process, the scripted provider in
 * this one, so the child's peak RSS is the gateway's alone. In-process when run
 * from sources (the CI smoke): the same code, a small plan, RSS shared.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { openaiUpstream, startGatewayServer } from '@tool-search/gateway';
import { startMockOpenAI } from '@tool-search/mock-openai';
import { createToolSearchKernel } from '@tool-search/preset';
import { round } from './stats.js';

export interface GatewayLoadPlan {
  readonly tools: number;
  readonly concurrent: number;
  readonly rounds: number;
}

export interface GatewayLoadResult extends GatewayLoadPlan {
  readonly requests: number;
  readonly failures: number;
  /** Bytes of one provider request body, in MB. */
  readonly providerBodyMb: number;
  readonly startRssMb: number;
  readonly peakRssMb: number;
  readonly endRssMb: number;
  readonly separateProcess: boolean;
  readonly seconds: number;
}

export const GATEWAY_LOAD_FULL: GatewayLoadPlan = { tools: 1000, concurrent: 50, rounds: 3 };
export const GATEWAY_LOAD_QUICK: GatewayLoadPlan = { tools: 36, concurrent: 5, rounds: 1 };
/** The gateway's peak RSS under the full plan stays under this (issue 22 measured 1.86 GB before). */
export const GATEWAY_PEAK_RSS_MB = 1024;

const CHILD_FLAG = 'gateway-load-child';
const here = fileURLToPath(import.meta.url);

export async function measureGatewayLoad(plan: GatewayLoadPlan): Promise<GatewayLoadResult> {
  const provider = await startMockOpenAI();
  try {
    if (!here.endsWith('.js')) return { ...(await drive(provider.url, plan)), separateProcess: false };
    const child = fork(here, [CHILD_FLAG, provider.url, JSON.stringify(plan)], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const result = await new Promise<Omit<GatewayLoadResult, 'separateProcess'>>((resolve, reject) => {
      child.once('message', (message) => resolve(message as Omit<GatewayLoadResult, 'separateProcess'>));
      child.once('exit', (code) => reject(new Error(`the gateway-load child exited with ${code}`)));
    });
    return { ...result, separateProcess: true };
  } finally {
    await provider.close();
  }
}

/** One gateway over the preset, `rounds` bursts of `concurrent` requests, each in its own session. */
async function drive(providerUrl: string, plan: GatewayLoadPlan): Promise<Omit<GatewayLoadResult, 'separateProcess'>> {
  const started = process.hrtime.bigint();
  const { kernel } = await createToolSearchKernel({ plugins: { 'fake-catalog': { tools: plan.tools, core: true } } });
  const gateway = await startGatewayServer({
    kernel,
    upstream: openaiUpstream(new OpenAI({ baseURL: providerUrl, apiKey: 'mock', maxRetries: 0 }), 'mock-model'),
    mode: 'direct',
    log: () => {},
  });
  const startRss = process.memoryUsage().rss;
  let peakRss = startRss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 5);
  const client = new OpenAI({ baseURL: gateway.url, apiKey: 'unused', maxRetries: 0 });
  let failures = 0;
  let bodyBytes = 0;
  try {
    for (let round = 0; round < plan.rounds; round++) {
      const answers = await Promise.allSettled(
        Array.from({ length: plan.concurrent }, (_, i) =>
          client.chat.completions.create(
            {
              model: 'mock-model',
              messages: [{ role: 'user', content: 'tool search qa check target=fake_plugin_tool_0003' }],
            },
            { headers: { 'x-session-id': `load-${round}-${i}` } },
          ),
        ),
      );
      for (const answer of answers) {
        if (answer.status === 'rejected') failures++;
        else
          bodyBytes =
            (answer.value as unknown as { tool_search: { ledger: { requests: { bytes: number }[] } } }).tool_search
              .ledger.requests[0]?.bytes ?? bodyBytes;
      }
    }
  } finally {
    clearInterval(sampler);
    await gateway.close();
    await kernel.close();
  }
  const mb = (bytes: number) => round(bytes / 2 ** 20, 1);
  return {
    ...plan,
    requests: plan.concurrent * plan.rounds,
    failures,
    providerBodyMb: round(bodyBytes / 2 ** 20, 2),
    startRssMb: mb(startRss),
    peakRssMb: mb(peakRss),
    endRssMb: mb(process.memoryUsage().rss),
    seconds: round(Number(process.hrtime.bigint() - started) / 1e9, 1),
  };
}

/** The BENCHMARKS.md section (numbered by the report). */
export function gatewayLoadSection(r: GatewayLoadResult, heading: string): string[] {
  return [
    heading,
    '',
    `${r.rounds} bursts of ${r.concurrent} concurrent \`direct\`-mode requests through the gateway's HTTP endpoint, ${r.tools} fake tools`,
    `(+ core tools), one session each; every provider request body is ${r.providerBodyMb} MB. RSS of the ${r.separateProcess ? 'gateway process alone (the provider runs in the parent)' : 'whole process (in-process run)'}, sampled every 5 ms.`,
    '',
    '| requests | failures | provider body | RSS at start | peak RSS | RSS at the end | time |',
    '|---|---|---|---|---|---|---|',
    `| ${r.requests} | ${r.failures} | ${r.providerBodyMb} MB | ${r.startRssMb} MB | **${r.peakRssMb} MB** | ${r.endRssMb} MB | ${r.seconds} s |`,
    '',
  ];
}

export function gatewayLoadTarget(r: GatewayLoadResult): { target: string; value: string; met?: boolean } {
  const full = r.tools >= GATEWAY_LOAD_FULL.tools && r.concurrent >= GATEWAY_LOAD_FULL.concurrent;
  return {
    target: `${GATEWAY_LOAD_FULL.concurrent} concurrent direct-mode requests at ${GATEWAY_LOAD_FULL.tools} tools: no failures, gateway peak RSS < ${GATEWAY_PEAK_RSS_MB} MB`,
    value: `${r.failures} failures of ${r.requests}, peak ${r.peakRssMb} MB${r.separateProcess ? '' : ' (in-process)'}`,
    ...(full ? { met: r.failures === 0 && r.peakRssMb < GATEWAY_PEAK_RSS_MB } : {}),
  };
}

if (process.argv[2] === CHILD_FLAG) {
  const result = await drive(process.argv[3]!, JSON.parse(process.argv[4]!) as GatewayLoadPlan);
  process.send?.(result, () => process.exit(0));
}
