/**
 * Issue 44 item 5, durable runs with the AI SDK: a conversation's loaded tools live in the state store under its
 * `conversationId`. A child process runs the AI SDK's generateText with the adapter (deferred mode) against the mock
 * OpenAI model over HTTP: it searches, loads a tool, calls it, and exits. A second process resumes the same
 * conversation: the tool is offered from the first request and called without a search. The store is a real
 * `redis-server` named by the config's `state.redis`. The children run the built package (`dist`), as a user would.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonSchema } from '@tool-search/kernel';
import { startMockOpenAI, type MockOpenAI } from '@tool-search/mock-openai';
import { redisServerAvailable, startRedisServer, type RedisServerHandle } from '@tool-search/testing';
import { createToolSearch } from '@tool-search/ai-sdk';

const CHILD = fileURLToPath(new URL('./fixtures/resume-child.mjs', import.meta.url));
const BUILT = existsSync(fileURLToPath(new URL('../dist/index.js', import.meta.url)));
const haveRedis = redisServerAvailable();
if (!haveRedis)
  console.warn('skipping the AI SDK resume tests: redis-server is not installed (apt-get install -y redis-server)');
if (!BUILT) console.warn('skipping the AI SDK resume tests: packages/ai-sdk/dist is not built (npm run build)');

const TARGET = 'fake_plugin_tool_0005';
type ChatBody = { tools?: { function: { name: string } }[] };
type Child = { text: string; calls: string[]; loaded: string[]; pid: number };

describe.skipIf(!haveRedis || !BUILT)('AI SDK: a conversation resumed in a new process keeps its loaded tools', () => {
  let mock: MockOpenAI;
  let redis: RedisServerHandle;
  let prompt: string;
  beforeAll(async () => {
    [mock, redis] = await Promise.all([startMockOpenAI(), startRedisServer()]);
    const direct = await createToolSearch({ config: { plugins: { 'fake-catalog': { tools: 30 } } }, mode: 'direct' });
    const schema = direct.run.tool(TARGET)!.inputSchema;
    await direct.close();
    prompt = `tool search qa check target=${TARGET} args=${JSON.stringify(argsFor(schema))}`;
  });
  afterAll(async () => {
    await mock?.close();
    await redis?.stop();
  });

  /** One process, one run of the conversation; what it printed and the tools of its first model request. */
  async function runChild(conversation: string, env: Record<string, string> = {}) {
    const from = mock.requests.filter((r) => r.method === 'POST').length;
    const child = spawn(process.execPath, [CHILD], {
      env: {
        ...process.env,
        MOCK_URL: mock.url,
        REDIS_URL: redis.url,
        CONVERSATION: conversation,
        PROMPT: prompt,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code, err).toBe(0);
    const bodies = mock.requests.filter((r) => r.method === 'POST').slice(from);
    const first = (bodies[0]!.body as ChatBody).tools?.map((t) => t.function.name) ?? [];
    return { ...(JSON.parse(out.trim().split('\n').at(-1)!) as Child), first };
  }

  it('the first process searches and loads the tool; the second offers it from the start and calls it directly', async () => {
    const one = await runChild('conv-resume-1');
    expect(one.calls).toEqual(['tool_search', TARGET]);
    expect(one.first).not.toContain(TARGET);
    expect(one.text).toContain(`FAKE_TOOL_OK ${TARGET}`);

    const two = await runChild('conv-resume-1');
    expect(two.pid).not.toBe(one.pid);
    expect(two.loaded).toContain(TARGET);
    expect(two.first).toContain(TARGET);
    expect(two.calls).toEqual([TARGET]);
    expect(two.text).toContain(`FAKE_TOOL_OK ${TARGET}`);

    // Another conversation starts from nothing.
    const other = await runChild('conv-resume-2');
    expect(other.calls).toEqual(['tool_search', TARGET]);
  }, 120_000);

  it('a tool the policy denies now is not offered, though the conversation loaded it', async () => {
    await runChild('conv-resume-3');
    const denied = await runChild('conv-resume-3', { DENY: `plugin:fake-catalog:${TARGET}` });
    expect(denied.loaded).not.toContain(TARGET);
    expect(denied.first).not.toContain(TARGET);
    expect(denied.calls).not.toContain(TARGET);
  }, 120_000);
});

/** Arguments the schema accepts: each required property with a value of its type. */
function argsFor(schema: JsonSchema): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, { type?: string; enum?: unknown[] }>;
  const sample = (p: { type?: string; enum?: unknown[] }) =>
    p.enum?.[0] ??
    ({ number: 1, integer: 1, boolean: true, array: [], object: {} } as Record<string, unknown>)[p.type ?? ''] ??
    'x';
  return Object.fromEntries(((schema.required ?? []) as string[]).map((key) => [key, sample(properties[key] ?? {})]));
}
