import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError, ErrorCode } from '@tool-search/kernel';
import { configIssues, parseConfig, validateConfig } from '../src/index.js';

const openclaw = readFileSync(new URL('./fixtures/openclaw-sections.json5', import.meta.url), 'utf8');

function issuesOf(value: unknown) {
  return configIssues(value).map(({ path, rule }) => ({ path, rule }));
}

function thrown(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('OpenClaw sections', () => {
  it('accepts tools and agents sections pasted from openclaw.json verbatim', () => {
    expect(() => parseConfig(openclaw, 'openclaw-sections.json5')).not.toThrow();
  });

  it('accepts an empty config', () => {
    expect(configIssues({})).toEqual([]);
  });

  it('accepts toolSearch as a boolean', () => {
    expect(configIssues({ tools: { toolSearch: true } })).toEqual([]);
    expect(configIssues({ tools: { toolSearch: false } })).toEqual([]);
  });

  it('refuses a non-number for the toolSearch limits (NaN and Infinity included)', () => {
    for (const value of ['5000', Number.NaN, Number.POSITIVE_INFINITY, null, true]) {
      expect(configIssues({ tools: { toolSearch: { codeTimeoutMs: value } } })).toMatchObject([
        { path: '/tools/toolSearch/codeTimeoutMs', rule: 'type' },
      ]);
    }
  });

  it('accepts any number for the toolSearch limits (resolution clamps)', () => {
    expect(
      configIssues({ tools: { toolSearch: { codeTimeoutMs: -5, searchDefaultLimit: 2.5, maxSearchLimit: 1e9 } } }),
    ).toEqual([]);
  });

  it('accepts our own sections', () => {
    const config = {
      plugins: { 'fake-catalog': { tools: 50, core: true }, 'some-plugin': { anything: 1 } },
      mcp: {
        servers: {
          fs: { command: 'npx', args: ['-y', 'server'], env: { A: 'b' }, cwd: '/tmp', timeoutMs: 5000 },
          web: { url: 'http://x/mcp', headers: { A: 'b' } },
        },
      },
      provider: { baseURL: 'http://127.0.0.1:1234/v1', apiKeyEnv: 'OPENAI_API_KEY', model: 'gpt-4o-mini' },
      gateway: { host: '127.0.0.1', port: 8787, auth: { token: 't' }, sessions: { dir: '.sessions' } },
      session: { logDir: '.logs' },
      tools: { approvals: { require: ['exec'], timeoutMs: 30000, requireDestructive: true } },
    };
    expect(configIssues(config)).toEqual([]);
  });

  it('provider.promptCache: a boolean (the Anthropic upstream sends no cache_control when false)', () => {
    const provider = { kind: 'anthropic', baseURL: 'https://api.anthropic.com', model: 'claude', promptCache: false };
    expect(configIssues({ provider })).toEqual([]);
    expect(issuesOf({ provider: { ...provider, promptCache: 'off' } })).toEqual([
      { path: '/provider/promptCache', rule: 'type' },
    ]);
  });
});

describe('unknown keys', () => {
  it('names the path and the rule of a typo under tools', () => {
    const error = thrown(() => validateConfig({ tools: { alow: ['read'] } }));
    expect(error.code).toBe(ErrorCode.CONFIG_INVALID);
    expect(error.path).toBe('/tools/alow');
    expect(error.rule).toBe('additionalProperties');
  });

  it('suggests the closest known key', () => {
    const [issue] = configIssues({ tools: { alow: ['read'] } });
    expect(issue?.message).toContain('"allow"');
  });

  it('rejects unknown root keys', () => {
    expect(issuesOf({ tool: {} })).toEqual([{ path: '/tool', rule: 'additionalProperties' }]);
  });

  it('rejects unknown keys in an agent entry and its tools', () => {
    expect(issuesOf({ agents: { list: [{ id: 'a', tols: {}, tools: { dney: [] } }] } })).toEqual([
      { path: '/agents/list/0/tols', rule: 'additionalProperties' },
      { path: '/agents/list/0/tools/dney', rule: 'additionalProperties' },
    ]);
  });

  it('rejects unknown keys in loopDetection detectors', () => {
    expect(issuesOf({ tools: { loopDetection: { detectors: { pingpong: true } } } })).toEqual([
      { path: '/tools/loopDetection/detectors/pingpong', rule: 'additionalProperties' },
    ]);
  });

  it('rejects unknown keys in byProvider and sandbox entries', () => {
    expect(issuesOf({ tools: { byProvider: { openai: { alow: [] } }, sandbox: { tools: { deni: [] } } } })).toEqual([
      { path: '/tools/byProvider/openai/alow', rule: 'additionalProperties' },
      { path: '/tools/sandbox/tools/deni', rule: 'additionalProperties' },
    ]);
  });

  it('rejects unknown keys in toolSearch options', () => {
    expect(issuesOf({ tools: { toolSearch: { mod: 'code' } } })).toEqual([
      { path: '/tools/toolSearch/mod', rule: 'additionalProperties' },
    ]);
  });

  it('rejects an MCP server with both kinds of key (plugin-mcp reads `url` as HTTP, so `command` is the stray key)', () => {
    expect(issuesOf({ mcp: { servers: { a: { command: 'x', url: 'http://y' } } } })).toEqual([
      { path: '/mcp/servers/a/command', rule: 'additionalProperties' },
    ]);
  });
});

describe('wrong types', () => {
  it('rejects an unknown profile', () => {
    expect(issuesOf({ tools: { profile: 'everything' } })).toEqual([{ path: '/tools/profile', rule: 'enum' }]);
  });

  it('rejects a non-array allow list', () => {
    expect(issuesOf({ tools: { allow: 'read' } })).toEqual([{ path: '/tools/allow', rule: 'type' }]);
  });

  it('rejects non-string allow entries', () => {
    expect(issuesOf({ tools: { deny: ['exec', 3] } })).toEqual([{ path: '/tools/deny/1', rule: 'type' }]);
  });

  it('rejects toolSearch that is neither boolean nor object', () => {
    expect(issuesOf({ tools: { toolSearch: 'yes' } })).toEqual([{ path: '/tools/toolSearch', rule: 'anyOf' }]);
  });

  it('accepts the native toolSearch mode', () => {
    expect(issuesOf({ tools: { toolSearch: { mode: 'native' } } })).toEqual([]);
  });

  it('rejects an unknown toolSearch mode', () => {
    expect(issuesOf({ tools: { toolSearch: { mode: 'magic' } } })).toEqual([
      { path: '/tools/toolSearch/mode', rule: 'enum' },
    ]);
  });

  it('rejects an unknown code-mode sandbox backend', () => {
    expect(issuesOf({ tools: { toolSearch: { sandbox: 'v8' } } })).toEqual([
      { path: '/tools/toolSearch/sandbox', rule: 'enum' },
    ]);
  });

  it('requires an agent id', () => {
    expect(issuesOf({ agents: { list: [{ name: 'x' }] } })).toEqual([{ path: '/agents/list/0/id', rule: 'required' }]);
  });

  it('requires provider baseURL and model', () => {
    expect(issuesOf({ provider: {} })).toEqual([
      { path: '/provider/baseURL', rule: 'required' },
      { path: '/provider/model', rule: 'required' },
    ]);
  });

  it('rejects a gateway port out of range', () => {
    expect(issuesOf({ gateway: { port: 70000 } })).toEqual([{ path: '/gateway/port', rule: 'maximum' }]);
  });

  it('accepts auth keys by hash or env, and rejects a plain key in hash or a key without agents', () => {
    expect(
      issuesOf({
        auth: {
          keys: [
            { name: 'ci', hash: `sha256:${'ab'.repeat(32)}`, agents: ['ci'] },
            { env: 'TOOL_SEARCH_API_KEY', agents: ['*'] },
          ],
        },
      }),
    ).toEqual([]);
    expect(issuesOf({ auth: { keys: [{ hash: 'my-plain-secret', agents: ['*'] }] } })).toEqual([
      { path: '/auth/keys/0/hash', rule: 'pattern' },
    ]);
    expect(issuesOf({ auth: { keys: [{ hash: `sha256:${'ab'.repeat(32)}`, agents: [] }] } })).toEqual([
      { path: '/auth/keys/0/agents', rule: 'minItems' },
    ]);
    expect(issuesOf({ auth: { keys: [{ key: 'plain', agents: ['*'] }] } })).toEqual([
      { path: '/auth/keys/0/key', rule: 'additionalProperties' },
    ]);
  });

  it('rejects fake-catalog options of the wrong type', () => {
    expect(issuesOf({ plugins: { 'fake-catalog': { tools: 'many' } } })).toEqual([
      { path: '/plugins/fake-catalog/tools', rule: 'type' },
    ]);
  });

  it('rejects a non-integer loop detection threshold', () => {
    expect(issuesOf({ tools: { loopDetection: { warningThreshold: '10' } } })).toEqual([
      { path: '/tools/loopDetection/warningThreshold', rule: 'type' },
    ]);
  });

  it('rejects approvals.require that is not a string list', () => {
    expect(issuesOf({ tools: { approvals: { require: 'exec' } } })).toEqual([
      { path: '/tools/approvals/require', rule: 'type' },
    ]);
  });

  it('returns every error, not just the first', () => {
    const error = thrown(() => validateConfig({ tools: { alow: [], profile: 1 }, gateway: { port: -1 } }));
    expect((error.details?.errors as unknown[]).length).toBe(3);
  });
});

describe('MCP server entries (issue 16 items 1 and 7)', () => {
  it('says a misspelled command key is unknown and suggests command, instead of asking for url', () => {
    const issues = configIssues({ mcp: { servers: { fs: { comand: 'npx', args: ['x'] } } } });
    // Issue 41: the typo is the one issue (the "command is required" it caused is gone), first, with its fix.
    expect(issues).toEqual([
      {
        path: '/mcp/servers/fs/comand',
        rule: 'additionalProperties',
        message: 'unknown key "comand": did you mean "command"?',
      },
    ]);
  });

  it('suggests command in a Claude Desktop mcpServers entry too, where the typo made it read as an http entry', () => {
    // Issue 41: this said "url is required" and listed only the http keys (type, url, headers).
    const error = thrown(() => validateConfig({ mcpServers: { fs: { comand: 'npx', args: ['x'] } } }));
    expect(error).toMatchObject({
      code: ErrorCode.CONFIG_INVALID,
      path: '/mcpServers/fs/comand',
      rule: 'additionalProperties',
    });
    expect(error.details?.errors).toEqual([
      {
        path: '/mcpServers/fs/comand',
        rule: 'additionalProperties',
        message: 'unknown key "comand": did you mean "command"?',
      },
    ]);
  });

  it('keeps the other issues of the entry: a wrong value and a key still missing once the typo is fixed', () => {
    expect(issuesOf({ mcp: { servers: { fs: { comand: 'npx', cwd: '' } } } })).toEqual([
      { path: '/mcp/servers/fs/comand', rule: 'additionalProperties' },
      { path: '/mcp/servers/fs/cwd', rule: 'minLength' },
    ]);
    expect(issuesOf({ agents: { list: [{ idd: 'main' }] } })).toEqual([
      { path: '/agents/list/0/idd', rule: 'additionalProperties' },
    ]);
    expect(issuesOf({ agents: { list: [{ nmae: 'Main' }] } })).toEqual([
      { path: '/agents/list/0/nmae', rule: 'additionalProperties' },
      { path: '/agents/list/0/id', rule: 'required' },
    ]);
  });

  it('suggests url for a misspelled url key', () => {
    const issues = configIssues({ mcp: { servers: { web: { urll: 'http://x/mcp' } } } });
    expect(issues.find((issue) => issue.rule === 'additionalProperties')?.message).toContain('"url"');
  });

  it('names a bad server name with the path format of every other issue', () => {
    const error = thrown(() =>
      validateConfig({ mcp: { servers: { 'bad name': { command: 'x' }, 'a:b': { command: 'y' } } } }),
    );
    expect(error).toMatchObject({
      code: ErrorCode.CONFIG_INVALID,
      path: '/mcp/servers/bad name',
      rule: 'propertyNames',
    });
    expect((error.details?.errors as { path: string }[]).map((issue) => issue.path)).toEqual([
      '/mcp/servers/bad name',
      '/mcp/servers/a:b',
    ]);
  });
});

describe('tools.toolSearch.embeddings', () => {
  it('accepts the embedder options and resolves them into toolSearch', async () => {
    const { resolveToolSearch } = await import('../src/index.js');
    const embeddings = {
      baseURL: 'http://127.0.0.1:11434/v1',
      model: 'nomic-embed-text',
      cacheDir: '.vectors',
      batchSize: 32,
    };
    expect(configIssues({ tools: { toolSearch: { embeddings } } })).toEqual([]);
    expect(resolveToolSearch({ embeddings }).embeddings).toEqual(embeddings);
    expect(resolveToolSearch({}).embeddings).toBeUndefined();
  });

  it('names the path and rule of a bad embedder option', () => {
    expect(issuesOf({ tools: { toolSearch: { embeddings: { model: 'm' } } } })).toContainEqual({
      path: '/tools/toolSearch/embeddings/baseURL',
      rule: 'required',
    });
    expect(issuesOf({ tools: { toolSearch: { embeddings: { baseURL: 'ftp://x', model: 'm' } } } })).toContainEqual({
      path: '/tools/toolSearch/embeddings/baseURL',
      rule: 'pattern',
    });
    const error = thrown(() =>
      parseConfig(
        '{ tools: { toolSearch: { embeddings: { baseURL: "http://x", model: "m", fusion: "max" } } } }',
        'c.json5',
      ),
    );
    expect(error.code).toBe(ErrorCode.CONFIG_INVALID);
  });
});

describe('MCP server OAuth settings', () => {
  it('accepts auth on an HTTP server and rejects unknown auth keys', () => {
    expect(
      issuesOf({
        mcp: {
          servers: {
            linear: {
              url: 'https://mcp.linear.app/mcp',
              auth: { clientId: 'abc', clientSecretEnv: 'LINEAR_SECRET', scope: 'read' },
            },
          },
        },
      }),
    ).toEqual([]);
    expect(issuesOf({ mcp: { servers: { linear: { url: 'https://x/mcp', auth: { clientid: 'abc' } } } } })).toEqual([
      { path: '/mcp/servers/linear/auth/clientid', rule: 'additionalProperties' },
    ]);
  });
});

describe('tools.sessions, state and telemetry', () => {
  it('checks tools.sessions.visibility and lets OpenClaw keys beside it pass', () => {
    expect(configIssues({ tools: { sessions: { visibility: 'tree', other: 1 } } })).toEqual([]);
    expect(configIssues({ tools: { sessions: { visibility: 'everyone' } } })).toMatchObject([
      { path: '/tools/sessions/visibility', rule: 'enum' },
    ]);
  });

  it('checks the state and telemetry blocks', () => {
    expect(
      configIssues({
        state: { redis: { url: 'redis://127.0.0.1:6379', keyPrefix: 'ts:' }, replicaId: 'a' },
        telemetry: { otlp: { endpoint: 'http://127.0.0.1:4318' } },
      }),
    ).toEqual([]);
    expect(configIssues({ state: { redis: { url: 'http://127.0.0.1:6379' } } })).toMatchObject([
      { path: '/state/redis/url', rule: 'pattern' },
    ]);
    expect(configIssues({ state: { redis: {} } })).toMatchObject([{ path: '/state/redis/url', rule: 'required' }]);
    expect(configIssues({ telemetry: { otlp: { endpoint: 'collector:4318' } } })).toMatchObject([
      { path: '/telemetry/otlp/endpoint', rule: 'pattern' },
    ]);
  });
});

describe('tools.toolSearch.learning', () => {
  it('takes a boolean or the plugin options at the top level, and resolves false to disabled', async () => {
    const { resolveToolSearch } = await import('../src/index.js');
    expect(configIssues({ tools: { toolSearch: { learning: false } } })).toEqual([]);
    expect(
      configIssues({ tools: { toolSearch: { learning: { scope: 'deployment', halfLifeDays: 7, maxEntries: 500 } } } }),
    ).toEqual([]);
    expect(resolveToolSearch({ learning: false }).learning).toEqual({ enabled: false });
    expect(resolveToolSearch({ mode: 'tools' }).learning).toBeUndefined();
  });

  it('refuses a bad value with its path, and learning under an agent (it is per deployment)', () => {
    expect(
      configIssues({ tools: { toolSearch: { learning: { scope: 'everyone' } } } }).map((issue) => issue.path),
    ).toContain('/tools/toolSearch/learning/scope');
    expect(configIssues({ tools: { toolSearch: { learning: { maxEntries: 0 } } } }).length).toBeGreaterThan(0);
    expect(
      configIssues({ agents: { list: [{ id: 'a', tools: { toolSearch: { learning: true } } }] } }).length,
    ).toBeGreaterThan(0);
  });
});

describe("tools.toolSearch.directory / .direct (the modes' own options)", () => {
  it('takes directory.turnTools, directory.budgetChars and direct.budgetChars and resolves them for the modes', async () => {
    const { resolveToolSearch } = await import('../src/index.js');
    const toolSearch = {
      mode: 'directory' as const,
      directory: { turnTools: 0, budgetChars: 3000 },
      direct: { budgetChars: 0 },
    };
    expect(configIssues({ tools: { toolSearch } })).toEqual([]);
    expect(resolveToolSearch(toolSearch)).toMatchObject({
      directory: { turnTools: 0, budgetChars: 3000 },
      direct: { budgetChars: 0 },
    });
    // The older directoryBudgetChars still counts; directory.budgetChars wins over it.
    expect(resolveToolSearch({ directoryBudgetChars: 5000 }).directory).toEqual({ budgetChars: 5000 });
    expect(resolveToolSearch({ directoryBudgetChars: 5000, directory: { budgetChars: 100 } }).directory).toEqual({
      budgetChars: 100,
    });
  });

  it.each([
    [{ directory: { turnTools: 21 } }, '/tools/toolSearch/directory/turnTools', 'maximum'],
    [{ directory: { turnTools: -1 } }, '/tools/toolSearch/directory/turnTools', 'minimum'],
    [{ directory: { turnTools: 2.5 } }, '/tools/toolSearch/directory/turnTools', 'type'],
    [{ directory: { turnTools: '5' } }, '/tools/toolSearch/directory/turnTools', 'type'],
    [{ directory: { budgetChars: -10 } }, '/tools/toolSearch/directory/budgetChars', 'minimum'],
    [{ directory: { turnTool: 3 } }, '/tools/toolSearch/directory/turnTool', 'additionalProperties'],
    [{ direct: { budgetChars: 'lots' } }, '/tools/toolSearch/direct/budgetChars', 'type'],
    [{ direct: { budgetChars: 1e9 } }, '/tools/toolSearch/direct/budgetChars', 'maximum'],
    [{ direct: { budgetChars: -1 } }, '/tools/toolSearch/direct/budgetChars', 'minimum'],
  ])('refuses %j naming %s (%s)', (toolSearch, path, rule) => {
    expect(configIssues({ tools: { toolSearch } })).toEqual([expect.objectContaining({ path, rule })]);
  });

  it('refuses them under an agent or a provider (the modes are built once per deployment)', () => {
    expect(
      configIssues({ agents: { list: [{ id: 'a', tools: { toolSearch: { directory: { turnTools: 3 } } } }] } }).map(
        (issue) => issue.path,
      ),
    ).toContain('/agents/list/0/tools/toolSearch/directory');
    expect(
      configIssues({ tools: { byProvider: { openai: { toolSearch: { direct: { budgetChars: 10 } } } } } }).map(
        (issue) => issue.path,
      ),
    ).toContain('/tools/byProvider/openai/toolSearch/direct');
  });
});
