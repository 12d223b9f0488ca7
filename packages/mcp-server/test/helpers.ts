/**
 * Shared test helpers: where the CLI and the reference servers live, a temp
 * folder with a config, and SDK clients over stdio (the built CLI) and
 * Streamable HTTP. The tests that need the preset's kernel live in e2e/test/mcp-server (the preset hosts this
 * package, so this package's tests do not depend on it), with a copy of these helpers.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  ElicitRequestSchema,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type ElicitRequest,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { ToolSearchConfig } from '@tool-search/config';
import type { ToolSearchMcpServer } from '../src/index.js';

const require = createRequire(import.meta.url);

export const REPO = fileURLToPath(new URL('../../../', import.meta.url));
export const CLI_BIN = join(REPO, 'packages', 'cli', 'dist', 'bin.js');
/** The stdio and Inspector suites run the built CLI; CI builds before testing. */
export const CLI_BUILT = existsSync(CLI_BIN);
export const CLI_MISSING = `packages/cli/dist/bin.js is missing: build it with \`npx tsc -b packages/mcp-server/tsconfig.build.json packages/cli/tsconfig.build.json\` from the repo root`;
if (!CLI_BUILT) console.warn(`skipping the tests that run the built CLI: ${CLI_MISSING}`);

export type Config = ToolSearchConfig;
type Servers = NonNullable<NonNullable<Config['mcp']>['servers']>;

/** The `dist/index.js` of an installed reference server (its package `bin`). */
export function serverBin(pkg: 'server-everything' | 'server-memory' | 'server-filesystem'): string {
  return join(dirname(require.resolve(`@modelcontextprotocol/${pkg}/package.json`)), 'dist', 'index.js');
}

export interface Workspace {
  readonly dir: string;
  /** The folder server-filesystem may read; holds `note.txt`. */
  readonly files: string;
  readonly note: string;
  /** The three reference servers, plus any extra ones. */
  servers(extra?: Servers): Servers;
  /** Writes a tool-search.json and returns its path. */
  writeConfig(config: Config, name?: string): Promise<string>;
  /** Writes any JSON file into the workspace and returns its path. */
  writeJson(value: unknown, name: string): Promise<string>;
  remove(): Promise<void>;
}

export const NOTE_TEXT = 'the quick brown fox reads the temp file';

export async function createWorkspace(): Promise<Workspace> {
  const dir = await mkdtemp(join(tmpdir(), 'tool-search-mcp-'));
  const files = join(dir, 'files');
  await mkdir(files);
  const note = join(files, 'note.txt');
  await writeFile(note, NOTE_TEXT);
  return {
    dir,
    files,
    note,
    servers: (extra = {}) => ({
      everything: { command: process.execPath, args: [serverBin('server-everything')] },
      memory: {
        command: process.execPath,
        args: [serverBin('server-memory')],
        env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
      },
      filesystem: { command: process.execPath, args: [serverBin('server-filesystem'), files] },
      ...extra,
    }),
    writeConfig: (config, name = 'tool-search.json') => writeJson(dir, config, name),
    writeJson: (value, name) => writeJson(dir, value, name),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

async function writeJson(dir: string, value: unknown, name: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, JSON.stringify(value, null, 2));
  return path;
}

export interface Connected {
  readonly client: Client;
  /** What the server process wrote to stderr so far (stdio only). */
  stderr(): string;
  /** Protocol errors the client saw (e.g. a non-JSON line on the server's stdout). */
  readonly errors: Error[];
  close(): Promise<void>;
}

/** Spawns `node packages/cli/dist/bin.js serve mcp <args>` and connects the SDK client over stdio. */
export async function connectCli(args: readonly string[], elicit?: HttpClientOptions['elicit']): Promise<Connected> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI_BIN, 'serve', 'mcp', ...args],
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += String(chunk);
  });
  return connect(transport, () => stderr, elicit);
}

export interface HttpClientOptions {
  readonly token?: string;
  /** Declares the `elicitation` capability and answers every elicitation with this. */
  readonly elicit?: (request: ElicitRequest['params']) => ElicitResult;
}

export async function connectHttp(url: string, options: HttpClientOptions = {}): Promise<Connected> {
  const { token, elicit } = options;
  const transport = new StreamableHTTPClientTransport(
    new URL(url),
    token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : {},
  );
  return connect(transport, () => '', elicit);
}

async function connect(
  transport: StdioClientTransport | StreamableHTTPClientTransport,
  stderr: () => string,
  elicit?: HttpClientOptions['elicit'],
): Promise<Connected> {
  const client = new Client(
    { name: 'tool-search-test', version: '1.0.0' },
    elicit ? { capabilities: { elicitation: {} } } : {},
  );
  if (elicit) client.setRequestHandler(ElicitRequestSchema, (request) => elicit(request.params));
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  await client.connect(transport);
  return { client, stderr, errors, close: () => client.close() };
}

/** An SDK client on an in-process server, counting the list_changed notifications it gets. */
export async function connectInMemory(
  mcp: ToolSearchMcpServer,
): Promise<{ client: Client; notifications: () => number }> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await mcp.server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  let count = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => void count++);
  await client.connect(clientSide);
  return { client, notifications: () => count };
}

/** Calls a tool and returns the typed result. */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

export function text(result: CallToolResult): string {
  return result.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}

/** Tool ids found by `tool_search`, from its structured result. */
export function hitIds(result: CallToolResult): string[] {
  const structured = result.structuredContent as { hits?: { id: string }[] } | undefined;
  return (structured?.hits ?? []).map((hit) => hit.id);
}

export function errorCode(result: CallToolResult): unknown {
  return (result.structuredContent as { error?: { code?: unknown } } | undefined)?.error?.code;
}
