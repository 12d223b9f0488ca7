import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { createRecorder, DEFAULT_RECORD_LIMITS, startMockOpenAI } from '@tool-search/mock-openai';

const ask = (client: OpenAI, content: string) =>
  client.chat.completions.create({ model: 'mock-tool-search', messages: [{ role: 'user', content }] });

describe('bounded recording (a long load test runs in constant memory)', () => {
  it('keeps only the newest maxRequests, in order, and counts all', async () => {
    const mock = await startMockOpenAI({ record: { maxRequests: 5 } });
    try {
      const client = new OpenAI({ baseURL: mock.url, apiKey: 'k', maxRetries: 0 });
      for (let i = 0; i < 40; i++) await ask(client, `hello ${i}`);
      // concurrent clients too
      await Promise.all(Array.from({ length: 20 }, (_, i) => ask(client, `burst ${i}`)));
      await ask(client, 'last one');
      expect(mock.received).toBe(61);
      expect(mock.requests).toHaveLength(5);
      expect(JSON.stringify(mock.requests.at(-1)?.body)).toContain('last one');
    } finally {
      await mock.close();
    }
  });

  it('drops the oldest bodies once the kept bytes pass maxBytes', async () => {
    const mock = await startMockOpenAI({ record: { maxBytes: 200_000 } });
    try {
      const client = new OpenAI({ baseURL: mock.url, apiKey: 'k', maxRetries: 0 });
      const big = 'x'.repeat(50_000);
      for (let i = 0; i < 12; i++) await ask(client, `${i} ${big}`);
      const kept = mock.requests.reduce((sum, r) => sum + Buffer.byteLength(r.raw), 0);
      expect(kept).toBeLessThanOrEqual(200_000);
      expect(mock.requests.length).toBeGreaterThanOrEqual(3);
      expect(JSON.stringify(mock.requests.at(-1)?.body)).toContain(`11 ${big.slice(0, 10)}`);
      expect(mock.received).toBe(12);
    } finally {
      await mock.close();
    }
  });

  it('maxRequests 0 keeps nothing but still answers', async () => {
    const mock = await startMockOpenAI({ record: { maxRequests: 0 } });
    try {
      const client = new OpenAI({ baseURL: mock.url, apiKey: 'k', maxRetries: 0 });
      const res = await ask(client, 'hi');
      expect(res.choices[0]?.message.content).toBeTruthy();
      expect(mock.requests).toHaveLength(0);
      expect(mock.received).toBe(1);
    } finally {
      await mock.close();
    }
  });

  it('is bounded by default and rejects nonsense limits', () => {
    const recorder = createRecorder();
    const raw = 'y'.repeat(10);
    for (let i = 0; i < DEFAULT_RECORD_LIMITS.maxRequests + 50; i++)
      recorder.push({ method: 'POST', path: '/v1/chat/completions', headers: {}, raw, body: i });
    expect(recorder.requests).toHaveLength(DEFAULT_RECORD_LIMITS.maxRequests);
    expect(recorder.requests[0]?.body).toBe(50);
    expect(() => createRecorder({ maxRequests: -1 })).toThrow(RangeError);
    expect(() => createRecorder({ maxBytes: 1.5 })).toThrow(/whole number/);
  });
});
