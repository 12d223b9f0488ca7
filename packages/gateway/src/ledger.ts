/**
 * The whole-turn ledger: every provider request's bytes and tokens, their sum,
 * the discovery steps (search/describe calls and the requests spent on them),
 * and what the same turn would have cost in `direct` mode — computed, not sent:
 * the requests without the discovery ones, each with the direct tools and
 * system text instead of this mode's and without the discovery messages.
 * Tokens are counted by parts (tools and system once, each message once), so
 * a long turn costs linear work, not a recount of every body.
 */
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { messageJson } from './json-cache.js';

export type CountTokens = (text: string) => Promise<number>;

export interface LedgerRequest {
  readonly bytes: number;
  /**
   * Bytes at the start of this request's body identical to the previous request's (0 for the first): appending keeps
   * it at the whole earlier conversation, a change moves it back. Body order (both upstream formats put messages
   * before tools): the tools' own stability is the exposure fingerprint's (`exposure.changed`).
   */
  readonly prefix_bytes: number;
  readonly tokens: number | null;
  /** True when every tool call the model answered with was a search or describe. */
  readonly discovery: boolean;
  /** What the provider reported, when it did. */
  readonly provider_tokens?: { readonly input: number; readonly output: number };
}

export interface TurnLedger {
  readonly requests: readonly LedgerRequest[];
  /** `prefix_bytes`: the requests' cache-stable prefixes summed. */
  readonly total: { readonly bytes: number; readonly tokens: number | null; readonly prefix_bytes: number };
  readonly discovery: {
    readonly calls: number;
    readonly requests: number;
    readonly bytes: number;
    readonly tokens: number | null;
  };
  /** The same turn in `direct` mode; `computed: false` when the turn was sent in direct mode (the figures are the real ones). */
  readonly direct: {
    readonly requests: number;
    readonly bytes: number;
    readonly tokens: number | null;
    readonly computed: boolean;
  };
}

export interface LedgerParts {
  readonly toolsJson: string;
  readonly system: string;
}

interface Row {
  bytes: number;
  prefixBytes: number;
  tokens: number | null;
  discovery: boolean;
  providerTokens?: { input: number; output: number };
  /** Discovery message bytes/tokens in this request's body (what direct mode would not send). */
  discoveryBytes: number;
  discoveryTokens: number;
}

export class Ledger {
  private readonly rows: Row[] = [];
  private messageTokens = 0;
  private discoveryBytes = 0;
  private discoveryTokens = 0;
  private discoveryCalls = 0;
  private previousBody: string | undefined;

  private constructor(
    private readonly count: CountTokens | undefined,
    private readonly fixed: { bytes: number; tokens: number },
    private readonly direct: { bytes: number; tokens: number } | undefined,
  ) {}

  /** `direct` is undefined when the turn runs in direct mode (nothing to compute). */
  static async start(
    count: CountTokens | undefined,
    parts: LedgerParts,
    direct: LedgerParts | undefined,
  ): Promise<Ledger> {
    const measure = async (p: LedgerParts) => ({
      bytes: Buffer.byteLength(p.toolsJson) + Buffer.byteLength(p.system),
      tokens: count ? (await count(p.toolsJson)) + (await count(p.system)) : 0,
    });
    return new Ledger(count, await measure(parts), direct ? await measure(direct) : undefined);
  }

  /** Messages the turn added to the conversation (the client's, the model's, tool results). */
  async add(messages: readonly ChatCompletionMessageParam[], discovery = false): Promise<void> {
    for (const message of messages) {
      const text = messageJson(message);
      const tokens = this.count ? await this.count(text) : 0;
      this.messageTokens += tokens;
      if (discovery) {
        this.discoveryBytes += Buffer.byteLength(text);
        this.discoveryTokens += tokens;
      }
    }
  }

  /** One request as sent; returns its row for `settle`. */
  request(body: string): number {
    const prefixBytes =
      this.previousBody === undefined ? 0 : Buffer.byteLength(body.slice(0, commonPrefix(this.previousBody, body)));
    this.previousBody = body;
    this.rows.push({
      bytes: Buffer.byteLength(body),
      prefixBytes,
      tokens: this.count ? this.fixed.tokens + this.messageTokens : null,
      discovery: false,
      discoveryBytes: this.discoveryBytes,
      discoveryTokens: this.discoveryTokens,
    });
    return this.rows.length - 1;
  }

  /** What the reply to request `row` was: how many discovery calls, whether it was only discovery. */
  settle(row: number, discoveryCalls: number, onlyDiscovery: boolean, usage?: { input: number; output: number }): void {
    const entry = this.rows[row];
    if (!entry) return;
    this.discoveryCalls += discoveryCalls;
    entry.discovery = onlyDiscovery;
    if (usage) entry.providerTokens = usage;
  }

  toJSON(): TurnLedger {
    const counted = this.count !== undefined;
    const sum = (rows: readonly Row[], pick: (row: Row) => number) => rows.reduce((total, row) => total + pick(row), 0);
    const discovery = this.rows.filter((row) => row.discovery);
    const kept = this.rows.filter((row) => !row.discovery);
    const direct = this.direct;
    const directBytes = direct
      ? sum(kept, (row) => row.bytes - this.fixed.bytes + direct.bytes - row.discoveryBytes)
      : sum(this.rows, (row) => row.bytes);
    const directTokens = direct
      ? sum(kept, (row) => (row.tokens ?? 0) - this.fixed.tokens + direct.tokens - row.discoveryTokens)
      : sum(this.rows, (row) => row.tokens ?? 0);
    return {
      requests: this.rows.map((row) => ({
        bytes: row.bytes,
        prefix_bytes: row.prefixBytes,
        tokens: row.tokens,
        discovery: row.discovery,
        ...(row.providerTokens ? { provider_tokens: row.providerTokens } : {}),
      })),
      total: {
        bytes: sum(this.rows, (row) => row.bytes),
        tokens: counted ? sum(this.rows, (row) => row.tokens ?? 0) : null,
        prefix_bytes: sum(this.rows, (row) => row.prefixBytes),
      },
      discovery: {
        calls: this.discoveryCalls,
        requests: discovery.length,
        bytes: sum(discovery, (row) => row.bytes),
        tokens: counted ? sum(discovery, (row) => row.tokens ?? 0) : null,
      },
      direct: {
        requests: direct ? kept.length : this.rows.length,
        bytes: directBytes,
        tokens: counted ? directTokens : null,
        computed: direct !== undefined,
      },
    };
  }
}

/** Length of the common start of two strings (UTF-16 units; a split surrogate pair differs anyway). */
function commonPrefix(a: string, b: string): number {
  const end = Math.min(a.length, b.length);
  let i = 0;
  while (i < end && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}
