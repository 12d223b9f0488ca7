/**
 * A real inspect server over a real preset kernel: the demo tools (fake core + plugin tools), a GitHub-like MCP
 * server (official SDK, stdio, test/fixtures/github-server.mjs), a policy that denies one GitHub tool and gives the
 * `support` agent a narrower catalog, and a folder of session logs written by a real gateway.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import type { ToolSearchConfig } from '@tool-search/config';
import { createToolSearchKernel, type Preset } from '@tool-search/preset';
import { openaiUpstream, startGatewayServer } from '@tool-search/gateway';
import { startMockOpenAI } from '@tool-search/mock-openai';
import {
  createLiveFeed,
  startInspectServer,
  type InspectServer,
  type InspectServerOptions,
  type LiveFeed,
} from '../src/index.js';

export const GITHUB_SERVER = fileURLToPath(new URL('./fixtures/github-server.mjs', import.meta.url));

export function fixtureConfig(sessionsDir: string): ToolSearchConfig {
  return {
    plugins: { 'fake-catalog': { tools: 60, core: true } },
    mcpServers: { github: { command: process.execPath, args: [GITHUB_SERVER] } },
    tools: {
      deny: ['delete_repository'],
      toolSearch: { mode: 'tools' },
      // The gateway session shows an approval (write needs one; no approver: denied) and loop-detection findings.
      approvals: { require: ['write'] },
      loopDetection: { enabled: true, warningThreshold: 3, criticalThreshold: 4 },
    },
    agents: {
      list: [
        { id: 'main', default: true },
        { id: 'support', tools: { allow: ['read', 'web_search', 'mcp:github:*'], deny: ['create_pull_request'] } },
      ],
    },
    session: { logDir: sessionsDir },
  } as ToolSearchConfig;
}

export interface Fixture {
  readonly server: InspectServer;
  readonly preset: Preset;
  readonly dir: string;
  readonly sessionsDir: string;
  readonly live: LiveFeed;
  close(): Promise<void>;
}

export async function startFixture(extra: Partial<InspectServerOptions> = {}): Promise<Fixture> {
  const dir = mkdtempSync(join(tmpdir(), 'tool-search-inspect-'));
  const sessionsDir = join(dir, 'sessions');
  const config = fixtureConfig(sessionsDir);
  writeFileSync(join(dir, 'tool-search.json'), JSON.stringify(config));
  // Inspect's own runs must not write session logs: the same config without session.logDir, as the CLI command does.
  const live = createLiveFeed();
  const preset = await createToolSearchKernel(
    { ...config, session: {} },
    { baseDir: dir, onMcpToolsChanged: (name) => live.notify(name) },
  );
  live.source(preset.mcpServers);
  try {
    const server = await startInspectServer({
      kernel: preset.kernel,
      config,
      sessions: { dir: sessionsDir },
      countTokens: true,
      live,
      ...extra,
    });
    return {
      server,
      preset,
      dir,
      sessionsDir,
      live,
      async close() {
        await server.close();
        await preset.kernel.close();
      },
    };
  } catch (error) {
    await preset.kernel.close();
    throw error;
  }
}

/**
 * Runs real gateway turns over the mock OpenAI provider (official `openai` client, real HTTP) with the fixture's
 * config, so the telemetry plugin writes `<sessionsDir>/<sessionId>.jsonl`.
 */
export async function writeGatewaySession(
  sessionsDir: string,
  sessionId: string,
  turns: readonly { target: string; args: Record<string, unknown>; loop?: number }[],
): Promise<void> {
  const mock = await startMockOpenAI();
  const preset = await createToolSearchKernel(fixtureConfig(sessionsDir));
  const gateway = await startGatewayServer({
    kernel: preset.kernel,
    upstream: openaiUpstream(new OpenAI({ baseURL: mock.url, apiKey: 'mock', maxRetries: 0 }), 'mock-model'),
    mode: 'tools',
    log: () => undefined,
    countTokens: false,
  });
  try {
    const client = new OpenAI({
      baseURL: gateway.url,
      apiKey: 'none',
      maxRetries: 0,
      defaultHeaders: { 'x-session-id': sessionId },
    });
    for (const { target, args, loop } of turns) {
      await client.chat.completions.create({
        model: 'mock-model',
        messages: [
          {
            role: 'user',
            content: `tool search qa check target=${target} args=${JSON.stringify(args)}${loop ? ` loop=${loop}` : ''}`,
          },
        ],
      });
    }
    // The scripted model cannot send a query that finds nothing; the same exposure the gateway hands the model can:
    // a tool_search whose query is only stopwords is a zero-hit search in this session's log.
    const run = await preset.kernel.createRun({ sessionId });
    try {
      const exposure = await run.exposure('tools');
      await exposure.call('tool_search', { query: 'the of and' });
    } finally {
      await run.close();
    }
  } finally {
    await gateway.close();
    await preset.kernel.close();
    await mock.close();
  }
}
