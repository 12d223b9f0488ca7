import { createApiKeys, hashApiKey } from '@tool-search/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type Fixture } from './helpers.js';

// The front ends' API keys guard the page too: a key decides which agents it may open, as in the gateway.
const SUPPORT_KEY = 'inspect-support-key-0123456789abcdef';
let fixture: Fixture;
beforeAll(async () => {
  const auth = createApiKeys({ keys: [{ name: 'support', hash: hashApiKey(SUPPORT_KEY), agents: ['support'] }] });
  fixture = await startFixture({ auth, defaults: { agentId: 'support' } });
}, 120_000);
afterAll(async () => {
  await fixture?.close();
});

async function status(path: string, key?: string): Promise<number> {
  const response = await fetch(new URL(path, fixture.server.url), {
    headers: key ? { authorization: `Bearer ${key}` } : {},
  });
  await response.arrayBuffer();
  return response.status;
}

describe('inspect behind auth.keys', () => {
  it('refuses a request without a key or with a wrong one', async () => {
    expect(await status('/api/catalog')).toBe(401);
    expect(await status('/api/catalog', 'not-the-key-0123456789abcdef')).toBe(401);
  });

  it("opens the key's agent and refuses another agent (403)", async () => {
    expect(await status('/api/catalog', SUPPORT_KEY)).toBe(200);
    expect(await status('/api/catalog?agent=support', SUPPORT_KEY)).toBe(200);
    expect(await status('/api/catalog?agent=main', SUPPORT_KEY)).toBe(403);
  });

  it('shows the allowed agent its own catalog when the page names none', async () => {
    const response = await fetch(new URL('/api/catalog', fixture.server.url), {
      headers: { authorization: `Bearer ${SUPPORT_KEY}` },
    });
    const body = (await response.json()) as { tools: { id: string; status: string }[] };
    const allowed = body.tools.filter((tool) => tool.status === 'allowed').map((tool) => tool.id);
    expect(allowed).not.toContain('core:core:exec');
  });
});
