/**
 * Issue 44 item 5, durable runs with LangChain: a LangGraph thread's loaded tools live in the state store under its
 * `thread_id` (the adapter's `conversationId`). A child process runs createAgent with the middleware against the mock
 * OpenAI model over HTTP: it searches, loads a tool, calls it, and exits (its in-memory checkpoint goes with it). A
 * second process continues the thread: the first model call is offered the tool, which is called without a search.
 * The store is a real `redis-server` named by the config's `state.redis`. The children run the built package (`dist`).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonSchema } from '@tool-search/kernel';
import { startMockOpenAI, type MockOpenAI } from '@tool-search/mock-openai';
import { redisServerAvailable, startRedisServer, type RedisServerHandle } from '@tool-search/testing';
import { createToolSearch } from '@tool-search/langchain';

const CHILD = fileURLToPath(new URL('./fixtures/resume-child.mjs', import.meta.url));
const BUILT = existsSync(fileURLToPath(new URL('../dist/index.js', import.meta.url)));
const haveRedis = redisServerAvailable();
if (!haveRedis)
  console.warn('skipping the LangChain resume tests: redis-server is not installed (apt-get install -y redis-server)');
if (!BUILT) console.warn('skipping the LangChain resume tests: packages/langchain/dist is not built (npm run build)');

const TARGET = 'fake_plugin_tool_0005';
type ChatBody = { tools?: { function: { name: string } }[] };

describe.skipIf(!haveRedis || !BUILT)('LangChain: a thread continued in a new process keeps its loaded tools', () => {
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

  async function runChild(thread: string) {
    const from = mock.requests.filter((r) => r.method === 'POST').length;
    const child = spawn(process.execPath, [CHILD], {
      env: { ...process.env, MOCK_URL: mock.url, REDIS_URL: redis.url, THREAD: thread, PROMPT: prompt },
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
    return { ...(JSON.parse(out.trim().split('\n').at(-1)!) as { text: string; calls: string[]; pid: number }), first };
  }

  it('the first process searches and loads the tool; the next one is offered it from its first model call', async () => {
    const one = await runChild('thread-1');
    expect(one.calls).toEqual(['tool_search', TARGET]);
    expect(one.first).not.toContain(TARGET);
    expect(one.text).toContain(`FAKE_TOOL_OK ${TARGET}`);

    const two = await runChild('thread-1');
    expect(two.pid).not.toBe(one.pid);
    expect(two.first).toContain(TARGET);
    expect(two.calls).toEqual([TARGET]);
    expect(two.text).toContain(`FAKE_TOOL_OK ${TARGET}`);

    const other = await runChild('thread-2');
    expect(other.calls).toEqual(['tool_search', TARGET]);
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
