/**
 * The previous request of each session, kept as hashes, so the ledger can say
 * how many bytes at the start of a turn's first request are identical to the
 * previous turn's last one (what a provider's prompt cache can reuse) without
 * holding every conversation. A body is cut into 256-byte blocks; the hash
 * after each block is chained (it covers every byte before it), so the first
 * block whose hash differs ends the identical prefix, counted in whole blocks.
 * Bounded: at most `blocks` per body (the rest is not compared), `totalBlocks`
 * and `sessions` in all (the least recently used session goes first).
 */
import type { Kernel } from '@tool-search/kernel';

/** Identical prefixes are counted in whole blocks of this many bytes. */
export const PREFIX_BLOCK = 256;

export interface PrefixCacheLimits {
  /** Sessions remembered (default 4,096). */
  readonly sessions?: number;
  /** Blocks hashed per body (default 16,384: the first 4 MiB). */
  readonly blocks?: number;
  /** Blocks remembered over all sessions (default 1,048,576: 8 MiB of hashes). */
  readonly totalBlocks?: number;
}

export class PrefixCache {
  /** Per session, two 32-bit hashes per block; Map order is least recently used first. */
  private readonly bySession = new Map<string, Uint32Array>();
  private stored = 0;
  private readonly limits: Required<PrefixCacheLimits>;

  constructor(limits: PrefixCacheLimits = {}) {
    this.limits = { sessions: 4096, blocks: 16_384, totalBlocks: 1_048_576, ...limits };
  }

  /** Bytes at the start of `body` identical to the session's previous request (0 for none); `body` becomes the previous. */
  compare(session: string, body: string): number {
    const hashes = chainedHashes(Buffer.from(body), this.limits.blocks);
    const previous = this.bySession.get(session);
    this.forget(session);
    this.bySession.set(session, hashes);
    this.stored += hashes.length / 2;
    while (this.bySession.size > this.limits.sessions || this.stored > this.limits.totalBlocks)
      this.forget(this.bySession.keys().next().value!);
    return previous ? sharedBlocks(previous, hashes) * PREFIX_BLOCK : 0;
  }

  private forget(session: string): void {
    const hashes = this.bySession.get(session);
    if (!hashes) return;
    this.stored -= hashes.length / 2;
    this.bySession.delete(session);
  }
}

const caches = new WeakMap<Kernel, PrefixCache>();

/** The kernel's prefix cache (one per gateway kernel, like its session fingerprints). */
export function prefixCacheOf(kernel: Kernel): PrefixCache {
  let cache = caches.get(kernel);
  if (!cache) caches.set(kernel, (cache = new PrefixCache()));
  return cache;
}

/** The chained hashes after each whole block (FNV-1a and a multiply-xorshift: 64 bits together). */
function chainedHashes(bytes: Buffer, maxBlocks: number): Uint32Array {
  const blocks = Math.min(maxBlocks, Math.floor(bytes.length / PREFIX_BLOCK));
  const out = new Uint32Array(blocks * 2);
  let a = 0x811c9dc5;
  let b = 0x9e3779b9;
  for (let block = 0; block < blocks; block++) {
    for (let i = block * PREFIX_BLOCK, end = i + PREFIX_BLOCK; i < end; i++) {
      const byte = bytes[i]!;
      a = Math.imul(a ^ byte, 0x01000193);
      b = Math.imul(b ^ byte, 0x85ebca6b);
      b ^= b >>> 13;
    }
    out[block * 2] = a;
    out[block * 2 + 1] = b;
  }
  return out;
}

function sharedBlocks(a: Uint32Array, b: Uint32Array): number {
  const blocks = Math.min(a.length, b.length) / 2;
  let i = 0;
  while (i < blocks && a[i * 2] === b[i * 2] && a[i * 2 + 1] === b[i * 2 + 1]) i++;
  return i;
}
