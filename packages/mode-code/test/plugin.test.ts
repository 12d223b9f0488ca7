import { afterEach, describe, expect, it } from 'vitest';
import { createKernel, type KernelPlugin } from '@tool-search/kernel';
import { providerExposure } from '@tool-search/provider-formats';
import { CODE_MODE_SYSTEM, CODE_TOOL_NAME, codeModePlugin, sandboxesExited, type CodeResult } from '../src/index.js';
import { fakeSourcePlugin, fakeTools, makeRun, pidTracker, slowToolPlugin } from './fixtures.js';

const tracker = pidTracker();
const closers: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
  expect(tracker.alive()).toEqual([]);
});

async function codeRun(plugins: KernelPlugin[], options: Parameters<typeof codeModePlugin>[0] = {}) {
  const harness = await makeRun([
    ...plugins,
    codeModePlugin({ codeTimeoutMs: 5000, onSpawn: tracker.onSpawn, ...options }),
  ]);
  closers.push(harness.close);
  return harness;
}

function resultOf(outcome: { status: string; result?: { structuredContent?: unknown } }): CodeResult {
  expect(outcome.status).toBe('ok');
  return outcome.result!.structuredContent as CodeResult;
}

describe('codeModePlugin', () => {
  it('exposes only tool_search_code and its system text', async () => {
    const { run } = await codeRun([fakeSourcePlugin()]);
    const exposure = await run.exposure('code');
    expect(exposure.tools.map((tool) => [tool.name, tool.kind])).toEqual([[CODE_TOOL_NAME, 'control']]);
    expect(exposure.system).toContain(CODE_MODE_SYSTEM);
  });

  it('keeps the exposure byte-for-byte the same size for 36 and 1,000 tools', async () => {
    const small = providerExposure(await (await codeRun([fakeSourcePlugin(fakeTools(36))])).run.exposure('code'));
    const large = providerExposure(await (await codeRun([fakeSourcePlugin(fakeTools(1000))])).run.exposure('code'));
    const size = (exposure: typeof small) =>
      Buffer.byteLength(JSON.stringify({ tools: exposure.toOpenAI(), system: exposure.system }), 'utf8');
    expect(size(large)).toBe(size(small));
    expect(Buffer.byteLength(JSON.stringify(large.toAnthropic()))).toBe(
      Buffer.byteLength(JSON.stringify(small.toAnthropic())),
    );
  });

  it('runs code through the exposure: search, call, return', async () => {
    const { run } = await codeRun([fakeSourcePlugin()]);
    const exposure = await run.exposure('code');
    const outcome = await exposure.call(CODE_TOOL_NAME, {
      code: `const hits = await openclaw.tools.search('currency'); return (await openclaw.tools.call(hits[0].id, { n: 3 })).content[0].text;`,
    });
    expect(resultOf(outcome)).toMatchObject({ ok: true, value: 'FAKE_TOOL_OK convert_currency_amount {"n":3}' });
  });

  it('is not a catalog tool: calling tool_search_code by name through the run fails', async () => {
    const { run } = await codeRun([fakeSourcePlugin()]);
    await expect(run.call(CODE_TOOL_NAME, { code: 'return 1' }, { origin: 'api' })).rejects.toMatchObject({
      code: 'UNKNOWN_TOOL',
    });
  });

  it('aborts via the signal: the child is killed and the bridge call in flight is cancelled', async () => {
    const state = { started: 0, aborted: 0 };
    const { run } = await codeRun([fakeSourcePlugin(), slowToolPlugin(state)]);
    const exposure = await run.exposure('code');
    const controller = new AbortController();
    const pending = exposure.call(
      CODE_TOOL_NAME,
      { code: `return await openclaw.tools.call('slow_tool', {});` },
      { signal: controller.signal },
    );
    while (state.started === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    expect(resultOf(await pending)).toMatchObject({ ok: false, error: { code: 'CODE_ABORTED' } });
    expect(state.aborted).toBe(1);
    await sandboxesExited();
    expect(tracker.alive()).toEqual([]);
  });

  it('aborts when the run closes', async () => {
    const state = { started: 0, aborted: 0 };
    const { run } = await codeRun([fakeSourcePlugin(), slowToolPlugin(state)]);
    const exposure = await run.exposure('code');
    const pending = exposure
      .call(CODE_TOOL_NAME, { code: `return await openclaw.tools.call('slow_tool', {});` })
      .catch((error: unknown) => error);
    while (state.started === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    await run.close();
    const outcome = (await pending) as { status?: string; result?: { structuredContent?: unknown } };
    expect(outcome.result?.structuredContent).toMatchObject({ ok: false, error: { code: 'CODE_ABORTED' } });
  });

  it('uses each warm child for one run only: no state passes between runs', async () => {
    const local = pidTracker();
    const { run } = await codeRun([fakeSourcePlugin()], { warmPool: 1, onSpawn: local.onSpawn });
    const exposure = await run.exposure('code');
    const first = resultOf(
      await exposure.call(CODE_TOOL_NAME, {
        code: `globalThis.shared = 'from run 1'; Object.prototype.marker = 1; return 'set';`,
      }),
    );
    const second = resultOf(
      await exposure.call(CODE_TOOL_NAME, { code: `return [typeof globalThis.shared, typeof ({}).marker];` }),
    );
    expect(first).toMatchObject({ ok: true, value: 'set' });
    expect(second).toMatchObject({ ok: true, value: ['undefined', 'undefined'] });
    // One warm child, then one replacement per run taken.
    expect(local.pids.length).toBe(3);
    expect(new Set(local.pids).size).toBe(3);
  });

  it('drains the warm pool on shutdown', async () => {
    const local = pidTracker();
    const kernel = createKernel({
      plugins: [fakeSourcePlugin(), codeModePlugin({ warmPool: 2, onSpawn: local.onSpawn })],
    });
    const run = await kernel.createRun({});
    await run.exposure('code');
    expect(local.pids.length).toBe(2);
    await kernel.close();
    expect(local.alive()).toEqual([]);
  });

  it('refuses invalid options with OPTIONS_INVALID', () => {
    expect(() => codeModePlugin({ codeTimeoutMs: -1 })).toThrow(
      expect.objectContaining({ code: 'OPTIONS_INVALID', path: 'codeTimeoutMs' }),
    );
    expect(() => codeModePlugin({ limits: { maxLogLines: 1.5 } })).toThrow(
      expect.objectContaining({ code: 'OPTIONS_INVALID', path: 'limits.maxLogLines' }),
    );
    expect(() => codeModePlugin({ limits: { nope: 1 } as never })).toThrow(
      expect.objectContaining({ code: 'OPTIONS_INVALID' }),
    );
  });
});
