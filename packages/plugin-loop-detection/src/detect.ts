/**
 * The detectors, as pure functions over one session's history (oldest
 * first, finished calls only) and the call about to run. Counts include the
 * call about to run, so `warningThreshold: 10` fires on the tenth identical
 * call. A changed result resets a count: only repetition without progress is
 * a loop.
 */
import type { LoopDetectionConfig } from './config.js';

export type LoopDetector = 'genericRepeat' | 'knownPollNoProgress' | 'pingPong';
/** `warning`: the call runs. `critical`: the call is blocked. `stop`: blocked, and the run is stopped. */
export type LoopLevel = 'warning' | 'critical' | 'stop';

export interface HistoryEntry {
  /** Tool id and argument hash: what makes two calls "the same call". */
  readonly key: string;
  readonly toolId: string;
  readonly name: string;
  readonly resultHash: string;
}

export interface PendingCall {
  readonly key: string;
  readonly toolId: string;
  readonly name: string;
  readonly pollLike: boolean;
}

export interface LoopFinding {
  readonly detector: LoopDetector;
  readonly level: LoopLevel;
  readonly count: number;
  /** For `pingPong`: the other tool of the pair. */
  readonly pairedName?: string;
}

export function detectLoop(
  history: readonly HistoryEntry[],
  call: PendingCall,
  config: LoopDetectionConfig,
): LoopFinding | undefined {
  const repeat: LoopDetector = call.pollLike ? 'knownPollNoProgress' : 'genericRepeat';
  const streak = noProgressStreak(history, call.key) + 1;
  const pingPong = config.detectors.pingPong ? pingPongRun(history, call.key) : undefined;
  const candidates: LoopFinding[] = [];
  const add = (detector: LoopDetector, count: number, enabled: boolean, pairedName?: string) => {
    // The circuit breaker is global: it applies even when the pattern's own detector is off.
    const level: LoopLevel | undefined =
      count >= config.globalCircuitBreakerThreshold
        ? 'stop'
        : !enabled
          ? undefined
          : count >= config.criticalThreshold
            ? 'critical'
            : count >= config.warningThreshold
              ? 'warning'
              : undefined;
    if (level) candidates.push({ detector, level, count, ...(pairedName ? { pairedName } : {}) });
  };
  add(repeat, streak, config.detectors[repeat]);
  if (pingPong) add('pingPong', pingPong.count, true, pingPong.pairedName);
  return candidates.sort((a, b) => RANK[b.level] - RANK[a.level])[0];
}

const RANK: Record<LoopLevel, number> = { warning: 1, critical: 2, stop: 3 };

/** How many of the latest calls with `key` returned the same result as the newest one. */
export function noProgressStreak(history: readonly HistoryEntry[], key: string): number {
  let count = 0;
  let hash: string | undefined;
  for (let i = history.length - 1; i >= 0; i--) {
    const entry = history[i]!;
    if (entry.key !== key) continue;
    hash ??= entry.resultHash;
    if (entry.resultHash !== hash) break;
    count++;
  }
  return count;
}

/**
 * The length of the A/B/A/B tail that the call `key` (A) would extend, with
 * every A returning the same result and every B returning the same result.
 * Undefined unless A already appears in the tail (`A, B, then A` at least).
 */
export function pingPongRun(
  history: readonly HistoryEntry[],
  key: string,
): { count: number; pairedName: string } | undefined {
  const last = history[history.length - 1];
  if (!last || last.key === key) return undefined;
  const hashes = new Map<string, string>();
  let count = 0;
  for (let i = history.length - 1; i >= 0; i--) {
    const entry = history[i]!;
    const expected = count % 2 === 0 ? last.key : key;
    if (entry.key !== expected) break;
    const hash = hashes.get(entry.key);
    if (hash === undefined) hashes.set(entry.key, entry.resultHash);
    else if (hash !== entry.resultHash) break;
    count++;
  }
  return count >= 2 ? { count: count + 1, pairedName: last.name } : undefined;
}
