/** The pure mapping of an MCP tool to a kernel tool definition. */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ToolMeta } from '@tool-search/kernel';
import { toDefinition } from '../src/index.js';

const execute = () => ({ content: [] });

describe('toDefinition', () => {
  it('makes the server the owner of an mcp tool and records it in meta', () => {
    const definition = toDefinition(
      'github',
      { name: 'create_issue', description: 'Opens an issue', inputSchema: { type: 'object' } },
      execute,
    );
    expect(definition).toMatchObject({
      name: 'create_issue',
      source: 'mcp',
      owner: 'github',
      description: 'Opens an issue',
      meta: { mcpServer: 'github' },
    });
    expect(definition.execute).toBe(execute);
  });

  it('carries annotations, output schema and the title as given', () => {
    const definition = toDefinition(
      's',
      {
        name: 't',
        inputSchema: { type: 'object' },
        outputSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
        annotations: { title: 'From annotations', destructiveHint: true },
      },
      execute,
    );
    expect(definition).toMatchObject({
      title: 'From annotations',
      description: '',
      outputSchema: { properties: { ok: { type: 'boolean' } } },
      annotations: { destructiveHint: true },
    });
  });

  it('prefers the tool title over the annotation title', () => {
    const definition = toDefinition(
      's',
      { name: 't', title: 'Tool title', inputSchema: { type: 'object' }, annotations: { title: 'Other' } },
      execute,
    );
    expect(definition.title).toBe('Tool title');
  });

  it('augments the kernel ToolMeta with mcpServer', () => {
    expectTypeOf<ToolMeta['mcpServer']>().toEqualTypeOf<string | undefined>();
  });
});
