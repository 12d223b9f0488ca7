import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ToolSearchConfig } from '@tool-search/config';
import { readSessionLog, sessionFileName, type SessionLogEntry } from '@tool-search/telemetry';

const require = createRequire(import.meta.url);

/** The demo catalog (25 fake core + 1,000 fake plugin tools) plus a real stdio MCP server, with one of its tools denied. */
export function demoWithEverything(): ToolSearchConfig {
  const everything = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
  return {
    plugins: { 'fake-catalog': {} },
    mcp: { servers: { everything: { command: process.execPath, args: [everything, 'stdio'] } } },
    tools: { deny: ['mcp:everything:get-env'] },
  };
}

export const DENIED_ID = 'mcp:everything:get-env';

export function logDir(): string {
  return mkdtempSync(join(tmpdir(), 'tool-search-agents-'));
}

export async function sessionLog(dir: string, sessionId: string): Promise<SessionLogEntry[]> {
  return readSessionLog(join(dir, sessionFileName(sessionId)));
}

/** The tool names of each chat request the mock model received. */
export function offeredPerRequest(requests: readonly { path: string; body: unknown }[]): string[][] {
  return requests
    .filter((request) => request.path === '/v1/chat/completions')
    .map((request) => ((request.body as { tools?: { function: { name: string } }[] }).tools ?? []).map((tool) => tool.function.name));
}
