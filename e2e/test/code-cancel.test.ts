/**
 * Calls started by tool_search_code end with the run of code: on CODE_TIMEOUT
 * and when the code returns first, the call to a real MCP server (official
 * SDK over stdio) is aborted, the server receives `notifications/cancelled`,
 * and the result names the calls that were cut. Both sandbox backends.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SANDBOX_KINDS, type CodeResult } from '@tool-search/mode-code';
import { createToolSearchKernel } from '@tool-search/preset';

const dir = mkdtempSync(join(tmpdir(), 'code-cancel-'));
const kernels: { close(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(kernels.map((kernel) => kernel.close()));
  rmSync(dir, { recursive: true, force: true });
});

async function codeExposure(sandbox: (typeof SANDBOX_KINDS)[number], log: string) {
  writeFileSync(log, '');
  const server = {
    command: process.execPath,
    args: [new URL('./fixtures/cancel-recorder.mjs', import.meta.url).pathname, log],
  };
  const { kernel } = await createToolSearchKernel({
    tools: { toolSearch: { mode: 'code', sandbox, codeTimeoutMs: 1500 } },
    mcp: { servers: { recorder: server } },
    plugins: { 'fake-catalog': { tools: 0, core: false } },
  });
  kernels.push(kernel);
  return (await kernel.createRun()).exposure('code');
}

const lines = (log: string) => readFileSync(log, 'utf8').split('\n').filter(Boolean);

describe.each(SANDBOX_KINDS)('%s backend', (sandbox) => {
  it('cancels the MCP call at CODE_TIMEOUT: notifications/cancelled reaches the server, the result names the call', async () => {
    const log = join(dir, `${sandbox}-timeout.log`);
    const exposure = await codeExposure(sandbox, log);
    const outcome = await exposure.call('tool_search_code', {
      code: `return await openclaw.tools.call('mcp:recorder:wait_for_cancel', {});`,
    });
    const result = (outcome.status === 'ok' ? outcome.result.structuredContent : undefined) as CodeResult;
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'CODE_TIMEOUT' },
      telemetry: { cancelled: [{ op: 'call', toolId: 'mcp:recorder:wait_for_cancel' }] },
    });
    await expect
      .poll(() => lines(log).filter((line) => line.startsWith('cancelled')).length, { timeout: 5000 })
      .toBe(1);
  });

  it('cancels the MCP call when the code returns without waiting for it', async () => {
    const log = join(dir, `${sandbox}-return.log`);
    const exposure = await codeExposure(sandbox, log);
    // The ping's answer proves the first call reached the server (stdio keeps order) before the code returns.
    const code = `openclaw.tools.call('mcp:recorder:wait_for_cancel', {}).catch(() => {}); await openclaw.tools.call('mcp:recorder:ping', {}); return 'returned';`;
    const outcome = await exposure.call('tool_search_code', { code });
    const result = (outcome.status === 'ok' ? outcome.result.structuredContent : undefined) as CodeResult;
    expect(result).toMatchObject({
      ok: true,
      value: 'returned',
      telemetry: { cancelled: [{ toolId: 'mcp:recorder:wait_for_cancel' }] },
    });
    await expect
      .poll(() => lines(log).filter((line) => line.startsWith('cancelled')).length, { timeout: 5000 })
      .toBe(1);
  });
});
