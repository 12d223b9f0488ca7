/**
 * What a mock keeps of the requests it received: the newest ones, bounded by
 * count and by body bytes, so a long load test (`--provider-mode mock-openai`)
 * runs in constant memory. The array stays live and ordered; the oldest
 * entries are dropped first. `received` counts everything ever received.
 */
import type { RecordedRequest } from './types.js';

export interface RecordLimits {
  /** Most requests kept; default 1,000. `0` keeps none (counting only). */
  readonly maxRequests?: number;
  /** Most body bytes (`raw`, UTF-8) kept over all kept requests; default 64 MiB. */
  readonly maxBytes?: number;
}

export const DEFAULT_RECORD_LIMITS = { maxRequests: 1_000, maxBytes: 64 * 1024 * 1024 } as const;

export interface Recorder {
  readonly requests: RecordedRequest[];
  /** How many requests were received in all, kept or not. */
  readonly received: number;
  push(request: RecordedRequest): void;
}

export function createRecorder(limits: RecordLimits = {}): Recorder {
  const maxRequests = limit(limits.maxRequests, DEFAULT_RECORD_LIMITS.maxRequests, 'maxRequests');
  const maxBytes = limit(limits.maxBytes, DEFAULT_RECORD_LIMITS.maxBytes, 'maxBytes');
  const requests: RecordedRequest[] = [];
  const sizes: number[] = [];
  let bytes = 0;
  let received = 0;
  return {
    requests,
    get received() {
      return received;
    },
    push(request) {
      received++;
      const size = Buffer.byteLength(request.raw);
      requests.push(request);
      sizes.push(size);
      bytes += size;
      let drop = 0;
      while (requests.length - drop > maxRequests || (bytes > maxBytes && drop < requests.length)) {
        bytes -= sizes[drop]!;
        drop++;
      }
      if (drop > 0) {
        requests.splice(0, drop);
        sizes.splice(0, drop);
      }
    },
  };
}

function limit(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0)
    throw new RangeError(`record.${name} must be a whole number ≥ 0, got ${String(value)}`);
  return value;
}
