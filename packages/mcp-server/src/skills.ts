/**
 * MCP Skills (SEP-2640) served to this server's clients, in both eras: the
 * skills in the session's effective catalog (source `skill`, listed by
 * plugin-mcp with their entries in `meta.mcpSkill`) answer `skills/list` and
 * `skills/get` under the extension's wire format, their URIs namespaced like
 * every aggregated resource (`tool-search://<server>/skill://…/SKILL.md`), so
 * a client reads their files through `resources/read` (aggregate.ts) and
 * verifies them against the unchanged digests (the contents of a skill
 * file are named by the URI asked for, as the SDK's `SkillsClient` checks).
 * A skill policy hides is neither listed nor got, nor are its files read
 * (`skillFileOf`).
 *
 * Raw wire format, not the SDK's `SkillsExtension`: that one attaches to an
 * `McpServer`, and every session here is a low-level `Server`.
 */
import { ProtocolError, ProtocolErrorCode, type Server, type StandardSchemaV1 } from '@modelcontextprotocol/server';
import {
  SKILLS_EXTENSION_ID,
  SKILLS_GET_METHOD,
  SKILLS_LIST_METHOD,
  type Skill,
  type SkillCacheScope,
} from '@modelcontextprotocol/server/ext/skills';
import type { ToolDescriptor } from '@tool-search/kernel';
import type {} from '@tool-search/plugin-mcp'; // `ToolMeta.mcpSkill` (declaration merging)
import { echoed } from './echo.js';
import { parseResourceUri, resourceUri } from './namespace.js';

/** The capability a session declares: the extension, without `resources/directory/read`. */
export const SKILLS_CAPABILITIES = Object.freeze({ extensions: { [SKILLS_EXTENSION_ID]: {} } });

/** What the skills of a session are read from: its run's listed tools (before policy) and effective catalog. */
export interface SkillsView {
  readonly listed: readonly ToolDescriptor[];
  readonly catalog: readonly ToolDescriptor[];
}

/** `ttlMs` / `cacheScope` of the answers: required on 2026-07-28, absent on 2025-era sessions. */
export interface SkillsCacheHint {
  readonly ttlMs: number;
  readonly cacheScope: SkillCacheScope;
}

/** Registers `skills/list` and `skills/get` on a session's server. */
export function registerSkills(server: Server, view: () => SkillsView, cache?: SkillsCacheHint): void {
  const fields = cache ? { ttlMs: cache.ttlMs, cacheScope: cache.cacheScope } : {};
  server.setRequestHandler(SKILLS_LIST_METHOD, { params: LIST_PARAMS }, () => ({
    skills: servedSkills(view().catalog),
    ...fields,
  }));
  server.setRequestHandler(SKILLS_GET_METHOD, { params: GET_PARAMS }, (params: { uri: string }) => {
    const skills = servedSkills(view().catalog);
    const skill = skills.find((entry) => entry.uri === params.uri) ?? onlyOriginal(view().catalog, params.uri, skills);
    if (!skill) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `No skill is served at ${echoed(params.uri)}`);
    return { skill, ...fields };
  });
}

/** The visible skills' entries, their URIs namespaced by server (digests and frontmatter as the server sent them). */
export function servedSkills(catalog: readonly ToolDescriptor[]): Skill[] {
  return skillsOf(catalog).map(({ server, entry }) => namespaced(server, entry));
}

/**
 * Whether `uri` of `server` is a file of one of its skills: `visible`, or `hidden` when the skill is kept out of
 * the effective catalog (a deny rule, an allowlist without it; aggregate.ts then answers "not found", as for a
 * hidden server); undefined for any other resource.
 */
export function skillFileOf(view: SkillsView, server: string, uri: string): 'visible' | 'hidden' | undefined {
  const skill = skillsOf(view.listed).find((one) => one.server === server && withinSkill(one.entry.uri, uri));
  if (!skill) return undefined;
  return view.catalog.some((tool) => tool.id === skill.id) ? 'visible' : 'hidden';
}

interface ListedSkill {
  readonly id: string;
  readonly server: string;
  readonly entry: Skill;
}

function skillsOf(tools: readonly ToolDescriptor[]): ListedSkill[] {
  return tools.flatMap((tool) =>
    tool.source === 'skill' && tool.meta?.mcpSkill
      ? [{ id: tool.id, server: tool.owner, entry: tool.meta.mcpSkill.entry }]
      : [],
  );
}

function namespaced(server: string, entry: Skill): Skill {
  return {
    ...entry,
    uri: resourceUri(server, entry.uri),
    resources:
      entry.resources === 'dynamic'
        ? 'dynamic'
        : entry.resources.map((file) => ({ ...file, uri: resourceUri(server, file.uri) })),
  };
}

/** A skill asked for by its server's own URI, when exactly one visible server serves one there. */
function onlyOriginal(catalog: readonly ToolDescriptor[], uri: string, served: readonly Skill[]): Skill | undefined {
  if (parseResourceUri(uri)) return undefined;
  const owners = skillsOf(catalog).filter((skill) => skill.entry.uri === uri);
  return owners.length === 1 ? served.find((entry) => entry.uri === resourceUri(owners[0]!.server, uri)) : undefined;
}

/** `uri` is the skill's `SKILL.md` or a file under its folder (compared as parsed URLs: `%2e%2e` and `..` are resolved). */
function withinSkill(skillMd: string, uri: string): boolean {
  const root = canonical(skillMd)?.replace(/\/SKILL\.md$/, '');
  const target = canonical(uri);
  return root !== undefined && target !== undefined && (target === `${root}/SKILL.md` || target.startsWith(`${root}/`));
}

function canonical(uri: string): string | undefined {
  try {
    const url = new URL(uri);
    url.hash = '';
    return decodeURI(url.href);
  } catch {
    return undefined;
  }
}

/** The params of `skills/list`: a cursor at most (one page holds every visible skill). */
const LIST_PARAMS = paramsSchema<{ cursor?: string }>((params) =>
  params.cursor === undefined || typeof params.cursor === 'string' ? undefined : 'cursor must be a string',
);

/** The params of `skills/get`: the `SKILL.md` URI. */
const GET_PARAMS = paramsSchema<{ uri: string }>((params) =>
  typeof params.uri === 'string' && params.uri !== '' ? undefined : 'uri must be a non-empty string',
);

function paramsSchema<T>(
  problem: (params: Record<string, unknown>) => string | undefined,
): StandardSchemaV1<unknown, T> {
  return {
    '~standard': {
      version: 1,
      vendor: 'tool-search',
      validate: (value) => {
        const params = typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {};
        const issue = problem(params as Record<string, unknown>);
        return issue ? { issues: [{ message: issue }] } : { value: params as T };
      },
    },
  };
}
