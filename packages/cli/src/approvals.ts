/**
 * Approvals from the CLI: a y/N prompt when stdin is a terminal. Without a
 * terminal nobody can answer, so the preset's default (deny) applies.
 */
import { createInterface } from 'node:readline';
import type { ApprovalContext, ApprovalDecision, ApprovalRequest, Approver } from '@tool-search/plugin-approvals';
import type { CliIO } from './io.js';

/** The prompt approver, or `undefined` (deny) when stdin is not a TTY. */
export function promptApprover(io: CliIO): Approver | undefined {
  const stdin = io.stdin;
  if (!stdin?.isTTY) return undefined;
  // One question at a time: parallel calls (code mode) must not interleave prompts.
  let queue: Promise<unknown> = Promise.resolve();
  return (request, context) => {
    const answer = queue.then(() => ask(stdin, io, request, context));
    queue = answer.catch(() => undefined); // the caller gets the failure through `answer`; the queue only orders the prompts
    return answer;
  };
}

export function approvalPrompt(request: ApprovalRequest): string {
  return `Allow ${request.name} (${request.toolId}) with ${JSON.stringify(request.args)}? [y/N] `;
}

function ask(
  stdin: NodeJS.ReadableStream,
  io: CliIO,
  request: ApprovalRequest,
  { signal }: ApprovalContext,
): Promise<ApprovalDecision> {
  if (signal.aborted) return Promise.resolve('deny');
  return new Promise((resolve) => {
    const rl = createInterface({ input: stdin, terminal: false });
    let done = false;
    const finish = (decision: ApprovalDecision) => {
      if (done) return;
      done = true;
      signal.removeEventListener('abort', onAbort);
      rl.close();
      resolve(decision);
    };
    const onAbort = () => {
      io.stderr.write('\n(no answer in time: denied)\n');
      finish('deny');
    };
    signal.addEventListener('abort', onAbort, { once: true });
    rl.once('line', (line) => finish(/^\s*y(es)?\s*$/i.test(line) ? 'allow' : 'deny'));
    rl.once('close', () => finish('deny'));
    io.stderr.write(approvalPrompt(request));
  });
}
