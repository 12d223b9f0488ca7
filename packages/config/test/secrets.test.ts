/**
 * Secrets are marked in the schema (`writeOnly`), and redaction reads only the mark (plus URL credentials anywhere):
 * every secret-bearing field of a full config is hidden, whatever section holds it.
 */
import { describe, expect, it } from 'vitest';
import { REDACTED_SECRET, redactSecrets, redactUrl, secretPaths, validateConfig } from '../src/index.js';

const FULL = {
  provider: { baseURL: 'https://user:pw-url@llm.example/v1?key=q-secret', model: 'm', apiKey: 'sk-provider' },
  tools: {
    web: {
      search: { apiKey: 'brave-key', perplexity: { apiKey: 'pplx-key' }, gemini: { apiKey: 'gem-key' } },
      fetch: { firecrawl: { apiKey: 'fc-key' } },
    },
    exec: { env: { EXEC_TOKEN: 'exec-env' } },
    toolSearch: { embeddings: { baseURL: 'http://emb.example', model: 'e', apiKey: 'emb-key' } },
  },
  mcp: {
    servers: {
      a: { command: 'x', args: ['--api-key', 'mcp-arg'], env: { K: 'mcp-env' } },
      b: {
        url: 'https://h.example/mcp?token=mcp-query',
        headers: { Authorization: 'mcp-header' },
        auth: { clientSecret: 'mcp-client' },
      },
    },
  },
  mcpServers: {
    c: { command: 'y', args: ['servers-arg'], env: { Q: 'servers-env' } },
    d: { url: 'https://d.example', headers: { h: 'servers-header' } },
  },
  plugins: { core: {}, './p.js': { secret: 'module-option' } },
  state: { redis: { url: 'redis://:redis-pw@localhost:6379' } },
  telemetry: { otlp: { endpoint: 'http://c.example', headers: { a: 'otlp-header' } } },
  gateway: { auth: { token: 'gateway-token' } },
  browser: { cdpUrl: 'ws://tok-user@127.0.0.1:9222/devtools', profiles: { work: { cdpToken: 'browser-token' } } },
  agents: { defaults: { memorySearch: { remote: { apiKey: 'loose-key' } }, contextTokens: 1000 } },
};

describe('secrets by schema', () => {
  it('the full config is valid, and every secret in it is redacted', () => {
    validateConfig(FULL);
    const shown = JSON.stringify(redactSecrets(FULL));
    for (const value of [
      'sk-provider',
      'pw-url',
      'q-secret',
      'brave-key',
      'pplx-key',
      'gem-key',
      'fc-key',
      'exec-env',
      'emb-key',
      'mcp-arg',
      'mcp-env',
      'mcp-query',
      'mcp-header',
      'mcp-client',
      'servers-arg',
      'servers-env',
      'servers-header',
      'module-option',
      'redis-pw',
      'otlp-header',
      'browser-token',
      'loose-key',
      'gateway-token',
      'tok-user',
    ])
      expect(shown, value).not.toContain(value);
    // What is not a secret stays readable.
    expect(shown).toContain('llm.example');
    expect(shown).toContain('"model":"m"');
    expect(shown).toContain('"contextTokens":1000');
  });

  it('names the marked paths present, read from the schema', () => {
    const paths = secretPaths(FULL).map((path) => path.join('.'));
    expect(paths).toEqual(
      expect.arrayContaining([
        'provider.apiKey',
        'tools.web.search.gemini.apiKey',
        'mcp.servers.a.args',
        'mcp.servers.b.auth.clientSecret',
        'mcpServers.c.env',
        'plugins../p.js',
        'telemetry.otlp.headers.a',
        'gateway.auth.token',
      ]),
    );
    expect(paths).not.toContain('plugins.core');
  });

  it('URL credentials: userinfo and every query value', () => {
    expect(redactUrl('redis://:pw@h:1/0')).toBe(`redis://:${REDACTED_SECRET}@h:1/0`);
    expect(redactUrl('https://tok@h/x?a=1&b=2')).toBe(
      `https://${REDACTED_SECRET}@h/x?a=${REDACTED_SECRET}&b=${REDACTED_SECRET}`,
    );
    expect(redactUrl('https://h/x')).toBe('https://h/x');
    expect(redactUrl('not a url ?x=1')).toBe('not a url ?x=1');
  });
});
