/**
 * What front ends use from plugins, through the preset: front ends import the preset, not plugins (the layering rule
 * in scripts/check-deps.mjs), so a plugin can move or split without touching the CLI.
 */
export { normalizeClientTools } from '@tool-search/plugin-client-tools';
export type { ClientToolInput } from '@tool-search/plugin-client-tools';
export { compareRankings, parseEmbeddingsOptions } from '@tool-search/plugin-embeddings';
export type { EmbeddingsOptions, RankingComparison } from '@tool-search/plugin-embeddings';
export { readSnapshotFile, snapshotDescriptors, toSnapshot } from '@tool-search/plugin-snapshot';
export type { CatalogSnapshot } from '@tool-search/plugin-snapshot';

/** `@tool-search/plugin-mcp` on demand (token store, logins): the MCP SDK stays unloaded for a command without MCP. */
export const loadMcpClient = () => import('@tool-search/plugin-mcp');
