import { expect, it, vi } from 'vitest';
import { codeModePlugin } from '../src/index.js';
import { fakeSourcePlugin, makeRun, toolsModeStub } from './fixtures.js';

// This runtime "cannot" start an isolated child.
vi.mock('../src/sandbox/support.js', () => ({
  checkSandboxSupport: async () => ({ ok: false, reason: 'spawn refused (test)' }),
}));

it('falls back to tools mode (never direct) when no isolated child can start', async () => {
  const { run, close } = await makeRun([fakeSourcePlugin(), toolsModeStub(), codeModePlugin()]);
  const exposure = await run.exposure('code');
  await close();
  expect(exposure.mode).toBe('tools');
  expect(exposure.tools.map((tool) => tool.name)).toEqual(['tool_search']);
  expect(run.diagnostics).toContainEqual(expect.objectContaining({ code: 'MODE_FALLBACK', details: { from: 'code', to: 'tools' } }));
});

it('runCode answers SANDBOX_UNAVAILABLE instead of running the code', async () => {
  const { runCode } = await import('../src/index.js');
  const { run, close } = await makeRun([fakeSourcePlugin()]);
  const result = await runCode(run, 'return 1');
  await close();
  expect(result).toMatchObject({ ok: false, error: { code: 'SANDBOX_UNAVAILABLE' } });
});
