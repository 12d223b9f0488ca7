/**
 * A real MCP client nobody here wrote: the MCP Inspector's command-line mode
 * (`@modelcontextprotocol/inspector --cli`) lists and calls our tools, once
 * from an `mcpServers` config file (the README snippet) and once with the
 * server command on its command line; and over Streamable HTTP against
 * `serveHttp` (its 2025-11-25 session path).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kernel } from '@tool-search/kernel';
import { createToolSearchKernel } from '@tool-search/preset';
import { serveHttp, type HttpMcpHandle } from '@tool-search/mcp-server';
import { CLI_BIN, CLI_BUILT, CLI_MISSING, createWorkspace, serverBin, type Workspace } from './helpers.js';

if (!CLI_BUILT) console.warn(`skipping the Inspector suite: ${CLI_MISSING}`);

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const INSPECTOR = join(
  dirname(require.resolve('@modelcontextprotocol/inspector/package.json')),
  'cli',
  'build',
  'cli.js',
);

interface McpServersFile {
  readonly mcpServers: Record<string, { command: string; args: string[] }>;
}

/** The first JSON block of the README that holds an `mcpServers` entry. */
function readmeSnippet(): McpServersFile {
  const readme = readFileSync(new URL('../../../packages/mcp-server/README.md', import.meta.url), 'utf8');
  const block = [...readme.matchAll(/```json\n([\s\S]*?)```/g)]
    .map((m) => m[1]!)
    .find((body) => body.includes('"mcpServers"'));
  if (!block) throw new Error('README.md has no mcpServers snippet');
  return JSON.parse(block) as McpServersFile;
}

async function inspector(...args: string[]): Promise<unknown> {
  // A loaded machine starts the CLI and its downstream servers slowly: a generous deadline, no speed claim.
  // Run from its own folder: the Inspector picks the package.json it reads by whether `../package.json` exists
  // relative to the working directory, and from e2e/ that is the repo's, which sends it to a file it does not ship.
  const { stdout } = await run(process.execPath, [INSPECTOR, '--cli', ...args], {
    timeout: 80_000,
    cwd: dirname(INSPECTOR),
  });
  return JSON.parse(stdout);
}

describe.skipIf(!CLI_BUILT)('the MCP Inspector (--cli) as a client', { timeout: 90_000 }, () => {
  let workspace: Workspace;
  let config: string;
  let clientConfig: string;

  beforeAll(async () => {
    workspace = await createWorkspace();
    const { everything } = workspace.servers();
    config = await workspace.writeConfig({ mcp: { servers: { everything: everything! } } });
    // The README's snippet as written (`node <installed cli>/bin/tool-search.js serve mcp -c <file>`), pointed at the built CLI.
    const snippet = readmeSnippet();
    const entry = snippet.mcpServers['tool-search']!;
    expect(entry.command).toBe('node');
    expect(entry.args[0]).toMatch(/node_modules\/@tool-search\/cli\/bin\/tool-search\.js$/);
    expect(entry.args.slice(1, 4)).toEqual(['serve', 'mcp', '-c']);
    const args = [CLI_BIN, ...entry.args.slice(1, 4), config];
    clientConfig = await workspace.writeJson(
      { mcpServers: { 'tool-search': { command: process.execPath, args } } },
      'mcp-client.json',
    );
  });
  afterAll(() => workspace?.remove());

  it('lists the control tools from an mcpServers config', async () => {
    const listed = (await inspector('--config', clientConfig, '--server', 'tool-search', '--method', 'tools/list')) as {
      tools: { name: string }[];
    };
    expect(listed.tools.map((tool) => tool.name).sort()).toEqual(['tool_call', 'tool_describe', 'tool_search']);
  });

  it('calls tool_search with the server command on its command line', async () => {
    const result = (await inspector(
      process.execPath,
      CLI_BIN,
      'serve',
      'mcp',
      '-c',
      config,
      '--method',
      'tools/call',
      '--tool-name',
      'tool_search',
      '--tool-arg',
      'query=echo',
    )) as {
      structuredContent: { hits: { id: string }[] };
    };
    expect(result.structuredContent.hits.map((hit) => hit.id)).toContain('mcp:everything:echo');
  });

  it('calls a downstream tool through tool_call', async () => {
    const result = (await inspector(
      '--config',
      clientConfig,
      '--server',
      'tool-search',
      '--method',
      'tools/call',
      '--tool-name',
      'tool_call',
      '--tool-arg',
      'id=mcp:everything:echo',
      'args={"message":"hello inspector"}',
    )) as { content: { type: string; text: string }[]; isError?: boolean };
    expect(result.isError).toBeFalsy();
    expect(result.content[0]?.text).toContain('hello inspector');
  });
});

describe('the MCP Inspector (--cli) over Streamable HTTP', { timeout: 90_000 }, () => {
  let kernel: Kernel;
  let http: HttpMcpHandle;

  beforeAll(async () => {
    const preset = await createToolSearchKernel({
      mcpServers: { everything: { command: process.execPath, args: [serverBin('server-everything')] } },
    });
    kernel = preset.kernel;
    http = await serveHttp({
      kernel,
      mode: 'tools',
      refreshIntervalMs: 0,
      ...(preset.mcpDownstream ? { downstream: preset.mcpDownstream } : {}),
    });
  }, 60_000);
  afterAll(async () => {
    await http?.close();
    await kernel?.close();
  });

  it('lists the control tools and calls a downstream tool through tool_call', async () => {
    const listed = (await inspector(http.url, '--transport', 'http', '--method', 'tools/list')) as {
      tools: { name: string }[];
    };
    expect(listed.tools.map((tool) => tool.name).sort()).toEqual(['tool_call', 'tool_describe', 'tool_search']);
    const result = (await inspector(
      http.url,
      '--transport',
      'http',
      '--method',
      'tools/call',
      '--tool-name',
      'tool_call',
      '--tool-arg',
      'id=mcp:everything:echo',
      'args={"message":"inspector over http"}',
    )) as { content: { type: string; text: string }[]; isError?: boolean };
    expect(result.isError).toBeFalsy();
    expect(result.content[0]?.text).toContain('inspector over http');
  });
});
