/**
 * MCP Skills (SEP-2640, `io.modelcontextprotocol/skills`) as catalog entries:
 * a server that declares the extension has its `skills/list` read through the
 * SDK's `SkillsClient`, and each skill becomes a tool definition of source
 * `skill` (id `skill:<server>:<name>`), so policy, search and describe treat
 * it like a tool. Calling it reads one of its files (`SKILL.md` by default)
 * through `resources/read`, checked by the SDK against the entry's size and
 * SHA-256 digest; a file that fails is refused, never returned. A listing is
 * reused for its `ttlMs` (2026-07-28), or until the server's
 * `resources/list_changed` or a reconnect (2025-era servers say nothing else).
 */
import type { Client } from '@modelcontextprotocol/client';
import {
  SkillsClient,
  SkillVerificationError,
  type Skill,
  type SkillCacheScope,
} from '@modelcontextprotocol/client/ext/skills';
import {
  errorMessage,
  ToolSearchError,
  type Diagnostic,
  type JsonSchema,
  type ToolDefinition,
  type ToolResult,
} from '@tool-search/kernel';
import { McpErrors } from './errors.js';

declare module '@tool-search/kernel' {
  interface ToolMeta {
    /** For a skill (source `skill`): its SEP-2640 entry as the server listed it, with the listing's caching fields. */
    mcpSkill?: McpSkillMeta;
  }
}

export interface McpSkillMeta {
  /** `uri` (its `SKILL.md`), `frontmatter` verbatim, `resources` (every file with size and digest, or `"dynamic"`). */
  readonly entry: Skill;
  readonly ttlMs?: number;
  readonly cacheScope?: SkillCacheScope;
}

/** What a connection gives this module: its name, its client while connected, its request timeout. */
export interface SkillSource {
  readonly name: string;
  readonly client: Client | undefined;
  readonly requestTimeoutMs: number;
}

interface Shelf {
  readonly skills: SkillsClient;
  listing?: Promise<SkillListing>;
  expiresAt?: number;
}

interface SkillListing {
  readonly definitions: readonly ToolDefinition[];
  readonly diagnostics: readonly Diagnostic[];
}

const EMPTY: SkillListing = Object.freeze({ definitions: [], diagnostics: [] });

/** `file`: which file of the skill to read; the default is its `SKILL.md`. */
const SKILL_INPUT: JsonSchema = Object.freeze({
  type: 'object',
  properties: {
    file: {
      type: 'string',
      minLength: 1,
      description:
        "A file of the skill, relative to its folder (e.g. references/GUIDE.md); default: the skill's SKILL.md.",
    },
  },
  additionalProperties: false,
});

/** One shelf per SDK client: a reconnect (a new client) lists again. */
export class SkillShelves {
  private readonly shelves = new WeakMap<Client, Shelf>();

  /**
   * The server's skills as definitions (none when it does not declare the extension), and problems as warnings.
   * `timeoutMs` bounds the listing like `tools/list` (`connectTimeoutMs`): a server slow to list its skills must not
   * hold the other servers' tools past the kernel's source timeout.
   */
  list(source: SkillSource, limits: { maxSkills: number; timeoutMs: number }): Promise<SkillListing> {
    const client = source.client;
    if (!client) return Promise.resolve(EMPTY);
    const shelf = this.shelfOf(client);
    if (!shelf.skills.supported) return Promise.resolve(EMPTY);
    if (shelf.listing && (shelf.expiresAt === undefined || Date.now() < shelf.expiresAt)) return shelf.listing;
    const listing = readListing(source, shelf, limits);
    shelf.listing = listing;
    shelf.expiresAt = undefined;
    listing.then(
      (read) => {
        // A failed listing is not kept: the next run asks again.
        if (read.diagnostics.some((d) => d.code === McpErrors.MCP_SKILLS_LIST_FAILED)) shelf.listing = undefined;
      },
      () => {
        shelf.listing = undefined;
      },
    );
    return listing;
  }

  /**
   * The server said its resources changed (`resources/list_changed`): its skills are listed again. Returns whether
   * it serves skills (only then may the catalog have changed).
   */
  forget(client: Client | undefined): boolean {
    const shelf = client && this.shelves.get(client);
    if (!shelf) return false;
    this.shelves.delete(client);
    return shelf.skills.supported;
  }

  private shelfOf(client: Client): Shelf {
    let shelf = this.shelves.get(client);
    if (!shelf) {
      // `skipInvalid`: one malformed entry is dropped with a warning naming it, its siblings stay.
      shelf = { skills: new SkillsClient(client, { skipInvalid: true }) };
      this.shelves.set(client, shelf);
    }
    return shelf;
  }
}

