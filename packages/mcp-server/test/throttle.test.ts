/**
 * One call's notifications through a session budget: the burst passes, logs
 * over it are counted and dropped, progress over it is held (the latest wins)
 * and sent when the call ends, with one line counting what was held back;
 * nothing is sent after that.
 */
import { describe, expect, it } from 'vitest';
import type { ServerNotification } from '@modelcontextprotocol/server';
import { callNotices, suppressedLine, tokenBucket } from '../src/throttle.js';

function notices(burst: number, token?: string) {
  const sent: ServerNotification[] = [];
  // A bucket that does not refill within the test: only the burst passes.
  const bucket = tokenBucket({ burst, perSecond: 0.001 });
  const call = callNotices({
    bucket,
    send: async (notification) => void sent.push(notification),
    ...(token !== undefined ? { token } : {}),
    suppressed: suppressedLine,
  });
  return { call, sent };
}

describe('the notification budget', () => {
  it('passes the burst, then counts logs and keeps only the latest progress', async () => {
    const { call, sent } = notices(3, 't');
    for (let i = 1; i <= 1_000; i++) {
      call.log({ level: 'info', data: `log ${i}` });
      call.progress({ progress: i, total: 1_000 });
    }
    await call.flush();
    call.log({ level: 'info', data: 'after the end' });
    call.progress({ progress: 1_001 });
    expect(sent.map((n) => n.method)).toEqual([
      'notifications/message',
      'notifications/progress',
      'notifications/message',
      'notifications/progress',
      'notifications/message',
    ]);
    expect(sent[3]).toEqual({
      method: 'notifications/progress',
      params: { progress: 1_000, total: 1_000, progressToken: 't' },
    });
    expect(sent[4]).toMatchObject({ params: { level: 'warning', logger: 'tool-search' } });
    // 1,000 logs and 1,000 progress notifications: 2 logs, 1 progress in the burst, the latest progress at the end.
    expect(String((sent[4]!.params as { data: string }).data)).toMatch(/^1996 /);
  });

  it('sends no progress for a call without a token, and no closing line when nothing was held back', async () => {
    const { call, sent } = notices(10);
    call.progress({ progress: 1 });
    call.log({ level: 'info', data: 'one' });
    await call.flush();
    expect(sent).toEqual([{ method: 'notifications/message', params: { level: 'info', data: 'one' } }]);
  });
});
