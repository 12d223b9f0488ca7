/**
 * Named tool sets. Core groups list core tool NAMES and match only tools of
 * source `core` (a plugin tool named `read` is not in `group:fs`). Source
 * groups match by source. Any other `group:<name>` is open: plugins join it
 * through `meta.groups`.
 */
export const CORE_GROUPS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  'group:runtime': Object.freeze(['exec', 'bash', 'process']),
  'group:fs': Object.freeze(['read', 'write', 'edit', 'apply_patch']),
  'group:sessions': Object.freeze([
    'sessions_list',
    'sessions_history',
    'sessions_send',
    'sessions_spawn',
    'session_status',
  ]),
  'group:memory': Object.freeze(['memory_search', 'memory_get']),
  'group:web': Object.freeze(['web_search', 'web_fetch']),
  'group:ui': Object.freeze(['browser', 'canvas']),
  'group:automation': Object.freeze(['cron', 'gateway']),
  'group:messaging': Object.freeze(['message']),
  'group:nodes': Object.freeze(['nodes']),
});

/**
 * OpenClaw's tool name aliases in policy entries: `bash` names the core tool `exec` (the name `group:runtime` keeps for
 * it) and `apply-patch` names `apply_patch`. An alias entry matches that core tool as well as anything literally named so.
 */
export const TOOL_NAME_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  bash: 'exec',
  'apply-patch': 'apply_patch',
});

/** Groups defined by a tool's source. */
export const SOURCE_GROUPS = Object.freeze({
  'group:openclaw': 'core',
  'group:plugins': 'plugin',
  'group:mcp': 'mcp',
  /** MCP servers' skills (SEP-2640): ids `skill:<server>:<name>`. */
  'group:skills': 'skill',
} as const);

/** Groups whose membership the policy defines; `meta.groups` cannot claim them. */
export function isReservedGroup(entry: string): boolean {
  const key = entry.toLowerCase();
  return Object.hasOwn(CORE_GROUPS, key) || Object.hasOwn(SOURCE_GROUPS, key);
}

/**
 * Replaces core group names by their tool names (for display and tooling).
 * Source groups, plugin groups, globs and names are kept as they are.
 */
export function expandGroups(entries: readonly string[]): string[] {
  const out: string[] = [];
  for (const entry of entries) {
    const members = CORE_GROUPS[entry.toLowerCase()];
    for (const item of members ?? [entry]) if (!out.includes(item)) out.push(item);
  }
  return out;
}
