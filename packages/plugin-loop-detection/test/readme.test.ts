import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LOOP_DETECTION, POLL_WORDS } from '../src/index.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('README', () => {
  const { detectors, ...fields } = DEFAULT_LOOP_DETECTION;
  it.each(Object.entries(fields))('documents %s with its default', (key, value) => {
    expect(readme).toContain(`| \`${key}\` | ${typeof value === 'boolean' ? `\`${value}\`` : value} |`);
  });

  it.each(Object.keys(detectors))('documents the detector %s', (key) => {
    expect(readme).toContain(`| \`detectors.${key}\` | on |`);
  });

  it('lists the poll words', () => {
    expect(readme).toContain(`(${POLL_WORDS.join(', ')})`);
  });
});
