/**
 * Progress a server sends just before its result reaches the caller, however the messages arrive. A server, or a
 * loaded machine, can put the last progress notifications and the result in one chunk; the SDK client dispatches a
 * notification one microtask later but drops a request's progress handler as soon as it reads the response, so the
 * transport hands over the messages of one chunk one microtask apart (found under load: `serve mcp` lost progress).
 */
import { describe, expect, it } from 'vitest';
import { createKernel } from '@tool-search/kernel';
import { mcpPlugin } from '../src/index.js';
import { fixture } from './helpers.js';

describe('progress before the result, in one chunk', () => {
  it('reaches the caller, every notification, before the call ends', async () => {
    const kernel = createKernel({ plugins: [mcpPlugin({ servers: { asks: fixture('asks') } })] });
    try {
      const run = await kernel.createRun();
      const progress: number[] = [];
      const outcome = await run.call(
        'mcp:asks:burst',
        {},
        { scope: { mcp: { session: 's', onProgress: (update) => void progress.push(update.progress) } } },
      );
      expect(outcome).toMatchObject({ status: 'ok', result: { content: [{ type: 'text', text: 'burst done' }] } });
      expect(progress).toEqual([0, 50, 100]);
    } finally {
      await kernel.close();
    }
  });
});
