/** The error codes `@tool-search/approval-rules` raises (the kernel's `ErrorCode` stays closed). */
import { defineErrors } from '@tool-search/kernel/errors';

export const ApprovalRulesErrors = defineErrors('@tool-search/approval-rules', {
  APPROVAL_REQUIRED:
    'A call needs an approval (for example `exec` with `ask`) but no approvals plugin answered for it: denied.',
});
