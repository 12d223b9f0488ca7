/**
 * Skills (source `skill`) in the control tools: a search hit of a skill says `kind: "skill"` (tools stay
 * without `kind`), and describing a skill reads its SKILL.md through the run, so a `beforeToolCall` guard that
 * blocks the read also keeps the text out of describe. (The MCP side, a real server, is e2e/test/mcp-server/skills.)
 */
import { describe, expect, it } from 'vitest';
import { createKernel, type KernelPlugin, type RunApi } from '@tool-search/kernel';
import { createControlTools, CONTROL_TOOL_NAMES, MAX_DESCRIBED_SKILL_CHARS } from '@tool-search/control-tools';

const SKILL_MD = '---\nname: git-workflow\ndescription: Branch and open a pull request.\n---\n\nRebase on main.\n';

const source: KernelPlugin = {
  name: 'src',
  apply: ({ hooks }) =>
    hooks.listTools.tap((sink) =>
      sink.add([
        {
          name: 'git-workflow',
          source: 'skill',
          owner: 'docs',
          description: 'Branch, commit and open a pull request the way this team does',
          inputSchema: { type: 'object', properties: { file: { type: 'string' } } },
          execute: () => ({ content: [{ type: 'text', text: SKILL_MD }] }),
        },
        {
          name: 'open_pull_request',
          source: 'mcp',
          owner: 'github',
          description: 'Open a pull request',
          inputSchema: { type: 'object' },
          execute: () => ({ content: [{ type: 'text', text: 'opened' }] }),
        },
      ]),
    ),
};

const blockSkills: KernelPlugin = {
  name: 'guard',
  apply: ({ hooks }) =>
    hooks.beforeToolCall.tap((call) =>
      call.tool.source === 'skill' ? { action: 'block' as const, reason: 'skills need a review' } : undefined,
    ),
};

async function setup(plugins: KernelPlugin[] = []) {
  const run = await createKernel({ plugins: [source, ...plugins] }).createRun();
  const tools = createControlTools({ searchDefaultLimit: 8, maxSearchLimit: 20, callHint: 'Run it with tool_call.' });
  const ctx = { run: run as RunApi, signal: new AbortController().signal };
  return (name: string, args: Record<string, unknown>) => tools.find((t) => t.name === name)!.handler!(args, ctx);
}

describe('skills in the control tools', () => {
  it('search marks skill hits kind "skill" and leaves tools as they were', async () => {
    const call = await setup();
    const result = await call(CONTROL_TOOL_NAMES.search, { query: 'pull request' });
    const hits = (result.structuredContent as { hits: Array<Record<string, unknown>> }).hits;
    expect(hits.find((hit) => hit.id === 'skill:docs:git-workflow')).toMatchObject({ kind: 'skill', source: 'skill' });
    expect(hits.find((hit) => hit.id === 'mcp:github:open_pull_request')).not.toHaveProperty('kind');
  });

  it('describe of a skill carries its SKILL.md', async () => {
    const call = await setup();
    const result = await call(CONTROL_TOOL_NAMES.describe, { id: 'skill:docs:git-workflow' });
    expect(result.isError).toBeUndefined();
    expect((result.content[0] as { text: string }).text).toContain('Rebase on main.');
    expect(result.structuredContent).toMatchObject({ kind: 'skill', skill: SKILL_MD });
  });

  it('a guard that blocks reading the skill keeps its text out of describe', async () => {
    const call = await setup([blockSkills]);
    const result = await call(CONTROL_TOOL_NAMES.describe, { id: 'skill:docs:git-workflow' });
    expect((result.content[0] as { text: string }).text).not.toContain('Rebase on main.');
    expect(result.structuredContent).toMatchObject({ kind: 'skill', skillError: { code: 'TOOL_CALL_BLOCKED' } });
  });
});

describe('a long SKILL.md in describe', () => {
  it('is cut at MAX_DESCRIBED_SKILL_CHARS with a note to call the skill', async () => {
    const long: KernelPlugin = {
      name: 'long',
      apply: ({ hooks }) =>
        hooks.listTools.tap((sink) =>
          sink.add({
            name: 'big',
            source: 'skill',
            owner: 'docs',
            description: 'A big skill',
            inputSchema: { type: 'object' },
            execute: () => ({ content: [{ type: 'text', text: 'x'.repeat(MAX_DESCRIBED_SKILL_CHARS * 3) }] }),
          }),
        ),
    };
    const run = await createKernel({ plugins: [long] }).createRun();
    const tools = createControlTools({ searchDefaultLimit: 8, maxSearchLimit: 20, callHint: '' });
    const describe = tools.find((t) => t.name === CONTROL_TOOL_NAMES.describe)!.handler!;
    const result = await describe(
      { id: 'skill:docs:big' },
      { run: run as RunApi, signal: new AbortController().signal },
    );
    const skill = (result.structuredContent as { skill: string }).skill;
    expect(skill.length).toBeLessThan(MAX_DESCRIBED_SKILL_CHARS + 200);
    expect(skill).toContain('call skill:docs:big for all of it');
  });
});
