import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Run } from '@tool-search/kernel';
import { runCode, SANDBOX_KINDS } from '../src/index.js';
import { blockPlugin, denyPlugin, fakeSourcePlugin, fakeTools, makeRun, pidTracker } from './fixtures.js';

const tracker = pidTracker();
const base = { codeTimeoutMs: 5000, onSpawn: tracker.onSpawn };
let run: Run;
let close: () => Promise<void>;

beforeAll(async () => {
  const tools = [
    ...fakeTools(),
    { name: 'client_picker', description: 'Fake client tool: pick a color.', source: 'client' as const },
  ];
  ({ run, close } = await makeRun([fakeSourcePlugin(tools), blockPlugin(['order_pizza_delivery'])]));
});
afterAll(async () => {
  await close();
  expect(tracker.alive()).toEqual([]);
});

describe.each(SANDBOX_KINDS)('runCode on the %s backend', (sandbox) => {
  const options = { ...base, sandbox };

  it('searches, calls a fake tool and returns the value', async () => {
    const result = await runCode(
      run,
      `const hits = await openclaw.tools.search('weather forecast');
       const r = await openclaw.tools.call(hits[0].id, { q: 'Oslo' });
       console.log('called', hits[0].name);
       return { isArray: Array.isArray(hits), truncated: hits.truncated, query: hits.query, text: r.content[0].text };`,
      options,
    );
    expect(result).toMatchObject({
      ok: true,
      value: {
        isArray: true,
        truncated: false,
        query: 'weather forecast',
        text: 'FAKE_TOOL_OK weather_forecast_city {"q":"Oslo"}',
      },
    });
    expect(result.logs).toEqual([{ level: 'log', text: 'called weather_forecast_city' }]);
    expect(result.telemetry).toMatchObject({
      searches: 1,
      calls: 1,
      describes: 0,
      cut: { logs: false, result: false, calls: false },
    });
  });

  it('exposes exactly the documented console.log/warn/error: no console.info or other methods', async () => {
    const result = await runCode(
      run,
      `console.log('l'); console.warn('w'); console.error('e');
       return { keys: Object.keys(console).sort(), info: typeof console.info, debug: typeof console.debug, table: typeof console.table };`,
      options,
    );
    expect(result).toMatchObject({
      ok: true,
      value: { keys: ['error', 'log', 'warn'], info: 'undefined', debug: 'undefined', table: 'undefined' },
    });
    expect(result.logs).toEqual([
      { level: 'log', text: 'l' },
      { level: 'warn', text: 'w' },
      { level: 'error', text: 'e' },
    ]);
  });

  it('describes a tool with its exact input schema', async () => {
    const result = await runCode(run, `return await openclaw.tools.describe('core:core:send_email_message');`, options);
    expect(result).toMatchObject({
      ok: true,
      value: { id: 'core:core:send_email_message', inputSchema: { type: 'object' } },
    });
  });

  it("runs the documents' headline example verbatim: search returns an array, describe then call", async () => {
    const result = await runCode(
      run,
      `const hits = await openclaw.tools.search("create a GitHub issue");
const tool = await openclaw.tools.describe(hits[0].id);
return await openclaw.tools.call(tool.id, {
  title: "Crash on startup",
  body: "Steps to reproduce...",
});`,
      options,
    );
    expect(result).toMatchObject({
      ok: true,
      value: {
        content: [
          {
            type: 'text',
            text: 'FAKE_TOOL_OK create_github_issue {"title":"Crash on startup","body":"Steps to reproduce..."}',
          },
        ],
      },
    });
    expect(result.telemetry).toMatchObject({ searches: 1, describes: 1, calls: 1 });
  });

  it('marks a search cut by its limit as truncated on the array', async () => {
    const result = await runCode(
      run,
      `const hits = await openclaw.tools.search('message', { limit: 1 }); return [hits.length, hits.truncated];`,
      options,
    );
    expect(result).toMatchObject({ ok: true, value: [1, true] });
  });

  it('rejects a call blocked by beforeToolCall with TOOL_CALL_BLOCKED and the reason', async () => {
    const result = await runCode(
      run,
      `try { await openclaw.tools.call('order_pizza_delivery', {}); } catch (e) { return { code: e.code, reason: e.details.reason }; }`,
      options,
    );
    expect(result).toMatchObject({
      ok: true,
      value: { code: 'TOOL_CALL_BLOCKED', reason: 'blocked by test: order_pizza_delivery' },
    });
  });

  it('refuses a client tool with a coded error when the front end cannot hand it back', async () => {
    const result = await runCode(
      run,
      `try { const r = await openclaw.tools.call('client_picker', {}); return r.error?.code ?? r.status; } catch (e) { return e.code; }`,
      options,
    );
    expect(result).toMatchObject({ ok: true, value: 'CLIENT_TOOL_NOT_EXECUTABLE' });
  });

  it('reports invalid arguments as a coded error in the code', async () => {
    const result = await runCode(
      run,
      `try { await openclaw.tools.call('weather_forecast_city', { q: 5 }); } catch (e) { return e.code; }`,
      options,
    );
    expect(result).toMatchObject({ ok: true, value: 'TOOL_ARGUMENTS_INVALID' });
  });

  it('reports an uncaught error as CODE_FAILED with its cause', async () => {
    const result = await runCode(run, `await openclaw.tools.call('no_such_tool', {});`, options);
    expect(result).toMatchObject({ ok: false, error: { code: 'CODE_FAILED', cause: { code: 'UNKNOWN_TOOL' } } });
  });

  it('reports a syntax error as CODE_INVALID at the line and column of the user code', async () => {
    const result = await runCode(run, `const a = 1;\nreturn (;`, options);
    expect(result).toMatchObject({ ok: false, error: { code: 'CODE_INVALID', location: { line: 2, column: 9 } } });
    expect(result.ok ? '' : result.error.message).toContain('line 2, column 9');
    expect(result.ok ? '' : result.error.message).not.toMatch(/async function|\(\d+:\d+\)/);
  });

  it('reports code that ends too early on its own last line, never on the wrapper', async () => {
    const result = await runCode(run, `const a = [1,\n  2,`, options);
    expect(result).toMatchObject({ ok: false, error: { code: 'CODE_INVALID', location: { line: 2 } } });
  });

  it('refuses empty code', async () => {
    const result = await runCode(run, '   ', options);
    expect(result).toMatchObject({ ok: false, error: { code: 'CODE_INVALID' } });
  });

  it('lets the code redeclare openclaw', async () => {
    const result = await runCode(
      run,
      `const openclaw = globalThis.openclaw; return Object.keys(openclaw.tools);`,
      options,
    );
    expect(result).toMatchObject({ ok: true, value: ['search', 'describe', 'call'] });
  });

  it('runs batch searches', async () => {
    const result = await runCode(
      run,
      `const r = await openclaw.tools.search(['email message', 'weather'], { limit: 1 });
       return { lists: r.length, queries: r.map((hits) => hits.query), sizes: r.map((hits) => hits.length), truncated: r.truncated };`,
      options,
    );
    expect(result).toMatchObject({
      ok: true,
      value: { lists: 2, queries: ['email message', 'weather'], sizes: [1, 1], truncated: true },
      telemetry: { searches: 1 },
    });
  });

  it('fuses several phrasings of one need into one ranked list (fuse: true)', async () => {
    const result = await runCode(
      run,
      `const hits = await openclaw.tools.search(['weather forecast', 'is it going to rain in the city'], { limit: 3, fuse: true });
       return { isArray: Array.isArray(hits), nested: Array.isArray(hits[0]), query: hits.query, first: hits[0].name, size: hits.length };`,
      options,
    );
    expect(result).toMatchObject({
      ok: true,
      value: {
        isArray: true,
        nested: false,
        query: 'weather forecast | is it going to rain in the city',
        first: 'weather_forecast_city',
      },
      telemetry: { searches: 1 },
    });
    expect((result as { value: { size: number } }).value.size).toBeLessThanOrEqual(3);
  });

  it('delivers a bridge reply longer than one read of the child, multi-byte text intact', async () => {
    const result = await runCode(
      run,
      `const q = 'é😀'.repeat(40000);
       const r = await openclaw.tools.call('weather_forecast_city', { q });
       return r.content[0].text === 'FAKE_TOOL_OK weather_forecast_city ' + JSON.stringify({ q });`,
      { ...options, limits: { maxResultBytes: 400_000 } },
    );
    expect(result).toMatchObject({ ok: true, value: true });
  });

  it('emits search and describe events with origin code', async () => {
    const events: unknown[] = [];
    const { run: observed, close: closeObserved } = await makeRun([
      fakeSourcePlugin(),
      { name: 'observer', apply: ({ hooks }) => hooks.runEvent.tap((event) => void events.push(event)) },
    ]);
    await runCode(
      observed,
      `await openclaw.tools.search('email'); await openclaw.tools.describe('send_email_message');`,
      options,
    );
    await closeObserved();
    expect(events).toContainEqual(expect.objectContaining({ type: 'search', queries: ['email'], origin: 'code' }));
    // Search-quality telemetry: the ranker and, per query, its hit ids and weak flag.
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'search',
        ranker: { id: 'bm25f', version: '4' },
        results: [
          expect.objectContaining({ query: 'email', weak: false, hits: expect.arrayContaining([expect.any(String)]) }),
        ],
      }),
    );
    expect(events).toContainEqual({
      type: 'describe',
      toolId: 'core:core:send_email_message',
      requested: 'send_email_message',
      origin: 'code',
    });
  });

  it('does not search or describe a tool dropped by policy', async () => {
    const { run: narrowed, close: closeNarrowed } = await makeRun([
      fakeSourcePlugin(),
      denyPlugin(['send_email_message']),
    ]);
    const result = await runCode(
      narrowed,
      `const r = await openclaw.tools.search('send email message', { limit: 20 });
       let described; try { await openclaw.tools.describe('core:core:send_email_message'); described = 'yes'; } catch (e) { described = e.code; }
       return { ids: r.map((h) => h.id), described };`,
      options,
    );
    await closeNarrowed();
    expect(result.ok).toBe(true);
    const value = (result as { value: { ids: string[]; described: string } }).value;
    expect(value.ids).not.toContain('core:core:send_email_message');
    expect(value.described).toBe('UNKNOWN_TOOL');
  });
});
