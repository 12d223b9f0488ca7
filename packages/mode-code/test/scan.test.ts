import { describe, expect, it } from 'vitest';
import { checkCode } from '../src/scan.js';

describe('checkCode: import()', () => {
  it.each([
    [`await import('fs')`],
    [`import ('fs')`],
    [`import/* c */('fs')`],
    [`import // c\n('fs')`],
    [`x = 1.\nimport('fs')`],
    [`// a.\nimport('fs')`],
    [`[...import('fs')]`],
    [`import\u2028('fs')`],
    [`import\ufeff('fs')`],
    [`f(import('fs'))`],
    [`const f = () => import('fs', { with: { type: 'json' } })`],
    [`\`\${import('fs')}\``],
  ])('finds a real call in %j', (code) => {
    expect(checkCode(code)).toMatchObject({ ok: false, reason: 'import' });
  });

  it.each([
    [`openclaw.tools.search('import csv file')`],
    [`const imports = 1; reimport(2); importer(3);`],
    [`x.import('a'); y?.import('b')`],
    [`const important = 1`],
    [`const s = "import('fs')"; const t = \`import('x')\`; // import('y')`],
    [`/* import('fs') */ const re = /import\\(/;`],
  ])('lets %j through (a parser knows strings, comments, regexps and property names)', (code) => {
    expect(checkCode(code)).toEqual({ ok: true });
  });

  // acorn does not look past an HTML-like comment after `import`: refused as a syntax error, so still never run.
  it.each([[`import <!-- c\n('fs')`], [`import\n-->c\n('fs')`]])('refuses %j (HTML-like comments)', (code) => {
    expect(checkCode(code)).toMatchObject({ ok: false });
  });

  it('names the line and column of the call in the user code', () => {
    expect(checkCode(`const a = 1;\n  await import('fs');`)).toMatchObject({
      ok: false,
      reason: 'import',
      location: { line: 2, column: 9 },
    });
  });
});

describe('checkCode: syntax errors and the wrapper', () => {
  it('reports the user line and column, not the wrapper', () => {
    expect(checkCode(`const a = 1;\nconst b = ;`)).toMatchObject({
      ok: false,
      reason: 'syntax',
      location: { line: 2, column: 11 },
    });
    expect(checkCode(`return (;`)).toMatchObject({ ok: false, reason: 'syntax', location: { line: 1, column: 9 } });
  });

  it('reports code that ends too early at its own end, not on the wrapper line', () => {
    const checked = checkCode(`const a = [1,\n  2,`);
    expect(checked).toMatchObject({ ok: false, reason: 'syntax', location: { line: 2 } });
    expect(checked.ok ? '' : checked.message).not.toMatch(/\d+:\d+/);
  });

  it.each([[`}); (async function () {`], [`}), process.exit(1), (async function () {`], [`}, function () {`]])(
    'refuses %j, which closes the wrapper',
    (code) => {
      expect(checkCode(code)).toMatchObject({ ok: false });
    },
  );

  it('accepts top-level await and return in the body', () => {
    expect(checkCode(`const r = await Promise.resolve(1);\nreturn r;`)).toEqual({ ok: true });
  });
});
