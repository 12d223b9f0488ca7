/**
 * What front ends use from plugins, through the preset: front ends import the preset, not plugins (the layering rule
 * in scripts/check-deps.mjs), so a plugin can move or split without touching the CLI.
 */
import { OPTIONAL_CAPABILITIES, requireCapability } from './capabilities.js';
export { normalizeClientTools } from '@tool-search/plugin-client-tools';
export type { ClientToolInput } from '@tool-search/plugin-client-tools';
export { compareRankings, parseEmbeddingsOptions } from '@tool-search/plugin-embeddings';
export type { EmbeddingsOptions, RankingComparison } from '@tool-search/plugin-embeddings';
export { readSnapshotFile, snapshotDescriptors, toSnapshot } from '@tool-search/plugin-snapshot';
export type { CatalogSnapshot } from '@tool-search/plugin-snapshot';

/** `@tool-search/plugin-mcp` on demand (token store, logins): the MCP SDK stays unloaded for a command without MCP. */
export const loadMcpClient = () => import('@tool-search/plugin-mcp');

/** `@tool-search/plugin-web` on demand (`configure --section web` checks its rules): its HTTP and HTML libraries stay unloaded otherwise. */
export const loadWebPlugin = () => {
  requireCapability(OPTIONAL_CAPABILITIES.web, 'web search and fetch');
  return import('@tool-search/plugin-web');
};

// What `eval --from-logs` replays: the learned signal as the live plugin computes it.
export { buildModel, LEARNING_DEFAULTS, learnedOrder, SearchCallPairer } from '@tool-search/plugin-learning';
export type { LearningEvent, LearningScope } from '@tool-search/plugin-learning';

// Codes front ends answer with or match on, from the plugins that own them.
export { ApprovalsErrors } from '@tool-search/plugin-approvals';
export { McpErrors } from '@tool-search/plugin-mcp/options';
