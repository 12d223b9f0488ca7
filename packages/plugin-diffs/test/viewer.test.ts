/**
 * The viewer mode: a diff page served read-only by the gateway (mounted through `gatewayPages`), behind the gateway's
 * own keyless-loopback rules, an unguessable token, a CSP that runs no script, expiry and a bounded store. Hostile
 * diffs are opened in a real Chromium with JavaScript on: the page renders and nothing from the diff runs or loads.
 */
import { request as httpRequest, createServer, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium } from 'playwright-core';
import { createKernel, type Kernel, type Run } from '@tool-search/kernel';
import { CHROMIUM_FLAGS, findChromium } from '@tool-search/chromium';
import { createUpstream, startGatewayServer, type GatewayServer } from '@tool-search/gateway';
import { canRunAsOtherUser, fetchAsUser, OTHER_UID } from '@tool-search/testing';
import { createDiffsViewer, diffHtml, diffsPlugin, toPatches, VIEWER_CSP, type DiffsViewer } from '../src/index.js';

const found = findChromium(undefined);
const CHROMIUM = 'path' in found ? found.path : undefined;
if (!CHROMIUM)
  console.warn('skipping the viewer pages in Chromium: chromium is not installed (apt-get install -y chromium)');
const CAN_DROP = canRunAsOtherUser();
if (!CAN_DROP)
  console.warn('skipping the other-local-user viewer test: it needs root, /proc/net/tcp and setpriv (util-linux)');

