// `npm run bench [-- --check | --headline | --quick]` at the repo root, after its build: bench/dist/run.js with those
// flags (npm hands the arguments after `--` to the last command of a script, so the root script ends here). A full
// run (no flag) then prints the prompt-cache comparison of the modes and the search tail beside two CPU hogs, and runs
// the opt-in install-size test, whose printed line section 11 of BENCHMARKS.md keeps.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const root = fileURLToPath(new URL('../../', import.meta.url));

function run(command, argv, env = {}) {
  const result = spawnSync(command, argv, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

run(process.execPath, ['--expose-gc', 'bench/dist/run.js', ...args]);
if (args.length === 0) {
  // Printed; bench/prompt-cache.md and bench/search-tail.md keep them as BENCHMARKS.md's sections 12 and 13.
  run(process.execPath, ['bench/dist/prompt-cache.js']);
  run(process.execPath, ['--expose-gc', 'bench/dist/search-tail.js', '--hogs=2']);
  run('npm', ['test', '-w', '@tool-search/e2e', '--', 'test/install-size.test.ts'], { TOOL_SEARCH_INSTALL_TEST: '1' });
}
