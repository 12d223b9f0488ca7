/**
 * `surelyValid` proves values valid without Ajv for a keyword subset and says "don't know" (`false`) otherwise; its
 * callers skip Ajv on `true`. The claim under test is soundness: whenever it says `true`, Ajv (as the kernel
 * configures it, `compileToolSchema`) compiles the schema and accepts the value. Held on generated schemas and
 * values (fast-check), on hostile values and schemas, and (in `preset/test/options-proofs.test.ts`) on every
 * options schema the plugins check with it.
 */
import type { ValidateFunction } from 'ajv';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileToolSchema, surelyValid, valueIssues, type JsonSchema } from '@tool-search/kernel';

const MODERN = 'https://json-schema.org/draft/2020-12/schema';
/** Property names that collide with `Object.prototype`, where reading `data[key]` finds something. */
const KEYS = ['a', 'b', 'c', '__proto__', 'constructor', 'toString'] as const;
const TYPES = ['null', 'boolean', 'integer', 'number', 'string', 'array', 'object'] as const;
/** Code points versus UTF-16 units: pairs, lone surrogates, a combining mark. */
const STRINGS = ['', 'a', 'ab', 'abc', '😀', 'a😀', '😀😀', '\ud800', '\udc00a', '\ud800\ud800', 'é', 'e\u0301'];

const primitive = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom(0.5, -0.5, -0, 2.5),
  fc.constantFrom(...STRINGS),
);
const limit = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constantFrom(0.5, -0.5, 1e300));
const count = fc.nat(4);
const ABSENT = Symbol('absent');

/** An object built by defining each entry, so `__proto__` is an own key (as `JSON.parse` makes it). */
function objectOf(entries: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const [key, value] of entries) Object.defineProperty(object, key, { value, enumerable: true, writable: true });
  return object;
}

const { schema: subschema, node } = fc.letrec<{ schema: unknown; node: Record<string, unknown> }>((tie) => ({
  schema: fc.oneof({ depthSize: 'small', maxDepth: 3 }, fc.boolean(), tie('node')),
  node: fc
    .array(
      fc.oneof(
        // The subset.
        { weight: 6, arbitrary: fc.tuple(fc.constant('type'), fc.oneof(fc.constantFrom(...TYPES), typeList())) },
        {
          weight: 2,
          arbitrary: fc.tuple(fc.constant('enum'), fc.uniqueArray(primitive, { minLength: 1, maxLength: 4 })),
        },
        { weight: 1, arbitrary: fc.tuple(fc.constant('const'), primitive) },
        {
          weight: 3,
          arbitrary: fc.tuple(fc.constantFrom('minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'), limit),
        },
        { weight: 3, arbitrary: fc.tuple(fc.constantFrom('minLength', 'maxLength', 'minItems', 'maxItems'), count) },
        {
          weight: 2,
          arbitrary: fc.tuple(fc.constant('required'), fc.uniqueArray(fc.constantFrom(...KEYS), { maxLength: 3 })),
        },
        {
          weight: 4,
          arbitrary: fc.tuple(
            fc.constant('properties'),
            fc
              .uniqueArray(fc.tuple(fc.constantFrom(...KEYS), tie('schema')), {
                maxLength: 3,
                selector: ([key]) => key,
              })
              .map(objectOf),
          ),
        },
        { weight: 3, arbitrary: fc.tuple(fc.constant('additionalProperties'), fc.oneof(fc.boolean(), tie('schema'))) },
        { weight: 3, arbitrary: fc.tuple(fc.constant('items'), tie('schema')) },
        { weight: 1, arbitrary: fc.tuple(fc.constant('propertyNames'), tie('schema')) },
        // Annotations.
        {
          weight: 1,
          arbitrary: fc.tuple(fc.constantFrom('title', 'description', '$comment'), fc.string({ maxLength: 4 })),
        },
        { weight: 1, arbitrary: fc.tuple(fc.constant('default'), fc.jsonValue({ maxDepth: 1 })) },
        {
          weight: 1,
          arbitrary: fc.tuple(fc.constant('examples'), fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 2 })),
        },
        { weight: 1, arbitrary: fc.tuple(fc.constantFrom('deprecated', 'readOnly', 'writeOnly'), fc.boolean()) },
        // Outside the subset: "don't know", but Ajv still decides (and the proof must not be fooled by them).
        {
          weight: 1,
          arbitrary: fc.oneof(
            fc.tuple(fc.constant('pattern'), fc.constantFrom('^a', 'b$')),
            fc.tuple(fc.constant('format'), fc.constantFrom('email', 'date')),
            fc.tuple(fc.constantFrom('minProperties', 'maxProperties', 'multipleOf'), fc.integer({ min: 1, max: 2 })),
            fc.tuple(
              fc.constantFrom('anyOf', 'oneOf', 'allOf'),
              fc.array(tie('schema'), { minLength: 1, maxLength: 2 }),
            ),
            fc.tuple(fc.constantFrom('not', 'contains', 'additionalItems'), tie('schema')),
            fc.tuple(fc.constant('items'), fc.array(tie('schema'), { minLength: 1, maxLength: 2 })),
            fc.tuple(fc.constant('uniqueItems'), fc.constant(true)),
            fc.tuple(fc.constant('nullable'), fc.constant(true)),
            fc.tuple(fc.constant('$ref'), fc.constant('#')),
            fc.tuple(fc.constant('enum'), fc.constant([{ a: 1 }, 'x'])),
            fc.tuple(fc.constant('const'), fc.constant({ a: 1 })),
          ),
        },
      ),
      { maxLength: 4 },
    )
    .map((entries) => Object.fromEntries(entries)),
}));

