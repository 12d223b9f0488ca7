/**
 * Asks the approver once and turns every way that can go wrong into a deny:
 * a throw, an answer other than 'allow', no answer within the timeout, or the
 * call being cancelled. The approver's signal is aborted when its answer is no
 * longer wanted, so a queue can drop the entry.
 */
import { ToolSearchError, errorMessage } from '@tool-search/kernel';
import type { ApprovalRecord, ApprovalRequest, Approver } from './types.js';

export async function ask(
  approve: Approver,
  request: ApprovalRequest,
  timeoutMs: number,
  callSignal: AbortSignal,
): Promise<ApprovalRecord> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const expiresAt = new Date(Date.now() + timeoutMs).toISOString();
  const answered = (async (): Promise<ApprovalRecord> => {
    try {
      const decision: unknown = await approve(request, { signal: controller.signal, expiresAt });
      if (decision === 'allow' || decision === 'deny') return { request, decision, by: 'answer' };
      return {
        request,
        decision: 'deny',
        by: 'error',
        message: `the approver answered ${JSON.stringify(decision) ?? 'undefined'}`,
      };
    } catch (error) {
      // A coded failure (STATE_UNAVAILABLE: the shared queue's store is down) names its code in the denial.
      const code = ToolSearchError.isInstance(error) ? ` (${error.code})` : '';
      return { request, decision: 'deny', by: 'error', message: `the approver failed${code}: ${errorMessage(error)}` };
    }
  })();
  const timedOut = new Promise<ApprovalRecord>((resolve) => {
    timer = setTimeout(
      () => resolve({ request, decision: 'deny', by: 'timeout', message: `no answer within ${timeoutMs} ms` }),
      timeoutMs,
    );
  });
  const aborted = new Promise<ApprovalRecord>((resolve) => {
    onAbort = () =>
      resolve({
        request,
        decision: 'deny',
        by: 'aborted',
        message: 'the call was cancelled while waiting for approval',
      });
    if (callSignal.aborted) onAbort();
    else callSignal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([answered, timedOut, aborted]);
  } finally {
    clearTimeout(timer);
    if (onAbort) callSignal.removeEventListener('abort', onAbort);
    controller.abort();
  }
}
