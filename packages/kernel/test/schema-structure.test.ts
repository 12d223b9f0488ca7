/**
 * Registration checks tool schemas without Ajv (`structuralSchemaIssue`, schema-structure.ts); Ajv checks and
 * compiles them on a tool's first call. These tests hold the cheap check to the reference: it must flag exactly
 * the schemas Ajv's meta-schema validation flags (`checkSchema`), on crafted invalid schemas and on every real
 * MCP tool schema of the shared data, so `tools list` still reports each invalid schema it reported before.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkSchema, compileToolSchema, createKernel, ErrorCode, type JsonSchema } from '@tool-search/kernel';
import { structuralSchemaIssue } from '../src/schema.js';
import { source, tool } from './helpers.js';

const MODERN = 'https://json-schema.org/draft/2020-12/schema';
const obj = (extra: Record<string, unknown>): JsonSchema => ({ type: 'object', ...extra });
const prop = (schema: Record<string, unknown>): JsonSchema => obj({ properties: { a: schema } });

/** Each breaks the draft-07 meta-schema (or 2020-12, where it names it) in one way. */
const INVALID: Record<string, JsonSchema> = {
  'unknown type name': prop({ type: 'no-such-type' }),
  'type list empty': prop({ type: [] }),
  'type list repeats': prop({ type: ['string', 'string'] }),
  'type a number': prop({ type: 5 }),
  'properties an array': obj({ properties: [] }),
  'a property a number': obj({ properties: { a: 5 } }),
  'required a string': obj({ required: 'a' }),
  'required repeats': obj({ required: ['a', 'a'] }),
  'required a number': obj({ required: [1] }),
  'minLength negative': prop({ minLength: -1 }),
  'minLength fractional': prop({ minLength: 1.5 }),
  'maxItems a string': prop({ maxItems: '3' }),
  'items a number': prop({ items: 5 }),
  'items an empty tuple': prop({ items: [] }),
  'enum empty': prop({ enum: [] }),
  'enum repeats': prop({ enum: [1, 1] }),
  'enum repeats objects in another key order': prop({
    enum: [
      { x: 1, y: 2 },
      { y: 2, x: 1 },
    ],
  }),
  'enum a string': prop({ enum: 'x' }),
  'pattern a number': prop({ pattern: 5 }),
  'additionalProperties a string': obj({ additionalProperties: 'no' }),
  'allOf empty': prop({ allOf: [] }),
  'anyOf an object': prop({ anyOf: {} }),
  'oneOf with a number': prop({ oneOf: [5] }),
  'not a number': prop({ not: 5 }),
  'if a string': prop({ if: 'x' }),
  'multipleOf zero': prop({ multipleOf: 0 }),
  'multipleOf negative': prop({ multipleOf: -1 }),
  '$id a number': obj({ $id: 5 }),
  'draft-04 dialect': obj({ $schema: 'http://json-schema.org/draft-04/schema#' }),
  '2019-09 dialect (the 2020-12 Ajv does not hold it)': obj({
    $schema: 'https://json-schema.org/draft/2019-09/schema',
  }),
  '$schema not a URI': obj({ $schema: 'not a uri' }),
  'description a number': prop({ description: 5 }),
  'title an array': obj({ title: [] }),
  'examples an object': prop({ examples: {} }),
  'readOnly a string': prop({ readOnly: 'yes' }),
  'uniqueItems a number': prop({ uniqueItems: 1 }),
  'a definition a number': obj({ definitions: { a: 5 } }),
  'a dependency a number': obj({ dependencies: { a: 5 } }),
  'a dependency list repeats': obj({ dependencies: { a: ['x', 'x'] } }),
  'deep inside': prop({
    type: 'array',
    items: { type: 'object', properties: { b: { anyOf: [{ type: 'string' }, { type: 'strin' }] } } },
  }),
  '2020-12: items a tuple': obj({ $schema: MODERN, properties: { a: { items: [{ type: 'string' }] } } }),
  '2020-12: prefixItems empty': obj({ $schema: MODERN, properties: { a: { prefixItems: [] } } }),
  '2020-12: a $defs entry a number': obj({ $schema: MODERN, $defs: { a: 5 } }),
  '2020-12: $anchor starting with a digit': obj({ $schema: MODERN, $anchor: '1bad' }),
  '2020-12: $id with a fragment': obj({ $schema: MODERN, $id: 'https://example.com/s#frag' }),
  '2020-12: dependentRequired a number': obj({ $schema: MODERN, dependentRequired: { a: [1] } }),
  '2020-12: enum a string': obj({ $schema: MODERN, properties: { a: { enum: 'x' } } }),
};

