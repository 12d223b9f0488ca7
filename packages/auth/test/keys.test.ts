import { describe, expect, it } from 'vitest';
import { createApiKeys, generateApiKey, hashApiKey, presentedKey } from '../src/index.js';

const KEY_A = 'key-a-0123456789abcdef';
const KEY_B = 'key-b-0123456789abcdef';

describe('API keys', () => {
  const keys = createApiKeys(
    {
      keys: [
        { name: 'a', hash: hashApiKey(KEY_A), agents: ['main', 'ops'] },
        { env: 'TEST_KEY_B', agents: ['*'] },
      ],
    },
    { TEST_KEY_B: KEY_B },
  );

  it('hashes to sha256:<hex> and never keeps the key', () => {
    expect(hashApiKey(KEY_A)).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(JSON.stringify(keys)).not.toContain(KEY_A);
    expect(generateApiKey()).toMatch(/^tsk_[A-Za-z0-9_-]{43}$/);
    expect(generateApiKey()).not.toBe(generateApiKey());
  });

  it('reads the key from Authorization: Bearer or x-api-key', () => {
    expect(presentedKey({ authorization: `Bearer ${KEY_A}` })).toBe(KEY_A);
    expect(presentedKey({ authorization: `bearer  ${KEY_A}` })).toBe(KEY_A);
    expect(presentedKey({ 'x-api-key': KEY_A })).toBe(KEY_A);
    expect(presentedKey({ authorization: 'Basic abc' })).toBeUndefined();
  });

  it('authenticates a hashed key and an env key; refuses none and wrong keys', () => {
    expect(keys.authenticate({ authorization: `Bearer ${KEY_A}` })).toEqual({ keyId: 'a', agents: ['main', 'ops'] });
    expect(keys.authenticate({ 'x-api-key': KEY_B })?.agents).toEqual(['*']);
    expect(() => keys.authenticate({})).toThrow(expect.objectContaining({ code: 'AUTH_REQUIRED' }));
    expect(() => keys.authenticate({ authorization: `Bearer ${KEY_A}x` })).toThrow(
      expect.objectContaining({ code: 'AUTH_INVALID' }),
    );
    expect(() => keys.authenticate({ authorization: `Bearer ${KEY_A.slice(0, -1)}` })).toThrow(
      expect.objectContaining({ code: 'AUTH_INVALID' }),
    );
  });

  it('lets x-agent-id pick only among the agents a key allows', () => {
    const a = keys.authenticate({ authorization: `Bearer ${KEY_A}` });
    expect(keys.agentFor(a, undefined)).toBe('main');
    expect(keys.agentFor(a, 'ops')).toBe('ops');
    expect(keys.agentFor(a, undefined, 'ops')).toBe('ops');
    expect(keys.agentFor(a, undefined, 'admin')).toBe('main');
    expect(() => keys.agentFor(a, 'admin')).toThrow(expect.objectContaining({ code: 'AUTH_FORBIDDEN' }));
    const b = keys.authenticate({ authorization: `Bearer ${KEY_B}` });
    expect(keys.agentFor(b, 'admin')).toBe('admin');
    expect(keys.agentFor(b, undefined, 'x')).toBe('x');
    expect(keys.agentFor(b, undefined)).toBeUndefined();
  });

  it('is keyless without keys: no principal, the requested agent passes', () => {
    const none = createApiKeys(undefined);
    expect(none.size).toBe(0);
    expect(none.authenticate({})).toBeUndefined();
    expect(none.agentFor(undefined, 'any')).toBe('any');
  });

  it('refuses malformed entries at start-up with AUTH_KEY_INVALID', () => {
    const bad = [
      { hash: 'sha256:abc', agents: ['*'] },
      { hash: hashApiKey(KEY_A), agents: [] },
      { hash: hashApiKey(KEY_A), env: 'X', agents: ['*'] },
      { env: 'UNSET_VAR_FOR_TEST', agents: ['*'] },
      { env: 'SHORT', agents: ['*'] },
    ];
    for (const entry of bad)
      expect(() => createApiKeys({ keys: [entry] }, { SHORT: 'short' })).toThrow(
        expect.objectContaining({ code: 'AUTH_KEY_INVALID' }),
      );
    expect(() => hashApiKey('short')).toThrow(expect.objectContaining({ code: 'AUTH_KEY_INVALID' }));
  });

  it('derives a stable key id from the hash that does not reveal it', () => {
    const one = createApiKeys({ keys: [{ hash: hashApiKey(KEY_A), agents: ['*'] }] }).authenticate({
      authorization: `Bearer ${KEY_A}`,
    });
    const two = createApiKeys({
      keys: [{ hash: hashApiKey(KEY_A).toUpperCase().replace('SHA256', 'sha256'), agents: ['*'] }],
    }).authenticate({ authorization: `Bearer ${KEY_A}` });
    expect(one?.keyId).toBe(two?.keyId);
    expect(hashApiKey(KEY_A)).not.toContain(one!.keyId.slice(4));
  });

  it('adds a legacy plain token as a key for every agent', () => {
    const withToken = createApiKeys(undefined).withPlainKey('legacy-token-0123456789', 'token');
    expect(withToken.size).toBe(1);
    expect(withToken.authenticate({ 'x-api-key': 'legacy-token-0123456789' })).toEqual({
      keyId: 'token',
      agents: ['*'],
    });
  });
});
