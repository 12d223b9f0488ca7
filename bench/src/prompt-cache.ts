/**
 * Prompt-cache telemetry by mode (issue 44): a conversation of several turns per mode through the gateway (in
 * process) to the mock OpenAI provider, over Chat Completions and Responses, read back from each turn's ledger
 * (`tool_search.ledger.prompt_cache`): how many request bytes repeated the start of the session's request before (in
 * the provider's cache order, whole 256-byte blocks), how much of each turn's first request repeated the previous
 * turn's, and the cached input tokens the provider reported (the mock caches as OpenAI documents: 1,024-token minimum,
 * 128-token steps). Run alone: `npm run bench:prompt-cache -w @tool-search/bench` after a build.
 */
import { pathToFileURL } from 'node:url';
import OpenAI from 'openai';
import type { ToolSearchConfig } from '@tool-search/config';
import {
  openaiResponsesUpstream,
  openaiUpstream,
  startGatewayServer,
  type TurnLedger,
  type Upstream,
} from '@tool-search/gateway';
import { startMockOpenAI } from '@tool-search/mock-openai';
import { createToolSearchKernel } from '@tool-search/preset';

export const PROMPT_CACHE_MODES = ['direct', 'tools', 'native', 'directory', 'code'] as const;
export const PROMPT_CACHE_WIRES = ['chat', 'responses'] as const;
type Wire = (typeof PROMPT_CACHE_WIRES)[number];

export interface PromptCacheRow {
  readonly wire: Wire;
  /** The mode asked for, and the mode the gateway ran (native falls back to tools where the upstream cannot load). */
  readonly mode: string;
  readonly ran: string;
  readonly turns: number;
  readonly requests: number;
  readonly bytes: number;
  /** Bytes that repeated the start of the session's previous request, over all requests. */
  readonly prefixBytes: number;
  /** Of turns 2+: their first request's bytes, and the part that repeated the previous turn's last request. */
  readonly laterFirstBytes: number;
  readonly previousTurnPrefixBytes: number;
  readonly inputTokens: number;
  readonly cachedTokens: number;
  /** Why the mode could not be measured (a turn failed). */
  readonly failed?: string;
}

const TARGETS = [5, 11, 17, 23, 29, 35].map((n) => `fake_plugin_tool_${String(n).padStart(4, '0')}`);

/** `turns` turns per mode and wire format over a catalog of `tools` fake tools. */
export async function measurePromptCache(
  turns = 5,
  tools = 60,
  modes: readonly string[] = PROMPT_CACHE_MODES,
  wires: readonly Wire[] = PROMPT_CACHE_WIRES,
): Promise<PromptCacheRow[]> {
  const rows: PromptCacheRow[] = [];
  for (const wire of wires) for (const mode of modes) rows.push(await measureMode(wire, mode, turns, tools));
  return rows;
}

/** A provider of its own per mode: its cache holds only this mode's prompts (modes sending the same bytes would share). */
async function measureMode(wire: Wire, mode: string, turns: number, tools: number): Promise<PromptCacheRow> {
  const provider = await startMockOpenAI({ record: { maxRequests: 0 } });
  try {
    return await measureWith(provider.url, wire, mode, turns, tools);
  } finally {
    await provider.close();
  }
}

async function measureWith(url: string, wire: Wire, mode: string, turns: number, tools: number) {
  const config = {
    plugins: { 'fake-catalog': { tools, core: true } },
    tools: { toolSearch: mode === 'direct' ? false : { mode } },
  } as ToolSearchConfig;
  const { kernel } = await createToolSearchKernel(config);
  const client = new OpenAI({ baseURL: url, apiKey: 'mock', maxRetries: 0 });
  const upstream: Upstream =
    wire === 'chat' ? openaiUpstream(client, 'mock-model') : openaiResponsesUpstream(client, 'mock-model');
  const gateway = await startGatewayServer({ kernel, upstream, mode, log: () => {}, countTokens: false });
  try {
    const caller = new OpenAI({ baseURL: gateway.url, apiKey: 'unused', maxRetries: 0, timeout: 60_000 });
    return await conversation(caller, wire, mode, turns);
  } finally {
    await gateway.close();
    await kernel.close();
  }
}

/** One session of `turns` turns, the client keeping its history as a chat client does. */
async function conversation(client: OpenAI, wire: Wire, mode: string, turns: number): Promise<PromptCacheRow> {
  const history: { role: 'user' | 'assistant'; content: string }[] = [];
  const ledgers: TurnLedger[] = [];
  let ran = mode;
  const session = `prompt-cache-${wire}-${mode}`;
  try {
    for (let i = 0; i < turns; i++) {
      history.push({ role: 'user', content: `tool search qa check target=${TARGETS[i % TARGETS.length]}` });
      const answer = await client.chat.completions.create(
        { model: 'mock-model', messages: history },
        { headers: { 'x-session-id': session } },
      );
      const field = (answer as unknown as { tool_search: { mode: string; ledger: TurnLedger } }).tool_search;
      ran = field.mode;
      ledgers.push(field.ledger);
      history.push({ role: 'assistant', content: answer.choices[0]?.message.content ?? '' });
    }
  } catch (error) {
    return { ...sum(wire, mode, ran, ledgers), failed: error instanceof Error ? error.message : String(error) };
  }
  return sum(wire, mode, ran, ledgers);
}

function sum(wire: Wire, mode: string, ran: string, ledgers: readonly TurnLedger[]): PromptCacheRow {
  const reports = ledgers.flatMap((ledger) => (ledger.prompt_cache ? [ledger.prompt_cache] : []));
  const total = (pick: (index: number) => number) => ledgers.reduce((sum, _, index) => sum + pick(index), 0);
  return {
    wire,
    mode,
    ran,
    turns: ledgers.length,
    requests: total((i) => ledgers[i]!.requests.length),
    bytes: total((i) => reports[i]?.bytes ?? 0),
    prefixBytes: total((i) => reports[i]?.prefix_bytes ?? 0),
    laterFirstBytes: total((i) => (i > 0 ? (ledgers[i]!.requests[0]?.bytes ?? 0) : 0)),
    previousTurnPrefixBytes: total((i) => reports[i]?.previous_turn_prefix_bytes ?? 0),
    inputTokens: total((i) => reports[i]?.input_tokens ?? 0),
    cachedTokens: total((i) => reports[i]?.cached_tokens ?? 0),
  };
}

const percent = (part: number, whole: number) => (whole > 0 ? `${((100 * part) / whole).toFixed(1)} %` : '–');

/** The rows as a Markdown table. */
export function promptCacheTable(rows: readonly PromptCacheRow[]): string[] {
  return [
    '| wire | mode (ran) | turns | requests | bytes sent | identical-prefix bytes | turns 2+: first request repeating the previous turn | input tokens | cached tokens |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map((row) =>
      [
        row.wire,
        row.ran === row.mode ? row.mode : `${row.mode} (${row.ran})`,
        row.turns,
        row.requests,
        row.bytes,
        `${row.prefixBytes} (${percent(row.prefixBytes, row.bytes)})`,
        `${row.previousTurnPrefixBytes} of ${row.laterFirstBytes} (${percent(row.previousTurnPrefixBytes, row.laterFirstBytes)})`,
        row.inputTokens,
        `${row.cachedTokens} (${percent(row.cachedTokens, row.inputTokens)})${row.failed ? ` — failed: ${row.failed}` : ''}`,
      ]
        .join(' | ')
        .replace(/^/, '| ')
        .concat(' |'),
    ),
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await measurePromptCache();
  process.stdout.write(`${promptCacheTable(rows).join('\n')}\n`);
}