/** Valid, including what each dialect allows that the other forbids. */
const VALID: Record<string, JsonSchema> = {
  plain: prop({ type: 'string', minLength: 1, pattern: '^[a-z]+$' }),
  'boolean subschemas': obj({ properties: { a: true, b: false }, additionalProperties: false }),
  'type list': prop({ type: ['string', 'null'] }),
  'draft-07 tuple items': prop({ items: [{ type: 'string' }], additionalItems: false }),
  'unknown keywords': prop({ 'x-vendor': { anything: [1, 2] }, examples: ['a'] }),
  'enum of mixed values': prop({ enum: ['a', 1, null, { x: 1 }, [1]] }),
  'draft-07 $schema with #': obj({ $schema: 'http://json-schema.org/draft-07/schema#' }),
  'a $ref into definitions': obj({
    definitions: { s: { type: 'string' } },
    properties: { a: { $ref: '#/definitions/s' } },
  }),
  'if/then/else': prop({ if: { minLength: 2 }, then: { maxLength: 4 }, else: { const: 'x' } }),
  '2020-12: empty and repeating enum are fine': obj({
    $schema: MODERN,
    properties: { a: { enum: [] }, b: { enum: [1, 1] } },
  }),
  '2020-12: prefixItems and $defs': obj({
    $schema: MODERN,
    $defs: { s: { type: 'string' } },
    properties: { a: { prefixItems: [{ $ref: '#/$defs/s' }], items: false } },
  }),
  '2020-12: $id without a fragment': obj({ $schema: MODERN, $id: 'https://example.com/s#' }),
  'keywords named like Object.prototype members': prop({
    constructor: 1,
    toString: 'x',
    hasOwnProperty: [],
    valueOf: {},
  }),
  'an own __proto__ keyword and property (as JSON.parse makes them)': JSON.parse(
    '{"type":"object","__proto__":5,"properties":{"__proto__":{"type":"string"}}}',
  ),
  // Ajv's meta-schema check leaves formats alone; a pattern RE2 cannot run is reported as not enforced instead.
  'a pattern that is no regex': prop({ pattern: '(' }),
  'a patternProperties key that is no regex': obj({ patternProperties: { '(': {} } }),
  'a $ref with a space': prop({ $ref: 'has space' }),
};

describe('the registration check of a schema (without Ajv)', () => {
  it.each(Object.entries(INVALID))('flags what Ajv flags: %s', (_name, schema) => {
    expect(checkSchema(schema), 'Ajv accepts this schema: the case is wrong').toBeDefined();
    expect(structuralSchemaIssue(structuredClone(schema))).toBeDefined();
    // Ajv compiles without its own meta-schema pass: the compile refuses the schema through the same check.
    expect(typeof compileToolSchema(structuredClone(schema))).not.toBe('function');
  });

  it.each(Object.entries(VALID))('accepts what Ajv accepts: %s', (_name, schema) => {
    expect(checkSchema(schema), 'Ajv rejects this schema: the case is wrong').toBeUndefined();
    expect(structuralSchemaIssue(structuredClone(schema))).toBeUndefined();
  });

  it('answers an enum of 15,000 values in linear time (no pairwise comparison of scalars)', () => {
    const values = Array.from({ length: 15_000 }, (_, i) => `v${i}`);
    expect(structuralSchemaIssue(prop({ enum: values }))).toBeUndefined();
    expect(structuralSchemaIssue(prop({ enum: [...values, 'v7'] }))).toMatchObject({ rule: 'uniqueItems' });
  });
});

