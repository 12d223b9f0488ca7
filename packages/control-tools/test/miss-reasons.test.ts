/**
 * A search says why it may have missed: a source that failed to list (an MCP
 * server that did not start, a source that timed out) is named with its
 * state, and a weak result says so. Policy never shows: a denied tool is
 * neither a hit, nor named, nor hinted at.
 */
import { describe, expect, it } from 'vitest';
import {
  createKernel,
  type KernelPlugin,
  type OwnedErrorCode,
  type RunApi,
  type ToolDescriptor,
  type ToolResult,
} from '@tool-search/kernel';
import { createControlTools } from '@tool-search/control-tools';

const tools: KernelPlugin = {
  name: 'weather-source',
  apply: ({ hooks }) =>
    hooks.listTools.tap((sink) =>
      sink.add([
        {
          name: 'get_weather',
          source: 'plugin',
          owner: 'weather',
          description: 'Current weather for a city',
          inputSchema: { type: 'object' },
        },
        {
          name: 'add_member',
          source: 'plugin',
          owner: 'boards',
          description: 'Put a member on a card of a board',
          inputSchema: { type: 'object' },
        },
        {
          name: 'wipe_disk',
          source: 'plugin',
          owner: 'danger',
          description: 'Erase every file on the trello board disk',
          inputSchema: { type: 'object' },
        },
      ]),
    ),
};

/** An MCP-style source whose server did not start: it reports the failure as a diagnostic naming the server
 * (plugin-mcp's code, matched here by its wire string: control-tools does not depend on plugin-mcp). */
const failedMcp: KernelPlugin = {
  name: 'mcp-like',
  apply: ({ hooks }) =>
    hooks.listTools.tap((sink) =>
      sink.diagnostic({
        code: 'MCP_SERVER_FAILED' as OwnedErrorCode,
        level: 'error',
        message: 'spawn ENOENT',
        details: { server: 'trello' },
      }),
    ),
};

/** A source that throws while listing: the kernel records SOURCE_FAILED with the plugin's name. */
const broken: KernelPlugin = {
  name: 'calendar-plugin',
  apply: ({ hooks }) =>
    hooks.listTools.tap(() => {
      throw new Error('boom');
    }),
};

const denyWipe: KernelPlugin = {
  name: 'deny-wipe',
  apply: ({ hooks }) =>
    hooks.filterPolicy.tap((list: readonly ToolDescriptor[]) => list.filter((tool) => tool.name !== 'wipe_disk')),
};

async function search(query: string): Promise<ToolResult> {
  const run = await createKernel({ plugins: [tools, failedMcp, broken, denyWipe] }).createRun();
  const [searchTool] = createControlTools({ searchDefaultLimit: 8, maxSearchLimit: 20, callHint: '' });
  return searchTool!.handler!({ query }, { run: run as RunApi, signal: new AbortController().signal });
}

const text = (result: ToolResult) => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');

describe('miss reasons and weak hits in tool_search', () => {
  it('names a failed server the query mentions, with its state and code', async () => {
    const result = await search('trello: put Priya on the API docs card');
    const structured = result.structuredContent as { weak?: true; unavailable: unknown[] };
    expect(structured.weak).toBeUndefined();
    expect(structured.unavailable).toEqual([{ name: 'trello', state: 'failed', code: 'MCP_SERVER_FAILED' }]);
    expect(text(result)).toContain('"trello" failed to start (MCP_SERVER_FAILED)');
  });

  it('a weak result names every unavailable source and says the hits are partial', async () => {
    const result = await search('zebra migration statistics');
    const structured = result.structuredContent as {
      weak?: boolean;
      hits: { id: string; weak?: boolean }[];
      unavailable: { name: string }[];
    };
    expect(structured.weak).toBe(true);
    expect(structured.hits.length).toBeGreaterThan(0);
    expect(structured.hits.every((hit) => hit.weak)).toBe(true);
    expect(structured.unavailable.map((source) => source.name).sort()).toEqual(['calendar-plugin', 'trello']);
    expect(text(result)).toContain('closest partial matches (weak)');
  });

  it('a good match names no source and is not weak', async () => {
    const result = await search('weather in a city');
    expect(result.structuredContent).not.toHaveProperty('weak');
    expect(result.structuredContent).not.toHaveProperty('unavailable');
    expect(text(result)).not.toContain('weak');
  });

  it('never hints at a denied tool, not even when the query uses its exact words', async () => {
    for (const query of ['wipe_disk', 'erase every file on the disk', 'danger', 'plugin:danger:wipe_disk']) {
      const result = await search(query);
      const { query: echoed, ...rest } = result.structuredContent as { query: string };
      expect(echoed).toBe(query);
      // The user's own words come back as the query; nothing else may carry the denied tool.
      const all = `${text(result).split(query).join('')}\n${JSON.stringify(rest)}`;
      expect(all).not.toContain('wipe');
      expect(all).not.toContain('danger');
      expect(all).not.toContain('deny-wipe');
    }
  });
});
