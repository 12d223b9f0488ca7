/**
 * `tool-search configure --section web`: the web_search provider and its key, answered on stdin (piped here as a
 * user's typed lines would arrive), validated, and written into tool-search.json with its comments kept.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseConfigValue } from '@tool-search/config';
import { cli, folder } from './helpers.js';

const answers = (...lines: string[]) => Readable.from([lines.map((line) => `${line}\n`).join('')]);
const text = (cwd: string) => readFileSync(join(cwd, 'tool-search.json'), 'utf8');

describe('configure --section web', () => {
  it('sets tools.web.search.provider and the provider key from piped answers, keeping comments', async () => {
    const cwd = folder({
      'tool-search.json': '// team config\n{\n  tools: {\n    profile: "coding", // the default\n  },\n}\n',
    });
    const { code, stdout } = await cli(['configure', '--section', 'web'], cwd, {
      stdin: answers('gemini', 'AIza-secret'),
    });
    expect(code).toBe(0);
    expect(stdout).toContain('web_search provider (brave, gemini, perplexity, grok, kimi)');
    expect(stdout).toContain('tools.web.search.gemini.apiKey = ***');
    expect(stdout).not.toContain('AIza-secret');
    expect(parseConfigValue(text(cwd))).toEqual({
      tools: { profile: 'coding', web: { search: { provider: 'gemini', gemini: { apiKey: 'AIza-secret' } } } },
    });
    for (const kept of ['// team config', 'profile: "coding", // the default']) expect(text(cwd)).toContain(kept);
  });

  it('the configured provider is the one web_search uses: tools list shows it with the written key', async () => {
    const cwd = folder({ 'tool-search.json': '{ plugins: { core: {} } }' });
    expect((await cli(['configure', '--section', 'web'], cwd, { stdin: answers('grok', 'xai-key') })).code).toBe(0);
    const { code, stdout } = await cli(['tools', 'describe', 'core:core:web_search', '--json'], cwd);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).description).toContain('(grok)');
  });

  it('Brave keys go to tools.web.search.apiKey; an empty key answer keeps the current key', async () => {
    const cwd = folder({
      'tool-search.json': '{ tools: { web: { search: { provider: "kimi", kimi: { apiKey: "old" } } } } }',
    });
    expect((await cli(['configure', '--section', 'web'], cwd, { stdin: answers('brave', 'BSA-key') })).code).toBe(0);
    expect(parseConfigValue(text(cwd))).toEqual({
      tools: { web: { search: { provider: 'brave', apiKey: 'BSA-key', kimi: { apiKey: 'old' } } } },
    });
    const kept = await cli(['configure', '--section', 'web'], cwd, { stdin: answers('', '') });
    expect(kept.code).toBe(0);
    expect(kept.stdout).toContain('nothing changed');
    expect(parseConfigValue(text(cwd))).toMatchObject({
      tools: { web: { search: { provider: 'brave', apiKey: 'BSA-key' } } },
    });
  });

  it('asks again after an unknown provider, and stops without writing after three', async () => {
    const cwd = folder({ 'tool-search.json': '{}\n' });
    const again = await cli(['configure', '--section', 'web'], cwd, { stdin: answers('bing', 'KIMI', 'sk-moon') });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('"bing" is not a provider');
    expect(parseConfigValue(text(cwd))).toEqual({
      tools: { web: { search: { provider: 'kimi', kimi: { apiKey: 'sk-moon' } } } },
    });
    const before = text(cwd);
    const refused = await cli(['configure', '--section', 'web'], cwd, { stdin: answers('a', 'b', 'c', 'd') });
    expect(refused.code).toBe(1);
    expect(text(cwd)).toBe(before);
  });

  it('stdin ending before every answer writes nothing', async () => {
    const cwd = folder({ 'tool-search.json': '{}\n' });
    const { code, stderr } = await cli(['configure', '--section', 'web'], cwd, { stdin: answers('perplexity') });
    expect(code).toBe(1);
    expect(stderr).toContain('stdin ended');
    expect(text(cwd)).toBe('{}\n');
  });

  it('an unknown section is a usage error (exit 2)', async () => {
    expect((await cli(['configure', '--section', 'gateway'], folder(), { stdin: answers() })).code).toBe(2);
  });
});
