/**
 * Where OAuth state of MCP servers lives between processes: tokens, the
 * registered client, discovery results and the scopes asked for, per server
 * name. Behind an interface (`McpTokenStore`); the file store keeps one JSON
 * file per server in `<state folder>/mcp-auth/`, owner-only (0700 folder,
 * 0600 files), written atomically.
 */
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type {
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { ErrorCode, ToolSearchError } from '@tool-search/kernel';
import { SERVER_NAME_PATTERN } from './options.js';
import { defaultStateDir } from './state-dir.js';

/** What is remembered for one server. `serverUrl` binds it: a server whose URL changed does not get these tokens. */
export interface McpAuthRecord {
  readonly serverUrl: string;
  readonly tokens?: StoredOAuthTokens;
  readonly client?: StoredOAuthClientInformation;
  readonly discovery?: OAuthDiscoveryState;
  /** Scopes asked for last (with any step-up), so the next login asks for them again. */
  readonly scope?: string;
  /** The loopback redirect URL the client was registered with. */
  readonly redirectUrl?: string;
}

export interface McpTokenStore {
  load(server: string): Promise<McpAuthRecord | undefined>;
  save(server: string, record: McpAuthRecord): Promise<void>;
  /** Forgets the server; says whether anything was stored. */
  delete(server: string): Promise<boolean>;
}

/** The file `fileTokenStore(stateDir)` keeps a server's record in. */
export function tokenFile(stateDir: string, server: string): string {
  // A server name (no `/`, no leading `.`) is a safe file name; anything else could leave the folder.
  if (!new RegExp(SERVER_NAME_PATTERN).test(server)) {
    throw new ToolSearchError(
      ErrorCode.OPTIONS_INVALID,
      `"${server}" is not an MCP server name (${SERVER_NAME_PATTERN})`,
      { details: { server } },
    );
  }
  return join(stateDir, 'mcp-auth', `${server}.json`);
}

/** One owner-only JSON file per server under `<stateDir>/mcp-auth/`. */
export function fileTokenStore(stateDir: string = defaultStateDir()): McpTokenStore {
  const dir = join(stateDir, 'mcp-auth');
  const file = (server: string) => tokenFile(stateDir, server);
  return {
    async load(server) {
      let text: string;
      try {
        text = await readFile(file(server), 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
      const record = JSON.parse(text) as McpAuthRecord;
      return typeof record?.serverUrl === 'string' ? record : undefined;
    },
    async save(server, record) {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await chmod(dir, 0o700);
      const temporary = `${file(server)}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(temporary, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
      await rename(temporary, file(server));
    },
    async delete(server) {
      try {
        await rm(file(server));
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
        throw error;
      }
    },
  };
}

/** Keeps records in memory only (tests, and processes that must not write). */
export function memoryTokenStore(): McpTokenStore {
  const records = new Map<string, McpAuthRecord>();
  return {
    load: async (server) => records.get(server),
    save: async (server, record) => void records.set(server, structuredClone(record)),
    delete: async (server) => records.delete(server),
  };
}
