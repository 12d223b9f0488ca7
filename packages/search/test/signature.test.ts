import { describe, expect, it } from 'vitest';
import { signature, summarize } from '../src/signature.js';

describe('signature', () => {
  it('renders required arguments first, then optional ones with ?', () => {
    const schema = {
      type: 'object',
      properties: { recursive: { type: 'boolean' }, path: { type: 'string' }, mode: { enum: ['a', 'b'] } },
      required: ['path'],
    };
    expect(signature(schema)).toBe('{ path: string; recursive?: boolean; mode?: "a"|"b" }');
  });

  it('maps JSON Schema types to TypeScript ones', () => {
    const schema = {
      type: 'object',
      properties: {
        n: { type: 'integer' },
        tags: { type: 'array', items: { type: 'string' } },
        either: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        nullable: { type: ['string', 'null'] },
        opts: { type: 'object', properties: { deep: { type: 'boolean' } }, required: ['deep'] },
        free: { type: 'object' },
      },
      required: ['n'],
    };
    expect(signature(schema)).toBe(
      '{ n: number; tags?: string[]; either?: string | number; nullable?: string | null; opts?: { deep: boolean }; free?: object }',
    );
  });

  it('renders a tool without arguments as {}', () => {
    expect(signature({ type: 'object' })).toBe('{}');
    expect(signature({})).toBe('{}');
  });

  it('quotes keys that are not identifiers', () => {
    expect(signature({ type: 'object', properties: { 'content-type': { type: 'string' } } })).toBe(
      '{ "content-type"?: string }',
    );
  });

  it('never exceeds 300 characters and closes the cut type', () => {
    const properties = Object.fromEntries(
      Array.from({ length: 60 }, (_, i) => [`argument_number_${i}`, { type: 'string' }]),
    );
    const text = signature({ type: 'object', properties, required: ['argument_number_59'] });
    expect(text.length).toBeLessThanOrEqual(300);
    expect(text.startsWith('{ argument_number_59: string;')).toBe(true);
    expect(text.endsWith('… }')).toBe(true);
  });

  it('bounds long enums', () => {
    const text = signature({
      type: 'object',
      properties: { v: { enum: Array.from({ length: 100 }, (_, i) => `value${i}`) } },
    });
    expect(text).toBe('{ v?: "value0"|"value1"|"value2"|"value3"|"value4"|"value5"|… }');
  });
});

describe('summarize', () => {
  it('keeps a short description as is, whitespace collapsed', () => {
    expect(summarize('Read a file.\n\n  Returns text.')).toBe('Read a file. Returns text.');
  });

  it('cuts on a word boundary with an ellipsis, at most 200 characters', () => {
    const text = summarize(`${'alpha beta gamma '.repeat(30)}end`);
    expect(text.length).toBeLessThanOrEqual(200);
    expect(text.endsWith('…')).toBe(true);
    expect(text.slice(0, -1).endsWith(' ')).toBe(false);
    expect(['alpha', 'beta', 'gamma']).toContain(text.slice(0, -1).split(' ').at(-1));
  });
});
