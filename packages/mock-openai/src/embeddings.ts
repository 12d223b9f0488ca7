/**
 * `POST /v1/embeddings` for tests: deterministic vectors in OpenAI's wire
 * format (`{ object: 'list', data: [{ object: 'embedding', index, embedding }],
 * model, usage }`), floats or base64 (`encoding_format`, which the official
 * client sets to base64 by default). A vector is feature hashing of the
 * text's words (lowercased, identifiers split, a plural or -ing/-ed ending
 * dropped) and its character trigrams, L2-normalized: the same text always
 * gets the same vector, and texts that share words are close. No model, no
 * network: a stand-in for a hosted embedder, not a semantic one.
 */
export const EMBEDDING_DIMENSIONS = 256;

export interface EmbeddingRequest {
  readonly input: string | readonly string[];
  readonly model?: string;
  readonly encoding_format?: 'float' | 'base64';
  readonly dimensions?: number;
}

export function isEmbeddingRequest(body: unknown): body is EmbeddingRequest {
  if (typeof body !== 'object' || body === null) return false;
  const input = (body as { input?: unknown }).input;
  return (
    typeof input === 'string' ||
    (Array.isArray(input) && input.length > 0 && input.every((item) => typeof item === 'string'))
  );
}

export function embeddingResponse(request: EmbeddingRequest, model: string) {
  const inputs = typeof request.input === 'string' ? [request.input] : request.input;
  const dimensions =
    Number.isInteger(request.dimensions) && request.dimensions! > 0 && request.dimensions! <= 4096
      ? request.dimensions!
      : EMBEDDING_DIMENSIONS;
  const tokens = inputs.reduce((sum, text) => sum + words(text).length, 0);
  return {
    object: 'list',
    data: inputs.map((text, index) => {
      const vector = embed(text, dimensions);
      return {
        object: 'embedding',
        index,
        embedding:
          request.encoding_format === 'base64'
            ? Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64')
            : [...vector],
      };
    }),
    model,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
}

/** The deterministic vector of `text` (exported for tests that check what the server sent). */
export function embed(text: string, dimensions = EMBEDDING_DIMENSIONS): Float32Array {
  const vector = new Float32Array(dimensions);
  const add = (feature: string, weight: number): void => {
    const hash = fnv1a(feature);
    vector[hash % dimensions]! += hash & 0x80000000 ? -weight : weight;
  };
  for (const word of words(text)) {
    add(`w:${word}`, 1);
    const padded = `^${word}$`;
    for (let i = 0; i + 3 <= padded.length; i++) add(`t:${padded.slice(i, i + 3)}`, 0.25);
  }
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < dimensions; i++) vector[i]! /= norm;
  return vector;
}

function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 1)
    .map((word) => word.replace(/(ies|es|s|ing|ed)$/u, '') || word);
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}
