import { createServer, type Server } from 'node:http';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkHost, guardedLookup, ipLiteral, isPublicAddress } from '../src/index.js';

const rule = { tool: 'test_tool', setting: 'test.allowPrivate' };

describe('the address rule: public unicast only', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '0.0.0.0',
  ])('refuses %s', (address) => expect(isPublicAddress(address)).toBe(false));

  it('passes public unicast addresses', () => {
    expect(isPublicAddress('93.184.215.14')).toBe(true);
    expect(isPublicAddress('2606:4700::1111')).toBe(true);
  });

  it('reads IP literals in any spelling', () => {
    expect(ipLiteral('0x7f000001')).toBe('127.0.0.1');
    expect(ipLiteral('2130706433')).toBe('127.0.0.1');
    expect(ipLiteral('[::1]')).toBe('::1');
    expect(ipLiteral('example.com')).toBeUndefined();
  });
});

describe('checkHost refuses before connecting', () => {
  it('refuses a loopback literal and a name that resolves to loopback, naming the setting', async () => {
    await expect(checkHost('2130706433', rule)).rejects.toMatchObject({
      code: 'URL_NOT_ALLOWED',
      details: { rule: 'privateAddress', address: '127.0.0.1' },
    });
    await expect(checkHost('localhost', rule)).rejects.toMatchObject({ code: 'URL_NOT_ALLOWED' });
    await expect(checkHost('localhost', rule)).rejects.toThrow(/test\.allowPrivate/);
  });

  it('lets the caller widen the rule', async () => {
    await expect(checkHost('127.0.0.1', rule, () => true)).resolves.toBeUndefined();
  });
});

describe('guardedLookup checks the address the connection uses', () => {
  let server: Server;
  let port = 0;
  let hits = 0;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      hits++;
      res.end('secret');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const get = (allowed?: (a: string) => boolean) =>
    new Promise<string>((resolve, reject) => {
      const req = request({ host: 'localhost', port, family: 4, lookup: guardedLookup(rule, allowed) }, (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve(body));
      });
      req.on('error', reject);
      req.end();
    });

  it('a connection to a name resolving to loopback fails with URL_NOT_ALLOWED and sends nothing', async () => {
    await expect(get()).rejects.toMatchObject({ code: 'URL_NOT_ALLOWED' });
    expect(hits).toBe(0);
  });

  it('connects when the rule allows the address', async () => {
    await expect(get((address) => address === '127.0.0.1')).resolves.toBe('secret');
  });
});
