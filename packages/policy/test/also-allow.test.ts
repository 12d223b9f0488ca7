import { describe, expect, it } from 'vitest';
import { names, runWith } from './fixtures.js';

// OpenClaw's `alsoAllow`: additive, it extends a profile or allowlist instead of replacing it; deny still wins.
describe('alsoAllow', () => {
  it('extends the base profile', async () => {
    const run = await runWith({ tools: { profile: 'minimal', alsoAllow: ['web_search'] } });
    expect(names(run)).toEqual(['session_status', 'web_search']);
  });

  it("adds the agent's alsoAllow to the profile that applies", async () => {
    const run = await runWith(
      { tools: { profile: 'minimal' }, agents: { list: [{ id: 'a', tools: { alsoAllow: ['image'] } }] } },
      { agentId: 'a' },
    );
    expect(names(run)).toEqual(['image', 'session_status']);
  });

  it('extends an allowlist and a byProvider profile', async () => {
    const run = await runWith({ tools: { allow: ['read'], alsoAllow: ['write'] } });
    expect(names(run)).toEqual(['read', 'write']);
    const provider = await runWith(
      { tools: { byProvider: { openai: { profile: 'minimal', alsoAllow: ['exec'] } } } },
      { provider: 'openai' },
    );
    expect(names(provider)).toEqual(['exec', 'session_status']);
  });

  it('never beats deny', async () => {
    const run = await runWith({ tools: { profile: 'minimal', alsoAllow: ['web_search'], deny: ['web_*'] } });
    expect(names(run)).toEqual(['session_status']);
  });
});
