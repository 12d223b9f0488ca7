/**
 * MCP Skills (SEP-2640): a real server built with the official v2 SDK (`SkillCatalog` attached to an `McpServer`,
 * test/fixtures/skills-server.mjs) over stdio, in each era. Its skills join the catalog as `skill:<server>:<name>`
 * beside its tools, calling one reads its files verified against the entry's digests, and a file that does not
 * match its digest is refused.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createKernel, type Kernel } from '@tool-search/kernel';
import { mcpPlugin } from '../src/index.js';
import { McpErrors } from '../src/errors.js';

const SKILLS_SERVER = fileURLToPath(new URL('./fixtures/skills-server.mjs', import.meta.url));

let kernel: Kernel | undefined;
afterEach(async () => {
  await kernel?.close();
  kernel = undefined;
});

function start(
  protocol: '2026-07-28' | '2025-11-25',
  mode = '',
  onToolsChanged?: (server: string) => void,
  connectTimeoutMs = 30_000,
): Kernel {
  kernel = createKernel({
    plugins: [
      mcpPlugin({
        connectTimeoutMs,
        ...(onToolsChanged ? { onToolsChanged } : {}),
        servers: { docs: { command: process.execPath, args: [SKILLS_SERVER, mode], protocol } },
      }),
    ],
  });
  return kernel;
}

describe.each(['2026-07-28', '2025-11-25'] as const)('skills of a server speaking %s', (protocol) => {
  it('are listed beside its tools as skill:<server>:<name>, with the entry in meta', async () => {
    const run = await start(protocol).createRun();
    expect(run.catalog.map((tool) => tool.id).sort()).toEqual([
      'mcp:docs:ping',
      'skill:docs:git-workflow',
      'skill:docs:release-notes',
    ]);
    const skill = run.catalog.find((tool) => tool.id === 'skill:docs:git-workflow')!;
    expect(skill.source).toBe('skill');
    expect(skill.description).toBe('Branch, commit and open a pull request the way this team does.');
    expect(skill.meta?.mcpSkill?.entry.uri).toBe('skill://git-workflow/SKILL.md');
    expect(skill.meta?.mcpSkill?.entry.resources).toHaveLength(2);
    // ttlMs / cacheScope are fields of the 2026-07-28 wire format only.
    if (protocol === '2026-07-28') expect(skill.meta?.mcpSkill).toMatchObject({ ttlMs: 60_000, cacheScope: 'public' });
    else expect(skill.meta?.mcpSkill?.ttlMs).toBeUndefined();
    await run.close();
  }, 60_000);

  it('a call reads SKILL.md, or a listed file, verified against its digest', async () => {
    const run = await start(protocol).createRun();
    const main = await run.call('skill:docs:git-workflow', {});
    expect(main.status).toBe('ok');
    if (main.status !== 'ok') return;
    expect(main.result.content[0]).toMatchObject({ type: 'text' });
    expect((main.result.content[0] as { text: string }).text).toContain('Rebase on main, then squash.');
    expect(main.result.structuredContent).toMatchObject({ uri: 'skill://git-workflow/SKILL.md', verified: true });
    const guide = await run.call('skill:docs:git-workflow', { file: 'references/GUIDE.md' });
    expect(guide.status === 'ok' && (guide.result.content[0] as { text: string }).text).toContain('imperative mood');
    await run.close();
  }, 60_000);
});

describe('skill files that do not match their entry', () => {
  it('a file whose bytes differ from the published digest is refused, not returned', async () => {
    const run = await start('2026-07-28', 'tamper').createRun();
    const outcome = await run.call('skill:docs:git-workflow', { file: 'references/GUIDE.md' });
    expect(outcome.status).toBe('error');
    if (outcome.status === 'error') expect(outcome.error.code).toBe(McpErrors.MCP_SKILL_INVALID);
    // SKILL.md itself still matches: the skill stays readable.
    expect((await run.call('skill:docs:git-workflow', {})).status).toBe('ok');
    await run.close();
  }, 60_000);

  it('a path that leaves the skill folder is refused before any request', async () => {
    const run = await start('2026-07-28').createRun();
    for (const file of ['../release-notes/SKILL.md', 'skill://release-notes/SKILL.md', '/etc/passwd', '%2e%2e/x']) {
      const outcome = await run.call('skill:docs:git-workflow', { file });
      expect(outcome.status, file).toBe('error');
      if (outcome.status === 'error') expect(outcome.error.code, file).toBe(McpErrors.MCP_SKILL_INVALID);
    }
    await run.close();
  }, 60_000);
});

describe('a server whose skills change', () => {
  it('resources/list_changed (a catalog reload) lists its skills again and tells onToolsChanged', async () => {
    const changed: string[] = [];
    // 2025-11-25: no ttlMs, so only the notification can make the next run see the new skill.
    const first = await start('2025-11-25', 'reload', (server) => changed.push(server)).createRun();
    expect(first.tool('skill:docs:changelog')).toBeUndefined();
    expect((await first.call('mcp:docs:publish', {})).status).toBe('ok');
    await expect.poll(() => changed, { timeout: 10_000 }).toContain('docs');
    await first.close();
    const next = await kernel!.createRun();
    expect(next.tool('skill:docs:changelog')?.description).toBe('Keep the changelog.');
    await next.close();
  }, 60_000);
});

describe('a server that never answers skills/list', () => {
  it('keeps its tools; the skills are missing with an MCP_SKILLS_LIST_FAILED warning', async () => {
    // The listing is bounded by connectTimeoutMs, like tools/list, well inside the kernel's source timeout.
    const run = await start('2026-07-28', 'hang', undefined, 2_000).createRun();
    expect(run.catalog.map((tool) => tool.id)).toEqual(['mcp:docs:ping']);
    expect(run.diagnostics).toContainEqual(
      expect.objectContaining({ code: McpErrors.MCP_SKILLS_LIST_FAILED, level: 'warning' }),
    );
    await run.close();
  }, 60_000);
});
