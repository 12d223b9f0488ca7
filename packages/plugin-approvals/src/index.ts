// The public surface of @tool-search/plugin-approvals: named exports only.
export { approvalsPlugin, PLUGIN_NAME } from './plugin.js';
export type { ApprovalsPluginOptions } from './plugin.js';
export {
  ApprovalQueue,
  DEFAULT_MAX_PENDING,
  DEFAULT_MAX_PENDING_PER_SESSION,
  type AnswerScope,
  type ApprovalQueueOptions,
} from './queue.js';
export { ApprovalsErrors } from './errors.js';
export { SharedApprovalQueue, type SharedApprovalQueueOptions } from './shared-queue.js';
export type { ApprovalQueueEvent, ApprovalQueueListener, PendingApproval } from './queue.js';
export { approvalsConfigSchema, resolveApprovalsConfig, DEFAULT_APPROVAL_TIMEOUT_MS } from './config.js';
export type { ApprovalsConfig, ResolvedApprovalsConfig } from './config.js';
export { approvalReason } from './match.js';
export type { ApprovalContext, ApprovalDecision, ApprovalRecord, ApprovalRequest, Approver } from './types.js';
