// The measurement itself (exit codes, load, the command's own CPU time) is checked by test/smoke.test.ts on the quick
// bench's CLI rows: one run of the built CLI per command for the whole package.
import { describe, expect, it } from 'vitest';
import type { CliStartupResult } from '../src/cli-startup.js';
import { CLI_HELP_TARGET, CLI_LIST_TARGET, withCliStartup } from '../src/report.js';

const RESULT: CliStartupResult = {
  nodeMs: 100,
  load: { before: 1.5, after: 2 },
  rows: [
    { command: 'tool-search --help', medianMs: 120, cpuMs: 90, nodeCpuMs: 60, ratioToNode: 1.2, exitCode: 0 },
    { command: 'tool-search tools list', medianMs: 450, cpuMs: 400, nodeCpuMs: 60, ratioToNode: 4.5, exitCode: 0 },
  ],
};

describe('bench:cli rewriting BENCHMARKS.md in place', () => {
  const before = [
    '# Benchmarks',
    '',
    '| # | target | this run | met |',
    '|---|---|---|---|',
    '| 16 | something else | 1 | yes |',
    `| 17 | ${CLI_HELP_TARGET} | 9.9× (1 ms vs 1 ms) | **no** |`,
    `| 18 | ${CLI_LIST_TARGET} | 1433.9 ms | **no** |`,
    '',
    '## 9. CLI start-up',
    '',
    'old text',
    '',
    '## 10. Exposure modes under load',
    '',
    'kept',
    '',
  ].join('\n');

  it('replaces section 9 and the two target rows, keeping their numbers and everything else', () => {
    const after = withCliStartup(before, RESULT, 'measured alone');
    expect(after).toContain(`| 17 | ${CLI_HELP_TARGET} | 1.20× (120.0 ms vs 100.0 ms) (bench:cli) | yes |`);
    expect(after).toContain(`| 18 | ${CLI_LIST_TARGET} | 450.0 ms (4.50× node -e 0; CPU 400 ms) (bench:cli) | yes |`);
    expect(after).toContain('| 16 | something else | 1 | yes |');
    expect(after).not.toContain('old text');
    expect(after).toContain('Load average (1 min) 1.5 before, 2 after.');
    expect(after).toContain('| `tool-search tools list` | 450.0 ms | 4.50× | 400 ms | 60 ms | 0 |');
    expect(after).toContain('measured alone\n\n## 10. Exposure modes under load\n\nkept\n');
    expect(withCliStartup(after, RESULT, 'measured alone')).toBe(after);
  });
});
