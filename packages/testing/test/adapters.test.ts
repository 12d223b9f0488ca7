import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { demoWithEverything, EVERYTHING_DENIED_ID, logDir, offeredPerRequest } from '../src/index.js';

describe('the framework adapters kit', () => {
  it('points the everything server at a file that exists, and denies one of its tools', () => {
    const config = demoWithEverything(import.meta.url);
    expect(existsSync(config.mcp.servers.everything.args[0]!)).toBe(true);
    expect(config.tools.deny).toEqual([EVERYTHING_DENIED_ID]);
  });

  it('gives a new empty folder each time', () => {
    const a = logDir();
    const b = logDir();
    expect(a).not.toBe(b);
    expect(readdirSync(a)).toEqual([]);
  });

  it('lists the tools each chat request offered, skipping other endpoints', () => {
    const requests = [
      { path: '/v1/chat/completions', body: { tools: [{ function: { name: 'a' } }, { function: { name: 'b' } }] } },
      { path: '/v1/embeddings', body: {} },
      { path: '/v1/chat/completions', body: {} },
    ];
    expect(offeredPerRequest(requests)).toEqual([['a', 'b'], []]);
  });
});
