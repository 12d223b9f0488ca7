// createFrontEnd: what the gateway and `serve mcp` get from the preset in one call, and that close() ends all of it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFrontEnd, createToolSearchKernel } from '@tool-search/preset';

const demo = { plugins: { 'fake-catalog': { tools: 3, core: false } } };

describe('createFrontEnd', () => {
  it('composes state, kernel, sessions and the cron folder beside the session logs', async () => {
    const logs = join(mkdtempSync(join(tmpdir(), 'front-end-')), 'sessions');
    const front = await createFrontEnd(demo, { sessions: true, sessionLogDir: logs, approvals: 'queue' });
    try {
      expect(front.state.kind).toBe('memory');
      expect(front.sessionHost).toBeDefined();
      expect(front.approvalQueue).toBeDefined();
      expect(front.cronDir).toBe(join(logs, '..', 'cron'));
      const run = await front.kernel.createRun();
      expect(run.catalog.length).toBeGreaterThan(0);
      await run.close();
    } finally {
      await front.close();
    }
  });

  it('puts the cron folder in the state folder without session logs, and has no sessions unless asked', async () => {
    const home = mkdtempSync(join(tmpdir(), 'front-end-home-'));
    const withSessions = await createFrontEnd(demo, {
      sessions: true,
      env: { ...process.env, TOOL_SEARCH_STATE_DIR: home, XDG_STATE_HOME: home },
    });
    await withSessions.close();
    expect(withSessions.cronDir?.startsWith(home)).toBe(true);
    const without = await createFrontEnd(demo);
    await without.close();
    expect(without.sessionHost).toBeUndefined();
    expect(without.cronDir).toBeUndefined();
  });

  it('close() runs what was added first, then the kernel, then the state store; each once, even when one fails', async () => {
    const order: string[] = [];
    const front = await createFrontEnd(demo, {
      createKernel: async (config, options) => {
        const preset = await createToolSearchKernel(config, options);
        const close = preset.kernel.close.bind(preset.kernel);
        return {
          ...preset,
          kernel: Object.assign(Object.create(preset.kernel), { close: async () => (order.push('kernel'), close()) }),
        };
      },
    });
    const stateClose = front.state.close.bind(front.state);
    Object.assign(front.state, { close: async () => (order.push('state'), stateClose()) });
    front.onClose(async () => {
      order.push('server');
      throw new Error('a server that fails to close');
    });
    await front.close();
    await front.close();
    expect(order).toEqual(['server', 'kernel', 'state']);
  });

  it('closes the state store when the kernel cannot be built, and keeps the error', async () => {
    let closed = false;
    const failure = new Error('no kernel');
    await expect(
      createFrontEnd(demo, {
        createKernel: async (_config, options) => {
          const close = options.state!.close.bind(options.state);
          Object.assign(options.state!, { close: async () => ((closed = true), close()) });
          throw failure;
        },
      }),
    ).rejects.toBe(failure);
    expect(closed).toBe(true);
  });
});
