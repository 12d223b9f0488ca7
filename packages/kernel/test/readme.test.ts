import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The README shows the example plugin and its test verbatim; the example test runs with this package's tests.
describe('README', () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  for (const file of ['weather-plugin.ts', 'weather-plugin.test.ts']) {
    it(`shows examples/${file} verbatim`, () => {
      expect(readme).toContain(readFileSync(new URL(`../examples/${file}`, import.meta.url), 'utf8').trim());
    });
  }

  it('keeps the plugin under 30 lines', () => {
    expect(readFileSync(new URL('../examples/weather-plugin.ts', import.meta.url), 'utf8').trim().split('\n').length).toBeLessThanOrEqual(30);
  });
});
