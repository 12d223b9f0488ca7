/**
 * The matcher: one policy entry against one tool. Case-insensitive; `*` is a
 * wildcard (`"*"` = every tool, `web_*` a glob). An entry matches a tool's
 * name, its id (`mcp:github:*`), or, for plugin tools, the plugin id (owner).
 * In an allowlist, an entry that starts with a source (`mcp:`, `plugin:`, …)
 * names ids only: an MCP server cannot name its tool `mcp:trusted:drop_db` to
 * be allowed by `mcp:trusted:*`. Deny and approval entries still match names
 * too, so they are never narrower, and they also match the folded form of
 * the tool (see fold.ts), so a lookalike name (`wr\u0456te_file`) cannot slip
 * past them. Allow entries match the raw form only: folding would only widen
 * an allowlist.
 */
import type { ToolDescriptor } from '@tool-search/kernel';
import { foldName } from './fold.js';
import { CORE_GROUPS, SOURCE_GROUPS, TOOL_NAME_ALIASES } from './groups.js';

declare module '@tool-search/kernel' {
  interface ToolMeta {
    /**
     * Plugin-declared groups (`group:<name>`): `group:<name>` in any policy
     * scope matches the tool. The reserved groups (core groups,
     * `group:openclaw`, `group:plugins`, `group:mcp`) cannot be joined this way.
     */
    groups?: readonly string[];
    /**
     * Offered only where an allow list (`tools.allow` / `alsoAllow`, or the run's agent's) names the tool itself, by
     * name or id: no profile, group, glob or `*` and no missing allowlist brings it in (the `gateway` tool).
     */
    explicitOnly?: boolean;
  }
}

/** The descriptor fields the matcher reads. */
export type MatchableTool = Pick<ToolDescriptor, 'id' | 'name' | 'source' | 'owner' | 'meta'>;

/** `allow` reads id-shaped entries as ids only; `deny` (the default, also used for approvals) matches as broadly as it can. */
export type MatchEffect = 'allow' | 'deny';

const ID_ENTRY = /^(core|plugin|mcp|client|skill):/;

export function matchesEntry(entry: string, tool: MatchableTool, effect: MatchEffect = 'deny'): boolean {
  if (effect === 'deny' && tool.source === 'client') {
    // A client tool is also read as the tool its name claims to be (`EXEC`, `\u0435xec`, `core:core:exec`).
    const claim = claimedTool(tool);
    if (claim && matchesOwn(entry, claim, effect)) return true;
  }
  return matchesOwn(entry, tool, effect);
}

/**
 * The catalog tool a client tool's name claims to be, for deny and approval readings: its folded name with any
 * `<source>:<owner>:` prefixes taken as that source and owner (`core:core:exec` → the core tool `exec`), or, without a
 * prefix, the core tool of that name when a core group lists it (`EXEC`, `\u0435xec` → core `exec`). Undefined for a
 * name that claims nothing (`get_weather`). Deny entries and core groups then match the client tool as they would
 * the tool it imitates, so `group:runtime` drops a client tool named `EXEC` before it is ever handed to the client.
 */
export function claimedTool(tool: Pick<MatchableTool, 'name' | 'source'>): MatchableTool | undefined {
  if (tool.source !== 'client') return undefined;
  const folded = stripPrefixes(foldName(tool.name), FOLDED_PREFIX, (source) => FOLDED_SOURCES.get(source));
  // The same parse on the plain lower-case name gives readable parts when it folds to the same thing (`m` folds to `rn`).
  const plain = stripPrefixes(tool.name.normalize('NFKC').toLowerCase(), PLAIN_PREFIX, (source) => source);
  const same = plain.prefix?.source === folded.prefix?.source && foldName(plain.rest) === folded.rest;
  const core = CORE_BY_FOLDED.get(folded.rest);
  if (!folded.prefix && !core) return undefined;
  const source = folded.prefix?.source ?? 'core';
  const owner = folded.prefix ? (same && plain.prefix ? plain.prefix.owner : folded.prefix.owner) : 'core';
  const name = source === 'core' && core ? core : same ? plain.rest : folded.rest;
  return { id: `${source}:${owner}:${name}`, name, source: source as MatchableTool['source'], owner };
}

