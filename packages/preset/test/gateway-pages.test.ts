/**
 * Pages plugins serve through the gateway (`plugin.gatewayPages`): `tool-search gateway` with the diffs plugin mounts
 * its viewer, so the `diffs` tool offers `mode: "view"` and the link it returns opens on that gateway, behind the
 * gateway's own loopback rules. Real gateway (`runGateway`, as the CLI calls it), the mock provider, the official client.
 */
import { request as httpRequest } from 'node:http';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ToolSearchConfig } from '@tool-search/config';
import { startMockOpenAI } from '@tool-search/mock-openai';
import { runGateway, type ListeningGateway } from '@tool-search/preset';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let mock: Awaited<ReturnType<typeof startMockOpenAI>>;
let gateway: ListeningGateway;
const stop = new AbortController();
let done: Promise<void>;

beforeAll(async () => {
  mock = await startMockOpenAI();
  const config = {
    provider: { baseURL: mock.url, apiKey: 'mock', model: 'mock-model' },
    plugins: { '@tool-search/plugin-diffs': {} },
    tools: { toolSearch: false },
  } as ToolSearchConfig;
  const listening: ListeningGateway[] = [];
  let failed: unknown;
  done = runGateway({
    load: async () => ({ config }),
    // Plugin modules resolve from the config's folder: this package's, where the workspace's node_modules are.
    cwd: dirname(fileURLToPath(import.meta.url)),
    port: 0,
    signal: stop.signal,
    onListening: (g) => void listening.push(g),
  });
  done.catch((error: unknown) => (failed = error));
  const until = Date.now() + 60_000;
  while (listening.length === 0 && failed === undefined && Date.now() < until)
    await new Promise((resolve) => setTimeout(resolve, 20));
  if (failed) throw failed;
  gateway = listening[0]!;
}, 120_000);

afterAll(async () => {
  stop.abort();
  await done;
  await mock?.close();
});

function get(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(url, { headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('plugins serve pages through the gateway', () => {
  it('the diffs viewer is mounted: mode "view" returns a link that the gateway serves, read-only and loopback-only', async () => {
    const client = new OpenAI({ baseURL: gateway.url, apiKey: 'unused-on-loopback', maxRetries: 0 });
    const steps = [{ tool: 'diffs', args: { before: 'one\n', after: 'two <script>\n', path: 'a.txt', mode: 'view' } }];
    const completion = await client.chat.completions.create({
      model: 'mock-model',
      messages: [{ role: 'user', content: `tool search qa steps ${JSON.stringify(steps)}` }],
    });
    const content = completion.choices[0]?.message.content ?? '';
    const viewerUrl = /(http:\/\/\S+\/plugins\/diffs\/view\/\S+)/.exec(content)?.[1];
    expect(viewerUrl, content).toBeDefined();
    expect(new URL(viewerUrl!).origin).toBe(new URL(gateway.url).origin);

    const page = await get(viewerUrl!);
    expect(page.status).toBe(200);
    expect(page.body).toContain('a.txt');
    expect(page.body).toContain('two &lt;script&gt;');
    expect(page.body).not.toContain('two <script>');
    // The gateway's keyless rules hold for plugin pages too: a foreign Host (DNS rebinding) is refused.
    expect((await get(viewerUrl!, { Host: 'attacker.example' })).status).toBe(403);
  });
});
