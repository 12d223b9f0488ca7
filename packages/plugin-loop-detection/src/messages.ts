/**
 * What the model reads when a call is blocked: what was detected and what to
 * do instead. Warnings use the same text for logs.
 */
import type { LoopFinding } from './detect.js';

export function describeFinding(finding: LoopFinding, name: string): string {
  const pattern = {
    genericRepeat: `${name} was called ${finding.count} times with the same arguments and returned the same result each time`,
    knownPollNoProgress: `${name} was polled ${finding.count} times and its output did not change`,
    pingPong: `the last ${finding.count} calls alternated between ${name} and ${finding.pairedName ?? 'another tool'} and neither result changed`,
  }[finding.detector];
  const advice = {
    genericRepeat:
      'Do not repeat this call: use the result you already have, change the arguments, try another tool, or tell the user what is blocking you.',
    knownPollNoProgress: 'Stop polling: report the current state to the user, or do other work before checking again.',
    pingPong: 'Break the cycle: change your approach, or tell the user what is blocking you.',
  }[finding.detector];
  switch (finding.level) {
    case 'warning':
      return `Possible loop (${finding.detector}): ${pattern}.`;
    case 'critical':
      return `Loop detected (${finding.detector}): ${pattern}, so this call was blocked. ${advice}`;
    case 'stop':
      return `Loop detected (${finding.detector}): ${pattern}. The loop circuit breaker stopped this run: no further tool calls will run in it. Tell the user what you were trying to do and where it got stuck.`;
  }
}
