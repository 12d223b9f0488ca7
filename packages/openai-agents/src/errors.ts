import { defineErrors } from '@tool-search/kernel/errors';

/** Codes `@tool-search/openai-agents` raises (the rest are the kernel's: `MODE_UNKNOWN`, `OPTIONS_INVALID`, call outcomes). */
export const OpenAIAgentsErrors = defineErrors('@tool-search/openai-agents', {
  AGENTS_TOOL_NAME_TAKEN:
    'A catalog tool has the name the deferred mode gives its search tool; pass another searchToolName.',
});
