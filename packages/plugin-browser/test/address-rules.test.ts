/**
 * "Navigation obeys the same address rules as web_fetch": without browser.allowPrivate a page reaches public
 * addresses only. Loopback pages stand in for the internet, so the second half widens the rule to 127.0.0.1 only
 * (as if it were public) and proves that redirects, subresources and page scripts still cannot reach 127.0.0.2.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Run } from '@tool-search/kernel';
import { browserRun, errorCode, html, ok, serve, tempDir, type TestServer, chromiumMissing } from './helpers.js';

const runnable = !chromiumMissing('the browser address-rule tests');
let publicSite: TestServer;
let privateSite: TestServer;

beforeAll(async () => {
  if (!runnable) return;
  privateSite = await serve(
    { '/secret': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('SECRET') },
    '127.0.0.2',
  );
  publicSite = await serve({
    '/hello': html('<p>hello</p>', 'Hello'),
    '/to-private': (_req, res) => res.writeHead(302, { location: `${privateSite.origin}/secret` }).end(),
    '/subresources': html(
      `<img src="${privateSite.origin}/secret?img"><iframe src="${privateSite.origin}/secret?frame"></iframe>
       <script>fetch('${privateSite.origin}/secret?fetch').catch(() => {}); fetch('https://127.0.0.2:${privateSite.port}/secret').catch(() => {});</script>`,
      'Subresources',
    ),
  });
});
afterAll(async () => {
  await publicSite?.close();
  await privateSite?.close();
});

describe.skipIf(!runnable)('without browser.allowPrivate, navigation is refused for private addresses', () => {
  let run: Run;
  beforeAll(async () => {
    run = await browserRun({ browser: { profiles: { chrome: { cdpPort: 18852 } } }, stateDir: tempDir('rules') });
    ok(await run.call('browser', { action: 'start' }));
  }, 60_000);
  afterAll(async () => run?.close());

  it.each([
    ['loopback literal', () => `${publicSite.origin}/hello`],
    ['localhost (resolved by DNS)', () => `http://localhost:${publicSite.port}/hello`],
    ['IPv6 loopback', () => `http://[::1]:${publicSite.port}/hello`],
    ['decimal IPv4 loopback', () => `http://2130706433:${publicSite.port}/hello`],
    ['cloud metadata (link-local)', () => 'http://169.254.169.254/latest/meta-data/'],
    ['private 10/8', () => 'http://10.0.0.1/'],
  ])('open refuses %s with URL_NOT_ALLOWED', async (_name, url) => {
    expect(errorCode(await run.call('browser', { action: 'open', targetUrl: url() }))).toBe('URL_NOT_ALLOWED');
    expect(errorCode(await run.call('browser', { action: 'navigate', targetUrl: url() }))).toBe('URL_NOT_ALLOWED');
  });

  it.each([
    ['file:///etc/passwd'],
    ['chrome://version'],
    ['javascript:alert(1)'],
    ['data:text/html,<p>x</p>'],
    ['http://user:pw@example.com/'],
    ['not a url'],
  ])('refuses %s', async (url) => {
    expect(errorCode(await run.call('browser', { action: 'navigate', targetUrl: url }))).toBe('URL_NOT_ALLOWED');
  });

  it('create-profile refuses a cdpUrl on a private address (the model would attach to a browser on this machine)', async () => {
    expect(
      errorCode(
        await run.call('browser', {
          action: 'create-profile',
          name: 'sneaky',
          cdpUrl: `http://127.0.0.1:${publicSite.port}`,
        }),
      ),
    ).toBe('URL_NOT_ALLOWED');
    expect(
      errorCode(
        await run.call('browser', {
          action: 'create-profile',
          name: 'sneaky',
          cdpUrl: 'ws://169.254.169.254/devtools',
        }),
      ),
    ).toBe('URL_NOT_ALLOWED');
    expect(errorCode(await run.call('browser', { action: 'start', profile: 'sneaky' }))).toBe(
      'BROWSER_PROFILE_UNKNOWN',
    );
  });

  it('sent nothing to the loopback server', () => {
    expect(publicSite.hits.get('/hello') ?? 0).toBe(0);
  });
});

describe.skipIf(!runnable)(
  'what a page does is held to the rule too (127.0.0.1 counted as public, 127.0.0.2 private)',
  () => {
    let run: Run;
    beforeAll(async () => {
      run = await browserRun({
        browser: { profiles: { chrome: { cdpPort: 18853 } } },
        stateDir: tempDir('proxy'),
        addressAllowed: (address) => address === '127.0.0.1',
      });
      ok(await run.call('browser', { action: 'start' }));
    }, 60_000);
    afterAll(async () => run?.close());

    it('an allowed page loads through the guarded proxy', async () => {
      expect(ok(await run.call('browser', { action: 'open', targetUrl: `${publicSite.origin}/hello` }))).toMatchObject({
        title: 'Hello',
        loaded: true,
      });
    });

    it('a redirect to a private address is refused with URL_NOT_ALLOWED', async () => {
      expect(
        errorCode(await run.call('browser', { action: 'navigate', targetUrl: `${publicSite.origin}/to-private` })),
      ).toBe('URL_NOT_ALLOWED');
    });

    it('images, frames, fetch and https tunnels to a private address are refused by the proxy', async () => {
      const result = ok(
        await run.call('browser', { action: 'navigate', targetUrl: `${publicSite.origin}/subresources` }),
      );
      expect(result.loaded).toBe(true);
      ok(await run.call('browser', { action: 'act', request: { kind: 'wait', loadState: 'load' } }));
      const fetchFrom = (url: string) =>
        `async () => { try { const r = await fetch('${'${url}'}', { mode: 'no-cors' }); return r.type + ':' + r.status; } catch (e) { return 'failed'; } }`.replace(
          '${url}',
          url,
        );
      // The proxy answers a refused plain-http request itself; a refused https tunnel fails the request.
      const plain = ok(
        await run.call('browser', {
          action: 'act',
          request: { kind: 'evaluate', fn: fetchFrom(`${privateSite.origin}/secret?eval`) },
        }),
      );
      expect(plain.result).not.toBe('basic:200');
      const tunnel = ok(
        await run.call('browser', {
          action: 'act',
          request: { kind: 'evaluate', fn: fetchFrom(`https://127.0.0.2:${privateSite.port}/secret`) },
        }),
      );
      expect(tunnel.result).toBe('failed');
      expect(privateSite.hits.get('/secret') ?? 0).toBe(0);
    });

    it('the private server saw no request at all', () => {
      expect(privateSite.hits.size).toBe(0);
    });
  },
);
