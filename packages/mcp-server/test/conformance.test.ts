/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance
 * 0.1.16, every server scenario: `--suite all`) run three ways: against the
 * downstream fixture directly, through `tool-search serve mcp` in `directory`
 * mode (the suite calls tools, reads resources and gets prompts by their
 * exact downstream names), and through `serveHttp` in `tools` mode behind a
 * hop that turns every `tools/call` into a `tool_call`. Every scenario that
 * passes directly must pass through the proxy.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createToolSearchKernel } from '@tool-search/preset';
import { serveHttp } from '../src/index.js';
import {
  CONFORMANCE_FIXTURE,
  passing,
  runServerSuite,
  startFixtureHttp,
  toolCallAdapter,
  urlFromStderr,
  type ScenarioResult,
} from './conformance-kit.js';
import { CLI_BIN, CLI_BUILT, CLI_MISSING, createWorkspace, type Workspace } from './helpers.js';

/** In `tools` mode catalog tools are found by search, not listed: this scenario checks a listed tool's schema (asserted through tool_describe below). */
const LISTS_A_CATALOG_TOOL = 'json-schema-2020-12';
const mcpServers = { conf: { command: process.execPath, args: [CONFORMANCE_FIXTURE] } };
if (!CLI_BUILT) console.warn(`skipping the conformance run through the serve mcp CLI (directory mode): ${CLI_MISSING}`);

describe('MCP conformance suite, server scenarios', () => {
  let workspace: Workspace;
  let direct: Map<string, ScenarioResult>;

  beforeAll(async () => {
    workspace = await createWorkspace();
    const fixture = await startFixtureHttp();
    try {
      direct = await runServerSuite(fixture.url, workspace.dir);
    } finally {
      fixture.child.kill();
    }
  }, 120_000);
  afterAll(() => workspace?.remove());

  it('the downstream fixture passes every server scenario directly', () => {
    expect(direct.size).toBeGreaterThanOrEqual(30);
    expect(passing(direct)).toEqual([...direct.keys()]);
  });

  it.skipIf(!CLI_BUILT)(
    'directory mode: serve mcp --mcp-config passes each by exact name',
    async () => {
      const config = await workspace.writeConfig({
        tools: { toolSearch: { mode: 'directory', visible: ['json_schema_2020_12_tool'] } },
      });
      const mcpConfig = await workspace.writeJson({ mcpServers }, 'claude_desktop_config.json');
      const child: ChildProcess = spawn(
        process.execPath,
        [CLI_BIN, 'serve', 'mcp', '--config', config, '--mcp-config', mcpConfig, '--http', '0', '--refresh', '0'],
        {
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
      try {
        const proxied = await runServerSuite(await urlFromStderr(child), workspace.dir);
        expect(passing(proxied)).toEqual(passing(direct));
      } finally {
        child.kill();
      }
    },
    120_000,
  );

  it('tools mode: each passes with every call made through tool_call', async () => {
    const { kernel, mcpDownstream } = await createToolSearchKernel({
      mcpServers,
      tools: { toolSearch: { mode: 'tools' } },
    });
    const http = await serveHttp({
      kernel,
      mode: 'tools',
      refreshIntervalMs: 0,
      ...(mcpDownstream ? { downstream: mcpDownstream } : {}),
    });
    const adapter = await toolCallAdapter(http.url);
    try {
      const proxied = await runServerSuite(adapter.url, workspace.dir);
      expect(passing(proxied)).toEqual(passing(direct).filter((name) => name !== LISTS_A_CATALOG_TOOL));
      // That scenario's point, a 2020-12 schema kept as sent, holds for what the model reads: tool_describe.
      const client = new Client({ name: 'conformance-check', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
      const described = await client.callTool({ name: 'tool_describe', arguments: { id: 'json_schema_2020_12_tool' } });
      expect((described.structuredContent as { inputSchema: Record<string, unknown> }).inputSchema).toMatchObject({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        $defs: { address: { type: 'object' } },
        additionalProperties: false,
      });
      await client.close();
    } finally {
      await adapter.close();
      await http.close();
      await kernel.close();
    }
  }, 120_000);
});
