/** The error codes `@tool-search/search` raises (the kernel's `ErrorCode` stays closed). */
import { defineErrors } from '@tool-search/kernel/errors';

export const SearchErrors = defineErrors('@tool-search/search', {
  SEARCH_RERANK_FAILED: 'A search `rerank` tap threw: the ranking before it stood (`details.plugin` names the tap).',
});
