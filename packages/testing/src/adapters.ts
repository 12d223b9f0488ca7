/**
 * What the framework adapters' end-to-end tests share (`@tool-search/ai-sdk`, `/openai-agents`, `/langchain`): the
 * demo catalog next to a real stdio MCP server with one tool denied, a scratch folder for session logs, and the tool
 * names each chat request offered the mock model.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { readSessionLog, sessionFileName, type SessionLogEntry } from '@tool-search/session-log';

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
    .map((request) =>
      ((request.body as { tools?: { function: { name: string } }[] }).tools ?? []).map((tool) => tool.function.name),
    );
}

type RecordedRequests = readonly { path: string; body: unknown }[];

/**
 * The deferred turn every adapter must produce for the `echo` check prompt: the first request offers the search tool
 * and the direct-only tools (not the catalog), the next one the found `echo`, never the denied tool; the session log
 * has the search ranking echo first and one ok call at search rank 1. Throws an AssertionError naming what differs.
 */
export async function assertDeferredEchoTurn(
  requests: RecordedRequests,
  dir: string,
  sessionId: string,
): Promise<readonly SessionLogEntry[]> {
  const offered = offeredPerRequest(requests);
  assert.ok(offered[0]?.includes('tool_search'), `the first request offers tool_search: ${offered[0]}`);
  assert.ok(!offered[0]!.includes('echo'), 'the first request does not offer echo before a search found it');
  assert.ok(
    offered[0]!.length < 30,
    `the first request offers the search and direct-only tools, not the catalog (${offered[0]!.length} tools)`,
  );
  assert.ok(offered[1]?.includes('echo'), `the request after the search offers the found echo: ${offered[1]}`);
  assertNeverOffered(offered);
  const log = await sessionLog(dir, sessionId);
  const search = log.find((entry) => entry.type === 'search') as { hits: readonly string[] } | undefined;
  assert.equal(search?.hits[0], 'mcp:everything:echo', 'the logged search ranks echo first');
  partialEqual(
    log.find((entry) => entry.type === 'tool-call'),
    { toolId: 'mcp:everything:echo', status: 'ok', searchRank: 1 },
    'the logged call',
  );
  partialEqual(
    log.find((entry) => entry.type === 'run-end'),
    { searches: 1, describes: 0, calls: 1 },
    'the logged run end',
  );
  return log;
}

/** The denied tool was never offered to the model, and the one logged search did not find it. */
export async function assertDeniedNeverFound(
  requests: RecordedRequests,
  dir: string,
  sessionId: string,
): Promise<void> {
  assertNeverOffered(offeredPerRequest(requests));
  const searches = (await sessionLog(dir, sessionId)).filter((entry) => entry.type === 'search') as unknown as {
    hits: readonly string[];
  }[];
  assert.equal(searches.length, 1, 'one logged search');
  assert.ok(!searches[0]!.hits.includes(EVERYTHING_DENIED_ID), `the search did not find ${EVERYTHING_DENIED_ID}`);
}

function assertNeverOffered(offered: readonly string[][]): void {
  assert.ok(!offered.flat().includes('get-env'), 'the denied get-env was never offered');
}

function partialEqual(actual: unknown, expected: Record<string, unknown>, what: string): void {
  const got = (actual ?? {}) as Record<string, unknown>;
  const picked = Object.fromEntries(Object.keys(expected).map((key) => [key, got[key]]));
  assert.deepStrictEqual(picked, expected, `${what}: ${JSON.stringify(actual)}`);
}
