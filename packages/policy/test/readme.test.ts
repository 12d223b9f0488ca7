import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import { runWith } from './fixtures.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('README', () => {
  it('shows what explain really returns for its example', async () => {
    const run = await runWith(
      {
        tools: {
          profile: 'coding',
          deny: ['group:runtime'],
          byProvider: { 'google-antigravity': { profile: 'minimal' } },
        },
        agents: { list: [{ id: 'main' }, { id: 'support', tools: { profile: 'messaging' } }] },
      },
      { agentId: 'main', provider: 'openai', model: 'gpt-5.2', sandboxed: false },
    );
    expect(run.explain('exec')).toMatchObject({
      inCatalog: false,
      steps: [
        { step: 'profile:coding', kept: true, rule: 'group:runtime' },
        { step: 'tools.deny', kept: false, rule: 'group:runtime' },
      ],
    });
    expect(readme).toContain(
      "run.explain('exec'); // { inCatalog: false, steps: [{ step: 'profile:coding', kept: true, rule: 'group:runtime' }, { step: 'tools.deny', kept: false, rule: 'group:runtime' }] }",
    );
  });

  it('names every export except the plugin-name constant and isProfileName/isReservedGroup/providerCandidates helpers', () => {
    const skip = new Set([
      'POLICY_PLUGIN',
      'isProfileName',
      'isReservedGroup',
      'providerCandidates',
      'policyOptionsSchema',
    ]);
    for (const name of Object.keys(api)) if (!skip.has(name)) expect(readme).toContain(name);
  });
});
