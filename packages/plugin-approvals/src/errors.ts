/** Codes @tool-search/plugin-approvals raises beyond the kernel's own (APPROVAL_ANSWER_INVALID, STATE_UNAVAILABLE). */
import { defineErrors } from '@tool-search/kernel';

export const ApprovalsErrors = defineErrors('@tool-search/plugin-approvals', {
  APPROVALS_QUEUE_FULL:
    'Too many approvals are pending (in all, or for this session): the new call is denied at once instead of pushing others out; `details.limit`, `details.scope` (`total` or `session`).',
});
