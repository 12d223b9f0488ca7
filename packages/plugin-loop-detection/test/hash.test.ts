import { describe, expect, it } from 'vitest';
import type { ToolCallOutcome, ToolResult } from '@tool-search/kernel';
import { hashArgs, hashOutcome, isVolatileKey } from '../src/index.js';

const ok = (result: ToolResult): ToolCallOutcome => ({ status: 'ok', callId: 'c', toolId: 't', result });
const text = (value: string) => ok({ content: [{ type: 'text', text: value }] });

describe('hashArgs', () => {
  it('is the same for the same arguments in any key order, at any depth', () => {
    expect(hashArgs({ a: 1, b: { x: 1, y: [1, 2] } })).toBe(hashArgs({ b: { y: [1, 2], x: 1 }, a: 1 }));
  });

  it('differs when a value differs', () => {
    expect(hashArgs({ a: 1 })).not.toBe(hashArgs({ a: 2 }));
  });
});

describe('isVolatileKey', () => {
  it.each([
    'time',
    'startTime',
    'timestamp',
    'updated_at',
    'createdAt',
    'date',
    'duration',
    'durationMs',
    'elapsed_ms',
    'pid',
    'messageId',
    'request_id',
    'traceId',
  ])('treats %s as volatile', (key) => expect(isVolatileKey(key)).toBe(true));

  it.each(['id', 'jobId', 'valid', 'update', 'candidate', 'format', 'status', 'progress', 'count'])('keeps %s', (key) =>
    expect(isVolatileKey(key)).toBe(false),
  );
});

describe('hashOutcome', () => {
  it('ignores ISO dates, clock times, epoch numbers, durations, pids and UUIDs in text', () => {
    const a = text(
      'at 2026-11-29T23:50:17.123Z (23:50:17) epoch 1764460217 took 12ms pid 4242 req 6f1c2d3e-1111-4a2b-8c3d-0123456789ab',
    );
    const b = text(
      'at 2026-11-30T01:02:03Z (01:02:03) epoch 1764460999123 took 3.5 s pid=77 req 0a1b2c3d-2222-4a2b-8c3d-ba9876543210',
    );
    expect(hashOutcome(a)).toBe(hashOutcome(b));
  });

  it('keeps plain numbers: progress is progress', () => {
    expect(hashOutcome(text('42% done'))).not.toBe(hashOutcome(text('43% done')));
  });

  it('ignores volatile keys in structured content and in JSON text', () => {
    const first = ok({
      content: [{ type: 'text', text: '{"state":"running","checkedAt":"x1"}' }],
      structuredContent: { state: 'running', elapsedMs: 1 },
    });
    const second = ok({
      content: [{ type: 'text', text: '{"checkedAt":"x2","state":"running"}' }],
      structuredContent: { elapsedMs: 9, state: 'running' },
    });
    expect(hashOutcome(first)).toBe(hashOutcome(second));
  });

  it('separates a result from an error result with the same text', () => {
    expect(hashOutcome(text('no'))).not.toBe(
      hashOutcome(ok({ content: [{ type: 'text', text: 'no' }], isError: true })),
    );
  });
});
