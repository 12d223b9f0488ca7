// Skills (source `skill`, an MCP server's SEP-2640 skills) through the code bridge: `openclaw.tools.search` marks
// them `kind: "skill"`, `openclaw.tools.describe` carries the SKILL.md (read through the run), and
// `openclaw.tools.call` reads a file of the skill.
import { afterEach, describe, expect, it } from 'vitest';
import { createKernel, type KernelPlugin } from '@tool-search/kernel';
import { CODE_TOOL_NAME, codeModePlugin, type CodeResult } from '../src/index.js';
import { pidTracker } from './fixtures.js';

const tracker = pidTracker();
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
  expect(tracker.alive()).toEqual([]);
});

const skills: KernelPlugin = {
  name: 'skills',
  apply: ({ hooks }) =>
    hooks.listTools.tap((sink) =>
      sink.add({
        name: 'git-workflow',
        source: 'skill',
        owner: 'docs',
        description: 'Branch, commit and open a pull request the way this team does',
        inputSchema: { type: 'object', properties: { file: { type: 'string' } } },
        execute: (args) => ({
          content: [{ type: 'text', text: args.file ? `file ${String(args.file)}` : 'Rebase on main.' }],
        }),
      }),
    ),
};

describe('skills through the code bridge', () => {
  it('search says kind "skill", describe carries SKILL.md, call reads a file', async () => {
    const kernel = createKernel({
      plugins: [skills, codeModePlugin({ codeTimeoutMs: 20_000, onSpawn: tracker.onSpawn })],
    });
    const run = await kernel.createRun();
    closers.push(async () => {
      await run.close();
      await kernel.close();
    });
    const exposure = await run.exposure('code');
    const code = `const [hit] = await openclaw.tools.search('pull request');
      const described = await openclaw.tools.describe(hit.id);
      const guide = await openclaw.tools.call(hit.id, { file: 'references/GUIDE.md' });
      return { kind: hit.kind, describedKind: described.kind, skill: described.skill, guide: guide.content[0].text };`;
    const outcome = await exposure.call(CODE_TOOL_NAME, { code });
    expect(outcome.status).toBe('ok');
    const result = (outcome as { result: { structuredContent: CodeResult } }).result.structuredContent;
    expect(result, JSON.stringify(result)).toMatchObject({
      ok: true,
      value: { kind: 'skill', describedKind: 'skill', skill: 'Rebase on main.', guide: 'file references/GUIDE.md' },
    });
  }, 60_000);
});
