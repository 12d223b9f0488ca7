/**
 * JSON Schema 2020-12 tool schemas validated as 2020-12 (MCP's default dialect), against a real v2-SDK server
 * (test/fixtures/meta-server.mjs): `$defs` + `prefixItems` + `items: false` inputs with and without `$schema`, a
 * draft-07 tuple without `$schema` still read as draft-07, and a 2020-12 output schema checked on the result.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, type Kernel, type Run } from '@tool-search/kernel';
import { mcpPlugin } from '../src/index.js';
import { DIALECT_2020_12, withMcpDialect } from '../src/schema-dialect.js';

const META_SERVER = fileURLToPath(new URL('./fixtures/meta-server.mjs', import.meta.url));

describe('the dialect of a schema without $schema', () => {
  it.each([
    [
      'prefixItems',
      { type: 'object', properties: { p: { type: 'array', prefixItems: [{ type: 'number' }] } } },
      DIALECT_2020_12,
    ],
    [
      '$defs',
      { type: 'object', $defs: { a: { type: 'string' } }, properties: { a: { $ref: '#/$defs/a' } } },
      DIALECT_2020_12,
    ],
    ['dependentRequired', { type: 'object', dependentRequired: { a: ['b'] } }, DIALECT_2020_12],
    [
      'unevaluatedProperties deep in allOf',
      { type: 'object', allOf: [{ unevaluatedProperties: false }] },
      DIALECT_2020_12,
    ],
    [
      'a draft-07 tuple',
      { type: 'object', properties: { p: { type: 'array', items: [{ type: 'number' }] } } },
      undefined,
    ],
    [
      'a draft-07 tuple beside $defs',
      { type: 'object', $defs: {}, properties: { p: { items: [{}], additionalItems: false } } },
      undefined,
    ],
    [
      'the common subset',
      { type: 'object', properties: { a: { type: 'string', enum: ['prefixItems'] } }, required: ['a'] },
      undefined,
    ],
    ['a keyword name used as data', { type: 'object', properties: { a: { const: { prefixItems: 1 } } } }, undefined],
    [
      'a keyword name used as a property name',
      { type: 'object', properties: { prefixItems: { type: 'array' } } },
      undefined,
    ],
  ])('%s → %s', (_what, schema, dialect) => {
    const result = withMcpDialect(schema);
    expect(result.$schema).toBe(dialect);
    expect({ ...result, $schema: undefined }).toEqual({ ...schema, $schema: undefined });
    if (dialect === undefined) expect(result).toBe(schema);
  });

  it('keeps a declared $schema as it is', () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { p: { prefixItems: [] } },
    };
    expect(withMcpDialect(schema)).toBe(schema);
  });
});

describe.each(['2026-07-28', '2025-11-25'] as const)('2020-12 schemas of a server spoken to in %s', (protocol) => {
  let kernel: Kernel;
  let run: Run;

  beforeAll(async () => {
    kernel = createKernel({
      plugins: [mcpPlugin({ servers: { rec: { command: process.execPath, args: [META_SERVER], protocol } } })],
    });
    run = await kernel.createRun();
    expect(run.diagnostics).toEqual([]);
    expect(run.listed.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['shapes', 'shapes_default', 'pair07', 'measure']),
    );
  });
  afterAll(() => kernel.close());

  describe.each(['shapes', 'shapes_default'])('%s ($defs, prefixItems, items: false)', (tool) => {
    it('takes arguments that match and passes them on', async () => {
      const outcome = await run.call(`mcp:rec:${tool}`, { from: [0, 0], to: [3.5, -1], label: 'a' });
      expect(outcome).toMatchObject({
        status: 'ok',
        result: { content: [{ text: JSON.stringify({ from: [0, 0], to: [3.5, -1], label: 'a' }) }] },
      });
    });

    it.each([
      ['a point too short (minItems)', { from: [0], to: [1, 1] }, '/from'],
      ['a point too long (items: false after prefixItems)', { from: [0, 0, 0], to: [1, 1] }, '/from'],
      ['a coordinate of the wrong type (prefixItems)', { from: ['0', 0], to: [1, 1] }, '/from/0'],
      ['an unknown property', { from: [0, 0], to: [1, 1], colour: 'red' }, '/colour'],
      ['a missing point', { from: [0, 0] }, '/to'],
    ])('refuses %s before the server sees it', async (_why, args, path) => {
      await expect(run.call(`mcp:rec:${tool}`, args)).rejects.toMatchObject({
        code: 'TOOL_ARGUMENTS_INVALID',
        message: expect.stringContaining(path),
      });
    });
  });

  it('reads a draft-07 tuple without $schema as draft-07', async () => {
    expect(await run.call('mcp:rec:pair07', { pair: [1, 'a'] })).toMatchObject({ status: 'ok' });
    await expect(run.call('mcp:rec:pair07', { pair: ['a', 1] })).rejects.toMatchObject({
      code: 'TOOL_ARGUMENTS_INVALID',
      message: expect.stringContaining('/pair/0'),
    });
    await expect(run.call('mcp:rec:pair07', { pair: [1, 'a', 2] })).rejects.toMatchObject({
      code: 'TOOL_ARGUMENTS_INVALID',
      message: expect.stringContaining('/pair'),
    });
  });

  it('checks structured content against a 2020-12 output schema', async () => {
    expect(await run.call('mcp:rec:measure', { out: { from: [0, 0], to: [1, 2] } })).toMatchObject({
      status: 'ok',
      result: { structuredContent: { from: [0, 0], to: [1, 2] } },
    });
    expect(await run.call('mcp:rec:measure', { out: { from: [0, 0, 0], to: [1, 2] } })).toMatchObject({
      status: 'error',
      error: { code: 'MCP_CALL_FAILED', message: expect.stringContaining('output schema') },
    });
  });
});
