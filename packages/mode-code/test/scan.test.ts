import { describe, expect, it } from 'vitest';
import { findDynamicImport } from '../src/scan.js';

describe('findDynamicImport', () => {
  it.each([
    [`await import('fs')`],
    [`import ('fs')`],
    [`import/* c */('fs')`],
    [`import // c\n('fs')`],
    [`import <!-- c\n('fs')`],
    [`import\n-->c\n('fs')`],
    [`x = 1.\nimport('fs')`],
    [`// a.\nimport('fs')`],
    [`[...import('fs')]`],
    [`import\u2028('fs')`],
    [`import\ufeff('fs')`],
    [`f(import('fs'))`],
  ])('finds a real call in %j', (code) => {
    expect(findDynamicImport(code)).not.toBe(-1);
  });

  it.each([
    [`openclaw.tools.search('import csv file')`],
    [`const imports = 1; reimport(2); importer(3);`],
    [`x.import('a'); y?.import('b')`],
    [`const important = 1`],
  ])('lets %j through', (code) => {
    expect(findDynamicImport(code)).toBe(-1);
  });
});
