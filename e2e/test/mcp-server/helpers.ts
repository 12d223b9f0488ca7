/**
 * The helpers of @tool-search/mcp-server's own tests (one copy), for its tests that need the preset's kernel and
 * live here (the preset hosts the MCP server, so that package's tests may not depend on it), plus this folder's
 * fixtures.
 */
import { fileURLToPath } from 'node:url';

export * from '../../../packages/mcp-server/test/helpers.js';
export const DYNAMIC_FIXTURE = fileURLToPath(new URL('./fixtures/dynamic-server.mjs', import.meta.url));
