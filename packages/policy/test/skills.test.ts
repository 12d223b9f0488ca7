/**
 * Skills of MCP servers (SEP-2640, source `skill`, ids `skill:<server>:<name>`) under the policy: deny and allow
 * by id, glob and `group:skills`, like tools; a sandboxed run that drops them says how to allow them.
 */
import { ErrorCode } from '@tool-search/kernel';
import { describe, expect, it } from 'vitest';
import { ids, runWith, type CatalogSpec } from './fixtures.js';

const CATALOG: CatalogSpec = {
  core: ['read'],
  mcp: { docs: ['ping'] },
  skills: { docs: ['git-workflow', 'release-notes'], other: ['onboarding'] },
};
const skillIds = async (options: Parameters<typeof runWith>[0], sandboxed = false) =>
  ids(await runWith(options, { sandboxed }, CATALOG)).filter((id) => id.startsWith('skill:'));

describe('skills under the policy', () => {
  it('deny by id, by server glob, and by group:skills', async () => {
    expect(await skillIds({ tools: { deny: ['skill:docs:release-notes'] } })).toEqual([
      'skill:docs:git-workflow',
      'skill:other:onboarding',
    ]);
    expect(await skillIds({ tools: { deny: ['skill:docs:*'] } })).toEqual(['skill:other:onboarding']);
    expect(await skillIds({ tools: { deny: ['group:skills'] } })).toEqual([]);
    // group:mcp is the servers' tools, not their skills.
    expect(await skillIds({ tools: { deny: ['group:mcp'] } })).toHaveLength(3);
  });

  it('allow by group:skills or a skill id keeps exactly those', async () => {
    expect(ids(await runWith({ tools: { allow: ['group:skills'] } }, {}, CATALOG))).toEqual([
      'skill:docs:git-workflow',
      'skill:docs:release-notes',
      'skill:other:onboarding',
    ]);
    expect(ids(await runWith({ tools: { allow: ['read', 'skill:docs:git-workflow'] } }, {}, CATALOG))).toEqual([
      'core:core:read',
      'skill:docs:git-workflow',
    ]);
  });

  it('a sandboxed run drops them and names skill:<server>:* as the way back', async () => {
    const run = await runWith({}, { sandboxed: true }, CATALOG);
    expect(run.catalog.filter((tool) => tool.source === 'skill')).toEqual([]);
    const notice = run.diagnostics.find((d) => d.code === ErrorCode.POLICY_DENIED && d.details?.layer === 'sandbox');
    expect(notice?.details?.allowHints).toEqual(['mcp:docs:*', 'skill:docs:*', 'skill:other:*']);
    expect(await skillIds({ tools: { sandbox: { tools: { allow: ['skill:docs:*'] } } } }, true)).toEqual([
      'skill:docs:git-workflow',
      'skill:docs:release-notes',
    ]);
  });
});
