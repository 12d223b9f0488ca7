import { describe, expect, it } from 'vitest';
import { deepFreeze, type ToolDescriptor } from '@tool-search/kernel';
import { addBag, addField, addMergedBag, beginDoc, endDoc, fieldAt } from '../src/bag.js';
import { sentences } from '../src/doc-text.js';
import { currentVocabulary, docTerms } from '../src/doc-terms.js';
import { createToolIndex, type SearchResult } from '../src/index.js';
import { catalog, tool } from './helpers/tools.js';

const ids = (result: SearchResult): string[] => result.hits.map((hit) => hit.id);

describe('per-descriptor term cache', () => {
  it('reuses the terms of a frozen descriptor across index builds', () => {
    const frozen = deepFreeze(tool('read_file', 'Read a file.'));
    const vocab = currentVocabulary();
    expect(docTerms(frozen, vocab)).toBe(docTerms(frozen, vocab));
  });

  it('never caches a mutable descriptor: a changed description is indexed as changed', () => {
    const mutable: { -readonly [K in keyof ToolDescriptor]: ToolDescriptor[K] } = tool('do_thing', 'Send a postcard.');
    expect(ids(createToolIndex([mutable]).search('postcard'))).toEqual(['mcp:files:do_thing']);
    mutable.description = 'Order a pizza.';
    expect(createToolIndex([mutable]).search('postcard')).toMatchObject({ weak: true });
    expect(ids(createToolIndex([mutable]).search('pizza'))).toEqual(['mcp:files:do_thing']);
  });

  it('ranks the same over cached and fresh descriptors', () => {
    const frozen = catalog.map((t) => deepFreeze(structuredClone(t)));
    const queries = ['read a file', 'open a github issue', '天气预报', 'post to slack'];
    const first = createToolIndex(frozen);
    const again = createToolIndex(frozen);
    const fresh = createToolIndex(catalog.map((t) => structuredClone(t)));
    for (const query of queries) {
      expect(ids(again.search(query))).toEqual(ids(first.search(query)));
      expect(ids(fresh.search(query))).toEqual(ids(first.search(query)));
    }
  });
});

describe('packed bags', () => {
  const pack = (...fields: (() => void)[]): number[] => {
    beginDoc();
    for (const add of fields) add();
    return [...endDoc()];
  };

  it('packs each field as length, distinct count, ids in first-seen order, then their counts', () => {
    const doc = pack(
      () => addBag([7, 3, 7], [7, 1]),
      () => addBag(),
    );
    expect(doc).toEqual([5, 3, 7, 3, 1, 3, 1, 1, 0, 0]);
    expect(fieldAt(Int32Array.from(doc), 1)).toBe(8);
  });

  it('merges one field of several docs (counts and lengths add up) and copies a field as is', () => {
    const a = Int32Array.from(
      pack(
        () => addBag([9]),
        () => addBag([1, 2, 2]),
      ),
    );
    const b = Int32Array.from(
      pack(
        () => addBag([8]),
        () => addBag([2, 5]),
      ),
    );
    expect(
      pack(
        () => addField(a, 0),
        () => addMergedBag([a, b], 1),
      ),
    ).toEqual([1, 1, 9, 1, 5, 3, 1, 2, 5, 1, 3, 1]);
  });
});

describe('sentences', () => {
  it('splits at whitespace after sentence ends and line breaks, and nowhere else', () => {
    expect(sentences('Lists files. Use v1.2 paths!  Then stop?\n\nNext line\nsame')).toEqual([
      'Lists files.',
      'Use v1.2 paths!',
      'Then stop?',
      'Next line\nsame',
    ]);
  });
});
