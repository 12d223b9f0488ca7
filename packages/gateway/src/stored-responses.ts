/**
 * The Responses API's stored conversations (`previous_response_id`). With a
 * shared state store (Redis) each one is kept there, so the next turn may land
 * on any replica; an in-process LRU in front is only a cache (a miss reads the
 * store). A conversation larger than the bound stays on this replica, and the
 * store records which one, so another replica answers a coded error naming it.
 */
import { errorMessage, ToolSearchError } from '@tool-search/kernel';
import type { StateStore } from '@tool-search/state';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { GatewayErrors } from './errors.js';

export interface StoredResponse {
  readonly messages: readonly ChatCompletionMessageParam[];
  readonly sessionId: string;
}

export interface StoredResponsesOptions {
  /** The replicas' store; without one, or an in-process one, only the LRU keeps them. */
  readonly state?: StateStore;
  /** Responses cached in this process (default 256). */
  readonly cached?: number;
  /** How long the store keeps one (default 24 h). */
  readonly ttlMs?: number;
  /** Largest stored conversation in bytes of JSON (default 1 MiB); a larger one stays on this replica. */
  readonly maxBytes?: number;
  /** Where a failed store write is logged (the answer still goes out). */
  readonly log?: (line: string) => void;
}

export const STORED_RESPONSE_TTL_MS = 24 * 60 * 60_000;
export const STORED_RESPONSE_MAX_BYTES = 1024 * 1024;

/** Stored as `{ r: StoredResponse }`, or `{ replica }` when it stayed on that replica (too large). */
type Record_ = { readonly r: StoredResponse } | { readonly replica: string };

export class StoredResponses {
  private readonly lru = new Map<string, StoredResponse>();
  private readonly state: StateStore | undefined;

  constructor(private readonly options: StoredResponsesOptions = {}) {
    // An in-process store is this process anyway: the bounded LRU is the whole story there.
    this.state = options.state?.kind === 'memory' ? undefined : options.state;
  }

  /** The stored conversation; `RESPONSE_NOT_FOUND` (404) or `RESPONSE_ON_OTHER_REPLICA` (421) when it cannot be had here. */
  async get(id: string): Promise<StoredResponse> {
    const cached = this.lru.get(id);
    if (cached) return this.remember(id, cached);
    const record = await this.read(id);
    if (record && 'r' in record) return this.remember(id, record.r);
    if (record && record.replica !== this.state?.replicaId)
      throw new ToolSearchError(
        GatewayErrors.RESPONSE_ON_OTHER_REPLICA,
        `Stored response "${id}" is kept on replica "${record.replica}" (too large for the shared store); send this request to that replica`,
        { details: { path: '/previous_response_id', id, replica: record.replica } },
      );
    throw new ToolSearchError(
      GatewayErrors.RESPONSE_NOT_FOUND,
      `No stored response "${id}": it never existed, expired (kept ${this.keptFor()}) or was made by another gateway`,
      { details: { path: '/previous_response_id', id } },
    );
  }

  /** Keeps a conversation (in the store when shared; a failed write is logged, the LRU still has it). */
  async put(id: string, stored: StoredResponse): Promise<void> {
    this.remember(id, stored);
    if (!this.state) return;
    const json = JSON.stringify({ r: stored });
    const limit = this.options.maxBytes ?? STORED_RESPONSE_MAX_BYTES;
    const value = Buffer.byteLength(json) <= limit ? json : JSON.stringify({ replica: this.state.replicaId });
    try {
      await this.state.set(key(id), value, { ttlMs: this.options.ttlMs ?? STORED_RESPONSE_TTL_MS });
    } catch (error) {
      this.options.log?.(`gateway: stored response ${id} kept on this replica only: ${errorMessage(error)}`);
    }
  }

  private async read(id: string): Promise<Record_ | undefined> {
    if (!this.state) return undefined;
    const value = await this.state.get(key(id));
    return value === undefined ? undefined : (JSON.parse(value) as Record_);
  }

  private remember(id: string, stored: StoredResponse): StoredResponse {
    this.lru.delete(id);
    this.lru.set(id, stored);
    if (this.lru.size > (this.options.cached ?? 256)) this.lru.delete(this.lru.keys().next().value as string);
    return stored;
  }

  private keptFor(): string {
    return this.state
      ? `${Math.round((this.options.ttlMs ?? STORED_RESPONSE_TTL_MS) / 3_600_000)} h`
      : `the last ${this.options.cached ?? 256}`;
  }
}

/** Tenant-neutral: the store adds any prefix it is configured with. Response ids are the gateway's own (`resp_<hex>`). */
function key(id: string): string {
  return `gateway:response:${id}`;
}
