import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, type Kernel } from '@tool-search/kernel';
import { commonPrefix, startMockOpenAI, type MockOpenAI } from '@tool-search/mock-openai';
import { startMockAnthropic, type MockAnthropic } from '@tool-search/mock-anthropic';
import { fakeCatalogPlugin } from '@tool-search/plugin-fake-catalog';
import { toolsModePlugin } from '@tool-search/mode-tools';
import { readSessionLog, sessionFileName, telemetryPlugin } from '@tool-search/telemetry';
import {
  anthropicUpstream,
  openaiResponsesUpstream,
  openaiUpstream,
  PREFIX_BLOCK,
  PrefixCache,
  startGatewayServer,
  type GatewayServer,
  type TurnLedger,
} from '@tool-search/gateway';

// The OpenAI mock caches as OpenAI documents (automatic, 1,024-token minimum, 128-token steps); the Anthropic mock too,
// in its default mode: only requests with `cache_control`, which the gateway sends (cache-breakpoints.ts).
let openai: MockOpenAI;
let anthropic: MockAnthropic;
const kernels: Kernel[] = [];
const servers: GatewayServer[] = [];
beforeAll(async () => {
  openai = await startMockOpenAI();
  anthropic = await startMockAnthropic();
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await Promise.all(kernels.map((kernel) => kernel.close()));
  await openai.close();
  await anthropic.close();
});

/** `responses`: the OpenAI Responses upstream, on the same mock. */
type Kind = 'openai' | 'anthropic' | 'responses';
type Field = { ledger: TurnLedger; session_id: string };
const ask = (target: string) => `tool search qa check target=${target}`;

async function gateway(kind: Kind, mode: string, logDir: string) {
  const kernel = createKernel({
    plugins: [
      fakeCatalogPlugin({ tools: 36, core: true }),
      toolsModePlugin(),
      telemetryPlugin({ sessionLog: { dir: logDir }, tokenizer: false }),
    ],
  });
  kernels.push(kernel);
  const toOpenAI = new OpenAI({ baseURL: openai.url, apiKey: 'mock', maxRetries: 0 });
  const upstream =
    kind === 'openai'
      ? openaiUpstream(toOpenAI, 'mock-model')
      : kind === 'responses'
        ? openaiResponsesUpstream(toOpenAI, 'mock-model')
        : anthropicUpstream(new Anthropic({ baseURL: anthropic.url, apiKey: 'mock', maxRetries: 0 }), 'mock-claude');
  const server = await startGatewayServer({ kernel, upstream, mode, log: () => undefined, countTokens: false });
  servers.push(server);
  return server;
}

/** One conversation of `targets.length` turns through the official client of `kind`, as a client keeps its history. */
async function conversation(kind: Kind, mode: string, session: string, targets: readonly string[]) {
  const logDir = mkdtempSync(join(tmpdir(), 'gateway-prompt-cache-'));
  const server = await gateway(kind, mode, logDir);
  const mock = kind === 'anthropic' ? anthropic : openai;
  const headers = { 'x-session-id': session };
  const history: { role: 'user' | 'assistant'; content: string }[] = [];
  const turns: { field: Field; raw: string[] }[] = [];
  for (const target of targets) {
    history.push({ role: 'user', content: ask(target) });
    const from = mock.requests.length;
    let text: string;
    let field: Field;
    if (kind !== 'anthropic') {
      const client = new OpenAI({ baseURL: server.url, apiKey: 'none', maxRetries: 0 });
      const answer = await client.chat.completions.create({ model: 'm', messages: history }, { headers });
      text = answer.choices[0]!.message.content ?? '';
      field = (answer as unknown as { tool_search: Field }).tool_search;
    } else {
      const client = new Anthropic({ baseURL: server.url.replace(/\/v1$/, ''), apiKey: 'none', maxRetries: 0 });
      const answer = await client.messages.create({ model: 'm', max_tokens: 512, messages: history }, { headers });
      text = answer.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
      field = (answer as unknown as { tool_search: Field }).tool_search;
    }
    history.push({ role: 'assistant', content: text });
    const raw = mock.requests.slice(from).flatMap((r) => (r.method === 'POST' ? [r.raw] : []));
    turns.push({ field, raw });
  }
  return { turns, log: () => readSessionLog(join(logDir, sessionFileName(session))) };
}

const TARGETS = ['fake_plugin_tool_0005', 'fake_plugin_tool_0011', 'fake_plugin_tool_0017', 'fake_plugin_tool_0023'];
const byteOffset = (text: string, units: number) => Buffer.byteLength(text.slice(0, units));
/** A body as providers cache it: its tools first (the gateway splices them in as `,"tools":…`), then the rest. */
const cacheOrder = (raw: string) => {
  const tools = `,"tools":${JSON.stringify((JSON.parse(raw) as { tools?: unknown }).tools)}`;
  const at = raw.lastIndexOf(tools);
  return at < 0 ? raw : tools.slice(9) + raw.slice(0, at) + raw.slice(at + tools.length);
};
const blocks = (bytes: number) => Math.floor(bytes / PREFIX_BLOCK) * PREFIX_BLOCK;

