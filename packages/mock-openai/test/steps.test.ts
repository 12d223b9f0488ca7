import { describe, expect, it } from 'vitest';
import { planNextStep } from '@tool-search/mock-openai';
import { called, fn, request, result, user } from './fixtures.js';

const script = `tool search qa steps [{"tool":"read","args":{"path":"a.ts"}},{"tool":"exec","args":{"command":"sleep 9","background":true}},{"tool":"process","args":{"action":"poll","sessionId":"{{sessionId}}"},"repeat":2}]`;
const tools = [fn('read'), fn('exec'), fn('process')];

describe('planNextStep: steps scripts', () => {
  it('calls each step in order, one per response', () => {
    expect(planNextStep(request([user(script)], tools))).toMatchObject({
      kind: 'tool-call',
      lane: 'direct',
      name: 'read',
      args: { path: 'a.ts' },
    });
    const afterRead = [user(script), called('c1', 'read', {}), result('c1', 'const a = 1;')];
    expect(planNextStep(request(afterRead, tools))).toMatchObject({
      name: 'exec',
      args: { command: 'sleep 9', background: true },
    });
  });

  it('fills {{sessionId}} from an earlier result and repeats a step', () => {
    const turn = [
      user(script),
      called('c1', 'read', {}),
      result('c1', 'x'),
      called('c2', 'exec', {}),
      result('c2', '{"status":"running","sessionId":"s-123"}'),
    ];
    expect(planNextStep(request(turn, tools))).toMatchObject({
      name: 'process',
      args: { action: 'poll', sessionId: 's-123' },
    });
    const polled = [...turn, called('c3', 'process', {}), result('c3', 'still running')];
    expect(planNextStep(request(polled, tools))).toMatchObject({ name: 'process', args: { sessionId: 's-123' } });
    const done = [...polled, called('c4', 'process', {}), result('c4', 'blocked')];
    expect(planNextStep(request(done, tools))).toMatchObject({
      kind: 'answer',
      reason: 'done',
      text: expect.stringContaining('blocked'),
    });
  });

  it("answers when a step's tool is not offered", () => {
    expect(planNextStep(request([user(script)], [fn('exec')]))).toMatchObject({
      kind: 'answer',
      reason: 'unreachable',
    });
  });
});
