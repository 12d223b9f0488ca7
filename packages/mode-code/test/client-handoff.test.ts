/** Issue 13: inside tool_search_code, a client tool call is handed to the run's owner and the script waits for the answer. */
import { afterAll, describe, expect, it } from 'vitest';
import { createKernel, type ClientCall } from '@tool-search/kernel';
import { runCode, sandboxesExited } from '../src/index.js';
import { fakeSourcePlugin, fakeTools, pidTracker } from './fixtures.js';
import { CodeErrors } from '../src/errors.js';

const tracker = pidTracker();
const tools = [
  ...fakeTools(),
  { name: 'client_picker', description: 'Fake client tool: pick a color.', source: 'client' as const },
];
const kernel = createKernel({ plugins: [fakeSourcePlugin(tools)] });
afterAll(async () => {
  await kernel.close();
  await sandboxesExited();
  expect(tracker.alive()).toEqual([]);
});

describe('client tools called from code', () => {
  it('the script waits for the client answer, which comes back as the call result', async () => {
    const handed: ClientCall[] = [];
    const run = await kernel.createRun(
      {},
      {
        onClientCall: (call) => {
          handed.push(call);
          setImmediate(() => run.resolveClientCall(call.callId, { content: [{ type: 'text', text: 'teal' }] }));
        },
      },
    );
    const result = await runCode(
      run,
      `const r = await openclaw.tools.call('client_picker', { hint: 'sea' }); return r.result?.content?.[0]?.text ?? r.content?.[0]?.text;`,
      {
        codeTimeoutMs: 5000,
        onSpawn: tracker.onSpawn,
      },
    );
    expect(result).toMatchObject({ ok: true, value: 'teal' });
    expect(handed).toMatchObject([{ name: 'client_picker', args: { hint: 'sea' }, origin: 'code' }]);
    await run.close();
  });

  it('a client that never answers ends with CODE_TIMEOUT within codeTimeoutMs, and the handed call is withdrawn', async () => {
    const run = await kernel.createRun({}, { onClientCall: () => undefined });
    const result = await runCode(run, `return await openclaw.tools.call('client_picker', {});`, {
      codeTimeoutMs: 1000,
      onSpawn: tracker.onSpawn,
    });
    expect(result).toMatchObject({ ok: false, error: { code: CodeErrors.CODE_TIMEOUT } });
    expect(run.pendingClientCalls).toEqual([]);
    await run.close();
  });
});
