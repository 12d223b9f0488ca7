/** The error codes `@tool-search/plugin-embeddings` raises (the kernel's `ErrorCode` stays closed). */
import { defineErrors } from '@tool-search/kernel/errors';

export const EmbeddingsErrors = defineErrors('@tool-search/plugin-embeddings', {
  EMBEDDINGS_UNAVAILABLE:
    'An embedder (OpenAI-compatible `/v1/embeddings`) failed, was slow or answered badly: search fell back to lexical ranking.',
});
