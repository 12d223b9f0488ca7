import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KernelPlugin } from '@tool-search/kernel';
import { chromiumMissing, closeChromium, openChromium } from './chromium-page.js';
import { harness, type Harness } from './helpers.js';

if (chromiumMissing) console.warn(`skipping the gateway's cross-site browser test: ${chromiumMissing}`);

const WRITE = 'tool search qa check target=write args={"path":"pwned.txt","content":"x"}';
const CHAT = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: WRITE }] });

/** The attacker's page: three requests that need no preflight, then one report each to its own server. */
function attackPage(gateway: string): string {
  const json = JSON.stringify(CHAT);
  // A text/plain form sends `name=value`: the JSON is split so that the pair is the JSON again.
  const [name, value] = [CHAT.slice(0, -2), CHAT.slice(-1)];
  return `<!doctype html><html><body>
<form id="f" method="POST" enctype="text/plain" target="sink" action="${gateway}/chat/completions">
<input type="hidden" name='${name}' value='${value}'></form>
<iframe name="sink" id="sink"></iframe>
<script>
const report = (what) => fetch('/done?' + what);
const post = (type) => fetch('${gateway}/chat/completions', { method: 'POST', mode: 'no-cors', headers: { 'content-type': type }, body: ${json} })
  .then(() => 'sent', (error) => 'failed');
post('text/plain').then((outcome) => report('text-' + outcome));
post('application/x-www-form-urlencoded').then((outcome) => report('form-' + outcome));
document.getElementById('sink').addEventListener('load', () => report('html-form'), { once: true });
document.getElementById('f').submit();
</script></body></html>`;
}

let h: Harness;
let gatewayPort: number;
const ran: string[] = [];
const received: { host?: string; origin?: string; type?: string; status?: number }[] = [];
const recorder: KernelPlugin = {
  name: 'test-recorder',
  apply: ({ hooks }) => hooks.afterToolCall.tap((call) => void ran.push(call.tool.name)),
};

beforeAll(async () => {
  if (chromiumMissing) return;
  h = await harness();
  const { server } = await h.gateway('direct', { plugins: [recorder] });
  gatewayPort = server.port;
  // Watches what the browser delivered (a second listener: the gateway still answers).
  server.server.on('request', (req, res) => {
    if (req.method !== 'POST') return;
    const seen = { host: req.headers.host, origin: req.headers.origin, type: req.headers['content-type'] };
    received.push(seen);
    res.on('finish', () => Object.assign(seen, { status: res.statusCode }));
  });
});
afterAll(() => h?.close());

/** Serves the attack page and resolves once the page has reported all three requests. */
async function attacker(gatewayHost: string): Promise<{ server: Server; port: number; reported: Promise<string[]> }> {
  const reports: string[] = [];
  let done!: (value: string[]) => void;
  const reported = new Promise<string[]>((resolve) => (done = resolve));
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/done?')) {
      reports.push(req.url.slice('/done?'.length));
      res.end();
      if (reports.length === 3) done(reports.sort());
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end(attackPage(`http://${gatewayHost}:${gatewayPort}/v1`));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port, reported };
}

describe.skipIf(chromiumMissing !== undefined)('a page in headless Chromium cannot run gateway tools', () => {
  it.each([
    ['another loopback port', '127.0.0.1', '127.0.0.1'],
    ['a foreign name resolving to loopback', 'attacker.test', 'attacker.test'],
  ])('from %s', async (_name, pageHost, gatewayHost) => {
    const before = { ran: ran.length, received: received.length, upstream: h.received('openai').length };
    const page = await attacker(gatewayHost);
    const { browser, profile } = openChromium(`http://${pageHost}:${page.port}/`);
    try {
      expect(await page.reported).toEqual(['form-sent', 'html-form', 'text-sent']);
    } finally {
      page.server.close();
      await closeChromium(browser, profile);
    }
    // The browser delivered all three requests to the gateway, and each was refused before anything ran.
    const delivered = received.slice(before.received);
    expect(delivered).toHaveLength(3);
    for (const request of delivered) expect([403, 415]).toContain(request.status);
    expect(ran.length).toBe(before.ran);
    expect(h.received('openai').length).toBe(before.upstream);
  });
});
