import { defineErrors } from '@tool-search/kernel/errors';

/** Codes `@tool-search/ai-sdk` raises (the rest are the kernel's: `MODE_UNKNOWN`, `OPTIONS_INVALID`, call outcomes). */
export const AiSdkErrors = defineErrors('@tool-search/ai-sdk', {
  AI_SDK_TOOL_NAME_TAKEN:
    'A catalog tool has the name the deferred mode gives its search tool; pass another searchToolName.',
});
