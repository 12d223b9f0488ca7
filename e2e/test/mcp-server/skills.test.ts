/**
 * MCP Skills (SEP-2640) end to end: a downstream server built with the official v2 SDK (`SkillCatalog` on an
 * `McpServer`, over stdio) offers two skills; Tool Search aggregates them as `skill:docs:<name>`, a deny rule hides
 * one, search finds the other with `kind: "skill"`, describe reads its SKILL.md, and serve mcp serves it over HTTP
 * to a 2025-11-25 client (the v1 SDK, which has no skills support: the documented wire format by hand) and to a
 * 2026-07-28 client (the v2 SDK's `SkillsClient`, which checks every file against its size and digest).
 */
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttp } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import type { Kernel } from '@tool-search/kernel';
import { createToolSearchKernel } from '@tool-search/preset';
import { serveHttp, type HttpMcpHandle } from '@tool-search/mcp-server';
import { call, errorCode, text } from './helpers.js';

const SKILLS_SERVER = fileURLToPath(
  new URL('../../../packages/plugin-mcp/test/fixtures/skills-server.mjs', import.meta.url),
);
const SKILL_MD = 'tool-search://docs/skill://git-workflow/SKILL.md';
const DENIED_MD = 'tool-search://docs/skill://release-notes/SKILL.md';

let kernel: Kernel;
let http: HttpMcpHandle;
const closing: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  const preset = await createToolSearchKernel({
    mcpServers: { docs: { command: process.execPath, args: [SKILLS_SERVER] } },
    tools: { deny: ['skill:docs:release-notes'] },
  });
  kernel = preset.kernel;
  http = await serveHttp({
    kernel,
    mode: 'tools',
    refreshIntervalMs: 0,
    ...(preset.mcpDownstream ? { downstream: preset.mcpDownstream } : {}),
  });
}, 60_000);
afterAll(async () => {
  await Promise.all(closing.map((client) => client.close().catch(() => undefined)));
  await http?.close();
  await kernel?.close();
});

describe('skills in the catalog', () => {
  it('are aggregated as skill:<server>:<name>; a deny rule hides one', async () => {
    const run = await kernel.createRun();
    expect(
      run.listed
        .filter((tool) => tool.source === 'skill')
        .map((tool) => tool.id)
        .sort(),
    ).toEqual(['skill:docs:git-workflow', 'skill:docs:release-notes']);
    expect(run.catalog.filter((tool) => tool.source === 'skill').map((tool) => tool.id)).toEqual([
      'skill:docs:git-workflow',
    ]);
    expect(run.explain('skill:docs:release-notes').inCatalog).toBe(false);
    await run.close();
  });
});

describe('a 2025-11-25 client (v1 SDK, the wire format by hand)', () => {
  let client: LegacyClient;
  beforeAll(async () => {
    client = new LegacyClient({ name: 'v1-peer', version: '1.0.0' });
    await client.connect(new LegacyHttp(new URL(http.url)));
    closing.push(client);
  });

  it('is told of the extension in the initialize result', () => {
    const capabilities = client.getServerCapabilities() as { extensions?: Record<string, unknown> } | undefined;
    expect(capabilities?.extensions).toHaveProperty(['io.modelcontextprotocol/skills']);
  });

  it('finds the skill with kind "skill", and not the denied one', async () => {
    const found = await call(client as never, 'tool_search', { query: 'open a pull request git workflow' });
    const hits = (found.structuredContent as { hits: Array<{ id: string; kind?: string }> }).hits;
    expect(hits.find((hit) => hit.id === 'skill:docs:git-workflow')).toMatchObject({ kind: 'skill' });
    const denied = await call(client as never, 'tool_search', { query: 'release notes', limit: 20 });
    expect(JSON.stringify(denied.structuredContent)).not.toContain('skill:docs:release-notes');
  });

  it('describe reads SKILL.md; the denied skill cannot be described or called', async () => {
    const described = await call(client as never, 'tool_describe', { id: 'skill:docs:git-workflow' });
    expect(text(described)).toContain('Rebase on main, then squash.');
    expect(described.structuredContent).toMatchObject({ kind: 'skill', source: 'skill' });
    expect(errorCode(await call(client as never, 'tool_describe', { id: 'skill:docs:release-notes' }))).toBe(
      'UNKNOWN_TOOL',
    );
    const called = await call(client as never, 'tool_call', { id: 'skill:docs:release-notes', args: {} });
    expect(errorCode(called)).toBe('UNKNOWN_TOOL');
  });

  it('skills/list and skills/get serve the visible skill; resources/read serves its files, digests intact', async () => {
    const listed = (await client.request({ method: 'skills/list', params: {} }, ResultSchema)) as unknown as {
      skills: Array<{ uri: string; resources: Array<{ uri: string; digest: string; size: number }> }>;
      ttlMs?: number;
    };
    expect(listed.skills.map((skill) => skill.uri)).toEqual([SKILL_MD]);
    expect(listed.ttlMs).toBeUndefined(); // a 2026-07-28 field
    for (const file of listed.skills[0]!.resources) {
      const read = await client.readResource({ uri: file.uri });
      const bytes = Buffer.from((read.contents[0] as { text: string }).text, 'utf8');
      expect(bytes.length).toBe(file.size);
      expect(`sha256:${createHash('sha256').update(bytes).digest('hex')}`).toBe(file.digest);
    }
    const got = (await client.request({ method: 'skills/get', params: { uri: SKILL_MD } }, ResultSchema)) as {
      skill?: { uri: string };
    };
    expect(got.skill?.uri).toBe(SKILL_MD);
    await expect(client.request({ method: 'skills/get', params: { uri: DENIED_MD } }, ResultSchema)).rejects.toThrow(
      /No skill is served/,
    );
    // The denied skill's files are not read either, though its server shows another skill and a tool.
    await expect(client.readResource({ uri: DENIED_MD })).rejects.toMatchObject({ code: -32002 });
    const resources = (await client.listResources()).resources.map((resource) => resource.uri);
    expect(resources).toContain(SKILL_MD);
    expect(resources).not.toContain(DENIED_MD);
  });
});

describe('a 2026-07-28 client (v2 SDK SkillsClient)', () => {
  let skills: SkillsClient;
  beforeAll(async () => {
    const client = new Client(
      { name: 'v2-peer', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    closing.push(client);
    skills = new SkillsClient(client);
  });

  it('sees the extension and lists the visible skill with ttlMs and cacheScope', async () => {
    expect(skills.supported).toBe(true);
    const listing = await skills.list();
    expect(listing.skills.map((skill) => skill.uri)).toEqual([SKILL_MD]);
    expect(listing.invalid).toEqual([]);
    expect(typeof listing.ttlMs).toBe('number');
    expect(listing.cacheScope).toBe('private');
  });

  it('reads SKILL.md and a reference, each verified against the digest the downstream server published', async () => {
    const { skill } = await skills.get(SKILL_MD);
    const main = await skills.read(skill);
    expect(main).toMatchObject({ verified: true, frontmatter: { name: 'git-workflow' } });
    expect(main.body).toContain('Rebase on main, then squash.');
    const guide = await skills.read(skill, 'references/GUIDE.md');
    expect(guide.verified).toBe(true);
    expect(guide.text).toContain('imperative mood');
  });

  it('cannot get the denied skill', async () => {
    await expect(skills.get(DENIED_MD)).rejects.toThrow(/No skill is served/);
  });
});
