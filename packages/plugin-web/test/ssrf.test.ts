/**
 * web_fetch is safe by default: a model-chosen URL cannot reach this machine
 * or its network. Every case is refused before a connection is made, so none
 * of these addresses sees traffic; the loopback server counts its hits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, ToolSearchError, type Run } from '@tool-search/kernel';
import { isPublicAddress, webPlugin } from '../src/index.js';
import { checkUrl, createFetcher } from '../src/fetch-page.js';
import { FETCH_DEFAULTS } from '../src/options.js';
import { serve, type TestServer } from './serve.js';
import { NetGuardErrors } from '@tool-search/net-guard';

let server: TestServer;
let run: Run;

beforeAll(async () => {
  server = await serve({
    '/secret': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('SECRET'),
    '/to-secret': (_req, res) => res.writeHead(302, { location: `http://127.0.0.2:${server.port}/secret` }).end(),
    '/to-file': (_req, res) => res.writeHead(302, { location: 'file:///etc/passwd' }).end(),
  });
  run = await createKernel({ plugins: [webPlugin({ env: {} })] }).createRun({});
});
afterAll(async () => {
  await run.close();
  await server.close();
});

const refusal = async (url: string) => {
  const outcome = await run.call('web_fetch', { url });
  return outcome.status === 'error' ? outcome.error.code : outcome.status;
};

describe('web_fetch refuses private, loopback and link-local targets by default', () => {
  it.each([
    ['loopback literal', () => `http://127.0.0.1:${server.port}/secret`],
    ['localhost (resolved by DNS)', () => `http://localhost:${server.port}/secret`],
    ['IPv6 loopback', () => `http://[::1]:${server.port}/secret`],
    ['IPv4-mapped IPv6 loopback', () => `http://[::ffff:127.0.0.1]:${server.port}/secret`],
    ['hex IPv4', () => `http://0x7f000001:${server.port}/secret`],
    ['decimal IPv4', () => `http://2130706433:${server.port}/secret`],
    ['unspecified 0.0.0.0', () => `http://0.0.0.0:${server.port}/secret`],
    ['cloud metadata (link-local)', () => 'http://169.254.169.254/latest/meta-data/'],
    ['private 10/8', () => 'http://10.0.0.1/'],
    ['private 192.168/16', () => 'http://192.168.1.1/'],
    ['carrier-grade NAT', () => 'http://100.64.0.1/'],
    ['IPv6 unique local', () => 'http://[fd00::1]/'],
    ['IPv6 link-local', () => 'http://[fe80::1]/'],
    ['IPv4-compatible IPv6 loopback [::127.0.0.1]', () => `http://[::127.0.0.1]:${server.port}/secret`],
    ['IPv4-compatible IPv6 metadata [::a9fe:a9fe]', () => 'http://[::a9fe:a9fe]/latest/meta-data/'],
    ['IPv4-compatible IPv6 with a public address (deprecated form)', () => 'http://[::8.8.8.8]/'],
    ['IPv4-mapped metadata', () => 'http://[::ffff:169.254.169.254]/'],
    ['IPv4-translated (SIIT) loopback', () => `http://[::ffff:0:127.0.0.1]:${server.port}/secret`],
    ['NAT64 of loopback', () => 'http://[64:ff9b::127.0.0.1]/'],
    ['NAT64 of 10/8', () => 'http://[64:ff9b::10.0.0.1]/'],
    ['local-use NAT64 prefix', () => 'http://[64:ff9b:1::a00:1]/'],
    ['6to4 of loopback', () => 'http://[2002:7f00:1::1]/'],
    ['6to4 of metadata', () => 'http://[2002:a9fe:a9fe::1]/'],
    ['Teredo with a private server', () => 'http://[2001:0:a00:1:8000:63bf:3fff:fdd2]/'],
    ['Teredo with a loopback client', () => 'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/'],
    ['IPv6 outside global unicast (discard prefix 100::/64)', () => 'http://[100::1]/'],
    ['deprecated site-local fec0::/10', () => 'http://[fec0::1]/'],
  ])('%s', async (_name, url) => {
    expect(await refusal(url())).toBe(NetGuardErrors.URL_NOT_ALLOWED);
  });

  it.each([
    ['file:///etc/passwd'],
    ['ftp://example.com/x'],
    ['javascript:alert(1)'],
    ['not a url'],
    ['http://user:pw@example.com/'],
  ])('refuses %s', async (url) => {
    expect(await refusal(url)).toBe(NetGuardErrors.URL_NOT_ALLOWED);
  });

  it('sent nothing to the loopback server', () => {
    expect(server.hits.get('/secret') ?? 0).toBe(0);
  });
});

describe('embedded IPv4 forms are judged by the address they embed', () => {
  it.each([
    ['::ffff:8.8.8.8', true],
    ['64:ff9b::808:808', true],
    ['2002:808:808::1', true],
    ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', true],
    ['2606:4700:4700::1111', true],
    ['::7f00:1', false],
    ['::a9fe:a9fe', false],
    ['::ffff:7f00:1', false],
    ['64:ff9b::a9fe:a9fe', false],
    ['2002:c0a8:101::1', false],
  ])('%s public: %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });

  it('names the embedded range in the refusal', () => {
    const error = (() => {
      try {
        checkUrl('http://[2002:7f00:1::1]/', false);
      } catch (e) {
        return e as ToolSearchError;
      }
    })();
    expect(error).toMatchObject({
      code: NetGuardErrors.URL_NOT_ALLOWED,
      details: { rule: 'privateAddress', range: '6to4:loopback' },
    });
  });
});

describe('redirects are checked again', () => {
  // 127.0.0.1 stands in for a public host here; everything else is refused as usual.
  const fetcher = createFetcher({
    ...FETCH_DEFAULTS,
    allowPrivate: false,
    timeoutSeconds: 2,
    maxResponseBytes: 10_000,
    maxRedirects: 3,
    addressAllowed: (address) => address === '127.0.0.1',
  });
  afterAll(() => fetcher.close());
  const rule = async (path: string) => {
    const error = await fetcher
      .fetchPage(`${server.url}${path}`, new AbortController().signal)
      .catch((e: unknown) => e);
    return ToolSearchError.isInstance(error) ? [error.code, (error.details as { rule?: string }).rule] : ['no error'];
  };

  it('refuses a redirect to another loopback address, which is never contacted', async () => {
    expect(await rule('/to-secret')).toEqual([NetGuardErrors.URL_NOT_ALLOWED, 'privateAddress']);
    expect(server.hits.get('/secret') ?? 0).toBe(0);
  });

  it('refuses a redirect to a file: URL', async () => {
    expect(await rule('/to-file')).toEqual([NetGuardErrors.URL_NOT_ALLOWED, 'scheme']);
  });
});