function typeList() {
  return fc.uniqueArray(fc.constantFrom(...TYPES), { minLength: 1, maxLength: 3 });
}

const rootSchema = fc
  .tuple(node, fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, fc.constant(MODERN)))
  .map(([schema, dialect]) => (dialect ? { $schema: dialect, ...schema } : schema) as JsonSchema);

/** Anything, including what JSON cannot hold: NaN, Infinity, -0, undefined, functions, bigints, sparse arrays, Maps… */
const anything = fc.anything({
  maxDepth: 2,
  key: fc.constantFrom(...KEYS),
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withObjectString: true,
  withSparseArray: true,
  withTypedArray: true,
});

/** Values aimed at `schema`: mostly near valid (bounds ±1, required keys present), sometimes anything. */
function valueFor(schema: unknown, depth = 0): fc.Arbitrary<unknown> {
  if (typeof schema !== 'object' || schema === null || depth > 3) return anything;
  const node = schema as Record<string, unknown>;
  const choices: fc.Arbitrary<unknown>[] = [anything];
  if (Array.isArray(node.enum) && node.enum.length > 0) choices.push(fc.constantFrom(...node.enum));
  if ('const' in node) choices.push(fc.constant(node.const));
  const types = node.type === undefined ? ['object', 'array', 'string', 'number'] : ([] as unknown[]).concat(node.type);
  for (const type of types) choices.push(typed(String(type), node, depth));
  return fc.oneof(...choices);
}

function typed(type: string, node: Record<string, unknown>, depth: number): fc.Arbitrary<unknown> {
  const low = [node.minimum, node.exclusiveMinimum].find((x) => typeof x === 'number' && Math.abs(x) < 1e6) as
    | number
    | undefined;
  const high = [node.maximum, node.exclusiveMaximum].find((x) => typeof x === 'number' && Math.abs(x) < 1e6) as
    | number
    | undefined;
  const min = Math.floor(low ?? -5) - 1;
  const max = Math.ceil(high ?? 5) + 1;
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: Math.min(min, max), max: Math.max(min, max) });
    case 'number':
      return fc.oneof(
        fc.integer({ min: Math.min(min, max), max: Math.max(min, max) }),
        fc.double({ min: Math.min(min, max), max: Math.max(min, max) }),
        fc.constantFrom(-0, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1e300),
      );
    case 'string':
      return fc.oneof(fc.constantFrom(...STRINGS), fc.string({ unit: 'binary', maxLength: 6 }));
    case 'array': {
      const most = typeof node.maxItems === 'number' ? node.maxItems + 1 : 4;
      return fc.array(valueFor(node.items, depth + 1), { maxLength: Math.min(most, 6) });
    }
    default:
      return objectFor(node, depth);
  }
}

