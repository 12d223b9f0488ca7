/**
 * Tool schemas come from third parties: no schema may stall listing or
 * validation, and no argument may make a `pattern` backtrack. Each case here
 * stalled the process for tens of seconds before the bounds existed.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createKernel, ErrorCode, type JsonSchema, type ToolDefinition } from '@tool-search/kernel';
import { MAX_PATTERN_PROGRAM, MAX_SCHEMA_DEPTH, schemaShape } from '../src/schema-bounds.js';
import { source, tool } from './helpers.js';

function withSchema(name: string, inputSchema: JsonSchema): ToolDefinition {
  return tool(name, { inputSchema });
}

function nested(depth: number): JsonSchema {
  let schema: JsonSchema = { type: 'string' };
  for (let i = 0; i < depth; i++) schema = { type: 'object', properties: { x: schema } };
  return schema;
}

async function runWith(...tools: ToolDefinition[]) {
  return createKernel({ plugins: [source('s', [tool('healthy'), ...tools])] }).createRun();
}

describe('untrusted tool schemas', () => {
  it('drops a tool whose enum has 100,000 values, naming the rule; the other tools stay', async () => {
    const run = await runWith(
      withSchema('huge_enum', {
        type: 'object',
        properties: { v: { enum: Array.from({ length: 100_000 }, (_, i) => `v${i}`) } },
      }),
    );
    expect(run.tool('huge_enum')).toBeUndefined();
    expect(run.tool('healthy')).toBeDefined();
    expect(run.diagnostics).toContainEqual(
      expect.objectContaining({ code: ErrorCode.TOOL_SCHEMA_INVALID, toolId: 'core:core:huge_enum' }),
    );
    expect(schemaShape({ enum: Array.from({ length: 100_000 }, (_, i) => i) }).issue?.rule).toBe('maxSchemaNodes');
  });

  it('drops a 3,000-deep schema without overflowing the stack', async () => {
    const run = await runWith(withSchema('deep', nested(3_000)));
    expect(run.tool('deep')).toBeUndefined();
    expect(run.tool('healthy')).toBeDefined();
    expect(schemaShape(nested(3_000)).issue?.rule).toBe('maxSchemaDepth');
    expect(schemaShape(nested(MAX_SCHEMA_DEPTH / 4)).issue).toBeUndefined();
  });

  it('runs a backtracking pattern in linear time: ^(a+)+$ against 31 a and a bang is just a mismatch', async () => {
    const run = await runWith(
      withSchema('evil', { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } }),
    );
    await expect(run.call('evil', { s: `${'a'.repeat(31)}!` })).rejects.toMatchObject({
      code: ErrorCode.TOOL_ARGUMENTS_INVALID,
    });
    await expect(run.call('evil', { s: 'a'.repeat(100_000) + '!' })).rejects.toMatchObject({
      code: ErrorCode.TOOL_ARGUMENTS_INVALID,
    });
    await expect(run.call('evil', { s: 'aaaa' })).resolves.toMatchObject({ status: 'ok' });
  });

  it('drops a tool whose pattern compiles to a huge RE2 program (linear, but each character costs the program)', async () => {
    const huge = '[a-z]{1000}'.repeat(5); // 5,002 instructions: 2.3 s over 20,000 characters
    const run = await runWith(
      withSchema('slow', { type: 'object', properties: { s: { type: 'string', pattern: huge } } }),
    );
    expect(run.tool('slow')).toBeUndefined();
    expect(run.tool('healthy')).toBeDefined();
    expect(schemaShape({ type: 'string', pattern: huge }).issue?.rule).toBe('maxPatternProgram');
    expect(schemaShape({ patternProperties: { [huge]: {} } }).issue?.rule).toBe('maxPatternProgram');
    // The largest real MCP pattern (255 instructions) stays.
    const host = '^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$';
    expect(schemaShape({ type: 'string', pattern: host }).issue).toBeUndefined();
    expect(MAX_PATTERN_PROGRAM).toBe(1_000);
  });

  it('runs backtracking patternProperties keys in linear time too', async () => {
    const run = await runWith(
      withSchema('evil_keys', { type: 'object', patternProperties: { '^(a|a)+$': { type: 'number' } } }),
    );
    await expect(run.call('evil_keys', { ['a'.repeat(40)]: 'not a number' })).rejects.toMatchObject({
      code: ErrorCode.TOOL_ARGUMENTS_INVALID,
    });
    await expect(run.call('evil_keys', { ['a'.repeat(40) + 'b']: 'anything' })).resolves.toMatchObject({
      status: 'ok',
    });
  });

  it('keeps ECMAScript escapes meaning what they mean: \\u00e9, \\d, classes', async () => {
    const run = await runWith(
      withSchema('escapes', {
        type: 'object',
        properties: { s: { type: 'string', pattern: '^\\u00e9+\\d[a-z\\-]$' } },
      }),
    );
    await expect(run.call('escapes', { s: 'éé1-' })).resolves.toMatchObject({ status: 'ok' });
    await expect(run.call('escapes', { s: 'ee1-' })).rejects.toMatchObject({ code: ErrorCode.TOOL_ARGUMENTS_INVALID });
  });

  it('keeps a tool whose pattern needs lookahead, warns that the pattern is not enforced', async () => {
    const run = await runWith(
      withSchema('lookahead', {
        type: 'object',
        properties: { s: { type: 'string', pattern: '^(?!.*\\.\\.)[a-z.]+$' } },
      }),
    );
    expect(run.tool('lookahead')).toBeDefined();
    expect(run.diagnostics).toContainEqual(
      expect.objectContaining({
        code: ErrorCode.TOOL_SCHEMA_PATTERN_UNENFORCED,
        level: 'warning',
        toolId: 'core:core:lookahead',
      }),
    );
    await expect(run.call('lookahead', { s: 'a..b' })).resolves.toMatchObject({ status: 'ok' });
  });

  it('rejects arguments nested 100,000 deep with a coded error, not a crash', async () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const run = await runWith();
    await expect(run.call('healthy', { value: deep })).rejects.toMatchObject({
      code: ErrorCode.TOOL_ARGUMENTS_INVALID,
    });
  });

  const catalog = path.resolve(
    path.dirname(fileURLToPath(import.meta.url)),
    '../../../../shared/data/mcp-catalog.json',
  );
  if (!existsSync(catalog))
    console.warn(
      `skipping the real-catalog bounds check: ${catalog} is missing (the public tool-retrieval data set — 3,675 real MCP tool definitions and labeled queries — is not in this repository: put it at ../shared/data beside the checkout; see "Shared data" in the root README)`,
    );
  it.skipIf(!existsSync(catalog))(
    'drops no real MCP tool for its size or depth (skipped: ../shared/data/mcp-catalog.json is absent)',
    () => {
      const { tools } = JSON.parse(readFileSync(catalog, 'utf8')) as { tools: { name: string; inputSchema: object }[] };
      const dropped = tools.filter((t) => schemaShape(t.inputSchema).issue).map((t) => t.name);
      expect(dropped).toEqual([]);
    },
  );
});
