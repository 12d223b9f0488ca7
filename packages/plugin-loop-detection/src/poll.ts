/**
 * Which calls are polls: repeating them is expected, so they are judged by
 * `knownPollNoProgress` instead of `genericRepeat`. A source says so with
 * `meta.pollLike` (declaration merged below); otherwise the `pollLike` option
 * may claim a tool, and last a word of the tool name or of an `action`
 * argument is one of POLL_WORDS.
 */
import type { ToolDescriptor } from '@tool-search/kernel';

declare module '@tool-search/kernel' {
  interface ToolMeta {
    /** The tool is polled (status, progress, logs): judged by `knownPollNoProgress`. */
    pollLike?: boolean;
  }
}

export type PollLikeFn = (tool: ToolDescriptor) => boolean;

/** Words that mark a poll in a tool name (`job_status`, `pollBuild`, `tail-logs`) or an `action` argument. */
export const POLL_WORDS: readonly string[] = Object.freeze([
  'status',
  'poll',
  'log',
  'logs',
  'tail',
  'progress',
  'wait',
]);

export function isPollLike(
  tool: ToolDescriptor,
  args: Readonly<Record<string, unknown>>,
  option?: PollLikeFn,
): boolean {
  if (typeof tool.meta?.pollLike === 'boolean') return tool.meta.pollLike;
  if (option?.(tool)) return true;
  if (hasPollWord(tool.name)) return true;
  return typeof args.action === 'string' && hasPollWord(args.action);
}

function hasPollWord(text: string): boolean {
  const words = text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  return words.some((word) => POLL_WORDS.includes(word));
}
