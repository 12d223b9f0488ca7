/**
 * Options of `embeddingsPlugin` and the JSON Schema that checks them (one
 * source for the type, the check and the README table).
 */
import { ConfigError, ErrorCode, valueIssues } from '@tool-search/kernel';

export interface EmbeddingsOptions {
  /** Base URL of an OpenAI-compatible API, up to `/v1` (OpenAI, Ollama, vLLM, LM Studio, TEI). */
  readonly baseURL: string;
  /** The embedding model, e.g. `text-embedding-3-small`, `nomic-embed-text`. */
  readonly model: string;
  /** API key; default `OPENAI_API_KEY` from the environment, else none (local servers). */
  readonly apiKey?: string;
  /** Vector size to ask for (models that support `dimensions`). */
  readonly dimensions?: number;
  /** Directory of the on-disk vector cache; default none (vectors live in memory only). */
  readonly cacheDir?: string;
  /** Descriptors per embeddings request when indexing. Default 64. */
  readonly batchSize?: number;
  /** Budget of one embeddings request; a slower answer falls back to lexical ranking. Default 2000 ms. */
  readonly timeoutMs?: number;
  /** How long a search waits for the catalog's vectors at the start of a run. Default 5000 ms. */
  readonly indexWaitMs?: number;
  /** Fusion of lexical and dense rankings: reciprocal rank fusion (default) or dense only (for comparison). */
  readonly fusion?: 'rrf' | 'dense';
  /** RRF constant `k` (score = Σ weight / (k + rank)). Default 60. */
  readonly rrfK?: number;
  /** Weight of the dense ranking in RRF (lexical weighs 1). Default 1. */
  readonly denseWeight?: number;
}

export const DEFAULTS = {
  batchSize: 64,
  timeoutMs: 2000,
  indexWaitMs: 5000,
  fusion: 'rrf',
  rrfK: 60,
  denseWeight: 1,
} as const;

const positive = { type: 'integer', minimum: 1 } as const;

export const embeddingsOptionsSchema = {
  type: 'object',
  required: ['baseURL', 'model'],
  additionalProperties: false,
  properties: {
    baseURL: { type: 'string', pattern: '^https?://' },
    model: { type: 'string', minLength: 1 },
    apiKey: { type: 'string' },
    dimensions: positive,
    cacheDir: { type: 'string', minLength: 1 },
    batchSize: { type: 'integer', minimum: 1, maximum: 2048 },
    timeoutMs: positive,
    indexWaitMs: { type: 'integer', minimum: 0 },
    fusion: { enum: ['rrf', 'dense'] },
    rrfK: { type: 'number', minimum: 0 },
    denseWeight: { type: 'number', minimum: 0 },
  },
} as const;

export const PLUGIN_NAME = '@tool-search/plugin-embeddings';

/** Checks options; throws a `ConfigError` (`OPTIONS_INVALID`) naming the path and the rule. */
export function parseEmbeddingsOptions(options: unknown): EmbeddingsOptions {
  const issues = valueIssues(embeddingsOptionsSchema, options);
  if (issues.length === 0) return options as EmbeddingsOptions;
  const first = issues[0]!;
  const path = first.path.split('/').filter(Boolean).join('.') || '(root)';
  throw new ConfigError(path, first.rule, `${PLUGIN_NAME} options are invalid at ${path}: ${first.message}`, {
    code: ErrorCode.OPTIONS_INVALID,
    plugin: PLUGIN_NAME,
    details: { issues },
  });
}
