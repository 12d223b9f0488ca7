/**
 * Issue 46: cron takes OpenClaw's documented default `gatewayUrl` (`ws://127.0.0.1:18789`) when it names the gateway
 * serving the call. Run as a user would: a real gateway (its HTTP server and turn loop) listening on 18789 when that
 * port is free (else on a free port, named the same way), the official OpenAI client, the scripted mock provider
 * calling `cron`.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, type Kernel } from '@tool-search/kernel';
import { openaiUpstream, startGatewayServer, type GatewayServer } from '@tool-search/gateway';
import { startMockOpenAI, type MockOpenAI } from '@tool-search/mock-openai';
import { createSessionHost } from '@tool-search/sessions';
import { cronPlugin, CronErrors } from '@tool-search/plugin-cron';
import { namesGateway } from '../src/gateway-target.js';

const DOCUMENTED_PORT = 18789;
let mock: MockOpenAI;
let kernel: Kernel;
let server: GatewayServer;

beforeAll(async () => {
  mock = await startMockOpenAI();
  kernel = createKernel({
    plugins: [cronPlugin({ host: createSessionHost(), dir: mkdtempSync(join(tmpdir(), 'cron-url-')) })],
  });
  const upstream = openaiUpstream(new OpenAI({ baseURL: mock.url, apiKey: 'mock', maxRetries: 0 }), 'mock-model');
  const start = (port: number) =>
    startGatewayServer({ kernel, upstream, mode: 'direct', countTokens: false, log: () => {}, port });
  server = await start(DOCUMENTED_PORT).catch((error: { code?: string }) => {
    if (error.code !== 'PORT_IN_USE') throw error;
    console.warn(`port ${DOCUMENTED_PORT} is taken here: the gateway listens on a free port, named the same way`);
    return start(0);
  });
});
afterAll(async () => {
  await server?.close();
  await kernel?.close();
  await mock?.close();
});

/** One chat completion whose model calls `cron` with `args`; the tool result as the model read it. */
async function cron(args: Record<string, unknown>): Promise<string> {
  const client = new OpenAI({ baseURL: server.url, apiKey: 'none', maxRetries: 0 });
  const completion = await client.chat.completions.create({
    model: 'mock-model',
    messages: [{ role: 'user', content: `tool search qa steps ${JSON.stringify([{ tool: 'cron', args }])}` }],
  });
  return (completion.choices[0]?.message.content ?? '').replace(/^Steps done\. Last result: /, '');
}

describe('cron gatewayUrl naming the gateway serving the call', () => {
  it('the documented default ws://127.0.0.1:18789 (this gateway) with its token acts on this gateway', async () => {
    const status = JSON.parse(
      await cron({ action: 'status', gatewayUrl: `ws://127.0.0.1:${server.port}`, gatewayToken: 't' }),
    );
    expect(status).toMatchObject({ running: true, jobs: 0 });
    const added = JSON.parse(
      await cron({
        action: 'add',
        gatewayUrl: `ws://localhost:${server.port}`,
        gatewayToken: 't',
        job: { schedule: { kind: 'every', everyMs: 3_600_000 }, payload: { kind: 'agentTurn', message: 'hi' } },
      }),
    );
    expect(added.job.jobId).toBeTypeOf('string');
    expect(
      JSON.parse(await cron({ action: 'list', gatewayUrl: `http://127.0.0.1:${server.port}/`, gatewayToken: 't' }))
        .jobs,
    ).toHaveLength(1);
  });

  it('still needs its explicit gatewayToken', async () => {
    expect(await cron({ action: 'status', gatewayUrl: `ws://127.0.0.1:${server.port}` })).toContain(
      CronErrors.CRON_GATEWAY_TOKEN_REQUIRED,
    );
  });

  it('a gatewayUrl naming another gateway (another port, host or TLS) is refused clearly', async () => {
    for (const gatewayUrl of [
      `ws://127.0.0.1:${server.port + 1}`,
      `wss://127.0.0.1:${server.port}`,
      `ws://gw.example.test:${server.port}`,
    ]) {
      expect(await cron({ action: 'status', gatewayUrl, gatewayToken: 't' })).toContain(
        CronErrors.CRON_GATEWAY_REMOTE_UNSUPPORTED,
      );
    }
  });
});

describe('which URLs name a listening gateway', () => {
  it('its bound host and port; localhost for a loopback bind; loopback or local addresses for every interface', () => {
    const loopback = { host: '127.0.0.1', port: 18789 };
    expect(namesGateway('ws://127.0.0.1:18789', loopback)).toBe(true);
    expect(namesGateway('ws://localhost:18789', loopback)).toBe(true);
    expect(namesGateway('ws://127.0.0.2:18789', loopback)).toBe(false);
    expect(namesGateway('ws://[::1]:18789', loopback)).toBe(false);
    expect(namesGateway('ws://127.0.0.1', loopback)).toBe(false);
    const every = { host: '0.0.0.0', port: 80 };
    expect(namesGateway('http://127.0.0.1', every)).toBe(true);
    expect(namesGateway('ws://10.255.255.254', every)).toBe(false);
    expect(namesGateway('not a url', every)).toBe(false);
  });
});
