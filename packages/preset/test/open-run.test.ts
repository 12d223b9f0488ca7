import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@tool-search/kernel';
import { readSessionLog } from '@tool-search/telemetry';
import { openToolSearchRun } from '@tool-search/preset';

// The helper the framework adapters (ai-sdk, openai-agents, langchain) open their run with.
describe('openToolSearchRun', () => {
  it('loads a config file like the CLI, applies its policy, and searches the policy-filtered catalog', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'open-run-'));
    writeFileSync(join(dir, 'tool-search.json'), '{ plugins: { "fake-catalog": { tools: 50 } }, tools: { deny: ["read"] } } // JSON5');
    const opened = await openToolSearchRun({ config: 'tool-search.json', cwd: dir, sessionId: 'file', sessionLogDir: join(dir, 'logs') });
    try {
      expect(opened.run.tool('read')).toBeUndefined();
      expect(opened.run.tool('write')).toBeDefined();
      const hits = await opened.search('read the contents of a file', { limit: 5 });
      expect(hits.length).toBeGreaterThan(0);
      expect(hits).not.toContain('core:core:read');
      expect(hits.every((id) => opened.run.tool(id) !== undefined)).toBe(true);
      expect((await opened.search('write a file', { limit: 3 })).length).toBeLessThanOrEqual(3);
    } finally {
      await opened.close();
      await opened.close(); // idempotent
    }
    const searches = (await readSessionLog(join(dir, 'logs', 'file.jsonl'))).filter((entry) => entry.type === 'search');
    expect(searches).toHaveLength(2);
    expect(searches[0]).toMatchObject({ queries: ['read the contents of a file'], origin: 'api', ranker: { id: 'bm25f' } });
  });

  it('takes a config object, the agent and provider overrides of toolSearch, and session logs', async () => {
    const logs = mkdtempSync(join(tmpdir(), 'open-run-logs-'));
    const opened = await openToolSearchRun({
      config: {
        plugins: { 'fake-catalog': { tools: 20 } },
        tools: { toolSearch: { mode: 'tools', searchDefaultLimit: 4 } },
        agents: { list: [{ id: 'ops', tools: { toolSearch: { maxSearchLimit: 6 } } }] },
      },
      agentId: 'ops',
      sessionId: 's-open-run',
      sessionLogDir: logs,
    });
    try {
      expect(opened.toolSearch).toMatchObject({ mode: 'tools', searchDefaultLimit: 4, maxSearchLimit: 6 });
      expect(opened.run.info.sessionId).toBe('s-open-run');
      expect(await opened.search('send an email', { limit: 100 })).toHaveLength(6);
      expect(await opened.search('send an email')).toHaveLength(4);
    } finally {
      await opened.close();
    }
  });

  it('rejects an invalid config object with CONFIG_INVALID and a missing file with CONFIG_UNREADABLE', async () => {
    await expect(openToolSearchRun({ config: { tools: { profile: 42 } } as never })).rejects.toMatchObject({ code: ErrorCode.CONFIG_INVALID });
    await expect(openToolSearchRun({ config: 'nope.json', cwd: tmpdir() })).rejects.toMatchObject({ code: ErrorCode.CONFIG_UNREADABLE });
  });

  it('refuses an agent that is not configured, and leaves nothing open', async () => {
    await expect(openToolSearchRun({ config: { plugins: { 'fake-catalog': { tools: 5 } } }, agentId: 'ghost' })).rejects.toMatchObject({ code: ErrorCode.AGENT_UNKNOWN });
  });
});
