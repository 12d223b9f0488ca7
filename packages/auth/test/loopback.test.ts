import { describe, expect, it } from 'vitest';
import { ToolSearchError } from '@tool-search/kernel';
import { AuthErrors, assertLoopbackRequest, authStatus, foreignBrowserHeader, isLoopbackHost } from '../src/index.js';

describe('the keyless loopback rule (Host / Origin)', () => {
  it('knows loopback names and addresses in any spelling, with or without a port', () => {
    for (const host of ['127.0.0.1', '127.0.0.1:8080', '127.9.9.9', 'localhost', 'LOCALHOST:3', '[::1]:80', '::1'])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['0x7f000001:9', '127.1', 'http://localhost:5173', 'https://[::1]'])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of [
      'evil.example',
      'evil.example:8080',
      '127.0.0.1.evil.example',
      'localhost.',
      'sub.localhost',
      'evil.example@127.0.0.1',
      '127.0.0.1/x',
      '0.0.0.0',
      '10.0.0.1',
      '[::ffff:127.0.0.1]',
      '',
      'null',
    ])
      expect(isLoopbackHost(host), host).toBe(false);
  });

  it('refuses a foreign Host (DNS rebinding) and a missing one', () => {
    expect(foreignBrowserHeader({ host: 'rebind.evil.example:8080' })).toBe('host');
    expect(foreignBrowserHeader({})).toBe('host');
    expect(foreignBrowserHeader({ host: '127.0.0.1:8080' })).toBeUndefined();
  });

  it('refuses a cross-site Origin, null and a non-http one; a loopback origin or none passes', () => {
    const host = '127.0.0.1:8080';
    for (const origin of [
      'https://evil.example',
      'null',
      'file://',
      'chrome-extension://abc',
      'http://127.0.0.1.evil.example',
    ])
      expect(foreignBrowserHeader({ host, origin }), origin).toBe('origin');
    for (const origin of ['http://127.0.0.1:8080', 'http://localhost:5173', undefined])
      expect(foreignBrowserHeader({ host, ...(origin ? { origin } : {}) }), origin).toBeUndefined();
  });

  it('throws AUTH_NOT_LOOPBACK, a 403, naming the header', () => {
    let caught: unknown;
    try {
      assertLoopbackRequest({ host: '127.0.0.1', origin: 'https://evil.example' });
    } catch (error) {
      caught = error;
    }
    expect(ToolSearchError.isInstance(caught) && caught.code).toBe(AuthErrors.AUTH_NOT_LOOPBACK);
    expect((caught as ToolSearchError).details).toEqual({ header: 'origin', value: 'https://evil.example' });
    expect(authStatus(caught)).toBe(403);
    expect(() => assertLoopbackRequest({ host: 'localhost:1' })).not.toThrow();
  });
});

describe('absolute-form request targets (red team)', () => {
  it('an absolute-form target must name loopback too; origin-form targets are unaffected', () => {
    const host = '127.0.0.1:8080';
    for (const target of [
      'http://evil.example/v1/chat/completions',
      'HTTP://evil.example:8080/mcp',
      'https://127.0.0.1.evil.example/',
      'http://127.0.0.1@evil.example/',
      '*',
      'evil.example:443',
    ])
      expect(foreignBrowserHeader({ host }, target), target).toBe('host');
    for (const target of [
      '/v1/chat/completions',
      '/mcp?x=http://evil.example',
      'http://localhost:9/x',
      'http://[::1]/',
    ])
      expect(foreignBrowserHeader({ host }, target), target).toBeUndefined();
    expect(() => assertLoopbackRequest({ host }, 'http://evil.example/x')).toThrow(
      expect.objectContaining({ code: AuthErrors.AUTH_NOT_LOOPBACK }),
    );
  });
});
