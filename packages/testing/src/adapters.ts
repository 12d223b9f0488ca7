/**
 * What the framework adapters' end-to-end tests share (`@tool-search/ai-sdk`, `/openai-agents`, `/langchain`): the
 * demo catalog next to a real stdio MCP server with one tool denied, a scratch folder for session logs, and the tool
 * names each chat request offered the mock model.
 */
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { readSessionLog, sessionFileName, type SessionLogEntry } from '@tool-search/telemetry';

/** The MCP tool `demoWithEverything` denies: a test checks it is never offered, found or called. */
export const EVERYTHING_DENIED_ID = 'mcp:everything:get-env';

/** A config (a `ToolSearchConfig`) with the demo catalog, the MCP reference server `everything` and one denied tool. */
export interface DemoWithEverything {
  readonly plugins: { readonly 'fake-catalog': Record<string, never> };
  readonly mcp: { readonly servers: { readonly everything: { readonly command: string; readonly args: string[] } } };
  readonly tools: { readonly deny: string[] };
}

/**
 * The demo catalog (25 fake core + 1,000 fake plugin tools) plus `@modelcontextprotocol/server-everything` over
 * stdio, with `EVERYTHING_DENIED_ID` denied. The server is resolved from `resolveFrom` (default: the working folder,
 * the package under test), so it must be among the caller's dependencies.
 */
export function demoWithEverything(resolveFrom: string | URL = join(process.cwd(), 'index.js')): DemoWithEverything {
  const root = dirname(createRequire(resolveFrom).resolve('@modelcontextprotocol/server-everything/package.json'));
  return {
    plugins: { 'fake-catalog': {} },
    mcp: { servers: { everything: { command: process.execPath, args: [join(root, 'dist', 'index.js'), 'stdio'] } } },
    tools: { deny: [EVERYTHING_DENIED_ID] },
  };
}

/** A new empty folder under the system temp folder, for one test's session logs (`sessionLogDir`). */
export function logDir(prefix = 'tool-search-logs-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** The entries telemetry wrote for `sessionId` in `dir` (its JSONL session log). */
export async function sessionLog(dir: string, sessionId: string): Promise<SessionLogEntry[]> {
  return readSessionLog(join(dir, sessionFileName(sessionId)));
}

/** The tool names each chat-completions request offered the model, in order (from a mock provider's recorded requests). */
export function offeredPerRequest(requests: readonly { path: string; body: unknown }[]): string[][] {
  return requests
    .filter((request) => request.path === '/v1/chat/completions')
    .map((request) => ((request.body as { tools?: { function: { name: string } }[] }).tools ?? []).map((tool) => tool.function.name));
}
