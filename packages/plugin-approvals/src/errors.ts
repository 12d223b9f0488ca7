/** The codes `@tool-search/plugin-approvals` raises (`STATE_UNAVAILABLE` is `@tool-search/state`'s, `APPROVAL_REQUIRED` `@tool-search/approval-rules`'). */
import { defineErrors } from '@tool-search/kernel/errors';

export const ApprovalsErrors = defineErrors('@tool-search/plugin-approvals', {
  APPROVALS_QUEUE_FULL:
    'Too many approvals are pending (in all, or for this session): the new call is denied at once instead of pushing others out; `details.limit`, `details.scope` (`total` or `session`).',
  APPROVAL_ANSWER_INVALID: "An approval answer is not 'allow' or 'deny' (`ApprovalQueue#answer`); nothing was decided.",
});
