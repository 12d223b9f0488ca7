/**
 * A conservative pre-check of the code text for `import(…)`. A script's
 * dynamic import, with no `importModuleDynamically` callback, rejects with an
 * error created in the HOST realm — a classic escape (`e.constructor.constructor`).
 * `import` is a keyword that cannot be spelled with escapes or computed, so a
 * call must appear in the text as `import`, then whitespace or comments, then
 * `(`. The scan ignores string and comment context on purpose: it may refuse
 * such text inside a string (rare), but it cannot miss a real call.
 */

/** Returns the offset of the first dynamic `import(` in `code`, or -1. */
export function findDynamicImport(code: string): number {
  const keyword = /import/g;
  for (let match = keyword.exec(code); match; match = keyword.exec(code)) {
    const at = match.index;
    if (isIdentifierPart(code, at - 1) || isIdentifierPart(code, at + 6)) continue;
    if (isPropertyName(code, at)) continue;
    const next = skipTrivia(code, at + 6);
    if (code[next] === '(') return at;
  }
  return -1;
}

const ID_PART = /[\p{ID_Continue}$\u200c\u200d\\]/u;

function isIdentifierPart(code: string, index: number): boolean {
  if (index < 0 || index >= code.length) return false;
  // Look at whole code points: an astral identifier character is two UTF-16 units.
  const unit = code.charCodeAt(index);
  const start = unit >= 0xdc00 && unit <= 0xdfff && index > 0 ? index - 1 : index;
  return ID_PART.test(String.fromCodePoint(code.codePointAt(start) ?? 0));
}

/**
 * `x.import(` and `x?.import(` are property calls, but only with the dot right
 * before the keyword: `1.\nimport(` is a number, a line break (ASI) and a real
 * call, and `// a.\nimport(` ends a comment with a dot. `...import(` spreads a real call.
 */
function isPropertyName(code: string, at: number): boolean {
  return code[at - 1] === '.' && code[at - 2] !== '.';
}

/** Skips whitespace, line terminators, block and line comments, and HTML-like comments. */
function skipTrivia(code: string, from: number): number {
  let i = from;
  for (;;) {
    if (i >= code.length) return i;
    const char = code[i] ?? '';
    if (/\s/.test(char)) {
      i += 1;
    } else if (code.startsWith('/*', i)) {
      const end = code.indexOf('*/', i + 2);
      if (end === -1) return code.length;
      i = end + 2;
    } else if (code.startsWith('//', i) || code.startsWith('<!--', i) || code.startsWith('-->', i)) {
      while (i < code.length && !/[\n\r\u2028\u2029]/.test(code[i] ?? '')) i += 1;
    } else {
      return i;
    }
  }
}
