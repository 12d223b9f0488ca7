import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { approvalsConfigSchema } from '../src/index.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('README', () => {
  it.each(Object.keys(approvalsConfigSchema.properties as object))('documents the option %s', (key) => {
    expect(readme).toContain(`| \`${key}\``);
  });
});