const SOURCES = ['core', 'plugin', 'mcp', 'client', 'skill'] as const;
const FOLDED_SOURCES = new Map(SOURCES.map((source) => [foldName(source), source]));
const prefixPattern = (sources: Iterable<string>) =>
  new RegExp(`^(${[...sources].map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')}):([^:]*):(.+)$`, 's');
const FOLDED_PREFIX = prefixPattern(FOLDED_SOURCES.keys());
const PLAIN_PREFIX = prefixPattern(SOURCES);
const CORE_BY_FOLDED = new Map(
  Object.values(CORE_GROUPS)
    .flat()
    .map((name) => [foldName(name), name]),
);

/** Takes `<source>:<owner>:` prefixes off a name, innermost claim last (`client:client:core:core:exec` → core, exec). */
function stripPrefixes(
  value: string,
  pattern: RegExp,
  sourceOf: (raw: string) => string | undefined,
): { prefix?: { source: string; owner: string }; rest: string } {
  let rest = value;
  let prefix: { source: string; owner: string } | undefined;
  for (let m = pattern.exec(rest); m; m = pattern.exec(rest)) {
    prefix = { source: sourceOf(m[1]!) ?? m[1]!, owner: m[2]! };
    rest = m[3]!;
  }
  return { ...(prefix ? { prefix } : {}), rest };
}

function matchesOwn(entry: string, tool: MatchableTool, effect: MatchEffect): boolean {
  const key = entry.toLowerCase();
  if (key === '*') return true;
  const alias = Object.hasOwn(TOOL_NAME_ALIASES, key) ? TOOL_NAME_ALIASES[key] : undefined;
  if (alias && tool.source === 'core' && tool.name.toLowerCase() === alias) return true;
  if (key.startsWith('group:')) return inGroup(key, tool, effect);
  const test = compile(key);
  if (effect === 'allow') return ID_ENTRY.test(key) ? test(tool.id.toLowerCase()) : matchesRaw(test, tool);
  if (matchesRaw(test, tool)) return true;
  const folded = compile(foldName(entry));
  return (
    folded(foldName(tool.name)) ||
    folded(foldName(tool.id)) ||
    (tool.source === 'plugin' && folded(foldName(tool.owner)))
  );
}

function matchesRaw(test: (value: string) => boolean, tool: MatchableTool): boolean {
  return (
    test(tool.name.toLowerCase()) ||
    test(tool.id.toLowerCase()) ||
    (tool.source === 'plugin' && test(tool.owner.toLowerCase()))
  );
}

/** The first entry (in config order) that matches the tool. */
export function firstMatch(
  entries: readonly string[],
  tool: MatchableTool,
  effect: MatchEffect = 'deny',
): string | undefined {
  for (const entry of entries) if (matchesEntry(entry, tool, effect)) return entry;
  return undefined;
}

function inGroup(key: string, tool: MatchableTool, effect: MatchEffect): boolean {
  const members = CORE_GROUPS[key];
  if (members)
    return (
      tool.source === 'core' &&
      (members.includes(tool.name.toLowerCase()) || (effect === 'deny' && members.includes(foldName(tool.name))))
    );
  if (Object.hasOwn(SOURCE_GROUPS, key)) return tool.source === SOURCE_GROUPS[key as keyof typeof SOURCE_GROUPS];
  // Open groups: declared by the tool's plugin (runtime data, so check its shape).
  const declared: unknown = tool.meta?.groups;
  return Array.isArray(declared) && declared.some((group) => typeof group === 'string' && group.toLowerCase() === key);
}

const compiled = new Map<string, (value: string) => boolean>();

/** Exact comparison, or an anchored glob where `*` is any run of characters. */
function compile(key: string): (value: string) => boolean {
  let test = compiled.get(key);
  if (!test) {
    if (!key.includes('*')) {
      test = (value) => value === key;
    } else {
      const source = key
        .split('*')
        .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*');
      const regex = new RegExp(`^${source}$`, 's');
      test = (value) => regex.test(value);
    }
    if (compiled.size > 10_000) compiled.clear();
    compiled.set(key, test);
  }
  return test;
}
