// The public surface of @tool-search/approval-rules: named exports only.
export { setCallApprovalRule, callApprovalReason, grantCallApproval, takeCallApproval } from './rules.js';
export type { CallApprovalRule } from './rules.js';
export { ApprovalRulesErrors } from './errors.js';