function objectFor(node: Record<string, unknown>, depth: number): fc.Arbitrary<unknown> {
  const properties = (typeof node.properties === 'object' && node.properties !== null ? node.properties : {}) as Record<
    string,
    unknown
  >;
  const required = new Set(Array.isArray(node.required) ? node.required : []);
  const entries = KEYS.map((key) => {
    const inner = Object.hasOwn(properties, key)
      ? valueFor(properties[key], depth + 1)
      : valueFor(node.additionalProperties, depth + 1);
    const absentWeight = required.has(key) ? 1 : Object.hasOwn(properties, key) ? 3 : 8;
    return fc.oneof(
      { weight: absentWeight, arbitrary: fc.constant(ABSENT) },
      { weight: 3, arbitrary: inner },
      { weight: 1, arbitrary: fc.constant(undefined) },
    );
  });
  return fc.tuple(fc.tuple(...entries), fc.boolean()).map(([values, nullPrototype]) => {
    const object = objectOf(
      KEYS.flatMap((key, index) => (values[index] === ABSENT ? [] : [[key, values[index]] as const])),
    );
    return nullPrototype ? Object.assign(Object.create(null), object) : object;
  });
}

/** Ajv's verdict; a throw (a getter, a revoked Proxy) counts as "not valid". */
function ajvAccepts(schema: JsonSchema, value: unknown): boolean {
  const validate = compileToolSchema(schema);
  if (typeof validate !== 'function') return false;
  try {
    return (validate as ValidateFunction)(value) === true;
  } catch {
    return false;
  }
}

