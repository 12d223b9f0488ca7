#!/usr/bin/env node
// Causes are kept, failures are not silently dropped (issue #27). Run by `npm test` through check-deps.mjs. In
// packages/*/src:
// - no copy of the `instanceof Error ? … .message : String(…)` ternary: use `errorMessage(error)` from
//   @tool-search/kernel, and keep the error as `cause` when wrapping it;
// - no `.catch(() => undefined)` / `.catch(() => {})` without a `//` comment on its line or the line before saying
//   why ignoring the failure is right (closing a socket during shutdown, removing a temp file that may be gone).
//   A failure someone needs is logged with its cause or let through instead.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const MESSAGE_COPY = /instanceof Error \? .*\.message : String\(/;
const SILENT_CATCH = /\.catch\(\(\) => (?:undefined|\{\s*\})\)/;
const COMMENT_LINE = /^\s*(\/\/|\/?\*)/;

const walk = (dir) =>
  existsSync(dir)
    ? readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? walk(join(dir, f)) : [join(dir, f)]))
    : [];

/** One line per problem, `file:line: what; the fix`. */
export function errorHandlingProblems(root = '.') {
  const problems = [];
  const packages = existsSync(join(root, 'packages')) ? readdirSync(join(root, 'packages')) : [];
  for (const short of packages) {
    for (const file of walk(join(root, 'packages', short, 'src')).filter((f) => /\.[cm]?ts$/.test(f))) {
      const lines = readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (COMMENT_LINE.test(line)) return;
        if (MESSAGE_COPY.test(line)) {
          problems.push(
            `${file}:${i + 1}: copies the instanceof-Error message ternary; use errorMessage(error) from @tool-search/kernel (and keep the error as \`cause\` when wrapping it)`,
          );
        }
        const silent = line.match(SILENT_CATCH);
        if (silent && !line.slice(silent.index).includes('//') && !COMMENT_LINE.test(lines[i - 1] ?? '')) {
          problems.push(
            `${file}:${i + 1}: ${silent[0]} without a comment; say on the line why ignoring the failure is safe, or log it with its cause / let it through`,
          );
        }
      });
    }
  }
  return problems;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const problems = errorHandlingProblems();
  for (const problem of problems) console.log(problem);
  process.exit(problems.length ? 1 : 0);
}