describe.each(['openai', 'responses', 'anthropic'] as const)(
  'prompt-cache telemetry (%s upstream, official SDKs)',
  (kind) => {
    it('direct mode: the identical prefix with the previous turn grows turn by turn, and the provider says it cached', async () => {
      const { turns, log } = await conversation(kind, 'direct', `prompt-cache-${kind}`, TARGETS);
      const reports = turns.map((turn) => turn.field.ledger.prompt_cache!);
      expect(reports.map((report) => report.provider)).toEqual(
        TARGETS.map(() => (kind === 'anthropic' ? kind : 'openai')),
      );
      expect(reports[0]!.previous_turn_prefix_bytes).toBe(0);
      for (let i = 1; i < turns.length; i++) {
        // The exact bytes the mock received: the first request against the previous turn's last, in whole blocks.
        const before = cacheOrder(turns[i - 1]!.raw.at(-1)!);
        const now = cacheOrder(turns[i]!.raw[0]!);
        expect(reports[i]!.previous_turn_prefix_bytes, `turn ${i + 1}`).toBe(
          blocks(byteOffset(now, commonPrefix(before, now))),
        );
        // The stable tools, system text and the conversation up to the previous turn's question (its tool calls are not
        // in the client's history): more each turn.
        expect(reports[i]!.previous_turn_prefix_bytes).toBeGreaterThan(reports[i - 1]!.previous_turn_prefix_bytes);
      }
      for (const [i, { field, raw }] of turns.entries()) {
        const report = field.ledger.prompt_cache!;
        expect(report.bytes).toBe(raw.reduce((sum, body) => sum + Buffer.byteLength(body), 0));
        const views = [...(i > 0 ? [turns[i - 1]!.raw.at(-1)!] : []), ...raw].map(cacheOrder);
        const shared = views.slice(1).map((view, j) => blocks(byteOffset(view, commonPrefix(views[j]!, view))));
        expect(report.prefix_bytes).toBe(shared.reduce((sum, bytes) => sum + bytes, 0));
        // Every later request of a turn repeats at least the earlier body's tools, system text and conversation.
        expect(report.prefix_bytes - report.previous_turn_prefix_bytes).toBeGreaterThanOrEqual(
          blocks(field.ledger.total.prefix_bytes),
        );
        const rows = field.ledger.requests;
        expect(rows.every((row) => row.provider_tokens?.cached !== undefined)).toBe(true);
        expect(report.cached_tokens).toBe(rows.reduce((sum, row) => sum + row.provider_tokens!.cached!, 0));
        expect(report.input_tokens).toBe(rows.reduce((sum, row) => sum + row.provider_tokens!.input, 0));
        if (kind !== 'anthropic') {
          for (const row of rows) expect(row.provider_tokens!.cached! % 128).toBe(0);
          expect(report.cache_write_tokens).toBeUndefined();
        } else {
          expect(report.cache_write_tokens).toBe(rows.reduce((sum, row) => sum + row.provider_tokens!.cache_write!, 0));
        }
        // Every turn's later requests, and every turn after the first, find the earlier prompt in the cache.
        if (i > 0) expect(rows[0]!.provider_tokens!.cached).toBeGreaterThan(0);
        expect(rows.slice(1).every((row) => row.provider_tokens!.cached! > 0)).toBe(true);
      }
      const firsts = turns.map((turn) => turn.field.ledger.requests[0]!.provider_tokens!.cached!);
      for (let i = 2; i < firsts.length; i++) expect(firsts[i]).toBeGreaterThanOrEqual(firsts[i - 1]!);

      const entries = await log();
      const ledgers = entries.flatMap((entry) =>
        entry.type === 'event' && (entry as { event: string }).event === 'turn-ledger'
          ? [(entry as unknown as { data: { ledger: TurnLedger } }).data.ledger]
          : [],
      );
      expect(ledgers.map((ledger) => ledger.prompt_cache)).toEqual(reports);
    });

    it('a new session starts with no previous turn, whatever another session sent', async () => {
      const { turns } = await conversation(kind, 'direct', `prompt-cache-other-${kind}`, TARGETS.slice(0, 1));
      expect(turns[0]!.field.ledger.prompt_cache!.previous_turn_prefix_bytes).toBe(0);
    });
  },
);

describe('PrefixCache: bounded per-session memory of the previous request', () => {
  const body = (text: string, size: number) => text.repeat(Math.ceil(size / text.length)).slice(0, size);

  it('counts whole identical blocks, and stops at the first block that differs', () => {
    const cache = new PrefixCache();
    const first = body('a', 10 * PREFIX_BLOCK + 17);
    expect(cache.compare('s', first)).toBe(0);
    expect(cache.compare('s', first)).toBe(10 * PREFIX_BLOCK);
    const changed = `${first.slice(0, 3 * PREFIX_BLOCK + 5)}X${first.slice(3 * PREFIX_BLOCK + 6)}`;
    expect(cache.compare('s', changed)).toBe(3 * PREFIX_BLOCK);
    // A multi-byte character counts in bytes.
    expect(cache.compare('s', `é${changed}`)).toBe(0);
    expect(cache.compare('other', changed)).toBe(0);
  });

  it('forgets the least recently used session past its limits, and compares only the first `blocks` blocks', () => {
    const cache = new PrefixCache({ sessions: 2, blocks: 4, totalBlocks: 8 });
    const long = body('xyz', 100 * PREFIX_BLOCK);
    cache.compare('a', long);
    cache.compare('b', long);
    expect(cache.compare('a', long)).toBe(4 * PREFIX_BLOCK);
    cache.compare('c', long); // evicts b, the least recently used
    expect(cache.compare('b', long)).toBe(0);
    expect(cache.compare('c', long)).toBe(4 * PREFIX_BLOCK);
  });
});
