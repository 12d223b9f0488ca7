/**
 * The kernel checks tool schemas at listing without Ajv and compiles them on a tool's first call (issue 34, start-up):
 * through the CLI, an invalid schema is still reported by `tools list`, and a tool whose schema cannot compile cannot
 * be called.
 */
import { describe, expect, it } from 'vitest';
import type { KernelPlugin, ToolDefinition } from '@tool-search/kernel';
import { cli, smallCatalog } from './helpers.js';

function source(tools: Partial<ToolDefinition>[]): KernelPlugin {
  return {
    name: 'schema-fixtures',
    apply({ hooks }) {
      hooks.listTools.tap((sink) =>
        sink.add(
          tools.map((tool) => ({
            name: 'unnamed',
            source: 'plugin',
            owner: 'fixtures',
            description: 'A fixture tool',
            inputSchema: { type: 'object' },
            execute: () => ({ content: [{ type: 'text', text: `RAN ${tool.name}` }] }),
            ...tool,
          })) as ToolDefinition[],
        ),
      );
    },
  };
}

const plugins = [
  source([
    { name: 'bad_type', inputSchema: { type: 'object', properties: { n: { type: 'no-such-type' } } } },
    { name: 'bad_required', inputSchema: { type: 'object', required: 'n' } },
    { name: 'dangling_ref', inputSchema: { type: 'object', properties: { n: { $ref: '#/definitions/missing' } } } },
    { name: 'fine', inputSchema: { type: 'object', properties: { n: { type: 'integer' } } } },
  ]),
];

describe('tool schemas through the CLI', () => {
  it('tools list drops and reports each schema that breaks the meta-schema', async () => {
    const result = await cli(['tools', 'list', '--json'], smallCatalog(0), { plugins });
    expect(result.code).toBe(0);
    const listed = JSON.parse(result.stdout) as {
      tools: { id: string }[];
      diagnostics: { code: string; toolId?: string }[];
    };
    const ids = listed.tools.map((tool) => tool.id);
    expect(ids).toContain('plugin:fixtures:fine');
    expect(ids).not.toContain('plugin:fixtures:bad_type');
    expect(ids).not.toContain('plugin:fixtures:bad_required');
    const invalid = listed.diagnostics.filter((d) => d.code === 'TOOL_SCHEMA_INVALID').map((d) => d.toolId);
    expect(invalid.sort()).toEqual(['plugin:fixtures:bad_required', 'plugin:fixtures:bad_type']);
  });

  it('tools call refuses a listed tool whose schema does not compile, with TOOL_SCHEMA_INVALID, and does not run it', async () => {
    const result = await cli(['tools', 'call', 'dangling_ref', '--args', '{"n":1}', '--json'], smallCatalog(0), {
      plugins,
    });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ error: { code: 'TOOL_SCHEMA_INVALID' } });
    expect(result.stdout).not.toContain('RAN dangling_ref');
  });

  it('tools call runs a tool with a good schema and validates its arguments on the first call', async () => {
    const ok = await cli(['tools', 'call', 'fine', '--args', '{"n":1}'], smallCatalog(0), { plugins });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('RAN fine');
    const bad = await cli(['tools', 'call', 'fine', '--args', '{"n":"one"}', '--json'], smallCatalog(0), { plugins });
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout)).toMatchObject({ error: { code: 'TOOL_ARGUMENTS_INVALID' } });
  });
});
