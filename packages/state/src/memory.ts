/**
 * The in-process store (the default: nothing to start). Values, counter
 * groups, lists and indexes live in one Map with an expiry each, checked on
 * read; the Map itself is bounded (the oldest-written key goes first), so
 * keys that are never read again cannot pile up. `asReplica` gives another
 * replica's view of the same data, for tests of replicated behaviour in one
 * process.
 */
import { randomUUID } from 'node:crypto';
import type { BoundOptions, SetOptions, StateListener, StateStore } from './types.js';

export interface MemoryStateOptions {
  readonly replicaId?: string;
  /** Keys kept in all (default 100,000). */
  readonly maxKeys?: number;
  readonly now?: () => number;
}

type Value =
  | { kind: 'string'; value: string }
  | { kind: 'counters'; value: Map<string, number> }
  | { kind: 'list'; value: string[] }
  | { kind: 'index'; value: Map<string, number> };

interface Slot {
  entry: Value;
  expiresAt: number;
}

interface Shared {
  readonly slots: Map<string, Slot>;
  readonly channels: Map<string, Set<StateListener>>;
  readonly maxKeys: number;
  readonly now: () => number;
}

export class MemoryStateStore implements StateStore {
  readonly kind = 'memory' as const;
  readonly replicaId: string;
  readonly #shared: Shared;

  constructor(options: MemoryStateOptions = {}, shared?: Shared) {
    this.replicaId = options.replicaId ?? randomUUID().slice(0, 8);
    this.#shared = shared ?? {
      slots: new Map(),
      channels: new Map(),
      maxKeys: options.maxKeys ?? 100_000,
      now: options.now ?? Date.now,
    };
  }

  /** Another replica's view of the same data and channels. */
  asReplica(replicaId: string): MemoryStateStore {
    return new MemoryStateStore({ replicaId }, this.#shared);
  }

  /** Keys held now, expired ones not yet swept included (memory accounting in tests and benchmarks). */
  get size(): number {
    return this.#shared.slots.size;
  }

  async get(key: string): Promise<string | undefined> {
    const entry = this.#read(key, 'string');
    return entry?.value;
  }

  async set(key: string, value: string, options: SetOptions): Promise<boolean> {
    if (options.ifAbsent && this.#live(key)) return false;
    this.#write(key, { kind: 'string', value }, options.ttlMs);
    return true;
  }

  async take(key: string): Promise<string | undefined> {
    const entry = this.#read(key, 'string');
    if (entry) this.#shared.slots.delete(key);
    return entry?.value;
  }

  async delete(key: string): Promise<boolean> {
    const existed = this.#live(key) !== undefined;
    this.#shared.slots.delete(key);
    return existed;
  }

  async touch(key: string, ttlMs: number): Promise<boolean> {
    const slot = this.#live(key);
    if (slot) slot.expiresAt = this.#shared.now() + ttlMs;
    return slot !== undefined;
  }

  async increment(key: string, field: string, by: number, ttlMs: number): Promise<number> {
    const counters = this.#read(key, 'counters')?.value ?? new Map<string, number>();
    const next = (counters.get(field) ?? 0) + by;
    counters.set(field, next);
    this.#write(key, { kind: 'counters', value: counters }, ttlMs);
    return next;
  }

  async counters(key: string): Promise<Record<string, number>> {
    return Object.fromEntries(this.#read(key, 'counters')?.value ?? []);
  }

  async append(key: string, values: readonly string[], options: BoundOptions): Promise<number> {
    const list = this.#read(key, 'list')?.value ?? [];
    list.push(...values);
    if (list.length > options.max) list.splice(0, list.length - options.max);
    this.#write(key, { kind: 'list', value: list }, options.ttlMs);
    return list.length;
  }

  async range(key: string, limit?: number): Promise<string[]> {
    const list = this.#read(key, 'list')?.value ?? [];
    return limit === undefined ? [...list] : list.slice(Math.max(0, list.length - limit));
  }

  async index(key: string, member: string, score: number, options: BoundOptions): Promise<void> {
    const index = this.#read(key, 'index')?.value ?? new Map<string, number>();
    index.set(member, score);
    // Past the bound by one (the usual case: one new member), drop the lowest with a scan, not a sort per insert.
    while (index.size > options.max) index.delete(lowestMember(index));
    this.#write(key, { kind: 'index', value: index }, options.ttlMs);
  }

  async members(key: string, limit?: number): Promise<string[]> {
    const sorted = [...(this.#read(key, 'index')?.value ?? [])].sort((a, b) => b[1] - a[1]).map(([member]) => member);
    return limit === undefined ? sorted : sorted.slice(0, limit);
  }

  async unindex(key: string, member: string): Promise<void> {
    this.#read(key, 'index')?.value.delete(member);
  }

  async publish(channel: string, message: string): Promise<void> {
    // Delivered on a later tick, as a network round trip would be: a publisher never runs listeners inside its own call.
    for (const listener of [...(this.#shared.channels.get(channel) ?? [])]) queueMicrotask(() => listener(message));
  }

  async subscribe(channel: string, listener: StateListener): Promise<() => Promise<void>> {
    const listeners = this.#shared.channels.get(channel) ?? new Set<StateListener>();
    this.#shared.channels.set(channel, listeners);
    // One entry per subscription, so subscribing one function twice needs two unsubscribes.
    const own: StateListener = (message) => listener(message);
    listeners.add(own);
    return async () => {
      listeners.delete(own);
      if (!listeners.size) this.#shared.channels.delete(channel);
    };
  }

  async ping(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {}

  #live(key: string): Slot | undefined {
    const slot = this.#shared.slots.get(key);
    if (!slot) return undefined;
    if (slot.expiresAt > this.#shared.now()) return slot;
    this.#shared.slots.delete(key);
    return undefined;
  }

  #read<K extends Value['kind']>(key: string, kind: K): Extract<Value, { kind: K }> | undefined {
    const entry = this.#live(key)?.entry;
    return entry?.kind === kind ? (entry as Extract<Value, { kind: K }>) : undefined;
  }

  #write(key: string, entry: Value, ttlMs: number): void {
    const { slots, maxKeys, now } = this.#shared;
    slots.delete(key);
    slots.set(key, { entry, expiresAt: now() + ttlMs });
    while (slots.size > maxKeys) slots.delete(slots.keys().next().value as string);
  }
}

function lowestMember(index: Map<string, number>): string {
  let lowest: [string, number] | undefined;
  for (const entry of index) if (!lowest || entry[1] < lowest[1]) lowest = entry;
  return lowest![0];
}

/** Views of one new in-process store, one per replica id (tests of replicated behaviour in one process). */
export function memoryReplicas(replicaIds: readonly string[]): MemoryStateStore[] {
  const first = new MemoryStateStore({ replicaId: replicaIds[0] ?? 'a' });
  return replicaIds.map((replicaId, i) => (i === 0 ? first : first.asReplica(replicaId)));
}
