import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embed, EMBEDDING_DIMENSIONS, startMockOpenAI, type MockOpenAI } from '@tool-search/mock-openai';

let mock: MockOpenAI;
let client: OpenAI;

beforeAll(async () => {
  mock = await startMockOpenAI();
  client = new OpenAI({ baseURL: mock.url, apiKey: 'test-key', maxRetries: 0 });
});
afterAll(() => mock.close());

const cosine = (a: readonly number[], b: readonly number[]) => a.reduce((sum, value, i) => sum + value * b[i]!, 0);

describe('mock /v1/embeddings (official client over HTTP)', () => {
  it('answers a batch with one unit vector per input, in order, deterministically', async () => {
    const input = ['read a file from disk', 'Read the contents of a file', 'post a message to slack'];
    const first = await client.embeddings.create({ model: 'mock-embedding', input });
    const again = await client.embeddings.create({ model: 'mock-embedding', input });
    expect(first.data.map((d) => d.index)).toEqual([0, 1, 2]);
    expect(first.data.map((d) => d.embedding)).toEqual(again.data.map((d) => d.embedding));
    for (const { embedding } of first.data) {
      expect(embedding).toHaveLength(EMBEDDING_DIMENSIONS);
      expect(cosine(embedding, embedding)).toBeCloseTo(1, 5);
    }
    const [read, contents, slack] = first.data.map((d) => d.embedding);
    expect(cosine(read!, contents!)).toBeGreaterThan(cosine(read!, slack!));
    expect(first.usage.total_tokens).toBeGreaterThan(0);
  });

  it('decodes to the same vector in float and base64 encodings', async () => {
    const floats = await client.embeddings.create({ model: 'm', input: 'weather in Oslo', encoding_format: 'float' });
    const base64 = await client.embeddings.create({ model: 'm', input: 'weather in Oslo' });
    expect(base64.data[0]!.embedding).toEqual(floats.data[0]!.embedding);
    expect(floats.data[0]!.embedding).toEqual([...embed('weather in Oslo')]);
  });

  it('honours dimensions and refuses a body without input', async () => {
    expect((await client.embeddings.create({ model: 'm', input: 'x y', dimensions: 64 })).data[0]!.embedding).toHaveLength(64);
    await expect(client.embeddings.create({ model: 'm', input: [] as string[] })).rejects.toMatchObject({ status: 400 });
  });

  it('fails on demand (embeddings.failStatus) for fallback tests', async () => {
    const failing = await startMockOpenAI({ embeddings: { failStatus: 503 } });
    try {
      const broken = new OpenAI({ baseURL: failing.url, apiKey: 'k', maxRetries: 0 });
      await expect(broken.embeddings.create({ model: 'm', input: 'x' })).rejects.toMatchObject({ status: 503 });
    } finally {
      await failing.close();
    }
  });
});