async function readListing(
  source: SkillSource,
  shelf: Shelf,
  { maxSkills, timeoutMs }: { maxSkills: number; timeoutMs: number },
): Promise<SkillListing> {
  const server = source.name;
  let listed: Awaited<ReturnType<SkillsClient['list']>>;
  try {
    listed = await shelf.skills.list(undefined, { timeout: timeoutMs });
  } catch (error) {
    return {
      definitions: [],
      diagnostics: [
        {
          code: McpErrors.MCP_SKILLS_LIST_FAILED,
          level: 'warning',
          message: `MCP server "${server}" failed to list its skills (${errorMessage(error)}); its tools stay`,
          details: { server },
        },
      ],
    };
  }
  if (listed.ttlMs !== undefined) shelf.expiresAt = Date.now() + listed.ttlMs;
  const cache = {
    ...(listed.ttlMs !== undefined ? { ttlMs: listed.ttlMs } : {}),
    ...(listed.cacheScope !== undefined ? { cacheScope: listed.cacheScope } : {}),
  };
  const kept = listed.skills.slice(0, maxSkills);
  const diagnostics: Diagnostic[] = listed.invalid.map((entry) => ({
    code: McpErrors.MCP_SKILL_INVALID,
    level: 'warning',
    message: `MCP server "${server}" listed an invalid skill ${entry.uri ?? `#${entry.index}`} (${entry.reason}); it is dropped`,
    details: { server, ...(entry.uri !== undefined ? { uri: entry.uri } : {}), problem: entry.reason },
  }));
  if (listed.skills.length > kept.length)
    diagnostics.push({
      code: McpErrors.MCP_LIST_TRUNCATED,
      level: 'warning',
      message: `MCP server "${server}" listed more than ${maxSkills} skills (maxToolsPerServer); the first ${maxSkills} are kept`,
      details: { server, limit: 'maxToolsPerServer', value: maxSkills, kept: maxSkills },
    });
  return {
    definitions: kept.map((entry) => skillDefinition(source, shelf.skills, { entry, ...cache })),
    diagnostics,
  };
}

/** A skill as a tool definition: name and description from its frontmatter, read-only, reads a file when called. */
export function skillDefinition(source: SkillSource, skills: SkillsClient, meta: McpSkillMeta): ToolDefinition {
  const { entry } = meta;
  return {
    name: entry.frontmatter.name,
    source: 'skill',
    owner: source.name,
    description: entry.frontmatter.description,
    inputSchema: SKILL_INPUT,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    meta: { mcpServer: source.name, mcpSkill: meta },
    execute: (args, ctx) => readSkillFile(source, skills, entry, args.file as string | undefined, ctx.signal),
  };
}

async function readSkillFile(
  source: SkillSource,
  skills: SkillsClient,
  entry: Skill,
  file: string | undefined,
  signal: AbortSignal,
): Promise<ToolResult> {
  const server = source.name;
  if (!source.client)
    throw new ToolSearchError(
      McpErrors.MCP_SERVER_UNAVAILABLE,
      `MCP server "${server}" is unavailable: it is not connected; the next run reconnects it`,
      { details: { server } },
    );
  if (file !== undefined && !insideSkill(file))
    throw new ToolSearchError(
      McpErrors.MCP_SKILL_INVALID,
      `${JSON.stringify(file.slice(0, 200))} is not a file inside the skill ${entry.frontmatter.name}: give a path relative to its folder`,
      { details: { server, uri: entry.uri } },
    );
  try {
    const read = await skills.read(entry, file, { signal, timeout: source.requestTimeoutMs });
    const content: ToolResult['content'] =
      read.text !== undefined
        ? [{ type: 'text', text: read.text }]
        : [
            {
              type: 'resource',
              resource: {
                uri: read.uri,
                blob: Buffer.from(read.bytes).toString('base64'),
                ...(read.mimeType ? { mimeType: read.mimeType } : {}),
              },
            },
          ];
    return {
      content,
      structuredContent: {
        uri: read.uri,
        verified: read.verified,
        ...(read.mimeType ? { mimeType: read.mimeType } : {}),
      },
    };
  } catch (error) {
    if (error instanceof SkillVerificationError)
      throw new ToolSearchError(
        McpErrors.MCP_SKILL_INVALID,
        `MCP server "${server}" served ${error.uri}, which does not match its skill entry (${error.reason}); it is not loaded`,
        { cause: error, details: { server, uri: error.uri, reason: error.reason } },
      );
    if (error instanceof TypeError)
      throw new ToolSearchError(McpErrors.MCP_SKILL_INVALID, `${entry.frontmatter.name}: ${error.message}`, {
        cause: error,
        details: { server, uri: entry.uri },
      });
    throw error;
  }
}

/** A relative path that stays in the skill's folder: no scheme, no leading `/`, no `..`, `.` or empty segment. */
function insideSkill(file: string): boolean {
  if (/^[a-z][a-z\d+.-]*:/i.test(file) || file.startsWith('/') || /[\\?#]/.test(file)) return false;
  return file.split('/').every((segment) => {
    const decoded = decodeURIComponentSafe(segment);
    return decoded !== '' && decoded !== '.' && decoded !== '..' && !decoded.includes('/');
  });
}

function decodeURIComponentSafe(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