/** A GET with exactly these headers (fetch would not let a test set Host). */
function get(url: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = httpRequest(url, { method, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const details = (outcome: Awaited<ReturnType<Run['call']>>) => {
  if (outcome.status !== 'ok') throw new Error(JSON.stringify(outcome));
  return outcome.result.structuredContent as Record<string, unknown> & {
    viewerUrl: string;
    viewerPath: string;
    artifactId: string;
  };
};

/** A loopback server counting every request: anything a page loads or a script sends lands here. */
async function tripwire() {
  let hits = 0;
  const server = createServer((_req, res) => {
    hits++;
    res.end('x');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    hits: () => hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('the viewer store and route', () => {
  let clock = 1_000_000;
  const viewer = createDiffsViewer({ maxArtifacts: 3, maxBytes: 200_000, now: () => clock });
  let server: ReturnType<typeof createServer>;
  let origin: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (!viewer.handle(req, res)) res.writeHead(418).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    viewer.bind(origin);
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const page = (text: string) => diffHtml(toPatches({ before: 'a\n', after: `${text}\n` }), 'T', 100).html;

  it('serves the page it was given, read-only, with a CSP that allows no script and only its own style', async () => {
    const html = page('hello');
    const published = viewer.publish(html, 60);
    expect(published.viewerUrl).toBe(`${origin}${published.viewerPath}`);
    expect(published.viewerPath).toMatch(/^\/plugins\/diffs\/view\/[0-9a-f]{24}\/[A-Za-z0-9_-]{43}$/);
    const answer = await get(published.viewerUrl);
    expect(answer).toMatchObject({ status: 200, body: html });
    expect(answer.headers).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': VIEWER_CSP,
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
    });
    expect(VIEWER_CSP).toMatch(/default-src 'none'.*style-src 'sha256-[^']+'.*sandbox$/);
    expect(VIEWER_CSP).not.toMatch(/unsafe|script-src/);
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH'])
      expect((await get(published.viewerUrl, {}, method)).status).toBe(405);
    expect((await get(published.viewerUrl, {}, 'HEAD')).status).toBe(200);
    expect((await get(`${origin}/v1/models`)).status).toBe(418); // not its path: left to the next route
  });

  it('answers one 404 for a wrong token, an unknown id, a malformed path and an expired page', async () => {
    const published = viewer.publish(page('x'), 60);
    const [, , , , id, token] = published.viewerPath.split('/') as string[];
    const wrong = `${token!.slice(0, -1)}${token!.endsWith('A') ? 'B' : 'A'}`;
    const missing = [
      `/plugins/diffs/view/${id}/${wrong}`,
      `/plugins/diffs/view/${'0'.repeat(24)}/${token}`,
      `/plugins/diffs/view/${id}`,
      `/plugins/diffs/view/${id}/${token}/`,
      `/plugins/diffs/view/${id}/..%2F${token}`,
      `/plugins/diffs/`,
    ];
    for (const path of missing) expect((await get(`${origin}${path}`)).status).toBe(404);
    expect((await get(published.viewerUrl)).status).toBe(200);
    clock += 60_000;
    expect((await get(published.viewerUrl)).status).toBe(404);
  });

  it('keeps a bounded number of pages and bytes, oldest out first, and caps the lifetime', async () => {
    const urls = [1, 2, 3, 4].map((n) => viewer.publish(page(`page ${n}`), 600).viewerUrl);
    expect((await get(urls[0]!)).status).toBe(404);
    for (const url of urls.slice(1)) expect((await get(url)).status).toBe(200);
    const big = viewer.publish(page('x'.repeat(150_000)), 600).viewerUrl; // 200 kB of pages at most
    expect((await get(urls[1]!)).status).toBe(404);
    expect((await get(big)).status).toBe(200);
    expect(() => viewer.publish(page('y'.repeat(250_000)), 600)).toThrow(
      expect.objectContaining({ code: 'DIFFS_INPUT_INVALID' }),
    );
    const capped = viewer.publish(page('z'), 10 ** 9);
    expect(Date.parse(capped.expiresAt) - clock).toBe(21_600_000);
  });

  it('builds links only on an http(s) base without credentials, query or hash', () => {
    expect(viewer.publish(page('p'), 60, 'https://proxy.example/tools/').viewerUrl).toMatch(
      /^https:\/\/proxy\.example\/tools\/plugins\/diffs\/view\//,
    );
    for (const bad of [
      'javascript:alert(1)',
      'file:///etc',
      'http://u:p@x.example',
      'http://x.example/?q',
      'http://x.example/#h',
    ])
      expect(() => viewer.publish(page('p'), 60, bad)).toThrow(
        expect.objectContaining({ code: 'DIFFS_INPUT_INVALID' }),
      );
  });
});

describe('diffs mode "view" through the gateway', () => {
  let kernel: Kernel;
  let gateway: GatewayServer;
  let viewer: DiffsViewer;
  let run: Run;
  let origin: string;
  beforeAll(async () => {
    viewer = createDiffsViewer();
    // No Chromium here on purpose: the viewer alone makes the tool available.
    const plugin = diffsPlugin({ viewer, maxLines: 200 }, { PATH: '/nonexistent' });
    kernel = createKernel({ plugins: [plugin] });
    gateway = await startGatewayServer({
      kernel,
      upstream: createUpstream({ kind: 'openai', baseURL: 'http://127.0.0.1:9/v1', apiKey: 'unused', model: 'm' }),
      mode: 'direct',
      countTokens: false,
      log: () => undefined,
      routes: [plugin.gatewayPages.handle],
    });
    origin = `http://127.0.0.1:${gateway.port}`;
    plugin.gatewayPages.bind(origin);
    run = await kernel.createRun({});
  });
  afterAll(async () => {
    await run?.close();
    await gateway?.close();
    await kernel?.close();
  });

  it('is offered as the only mode without Chromium, and answers a viewer URL on the gateway', async () => {
    expect((run.tool('diffs')?.inputSchema.properties as Record<string, { enum?: string[] }>).mode?.enum).toEqual([
      'view',
    ]);
    const result = details(await run.call('diffs', { before: 'port 80\n', after: 'port 8080\n', path: 'app.conf' }));
    expect(result).toMatchObject({ mode: 'view', files: 1, additions: 1, deletions: 1, truncated: false });
    expect(result.viewerUrl.startsWith(`${origin}/plugins/diffs/view/${result.artifactId}/`)).toBe(true);
    const answer = await get(result.viewerUrl);
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('port 8080');
    await expect(run.call('diffs', { before: 'a', after: 'b', mode: 'file' })).rejects.toMatchObject({
      code: 'TOOL_ARGUMENTS_INVALID',
    });
  });

  it("is served only under the gateway's keyless rules: a foreign Host or Origin is refused", async () => {
    const { viewerUrl } = details(await run.call('diffs', { before: 'a\n', after: 'b\n' }));
    expect((await get(viewerUrl, { host: 'evil.example' })).status).toBe(403);
    expect((await get(viewerUrl, { host: `attacker.example:${gateway.port}` })).status).toBe(403);
    expect((await get(viewerUrl, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await get(viewerUrl, { origin: 'null' })).status).toBe(403);
    expect((await get(viewerUrl, { host: `localhost:${gateway.port}` })).status).toBe(200);
  });

  it('behind a gateway with keys, the page needs a key like every other route (a browser alone cannot open it)', async () => {
    const keyed = await startGatewayServer({
      kernel,
      upstream: createUpstream({ kind: 'openai', baseURL: 'http://127.0.0.1:9/v1', apiKey: 'unused', model: 'm' }),
      mode: 'direct',
      countTokens: false,
      log: () => undefined,
      token: 'viewer-test-key-0123456789',
      routes: [viewer.handle],
    });
    try {
      const { viewerPath } = details(await run.call('diffs', { before: 'a\n', after: 'b\n' }));
      const url = `http://127.0.0.1:${keyed.port}${viewerPath}`;
      expect((await get(url)).status).toBe(401);
      expect((await get(url, { authorization: 'Bearer viewer-test-key-0123456789' })).status).toBe(200);
    } finally {
      await keyed.close();
    }
  });

  it.skipIf(!CAN_DROP)('refuses another local user (uid 65534) with 403 AUTH_OTHER_USER', async () => {
    const { viewerUrl } = details(await run.call('diffs', { before: 'a\n', after: 'secret\n' }));
    expect(await fetchAsUser(OTHER_UID, viewerUrl)).toMatchObject({
      status: 403,
      json: { error: { code: 'AUTH_OTHER_USER' } },
    });
    expect((await fetchAsUser(undefined, viewerUrl)).status).toBe(200);
  });

  it('a huge diff is bounded: rows cut at maxLines, and the input limit still applies', async () => {
    const before = Array.from({ length: 1000 }, (_, i) => `line ${i}`).join('\n');
    const after = Array.from({ length: 1000 }, (_, i) => `LINE ${i}`).join('\n');
    const result = details(await run.call('diffs', { before, after }));
    expect(result).toMatchObject({ truncated: true, additions: 1000, deletions: 1000 });
    const { body } = await get(result.viewerUrl);
    expect(body.match(/<tr class="(add|del|ctx)">/g)?.length).toBe(200);
    const huge = await run.call('diffs', { before: 'x'.repeat(2_000_001), after: '' });
    expect(huge.status === 'error' && huge.error.code).toBe('DIFFS_INPUT_INVALID');
  });

  describe.skipIf(!CHROMIUM)('in Chromium, with JavaScript on', () => {
    it('renders the page, and no script, handler, refresh, style or resource from a hostile diff runs or loads', async () => {
      const trap = await tripwire();
      const hostile = [
        `<script>fetch('${trap.url}/script')</script>`,
        `</style><script>fetch('${trap.url}/after-style')</script>`,
        `</td></tr></table><img src="${trap.url}/img" onerror="fetch('${trap.url}/onerror')">`,
        `" onmouseover="fetch('${trap.url}/attr')" x="`,
        `' autofocus onfocus='fetch("${trap.url}/attr2")' x='`,
        `<meta http-equiv="refresh" content="0;url=${trap.url}/refresh">`,
        `<base href="${trap.url}/base/"><link rel="stylesheet" href="${trap.url}/css">`,
        `<style>body{background:url(${trap.url}/bg)}</style>`,
        `<iframe src="${trap.url}/frame"></iframe><svg onload="fetch('${trap.url}/svg')"></svg>`,
      ].join('\n');
      const result = details(
        await run.call('diffs', {
          before: 'safe\n',
          after: `${hostile}\n`,
          path: `"><script>fetch('${trap.url}/path')</script>`,
          title: `</title><script>fetch('${trap.url}/title')</script>`,
        }),
      );
      const browser = await chromium.launch({ executablePath: CHROMIUM!, args: [...CHROMIUM_FLAGS] });
      try {
        const page = await browser.newPage({ javaScriptEnabled: true });
        const errors: string[] = [];
        page.on('pageerror', (error) => errors.push(error.message));
        const response = await page.goto(result.viewerUrl, { waitUntil: 'load' });
        expect(response?.status()).toBe(200);
        expect(await page.locator('tr.add').count()).toBe(hostile.split('\n').length);
        expect(await page.locator('tr.del').count()).toBe(1);
        const text = await page.locator('body').innerText();
        expect(text).toContain(`<script>fetch('${trap.url}/script')</script>`);
        expect(text).toContain('</style><script>');
        expect(await page.locator('script, img, iframe, svg, link, base, meta[http-equiv="refresh"]').count()).toBe(0);
        expect(await page.title()).toContain('</title><script>');
        // Its own style applies under the CSP (allowed by hash): added lines are green.
        const green = "getComputedStyle(document.querySelector('tr.add')).backgroundColor";
        expect(await page.evaluate(green)).toBe('rgb(218, 251, 225)');
        await page.mouse.move(200, 200);
        expect(page.url()).toBe(result.viewerUrl); // no refresh took it anywhere
        expect(errors).toEqual([]);
      } finally {
        await browser.close();
      }
      expect(trap.hits()).toBe(0);
      await trap.close();
    }, 60_000);

    it('the CSP header is a second wall: markup that escaped escaping still runs and loads nothing', async () => {
      const trap = await tripwire();
      const raw = `<!doctype html><title>raw</title><script>fetch('${trap.url}/raw')</script><img src="${trap.url}/img"><style>@import url(${trap.url}/css);</style><p>raw</p>`;
      const { viewerUrl } = viewer.publish(raw, 60);
      const browser = await chromium.launch({ executablePath: CHROMIUM!, args: [...CHROMIUM_FLAGS] });
      try {
        const page = await browser.newPage({ javaScriptEnabled: true });
        await page.goto(viewerUrl, { waitUntil: 'load' });
        expect(await page.locator('p').innerText()).toBe('raw');
      } finally {
        await browser.close();
      }
      expect(trap.hits()).toBe(0);
      await trap.close();
    }, 60_000);
  });
});

describe('diffs with Chromium and a mounted viewer', () => {
  it.skipIf(!CHROMIUM)(
    'offers view, file and both; "both" answers the viewer URL and the file',
    async () => {
      const viewer = createDiffsViewer();
      viewer.bind('http://127.0.0.1:1');
      const { mkdtempSync } = await import('node:fs');
      const { tmpdir } = await import('node:os');
      const { join } = await import('node:path');
      const kernel = createKernel({
        plugins: [diffsPlugin({ viewer, outputDir: mkdtempSync(join(tmpdir(), 'tool-search-diffs-')) })],
      });
      const run = await kernel.createRun({});
      const schema = run.tool('diffs')?.inputSchema.properties as Record<string, { enum?: string[] }>;
      expect(schema.mode?.enum).toEqual(['view', 'file', 'both']);
      const outcome = await run.call('diffs', { before: 'a\n', after: 'b\n', mode: 'both', fileFormat: 'pdf' });
      const result = details(outcome);
      expect(result).toMatchObject({
        mode: 'both',
        fileFormat: 'pdf',
        viewerUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:1\//),
      });
      expect(outcome.status === 'ok' && outcome.result.content.map((c) => (c as { text: string }).text)).toEqual([
        result.viewerUrl,
        `MEDIA:${result.filePath as string}`,
      ]);
      const file = details(await run.call('diffs', { before: 'a\n', after: 'b\n' }));
      expect(file).toMatchObject({ mode: 'file', fileFormat: 'png' });
      expect(file.viewerUrl).toBeUndefined();
      await run.close();
      await kernel.close();
    },
    60_000,
  );
});
