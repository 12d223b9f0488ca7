import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@tool-search/kernel';
import { createTokenCounter, providerRequestEvent, telemetryPlugin } from '@tool-search/telemetry';
import { kernelWith, openAIBody } from './helpers.js';

describe('snapshot and options', () => {
  it('gives numbers per run and per session', async () => {
    const telemetry = telemetryPlugin({ tokenizer: false });
    const kernel = kernelWith(telemetry);
    const first = await kernel.createRun({ sessionId: 's' });
    await first.call('alpha', {});
    await first.close();
    const second = await kernel.createRun({ sessionId: 's' });
    await second.call('alpha', {});
    await second.call('files_read', {}, { origin: 'code' });
    await second.close();
    expect(telemetry.snapshot(first.info.runId)).toMatchObject({ scope: 'run', sessionId: 's', runs: 1, calls: 1 });
    expect(telemetry.snapshot('s')).toMatchObject({ scope: 'session', runs: 2, calls: 3 });
    expect(telemetry.snapshot('unknown')).toBeUndefined();
  });

  it('records per-tap beforeToolCall timing under the plugin name', async () => {
    const telemetry = telemetryPlugin({ tokenizer: false });
    const kernel = kernelWith(telemetry);
    const run = await kernel.createRun();
    await run.call('alpha', {});
    await run.call('beta', {});
    await run.close();
    expect(telemetry.snapshot(run.info.runId)?.taps['test-blocker']).toMatchObject({
      count: 2,
      totalMs: expect.any(Number),
    });
  });

  it('does not change call outcomes', async () => {
    const kernel = kernelWith(telemetryPlugin({ tokenizer: false }));
    const run = await kernel.createRun();
    expect(await run.call('beta', {})).toMatchObject({ status: 'blocked', by: 'test-blocker' });
    expect(await run.call('alpha', { q: 'x' })).toMatchObject({
      status: 'ok',
      result: { content: [{ text: 'FAKE_TOOL_OK alpha {"q":"x"}' }] },
    });
  });

  it('leaves tokens null when counting is off', async () => {
    const telemetry = telemetryPlugin({ tokenizer: false });
    const kernel = kernelWith(telemetry);
    const run = await kernel.createRun();
    run.emit(providerRequestEvent('direct', openAIBody));
    await run.close();
    expect(telemetry.entries(run.info.runId).find((entry) => entry.type === 'provider-request')).toMatchObject({
      tokens: null,
      tokenizer: null,
    });
    expect(telemetry.snapshot(run.info.runId)).toMatchObject({
      requests: 1,
      tokens: 0,
      requestBytes: Buffer.byteLength(openAIBody),
    });
  });

  it('counts tokens with o200k_base', async () => {
    const counter = createTokenCounter('o200k_base');
    expect(await counter.count('hello world')).toBe(2);
    expect(await counter.count('<|endoftext|>')).toBeGreaterThan(1);
    expect(await counter.count('')).toBe(0);
  });

  it('counts request tokens within a few tokens of the whole body', async () => {
    const telemetry = telemetryPlugin();
    const kernel = kernelWith(telemetry);
    const run = await kernel.createRun();
    run.emit(providerRequestEvent('tools', openAIBody));
    await run.close();
    const exact = await createTokenCounter('o200k_base').count(openAIBody);
    const counted = telemetry.snapshot(run.info.runId)!;
    expect(Math.abs(counted.tokens - exact)).toBeLessThanOrEqual(3);
    expect(counted.toolsTokens).toBe(
      await createTokenCounter('o200k_base').count(JSON.stringify(JSON.parse(openAIBody).tools)),
    );
  });

  it('refuses invalid options with OPTIONS_INVALID', () => {
    expect(() => telemetryPlugin({ tokenizer: 'cl100k' as never })).toThrowError(
      expect.objectContaining({ code: ErrorCode.OPTIONS_INVALID, path: 'tokenizer' }),
    );
    expect(() => telemetryPlugin({ sessionLog: {} as never })).toThrowError(
      expect.objectContaining({ code: ErrorCode.OPTIONS_INVALID, path: 'sessionLog' }),
    );
    expect(() => telemetryPlugin({ maxSessions: 0 })).toThrowError(
      expect.objectContaining({ code: ErrorCode.OPTIONS_INVALID }),
    );
  });

  it('measures an Anthropic body: top-level system and tool names', () => {
    const body = JSON.stringify({
      system: 'Be brief.',
      messages: [],
      tools: [{ name: 'tool_search', input_schema: {} }],
    });
    expect(providerRequestEvent('tools', body)).toMatchObject({
      systemBytes: 9,
      toolNames: ['tool_search'],
      requestBytes: Buffer.byteLength(body),
    });
  });
});
