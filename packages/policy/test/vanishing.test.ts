/** Issue 22: a healthy source that stops listing an allowlisted tool must not open the run (fail closed). */
import { createKernel, ErrorCode, type KernelPlugin, type ToolDefinition } from '@tool-search/kernel';
import { describe, expect, it } from 'vitest';
import { policyPlugin, type PolicyOptions } from '../src/index.js';
import { PolicyErrors } from '../src/errors.js';

const tool = (source: 'core' | 'mcp', owner: string, name: string): ToolDefinition => ({
  name,
  source,
  owner,
  description: name,
  inputSchema: { type: 'object' },
  execute: () => ({ content: [{ type: 'text', text: name }] }),
});

/** Core exec/read, plus an MCP server "notes" whose tool list is whatever `notes` holds at listing time. */
function sources(notes: { tools: string[] }): KernelPlugin {
  return {
    name: 'test-sources',
    apply: ({ hooks }) =>
      hooks.listTools.tap((sink) =>
        sink.add([
          tool('core', 'core', 'exec'),
          tool('core', 'core', 'read'),
          ...notes.tools.map((name) => tool('mcp', 'notes', name)),
        ]),
      ),
  };
}

async function twoRuns(options: PolicyOptions) {
  const notes = { tools: ['notes_search', 'notes_get'] };
  const kernel = createKernel({ plugins: [sources(notes), policyPlugin(options)] });
  const first = await kernel.createRun();
  notes.tools = ['notes_get'];
  const second = await kernel.createRun();
  return { first, second };
}

describe('allowlists and vanishing tools', () => {
  it('keeps allow ["notes_search"] in force when the running server stops listing it: exec stays uncallable', async () => {
    const { first, second } = await twoRuns({ tools: { allow: ['notes_search'] } });
    expect(first.catalog.map((t) => t.name)).toEqual(['notes_search']);
    expect(second.catalog).toEqual([]);
    await expect(second.call('exec', {})).rejects.toMatchObject({ code: ErrorCode.UNKNOWN_TOOL });
    expect(second.diagnostics.find((d) => d.code === PolicyErrors.POLICY_ALLOWLIST_IGNORED)?.details).toMatchObject({
      kept: true,
      reason: 'source-running',
    });
  });

  it('keeps an id-shaped allowlist of a running server in force even on the first run', async () => {
    const notes = { tools: ['notes_get'] };
    const kernel = createKernel({
      plugins: [sources(notes), policyPlugin({ tools: { allow: ['mcp:notes:notes_search'] } })],
    });
    const run = await kernel.createRun();
    expect(run.catalog).toEqual([]);
  });

  it('still ignores an allowlist naming tools of a source that is not loaded (the documents rule)', async () => {
    const notes = { tools: [] as string[] };
    const kernel = createKernel({ plugins: [sources(notes), policyPlugin({ tools: { allow: ['slack'] } })] });
    const run = await kernel.createRun();
    expect(run.catalog.map((t) => t.name).sort()).toEqual(['exec', 'read']);
    expect(run.diagnostics.find((d) => d.code === PolicyErrors.POLICY_ALLOWLIST_IGNORED)?.details).not.toHaveProperty(
      'kept',
    );
  });

  it('keeps the allowlist when the whole server stopped listing but was seen before with that tool', async () => {
    const notes = { tools: ['notes_search'] };
    const kernel = createKernel({ plugins: [sources(notes), policyPlugin({ tools: { allow: ['notes_search'] } })] });
    await kernel.createRun();
    notes.tools = [];
    // The server lists nothing now: it is not running as a source, so the documents' rule applies again.
    const run = await kernel.createRun();
    expect(run.catalog.map((t) => t.name).sort()).toEqual(['exec', 'read']);
  });
});
