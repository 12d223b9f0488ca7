// The public surface of @tool-search/tool-match: the entry matcher shared by policy and approvals.
export { matchesEntry, firstMatch, claimedTool } from './match.js';
export type { MatchableTool, MatchEffect } from './match.js';
export { CORE_GROUPS, SOURCE_GROUPS, TOOL_NAME_ALIASES, expandGroups, isReservedGroup } from './groups.js';
export { foldName, isLookalikeName } from './fold.js';
