// `bash` in a policy list is the core exec tool (OpenClaw's alias, the name group:runtime keeps).
import { describe, expect, it } from 'vitest';
import { names, runWith } from './fixtures.js';

describe('bash as the alias group:runtime names', () => {
  it('tools.allow: ["bash"] lists exec', async () => {
    expect(names(await runWith({ tools: { allow: ['bash'] } }))).toContain('exec');
  });

  it('tools.deny: ["bash"] drops exec', async () => {
    expect(names(await runWith({ tools: { deny: ['bash'] } }))).not.toContain('exec');
  });
});