describe('an invalid schema is still reported at listing, and cannot be called', () => {
  const runWith = (inputSchema: JsonSchema) =>
    createKernel({ plugins: [source('s', [tool('good'), tool('bad', { inputSchema })])] }).createRun();

  it.each(Object.entries(INVALID))(
    'drops the tool with TOOL_SCHEMA_INVALID when the run lists: %s',
    async (_name, schema) => {
      const run = await runWith(schema);
      expect(run.tool('bad')).toBeUndefined();
      expect(run.tool('good')).toBeDefined();
      expect(run.diagnostics).toContainEqual(
        expect.objectContaining({ code: ErrorCode.TOOL_SCHEMA_INVALID, toolId: 'core:core:bad' }),
      );
      await expect(run.call('bad', {})).rejects.toMatchObject({ code: ErrorCode.UNKNOWN_TOOL });
    },
  );

  it('checks an output schema at listing too', async () => {
    const run = await createKernel({
      plugins: [source('s', [tool('out', { outputSchema: prop({ type: 'nope' }) })])],
    }).createRun();
    expect(run.tool('out')).toBeUndefined();
    expect(run.diagnostics).toContainEqual(
      expect.objectContaining({ code: ErrorCode.TOOL_SCHEMA_INVALID, toolId: 'core:core:out' }),
    );
  });

  it('compiles on the first call: a schema the meta-schema allows but Ajv cannot compile is listed, and its call is refused with TOOL_SCHEMA_INVALID', async () => {
    // A $ref to nowhere keeps the meta-schema (so listing could not know without compiling), as before this change.
    const run = await runWith(prop({ $ref: '#/definitions/missing' }));
    expect(run.tool('bad')).toBeDefined();
    let ran = false;
    const executing = createKernel({
      plugins: [
        source('s', [
          tool('bad', {
            inputSchema: prop({ $ref: '#/definitions/missing' }),
            execute: () => ((ran = true), { content: [] }),
          }),
        ]),
      ],
    });
    const second = await executing.createRun();
    await expect(run.call('bad', { a: 'x' })).rejects.toMatchObject({
      code: ErrorCode.TOOL_SCHEMA_INVALID,
      toolId: 'core:core:bad',
    });
    await expect(second.call('bad', {})).rejects.toMatchObject({ code: ErrorCode.TOOL_SCHEMA_INVALID });
    expect(ran).toBe(false);
  });

  it('validates arguments with the compiled schema on the first call and after', async () => {
    const run = await runWith(prop({ type: 'integer', minimum: 2 }));
    await expect(run.call('bad', { a: 1 })).rejects.toMatchObject({ code: ErrorCode.TOOL_ARGUMENTS_INVALID });
    await expect(run.call('bad', { a: 3 })).resolves.toMatchObject({ status: 'ok' });
    await expect(run.call('bad', { a: 'x' })).rejects.toMatchObject({ code: ErrorCode.TOOL_ARGUMENTS_INVALID });
  });
});

const DATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../shared/data');
const realSchemas = (): { id: string; schema: JsonSchema }[] => {
  const mcp = JSON.parse(readFileSync(path.join(DATA, 'mcp-catalog.json'), 'utf8')) as {
    tools: { id: string; inputSchema: JsonSchema }[];
  };
  const live = JSON.parse(readFileSync(path.join(DATA, 'livemcpbench-retrieval.json'), 'utf8')) as {
    corpus: { id: string; inputSchema: JsonSchema }[];
  };
  return [...mcp.tools, ...live.corpus]
    .filter((t) => typeof t.inputSchema === 'object' && t.inputSchema !== null)
    .map((t) => ({ id: t.id, schema: t.inputSchema }));
};
const hasData =
  existsSync(path.join(DATA, 'mcp-catalog.json')) && existsSync(path.join(DATA, 'livemcpbench-retrieval.json'));
if (!hasData)
  console.warn(
    `skipping the real-schema comparison: ${DATA} lacks mcp-catalog.json / livemcpbench-retrieval.json (the public tool-retrieval data set is not in this repository: put it at ../shared/data beside the checkout; see "Shared data" in the root README)`,
  );

describe.skipIf(!hasData)('on every real MCP tool schema (skipped without ../shared/data)', () => {
  it('flags exactly the schemas Ajv flags', () => {
    const schemas = realSchemas();
    expect(schemas.length).toBeGreaterThan(4_000);
    const disagree = schemas
      .map(({ id, schema }) => ({
        id,
        ajv: checkSchema(schema)?.rule,
        structural: structuralSchemaIssue(structuredClone(schema))?.rule,
      }))
      .filter((row) => (row.ajv === undefined) !== (row.structural === undefined));
    expect(disagree).toEqual([]);
  });
});
