import { expect, it, vi } from 'vitest';
import { codeModePlugin, runCode } from '../src/index.js';
import { fakeSourcePlugin, makeRun, toolsModeStub } from './fixtures.js';

// Which backends "can" start on this runtime, per test.
const state = vi.hoisted(() => ({ process: false, quickjs: true }));
vi.mock('../src/sandbox/support.js', () => ({
  checkSandboxSupport: async () => (state.process ? { ok: true } : { ok: false, reason: 'spawn refused (test)' }),
  checkQuickJSSupport: async () => (state.quickjs ? { ok: true } : { ok: false, reason: 'no WebAssembly (test)' }),
}));

it('falls back from the process backend to quickjs, with a diagnostic, and still runs code', async () => {
  Object.assign(state, { process: false, quickjs: true });
  const events: unknown[] = [];
  const observer = {
    name: 'observer',
    apply: ({ hooks }: Parameters<import('@tool-search/kernel').KernelPlugin['apply']>[0]) =>
      hooks.runEvent.tap((event) => void events.push(event)),
  };
  const { run, close } = await makeRun([
    fakeSourcePlugin(),
    toolsModeStub(),
    codeModePlugin({ sandbox: 'process' }),
    observer,
  ]);
  const exposure = await run.exposure('code');
  const outcome = await exposure.call('tool_search_code', { code: 'return typeof process' });
  await close();
  expect(exposure.mode).toBe('code');
  expect(outcome).toMatchObject({ status: 'ok', result: { structuredContent: { ok: true, value: 'undefined' } } });
  expect(events).toContainEqual({
    type: 'diagnostic',
    diagnostic: expect.objectContaining({
      code: 'SANDBOX_UNAVAILABLE',
      level: 'warning',
      details: expect.objectContaining({
        configured: 'process',
        used: 'quickjs',
        reason: 'process: spawn refused (test)',
      }),
    }),
  });
  expect(run.diagnostics).toContainEqual(expect.objectContaining({ code: 'SANDBOX_UNAVAILABLE', hook: 'materialize' }));
});

it('falls back to tools mode (never direct) when no sandbox backend can start', async () => {
  Object.assign(state, { process: false, quickjs: false });
  const { run, close } = await makeRun([fakeSourcePlugin(), toolsModeStub(), codeModePlugin()]);
  const exposure = await run.exposure('code');
  await close();
  expect(exposure.mode).toBe('tools');
  expect(exposure.tools.map((tool) => tool.name)).toEqual(['tool_search']);
  expect(run.diagnostics).toContainEqual(
    expect.objectContaining({ code: 'MODE_FALLBACK', details: { from: 'code', to: 'tools' } }),
  );
});

it('a configured quickjs backend that cannot start goes to tools mode, not to the process backend', async () => {
  Object.assign(state, { process: true, quickjs: false });
  const { run, close } = await makeRun([fakeSourcePlugin(), toolsModeStub(), codeModePlugin({ sandbox: 'quickjs' })]);
  const exposure = await run.exposure('code');
  await close();
  expect(exposure.mode).toBe('tools');
});

it('runCode answers SANDBOX_UNAVAILABLE instead of running the code', async () => {
  Object.assign(state, { process: false, quickjs: false });
  const { run, close } = await makeRun([fakeSourcePlugin()]);
  const result = await runCode(run, 'return 1');
  await close();
  expect(result).toMatchObject({ ok: false, error: { code: 'SANDBOX_UNAVAILABLE' } });
});
