/**
 * Embeddings from an OpenAI-compatible `/v1/embeddings` endpoint through the
 * official `openai` client: one request per batch, floats asked for (local
 * servers such as Ollama and TEI do not all speak base64), a per-request
 * timeout and no retries (a slow embedder must not hold a search up; the
 * caller falls back to lexical ranking). The client loads on the first embedding,
 * so a deployment without an embedder (every CLI start) never loads `openai`.
 */
import type OpenAI from 'openai';
import type { EmbeddingsOptions } from './options.js';
import { DEFAULTS } from './options.js';

export interface Embedder {
  readonly model: string;
  /** One unit-length vector per text, in order. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

export function createEmbedder(options: EmbeddingsOptions): Embedder {
  let client: Promise<OpenAI> | undefined;
  const openai = () =>
    (client ??= import('openai').then(
      ({ default: OpenAIClient }) =>
        new OpenAIClient({
          baseURL: options.baseURL,
          // Local servers take any key; the client insists on one.
          apiKey: options.apiKey ?? process.env['OPENAI_API_KEY'] ?? 'no-key',
          timeout: options.timeoutMs ?? DEFAULTS.timeoutMs,
          maxRetries: 0,
        }),
    ));
  return {
    model: options.model,
    async embed(texts) {
      if (texts.length === 0) return [];
      const response = await (await openai()).embeddings.create({
        model: options.model,
        input: [...texts],
        encoding_format: 'float',
        ...(options.dimensions ? { dimensions: options.dimensions } : {}),
      });
      const vectors = new Array<Float32Array | undefined>(texts.length);
      for (const item of response.data) {
        if (
          Number.isInteger(item.index) &&
          item.index >= 0 &&
          item.index < texts.length &&
          Array.isArray(item.embedding)
        )
          vectors[item.index] = unit(item.embedding);
      }
      if (vectors.some((vector) => vector === undefined))
        throw new Error(`the embeddings response has ${response.data.length} vectors for ${texts.length} inputs`);
      const size = vectors[0]!.length;
      if (vectors.some((vector) => vector!.length !== size || size === 0))
        throw new Error('the embeddings response mixes vector sizes');
      return vectors as Float32Array[];
    },
  };
}

function unit(values: readonly number[]): Float32Array {
  const vector = Float32Array.from(values);
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i]! /= norm;
  return vector;
}