/** The soundness check: `surelyValid` never throws, and `true` implies Ajv's `true`. Returns the proof. */
function checkSound(schema: JsonSchema, value: unknown): boolean {
  const proved = surelyValid(schema, value);
  if (proved && !ajvAccepts(schema, value)) {
    throw new Error(`proved valid, Ajv refuses: ${safeJson(schema)} with ${describeValue(value)}`);
  }
  return proved;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

function describeValue(value: unknown): string {
  return fc.stringify(value);
}

describe('surelyValid: "surely valid" implies Ajv valid', () => {
  it('holds on generated schemas from the subset (and beyond it) and values aimed at them', () => {
    let checked = 0;
    let proved = 0;
    let ajvValid = 0;
    fc.assert(
      fc.property(
        rootSchema.chain((schema) =>
          fc.tuple(fc.constant(schema), fc.array(valueFor(schema), { minLength: 1, maxLength: 8 })),
        ),
        ([schema, values]) => {
          for (const value of values) {
            checked++;
            if (checkSound(schema, value)) proved++;
            else if (ajvAccepts(schema, value)) ajvValid++;
          }
        },
      ),
      { numRuns: 2500 },
    );
    // Not vacuous: many thousands of cases, and a good share of Ajv's valid verdicts is proved without it.
    expect(checked).toBeGreaterThan(5000);
    expect(proved).toBeGreaterThan((proved + ajvValid) / 3);
  }, 120_000);

  it('proves what the subset covers, as Ajv counts it', () => {
    const cases: [JsonSchema, unknown][] = [
      [{ type: 'object', properties: { a: { type: 'integer', minimum: 1 } }, additionalProperties: false }, { a: 8 }],
      [{ type: 'object', properties: { a: { type: 'integer' } } }, { a: undefined }], // Ajv skips an undefined property
      [{ type: 'object', properties: { a: { type: 'integer' } } }, { a: -0 }],
      [{ type: 'object', properties: { a: { type: 'integer' } } }, { a: 1e300 }],
      [{ type: 'object', properties: { a: { type: 'string', maxLength: 1 } } }, { a: '😀' }], // one code point
      [{ type: 'object', properties: { a: { type: 'string', minLength: 2 } } }, { a: '\ud800\ud800' }], // two lone ones
      [{ type: 'object', properties: { a: { type: 'number', exclusiveMaximum: 1 } } }, { a: 0.5 }],
      [{ type: 'object', properties: { a: { enum: ['x', 0] } } }, { a: -0 }],
      [{ type: 'object', properties: { a: { type: ['string', 'null'] } } }, { a: null }],
      [{ type: 'object', properties: { a: { type: 'array', items: { type: 'string' }, maxItems: 2 } } }, { a: ['x'] }],
      [{ type: 'object', properties: { a: {} } }, { a: () => 1 }], // no keyword: anything
      [{ type: 'object', properties: { a: { minimum: 3 } } }, { a: 'text' }], // number keywords skip a string
      [{ type: 'object', required: ['a'] }, Object.assign(Object.create(null), { a: 1 })],
      [{ type: 'object', additionalProperties: { type: 'integer' } }, JSON.parse('{"__proto__": 1}')],
      [{ $schema: MODERN, type: 'object', properties: { a: { const: 'x' } } }, { a: 'x' }],
      [
        { type: 'object', properties: { a: true }, additionalProperties: false },
        { a: Symbol('s'), [Symbol('k')]: 1 },
      ],
      // Keywords outside the subset on a branch the value does not take: Ajv compiles them, they decide nothing here.
      [
        {
          type: 'object',
          properties: { a: { type: 'string', pattern: '^x' }, b: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
        },
        { c: 1 },
      ],
    ];
    for (const [schema, value] of cases) {
      expect(surelyValid(schema, value), safeJson(schema)).toBe(true);
      expect(ajvAccepts(schema, value), safeJson(schema)).toBe(true);
    }
  });

  it('does not prove what Ajv refuses or what the subset cannot see', () => {
    const cases: [JsonSchema, unknown][] = [
      [{ type: 'object', required: ['a'] }, { a: undefined }], // Ajv: missing
      [{ type: 'object', additionalProperties: false }, { a: undefined }], // Ajv: still a key
      [{ type: 'object', properties: { toString: { type: 'string' } } }, {}], // Ajv reads the inherited function
      [{ type: 'object', properties: JSON.parse('{"__proto__": { "type": "string" }}') }, {}],
      // Ajv drops a `__proto__` entry of `properties`: the own key is then additional.
      [
        { type: 'object', properties: JSON.parse('{"__proto__": {}}'), additionalProperties: false },
        JSON.parse('{"__proto__": 1}'),
      ],
      [{ type: 'object', properties: { a: { type: 'string', maxLength: 1 } } }, { a: 'ab' }],
      [{ type: 'object', properties: { a: { type: 'integer' } } }, { a: 0.5 }],
      [{ type: 'object', properties: { a: { type: 'number' } } }, { a: Number.NaN }],
      [{ type: 'object', properties: { a: { type: 'number' } } }, { a: Number.POSITIVE_INFINITY }],
      [{ type: 'object', properties: { a: { type: 'string', pattern: '^x' } } }, { a: 'x' }], // outside the subset
      [{ type: 'object', properties: { a: { $ref: '#' } } }, { a: {} }],
      // On a branch the value does not take, still: Ajv's compile refuses `nullable` without `type` (found by the property).
      [{ properties: { a: { nullable: true } } }, '0'],
      [{ type: 'object', properties: { a: { $ref: '#/definitions/missing' } } }, {}],
      [{ type: 'object', properties: { a: { type: 'string', nullable: true } } }, { a: null }],
      [{ type: 'array' } as JsonSchema, []], // a root that is not an options object still works
    ];
    for (const [schema, value] of cases.slice(0, -1)) expect(surelyValid(schema, value), safeJson(schema)).toBe(false);
    expect(surelyValid(...cases.at(-1)!)).toBe(true);
  });
});

describe('surelyValid on hostile values and schemas: never throws, never proves what Ajv refuses', () => {
  const schemas: JsonSchema[] = [
    { type: 'object' },
    { type: 'object', properties: { a: { type: 'integer' }, self: { type: 'object' } } },
    { type: 'object', properties: { a: {}, self: {} }, additionalProperties: false },
    { type: 'object', additionalProperties: { type: 'integer' } },
    { type: 'object', additionalProperties: {} },
    { type: 'object', required: ['a'] },
    { type: 'object', properties: { list: { type: 'array', items: { type: 'integer' } } } },
    { type: 'object', properties: { list: { type: 'array', minItems: 3 } } },
    { properties: { a: { type: 'integer' } } },
    { minimum: 1 },
    {},
  ];
  const throwing = Object.defineProperty({}, 'a', {
    enumerable: true,
    get() {
      throw new Error('getter');
    },
  });
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = cyclic;
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  const trapping = new Proxy(
    { a: 1 },
    {
      ownKeys() {
        throw new Error('trap');
      },
      getOwnPropertyDescriptor() {
        throw new Error('trap');
      },
      getPrototypeOf() {
        throw new Error('trap');
      },
    },
  );
  class Options {
    a = 1;
    get self() {
      return 'from the prototype';
    }
  }
  class List extends Array {}
  const sparse = [1, , 3];
  const hidden = Object.defineProperty({ a: 1 }, 'b', { value: 'x', enumerable: false });
  const values: Record<string, unknown> = {
    'a getter that throws': throwing,
    'a Proxy whose traps throw': trapping,
    'a revoked Proxy': revoked.proxy,
    'a Proxy of an array': { list: new Proxy([1, 2, 3], {}) },
    'a cycle': cyclic,
    'a __proto__ own key': JSON.parse('{"__proto__": {"a": "x"}, "a": 1}'),
    'a function': () => 1,
    'a function with properties': Object.assign(() => 1, { a: 1 }),
    NaN: { a: Number.NaN },
    Infinity: { a: Number.POSITIVE_INFINITY },
    '-Infinity': Number.NEGATIVE_INFINITY,
    'a sparse array': { list: sparse },
    'an array with a getter': { list: Object.defineProperty([1, 2, 3], 1, { get: () => 2, enumerable: true }) },
    'an Array subclass': { list: List.from([1, 2, 3]) },
    'a class instance': new Options(),
    'an object inheriting a': Object.create({ a: 'x' }),
    'a Date': new Date(0),
    'a Map': new Map([['a', 1]]),
    'a non-enumerable key': hidden,
    'a bigint': { a: 1n },
    'a symbol': Symbol('x'),
    undefined: undefined,
  };

  for (const [name, value] of Object.entries(values)) {
    it(name, () => {
      for (const schema of schemas) expect(() => checkSound(schema, value)).not.toThrow();
    });
  }

  it('a polluted Object.prototype (enumerable keys Ajv walks with for…in): proves nothing about objects', () => {
    const schema: JsonSchema = { type: 'object', properties: { a: { type: 'integer' } }, additionalProperties: false };
    expect(surelyValid(schema, { a: 1 })).toBe(true);
    (Object.prototype as any).polluted = 'x';
    try {
      expect(surelyValid(schema, { a: 1 })).toBe(false);
      expect(ajvAccepts(schema, { a: 1 })).toBe(false);
    } finally {
      delete (Object.prototype as any).polluted;
    }
    expect(surelyValid(schema, { a: 1 })).toBe(true);
  });

  it('a schema that is a Proxy, has a throwing getter, a cycle, or breaks the meta-schema proves nothing', () => {
    const cyclicSchema: Record<string, unknown> = { type: 'object' };
    cyclicSchema.properties = { a: cyclicSchema };
    const hostile: unknown[] = [
      new Proxy({ type: 'object' }, {}),
      Object.defineProperty({ type: 'object' }, 'properties', {
        enumerable: true,
        get() {
          throw new Error('getter');
        },
      }),
      cyclicSchema,
      { type: 'object', properties: { a: { type: 'integer', minimum: 'one' } } },
      { type: 'object', required: ['a', 'a'] },
      { type: 'object', properties: { a: { minLength: -1 } } },
      { type: 'object', properties: { a: { $schema: MODERN } } },
      { type: 'object', $defs: { a: { type: 'string' } } },
      null,
      [],
      true,
    ];
    for (const schema of hostile) expect(surelyValid(schema as JsonSchema, { a: 1 })).toBe(false);
  });
});

describe('valueIssues: the options check built on the proof', () => {
  const schema = { type: 'object', properties: { n: { type: 'integer', minimum: 1 } }, additionalProperties: false };
  it("answers [] for a value it proves or Ajv accepts, and Ajv's issues otherwise", () => {
    expect(valueIssues(schema, { n: 2 })).toEqual([]);
    expect(
      valueIssues(
        { ...schema, $comment: 'pattern below', properties: { s: { type: 'string', pattern: '^a' } } },
        { s: 'ab' },
      ),
    ).toEqual([]);
    expect(valueIssues(schema, { n: 0 })).toEqual([expect.objectContaining({ path: '/n', rule: 'minimum' })]);
    expect(valueIssues(schema, { m: 1 })).toEqual([expect.objectContaining({ rule: 'additionalProperties' })]);
  });
  it("throws on a schema that does not compile: the package's bug, not the value's", () => {
    expect(() => valueIssues({ type: 'object', properties: { a: { $ref: '#/nowhere' } } }, { a: 1 })).toThrow(
      /does not compile/,
    );
  });
});
