import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../src/index.js';

// The README shows the example plugin and its test verbatim; the example test runs with this package's tests.
describe('README', () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  for (const file of ['weather-plugin.ts', 'weather-plugin.test.ts']) {
    it(`shows examples/${file} verbatim`, () => {
      expect(readme).toContain(readFileSync(new URL(`../examples/${file}`, import.meta.url), 'utf8').trim());
    });
  }

  it('lists every kernel error code in its Errors table', () => {
    const table = readme.slice(readme.indexOf('## Errors'), readme.indexOf('## Why these dependencies'));
    for (const code of Object.keys(ErrorCode)) expect(table, code).toContain(`\`${code}\``);
  });

  it('keeps the plugin under 30 lines', () => {
    expect(
      readFileSync(new URL('../examples/weather-plugin.ts', import.meta.url), 'utf8')
        .trim()
        .split('\n').length,
    ).toBeLessThanOrEqual(30);
  });
});
