/** Issue 32: cron as a gateway-backed tool takes gatewayUrl / gatewayToken / timeoutMs with OpenClaw's rule. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createKernel, type Kernel, type ToolCallOutcome } from '@tool-search/kernel';
import { createSessionHost } from '@tool-search/sessions';
import { cronPlugin, CronErrors } from '@tool-search/plugin-cron';

const kernels: Kernel[] = [];
afterEach(async () => {
  await Promise.all(kernels.splice(0).map((k) => k.close()));
});

async function cron(args: Record<string, unknown>): Promise<ToolCallOutcome> {
  const host = createSessionHost();
  const kernel = createKernel({ plugins: [cronPlugin({ host, dir: mkdtempSync(join(tmpdir(), 'cron-target-')) })] });
  kernels.push(kernel);
  const run = await kernel.createRun({ sessionId: 'owner' });
  try {
    return await run.call('cron', args);
  } catch (error) {
    return { status: 'error', error: { code: (error as { code: string }).code } } as unknown as ToolCallOutcome;
  } finally {
    await run.close();
  }
}
const code = (outcome: ToolCallOutcome) => (outcome.status === 'error' ? outcome.error.code : outcome.status);

describe('cron gatewayUrl / gatewayToken / timeoutMs', () => {
  it('an explicit gatewayUrl needs an explicit gatewayToken', async () => {
    const outcome = await cron({ action: 'status', gatewayUrl: 'ws://127.0.0.1:18789' });
    expect(code(outcome)).toBe(CronErrors.CRON_GATEWAY_TOKEN_REQUIRED);
  });

  it('a token from the environment does not stand in for the explicit one', async () => {
    process.env.OPENCLAW_GATEWAY_TOKEN = 'from-env';
    try {
      expect(code(await cron({ action: 'status', gatewayUrl: 'ws://127.0.0.1:18789' }))).toBe(
        CronErrors.CRON_GATEWAY_TOKEN_REQUIRED,
      );
    } finally {
      delete process.env.OPENCLAW_GATEWAY_TOKEN;
    }
  });

  it('gatewayUrl with its token naming another gateway is refused clearly (no cron RPC between gateways)', async () => {
    expect(code(await cron({ action: 'status', gatewayUrl: 'https://gw.example.test', gatewayToken: 't' }))).toBe(
      CronErrors.CRON_GATEWAY_REMOTE_UNSUPPORTED,
    );
  });

  it('without gatewayUrl the call acts on this gateway; a token alone is accepted', async () => {
    expect(code(await cron({ action: 'status' }))).toBe('ok');
    expect(code(await cron({ action: 'status', gatewayToken: 't', timeoutMs: 60_000 }))).toBe('ok');
  });

  it('a malformed gatewayUrl or timeoutMs breaks the schema', async () => {
    expect(code(await cron({ action: 'status', gatewayUrl: 'file:///etc/passwd', gatewayToken: 't' }))).toBe(
      'TOOL_ARGUMENTS_INVALID',
    );
    expect(code(await cron({ action: 'status', timeoutMs: 0 }))).toBe('TOOL_ARGUMENTS_INVALID');
  });
});
