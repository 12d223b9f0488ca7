// The config schema takes the MCP and embeddings sections from the plugins' own schemas: each rule that had drifted
// between the old copy in config and the plugin is checked here, and the plugin's rule is the one that holds.
import { describe, expect, it } from 'vitest';
import { parseMcpOptions } from '@tool-search/plugin-mcp';
import { parseEmbeddingsOptions } from '@tool-search/plugin-embeddings';
import { resolveApprovalsConfig } from '@tool-search/plugin-approvals';
import { checkLoopDetectionSettings } from '@tool-search/plugin-loop-detection';
import { configIssues, validateConfig } from '../src/index.js';

const issuesOf = (value: unknown) => configIssues(value).map(({ path, rule }) => ({ path, rule }));
const server = (entry: Record<string, unknown>) => ({ mcp: { servers: { a: entry } } });
/** What plugin-mcp itself says about the same server entry: `undefined` when it accepts it. */
function pluginVerdict(entry: Record<string, unknown>): string | undefined {
  try {
    parseMcpOptions({ servers: { a: entry } });
    return undefined;
  } catch (error) {
    return (error as { rule: string }).rule;
  }
}

describe('MCP server rules come from plugin-mcp', () => {
  it('url must be http(s) (the old copy took any non-empty string)', () => {
    expect(issuesOf(server({ url: 'ftp://host/mcp' }))).toEqual([{ path: '/mcp/servers/a/url', rule: 'pattern' }]);
    expect(issuesOf(server({ url: 'localhost:3000' }))).toEqual([{ path: '/mcp/servers/a/url', rule: 'pattern' }]);
    expect(pluginVerdict({ url: 'ftp://host/mcp' })).toBe('pattern');
    expect(issuesOf(server({ url: 'https://host/mcp' }))).toEqual([]);
  });

  it('cwd must not be empty (the old copy took "")', () => {
    expect(issuesOf(server({ command: 'node', cwd: '' }))).toEqual([{ path: '/mcp/servers/a/cwd', rule: 'minLength' }]);
    expect(pluginVerdict({ command: 'node', cwd: '' })).toBe('minLength');
  });

  it('with both url and command the entry is HTTP, as plugin-mcp reads it (the old copy took it as stdio)', () => {
    expect(issuesOf(server({ command: 'node', url: 'https://host/mcp' }))).toEqual([
      { path: '/mcp/servers/a/command', rule: 'additionalProperties' },
    ]);
    expect(pluginVerdict({ command: 'node', url: 'https://host/mcp' })).toBe('additionalProperties');
  });

  it('protocol is accepted and checked (the old copy rejected the key)', () => {
    expect(issuesOf(server({ command: 'node', protocol: '2025-11-25' }))).toEqual([]);
    expect(issuesOf(server({ url: 'https://host/mcp', protocol: 'auto' }))).toEqual([]);
    expect(issuesOf(server({ url: 'https://host/mcp', protocol: '1999' }))).toEqual([
      { path: '/mcp/servers/a/protocol', rule: 'enum' },
    ]);
  });

  it('auth.clientMetadataUrl needs a path after the host (the old copy took "https://host")', () => {
    expect(
      issuesOf(server({ url: 'https://host/mcp', auth: { clientMetadataUrl: 'https://client.example' } })),
    ).toEqual([{ path: '/mcp/servers/a/auth/clientMetadataUrl', rule: 'pattern' }]);
    expect(
      issuesOf(server({ url: 'https://host/mcp', auth: { clientMetadataUrl: 'https://client.example/meta.json' } })),
    ).toEqual([]);
  });

  it('keeps the preset key alwaysVisible on both kinds, and the did-you-mean', () => {
    expect(issuesOf(server({ command: 'node', alwaysVisible: true }))).toEqual([]);
    expect(issuesOf(server({ url: 'https://host/mcp', alwaysVisible: ['echo'] }))).toEqual([]);
    expect(() => validateConfig(server({ comand: 'node' }))).toThrow(
      expect.objectContaining({
        details: {
          errors: expect.arrayContaining([
            expect.objectContaining({
              path: '/mcp/servers/a/comand',
              message: expect.stringContaining('did you mean "command"'),
            }),
          ]),
        },
      }),
    );
  });
});

describe('embeddings rules come from plugin-embeddings', () => {
  it('rejects what the plugin rejects, at the config path', () => {
    const at = (embeddings: unknown) => issuesOf({ tools: { toolSearch: { embeddings } } });
    expect(at({ baseURL: 'http://127.0.0.1:11434/v1', model: 'nomic-embed-text' })).toEqual([]);
    expect(at({ baseURL: 'file:///x', model: 'm' })).toEqual([
      { path: '/tools/toolSearch/embeddings/baseURL', rule: 'pattern' },
    ]);
    expect(at({ baseURL: 'http://x', model: 'm', fusion: 'max' })).toEqual([
      { path: '/tools/toolSearch/embeddings/fusion', rule: 'enum' },
    ]);
    expect(() => parseEmbeddingsOptions({ baseURL: 'http://x', model: 'm', fusion: 'max' })).toThrow(
      expect.objectContaining({ rule: 'enum' }),
    );
    expect(at({ baseURL: 'http://x', model: 'm', batchSize: 4096 })).toEqual([
      { path: '/tools/toolSearch/embeddings/batchSize', rule: 'maximum' },
    ]);
  });
});

// Issue 45: config held its own copies of these sections and accepted what the plugins then refused at start.
describe('loopDetection and approvals rules come from their plugins', () => {
  /** What the plugin itself says: `undefined` when it accepts the section. */
  const verdict = (check: () => unknown) => {
    try {
      check();
      return undefined;
    } catch (error) {
      return (error as { path?: string }).path ?? 'refused';
    }
  };

  it('loopDetection thresholds above 10,000 are refused where the plugin refuses them', () => {
    const section = { warningThreshold: 20_000, criticalThreshold: 30_000, globalCircuitBreakerThreshold: 40_000 };
    expect(issuesOf({ tools: { loopDetection: section } })).toContainEqual({
      path: '/tools/loopDetection/warningThreshold',
      rule: 'maximum',
    });
    expect(verdict(() => checkLoopDetectionSettings({ tools: { loopDetection: section } }))).toBeDefined();
    expect(issuesOf({ tools: { loopDetection: { warningThreshold: 5, criticalThreshold: 9 } } })).toEqual([]);
  });

  it('approvals.timeoutMs above a day and an empty require entry are refused, as the plugin does', () => {
    expect(issuesOf({ tools: { approvals: { timeoutMs: 1e8 } } })).toEqual([
      { path: '/tools/approvals/timeoutMs', rule: 'maximum' },
    ]);
    expect(verdict(() => resolveApprovalsConfig({ timeoutMs: 1e8 }))).toBeDefined();
    expect(issuesOf({ tools: { approvals: { require: [''] } } })).toEqual([
      { path: '/tools/approvals/require/0', rule: 'minLength' },
    ]);
    expect(verdict(() => resolveApprovalsConfig({ require: [''] }))).toBeDefined();
    expect(issuesOf({ tools: { approvals: { require: ['exec'], timeoutMs: 60_000 } } })).toEqual([]);
  });
});
