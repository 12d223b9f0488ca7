/** The error codes `@tool-search/policy` raises (the kernel's `ErrorCode` stays closed). */
import { defineErrors } from '@tool-search/kernel/errors';

export const PolicyErrors = defineErrors('@tool-search/policy', {
  POLICY_ALLOWLIST_IGNORED: 'An allowlist matched no known tool and was ignored.',
  TOOL_NAME_LOOKALIKE:
    'A listed tool name only looks like plain ASCII (invisible or confusable characters); deny entries also match its folded form.',
});
