import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KernelPlugin } from '@tool-search/kernel';
import { chromiumMissing, closeChromium, openChromium } from './chromium-page.js';
import { harness, type Harness } from './helpers.js';

if (chromiumMissing) console.warn(`skipping the gateway's browser red-team test: ${chromiumMissing}`);

const WRITE = 'tool search qa check target=write args={"path":"pwned.txt","content":"x"}';
const CHAT = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: WRITE }] });

let h: Harness;
const ran: string[] = [];
const recorder: KernelPlugin = {
  name: 'test-recorder',
  apply: ({ hooks }) => hooks.afterToolCall.tap((call) => void ran.push(call.tool.name)),
};

beforeAll(async () => {
  if (chromiumMissing) return;
  h = await harness();
});
afterAll(() => h?.close());

/** A server that records `/done?<what>` reports from pages (no-cors GETs) and resolves when `count` have come. */
async function reporter(count: number): Promise<{ server: Server; port: number; reports: Promise<string[]> }> {
  const got: string[] = [];
  let done!: (value: string[]) => void;
  const reports = new Promise<string[]>((resolve) => (done = resolve));
  const server = createServer((req, res) => {
    res.writeHead(200, { 'access-control-allow-origin': '*' }).end();
    if (!req.url?.startsWith('/done?')) return;
    got.push(decodeURIComponent(req.url.slice('/done?'.length)));
    if (got.length === count) done([...got].sort());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port, reports };
}

/** Serves `html` at `/` on a free loopback port. */
async function page(html: string): Promise<{ server: Server; port: number }> {
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port };
}

/** The attacks a page makes at `gateway` (`http://host:port`), each reported to the reporter at `report`. */
function variantsPage(gateway: string, report: string): string {
  const body = JSON.stringify(CHAT);
  const chat = `${gateway}/v1/chat/completions`;
  return `<!doctype html><html><body><script>
const report = (what) => fetch('${report}/done?' + encodeURIComponent(what), { mode: 'no-cors' });
const settle = (name, promise) => promise.then(() => report(name + ':sent'), () => report(name + ':failed'));
settle('simple-type', fetch('${chat}', { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain; application/json' }, body: ${body} }));
settle('keepalive', fetch('${chat}', { method: 'POST', mode: 'no-cors', keepalive: true, body: ${body} }));
settle('cors-json', fetch('${chat}', { method: 'POST', mode: 'cors', headers: { 'content-type': 'application/json' }, body: ${body} }));
settle('approval', fetch('${gateway}/v1/approvals/any', { method: 'POST', mode: 'no-cors', body: '{"decision":"allow"}' }));
try { report('beacon:' + navigator.sendBeacon('${chat}', new Blob([${body}], { type: 'text/plain' }))); } catch (e) { report('beacon:threw'); }
try {
  const ws = new WebSocket('${gateway.replace('http', 'ws')}/v1/chat/completions');
  ws.onopen = () => report('websocket:open');
  ws.onerror = () => report('websocket:error');
} catch (e) { report('websocket:threw'); }
const frame = document.createElement('iframe');
frame.setAttribute('sandbox', 'allow-scripts');
frame.srcdoc = "<script>fetch('${chat}', { method: 'POST', mode: 'no-cors', body: " + JSON.stringify(${body}) + " }).then(() => fetch('${report}/done?sandboxed:sent', { mode: 'no-cors' }), () => fetch('${report}/done?sandboxed:failed', { mode: 'no-cors' }))<\\/script>";
document.body.appendChild(frame);
</script></body></html>`;
}

describe.skipIf(chromiumMissing !== undefined)('a page in headless Chromium, more ways in', () => {
  it.each([
    ['another site (attacker.test)', 'attacker.test'],
    ['another loopback port', '127.0.0.1'],
  ])('from %s: every request is refused before a turn; nothing runs', async (_name, pageHost) => {
    const { server } = await h.gateway('direct', { plugins: [recorder] });
    const statuses: number[] = [];
    server.server.on('request', (_req, res) => res.on('finish', () => statuses.push(res.statusCode)));
    const before = { ran: ran.length, upstream: h.received('openai').length };
    const sink = await reporter(7);
    const attack = await page(variantsPage(`http://127.0.0.1:${server.port}`, `http://127.0.0.1:${sink.port}`));
    const { browser, profile } = openChromium(`http://${pageHost}:${attack.port}/`);
    try {
      const reports = await sink.reports;
      // The WebSocket never opens; a CORS JSON request gets no grant from the preflight, so it fails in the page.
      expect(reports).toContain('cors-json:failed');
      expect(reports.some((r) => r.startsWith('websocket:open'))).toBe(false);
    } finally {
      attack.server.close();
      sink.server.close();
      await closeChromium(browser, profile);
    }
    // Whatever arrived was refused: 403 (Origin), 404 (no such route for an upgrade), 405, 415 (not JSON).
    expect(statuses.length).toBeGreaterThan(0);
    for (const status of statuses) expect([403, 404, 405, 415]).toContain(status);
    expect(ran.length).toBe(before.ran);
    expect(h.received('openai').length).toBe(before.upstream);
  });

  it('DNS rebinding: the page origin starts answering from the gateway; its same-origin JSON is refused by Host', async () => {
    const sink = await reporter(2);
    // The attacker's server first: it answers the page's JSON post with "attacker" until the gateway takes its port.
    const attacker = createServer((req, res) => {
      if (req.method === 'POST') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('attacker');
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><script>
const report = (what) => fetch('http://127.0.0.1:${sink.port}/done?' + encodeURIComponent(what), { mode: 'no-cors' });
let announced = false;
async function loop() {
  for (;;) {
    try {
      const res = await fetch('/v1/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: ${JSON.stringify(CHAT)} });
      const text = await res.text();
      if (text !== 'attacker') return report('rebound:' + res.status + ':' + (JSON.parse(text).error || {}).code);
      if (!announced) { announced = true; report('ready'); }
    } catch (e) { /* the port is between servers */ }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
loop();
</script>`);
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    const port = (attacker.address() as { port: number }).port;
    const { browser, profile } = openChromium(`http://attacker.test:${port}/`);
    const before = { ran: ran.length, upstream: h.received('openai').length };
    try {
      // Once the page runs, the name "rebinds": the attacker's server goes and the gateway listens on its port.
      await new Promise<void>((resolve) => {
        attacker.on('request', (req) => req.method === 'POST' && resolve());
      });
      attacker.closeAllConnections();
      await new Promise<void>((resolve) => attacker.close(() => resolve()));
      await h.gateway('direct', { plugins: [recorder], port });
      const reports = await sink.reports;
      const rebound = reports.find((r) => r.startsWith('rebound:'))!;
      expect(rebound).toBe('rebound:403:AUTH_NOT_LOOPBACK');
    } finally {
      sink.server.close();
      await closeChromium(browser, profile);
    }
    expect(ran.length).toBe(before.ran);
    expect(h.received('openai').length).toBe(before.upstream);
  });
});
