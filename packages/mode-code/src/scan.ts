/**
 * The parent's check of the code text, with a real parser (acorn), before any
 * sandbox sees it. The code is parsed exactly as the sandbox compiles it,
 * `(async function () {\n<code>\n})`, and refused when:
 * - it does not parse (the position is the user's: the wrapper's line is taken off);
 * - it closes that wrapper (the script must be the one function expression, nothing else);
 * - it calls `import(…)`: a script's dynamic import, with no `importModuleDynamically`
 *   callback, rejects with an error created in the HOST realm (`e.constructor.constructor`).
 */
import { parse, type Node } from 'acorn';
import { simple } from 'acorn-walk';

export const WRAPPER_HEAD = '(async function () {\n';
export const WRAPPER_TAIL = '\n})';

export interface CodeLocation {
  /** 1-based line of the user's code. */
  readonly line: number;
  /** 1-based column. */
  readonly column: number;
}

export type CodeCheck =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly reason: 'syntax' | 'wrapper' | 'import';
      readonly message: string;
      readonly location?: CodeLocation;
    };

export function checkCode(code: string): CodeCheck {
  const source = WRAPPER_HEAD + code + WRAPPER_TAIL;
  let program: Node & { body?: Node[] };
  try {
    program = parse(source, { ecmaVersion: 'latest', sourceType: 'script', locations: true }) as Node & {
      body?: Node[];
    };
  } catch (error) {
    const { message, loc } = error as SyntaxError & { loc?: { line: number; column: number } };
    const location = loc ? userLocation(loc, code) : undefined;
    return { ok: false, reason: 'syntax', message: withoutPosition(message), ...(location ? { location } : {}) };
  }
  if (!isOneWrapper(program, source.length)) {
    return {
      ok: false,
      reason: 'wrapper',
      message: 'the code must be a function body; it closes the function it is wrapped in',
    };
  }
  let found: Node | undefined;
  simple(program, { ImportExpression: (node) => void (found ??= node) });
  if (found) {
    const location = found.loc ? userLocation(found.loc.start, code) : undefined;
    return {
      ok: false,
      reason: 'import',
      message: 'import() is not available in tool_search_code; use openclaw.tools.search/describe/call',
      ...(location ? { location } : {}),
    };
  }
  return { ok: true };
}

/** The program is exactly `(async function () {…})`: one statement, one function spanning the whole wrapper. */
function isOneWrapper(program: Node & { body?: Node[] }, length: number): boolean {
  const [statement, ...rest] = program.body ?? [];
  if (!statement || rest.length > 0 || statement.type !== 'ExpressionStatement') return false;
  const expression = (statement as Node & { expression: Node }).expression;
  return expression.type === 'FunctionExpression' && expression.start === 1 && expression.end === length - 1;
}

/**
 * The wrapper adds one line before the code; columns on the user's lines are
 * unchanged (reported 1-based). An error found in the wrapper's closing line
 * (code that ends too early) is reported at the end of the user's code.
 */
function userLocation(loc: { line: number; column: number }, code: string): CodeLocation {
  const lines = code.split(/\r\n|[\n\r\u2028\u2029]/);
  if (loc.line < 2) return { line: 1, column: 1 };
  if (loc.line - 1 > lines.length) return { line: lines.length, column: (lines[lines.length - 1] ?? '').length + 1 };
  return { line: loc.line - 1, column: loc.column + 1 };
}

/** acorn appends ` (line:column)` of the wrapped source; the caller reports the user's position instead. */
function withoutPosition(message: string): string {
  return message.replace(/\s*\(\d+:\d+\)$/, '');
}
