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
import type { ProviderUsage } from './cache-usage.js';
import { messageJson } from './json-cache.js';
import type { PrefixCache } from './prefix-cache.js';

export type CountTokens = (text: string) => Promise<number>;

export interface LedgerRequest {
  readonly bytes: number;
  /**
   * Bytes at the start of this request's body identical to the previous request's (0 for the first): appending keeps
   * it at the whole earlier conversation, a change moves it back. Body order (both upstream formats put messages
   * before tools): the tools' own stability is the exposure fingerprint's (`exposure.changed`); `prompt_cache` compares in
   * the providers' cache order (tools first) and across turns.
   */
  readonly prefix_bytes: number;
  readonly tokens: number | null;
  /** True when every tool call the model answered with was a search or describe. */
  readonly discovery: boolean;
  /**
   * What the provider reported, when it did: `input` counts every prompt token; `cached` those served from its prompt
   * cache, `cache_write` those written to it (Anthropic), when it said.
   */
  readonly provider_tokens?: {
    readonly input: number;
    readonly output: number;
    readonly cached?: number;
    readonly cache_write?: number;
  };
}

/**
 * The turn seen by the provider's prompt cache (prefix-cache.ts): how many bytes of its requests repeat the start of
 * the session's request before (the turn's first compared with the previous turn's last), and the cached tokens the
 * provider reported. Prefixes are taken in the order providers cache (tools, system, messages: the body as sent with
 * its tools moved first) and counted in whole 256-byte blocks.
 */
export interface PromptCacheReport {
  readonly provider: string;
  /** Bytes at the start of the turn's first request identical to the session's previous request (the previous turn's). */
  readonly previous_turn_prefix_bytes: number;
  /** Every request's identical-prefix bytes with the request before it, summed: of `bytes`, what a cache could reuse. */
  readonly prefix_bytes: number;
  /** The requests' bytes as sent. */
  readonly bytes: number;
  /** Provider-reported prompt tokens and cached prompt tokens, summed; null when no reply said. */
  readonly input_tokens: number | null;
  readonly cached_tokens: number | null;
  /** Prompt tokens written to the provider's cache (Anthropic `cache_creation_input_tokens`), when reported. */
  readonly cache_write_tokens?: number;
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
  /** Set when the turn knows its session and provider (gateway turns). */
  readonly prompt_cache?: PromptCacheReport;
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

/** Where the turn's requests are compared with the session's previous one. */
export interface LedgerSession {
  readonly cache: PrefixCache;
  /** The session (and provider) the requests belong to. */
  readonly key: string;
  readonly provider: string;
}

interface Row {
  bytes: number;
  prefixBytes: number;
  tokens: number | null;
  discovery: boolean;
  providerTokens?: ProviderUsage;
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
  private previousTurnPrefix = 0;
  private cachePrefix = 0;

  private constructor(
    private readonly count: CountTokens | undefined,
    private readonly fixed: { bytes: number; tokens: number },
    private readonly direct: { bytes: number; tokens: number } | undefined,
    private readonly session: LedgerSession | undefined,
  ) {}

  /** `direct` is undefined when the turn runs in direct mode (nothing to compute). */
  static async start(
    count: CountTokens | undefined,
    parts: LedgerParts,
    direct: LedgerParts | undefined,
    session?: LedgerSession,
  ): Promise<Ledger> {
    const measure = async (p: LedgerParts) => ({
      bytes: Buffer.byteLength(p.toolsJson) + Buffer.byteLength(p.system),
      tokens: count ? (await count(p.toolsJson)) + (await count(p.system)) : 0,
    });
    return new Ledger(count, await measure(parts), direct ? await measure(direct) : undefined, session);
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
  request(body: string, toolsJson?: string): number {
    // Compared in the provider's cache order (tools first), each with the session's previous request, across turns.
    if (this.session) {
      const same = this.session.cache.compare(this.session.key, cacheOrder(body, toolsJson));
      if (this.rows.length === 0) this.previousTurnPrefix = same;
      this.cachePrefix += same;
    }
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
  settle(row: number, discoveryCalls: number, onlyDiscovery: boolean, usage?: ProviderUsage): void {
    const entry = this.rows[row];
    if (!entry) return;
    this.discoveryCalls += discoveryCalls;
    entry.discovery = onlyDiscovery;
    if (usage) entry.providerTokens = usage;
  }

  private promptCache(provider: string): PromptCacheReport {
    const reported = this.rows.flatMap((row) => (row.providerTokens ? [row.providerTokens] : []));
    const sum = (values: readonly (number | undefined)[]) => values.reduce<number>((total, n) => total + (n ?? 0), 0);
    const said = (pick: (usage: ProviderUsage) => number | undefined) =>
      reported.some((usage) => pick(usage) !== undefined) ? sum(reported.map(pick)) : null;
    const written = said((usage) => usage.cacheWrite);
    return {
      provider,
      previous_turn_prefix_bytes: this.previousTurnPrefix,
      prefix_bytes: this.cachePrefix,
      bytes: sum(this.rows.map((row) => row.bytes)),
      input_tokens: reported.length ? sum(reported.map((usage) => usage.input)) : null,
      cached_tokens: said((usage) => usage.cached),
      ...(written !== null ? { cache_write_tokens: written } : {}),
    };
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
        ...(row.providerTokens ? { provider_tokens: providerTokens(row.providerTokens) } : {}),
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
      ...(this.session ? { prompt_cache: this.promptCache(this.session.provider) } : {}),
      direct: {
        requests: direct ? kept.length : this.rows.length,
        bytes: directBytes,
        tokens: counted ? directTokens : null,
        computed: direct !== undefined,
      },
    };
  }
}

/**
 * The body in the order providers cache a prompt (tools, system, messages): the tools, then the body without them.
 * Both upstream formats splice the tools text in verbatim as `,"tools":…` after the messages.
 */
function cacheOrder(body: string, toolsJson: string | undefined): string {
  if (!toolsJson || toolsJson === '[]') return body;
  const marker = `,"tools":${toolsJson}`;
  const at = body.lastIndexOf(marker);
  return at < 0 ? body : toolsJson + body.slice(0, at) + body.slice(at + marker.length);
}

/** The ledger's spelling of a provider's usage. */
function providerTokens(usage: ProviderUsage): NonNullable<LedgerRequest['provider_tokens']> {
  return {
    input: usage.input,
    output: usage.output,
    ...(usage.cached !== undefined ? { cached: usage.cached } : {}),
    ...(usage.cacheWrite !== undefined ? { cache_write: usage.cacheWrite } : {}),
  };
}

/** Length of the common start of two strings (UTF-16 units; a split surrogate pair differs anyway). */
function commonPrefix(a: string, b: string): number {
  const end = Math.min(a.length, b.length);
  let i = 0;
  while (i < end && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}
