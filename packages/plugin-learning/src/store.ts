/**
 * The calls of each scope in the state store, and the model built from them.
 * One bounded list per scope (`append` with `max`: RPUSH + LTRIM in Redis, so
 * replicas add to the same list); each replica caches its scope's model and
 * re-reads the list at most every `refreshMs` (in the background: a search
 * never waits for a refresh, only for a scope's first read). While the store
 * does not answer, searches rank without the signal; the outage is reported
 * once (the caller turns that into one diagnostic) and the store is asked again
 * at most every `RETRY_MS`.
 */
import { createHash } from 'node:crypto';
import type { Logger } from '@tool-search/kernel';
import type { StateStore } from '@tool-search/state';
import { buildModel, type LearnedModel, type LearningEvent } from './model.js';
import type { LearningScope } from './options.js';
import { errorMessage } from '@tool-search/kernel';

/** Appended to the ranker id of a search the learned signal re-ordered (`bm25f+learned`). */
export const LEARNED_RANKER_SUFFIX = '+learned';

/** The store key of a scope: the deployment's, or an agent's (hashed: the key never shows an agent id). */
export function scopeKey(scope: LearningScope, agentId: string | undefined): string {
  if (scope === 'deployment') return 'learning:v1:deployment';
  return `learning:v1:agent:${createHash('sha256')
    .update(agentId ?? '')
    .digest('hex')
    .slice(0, 24)}`;
}

export interface StoreSettings {
  readonly maxEntries: number;
  readonly halfLifeMs: number;
  readonly minCalls: number;
  readonly refreshMs: number;
  readonly now: () => number;
}

export type ModelAnswer =
  | { readonly model: LearnedModel }
  /** `report` is true for the first failure of an outage only. */
  | { readonly unavailable: string; readonly report: boolean };

/** How long after a failure the store is asked again. */
const RETRY_MS = 2000;
/** Scopes whose model a replica keeps (the least recently read go first). */
const MAX_SCOPES = 256;
const MAX_TERMS = 32;

interface Scope {
  events: LearningEvent[];
  loadedAt: number;
  model?: { readonly built: number; readonly value: LearnedModel };
  refreshing?: Promise<void>;
}

export class LearningStore {
  readonly #scopes = new Map<string, Scope>();
  readonly #first = new Map<string, Promise<Scope>>();
  #downSince: number | undefined;
  /** An outage began and no search has said so yet. */
  #unreported = false;
  #retryAt = 0;
  #reason = '';

  constructor(
    private readonly state: StateStore,
    private readonly settings: StoreSettings,
    private readonly logger: Pick<Logger, 'warn' | 'info'>,
  ) {}

  /** Adds a call to its scope's list (shared by every replica on the same store). Never throws. */
  async record(key: string, event: LearningEvent): Promise<void> {
    const entry = JSON.stringify({ t: event.t, w: event.terms.slice(0, MAX_TERMS), id: event.tool, r: event.rank });
    try {
      await this.state.append(key, [entry], { max: this.settings.maxEntries, ttlMs: this.#ttlMs() });
      this.#answered();
    } catch (error) {
      this.#failed(error);
      return;
    }
    const scope = this.#scopes.get(key);
    if (scope) {
      // The cached model takes the call in place: a search after a call costs its words, not a rebuild from every call.
      scope.events.push(event);
      scope.model?.value.add(event);
      const dropped =
        scope.events.length > this.settings.maxEntries
          ? scope.events.splice(0, scope.events.length - this.settings.maxEntries)
          : [];
      for (const old of dropped) scope.model?.value.remove(old);
    }
  }

  /** Starts a scope's first read (at run start, so the first search finds it read). Reports nothing. */
  prefetch(key: string): void {
    if (this.#scopes.has(key) || this.#first.has(key)) return;
    if (this.#downSince !== undefined && this.settings.now() < this.#retryAt) return;
    const first = this.#load(key).finally(() => this.#first.delete(key));
    this.#first.set(key, first);
    first.catch((error: unknown) => this.#failed(error));
  }

  /** The scope's model (its first read is awaited, later ones refresh in the background), or why there is none. */
  async model(key: string): Promise<ModelAnswer> {
    const now = this.settings.now();
    if (this.#downSince !== undefined && now < this.#retryAt) return this.#unavailable();
    let scope = this.#scopes.get(key);
    if (!scope) {
      let first = this.#first.get(key);
      if (!first) {
        first = this.#load(key).finally(() => this.#first.delete(key));
        this.#first.set(key, first);
      }
      try {
        scope = await first;
      } catch (error) {
        this.#failed(error);
        return this.#unavailable();
      }
    } else {
      // Least recently read last, so the bound drops the coldest scope.
      this.#scopes.delete(key);
      this.#scopes.set(key, scope);
      if (now - scope.loadedAt >= this.settings.refreshMs && !scope.refreshing) {
        const stale = scope;
        stale.refreshing = this.#read(key)
          .then((events) => {
            stale.events = events;
            stale.loadedAt = this.settings.now();
            stale.model = undefined;
            this.#answered();
          })
          .catch((error: unknown) => this.#failed(error))
          .finally(() => (stale.refreshing = undefined));
      }
      if (this.#downSince !== undefined) return this.#unavailable();
    }
    if (!scope.model || now - scope.model.built >= this.settings.refreshMs) {
      scope.model = {
        built: now,
        value: buildModel(scope.events, {
          now,
          halfLifeMs: this.settings.halfLifeMs,
          minCalls: this.settings.minCalls,
        }),
      };
    }
    return { model: scope.model.value };
  }

  async #load(key: string): Promise<Scope> {
    const events = await this.#read(key);
    this.#answered();
    const scope: Scope = { events, loadedAt: this.settings.now() };
    this.#scopes.set(key, scope);
    if (this.#scopes.size > MAX_SCOPES) this.#scopes.delete(this.#scopes.keys().next().value!);
    return scope;
  }

  async #read(key: string): Promise<LearningEvent[]> {
    const raw = await this.state.range(key, this.settings.maxEntries);
    return raw.flatMap(parseEvent);
  }

  #ttlMs(): number {
    // Eight half-lives: a call that old weighs under 0.4 %. At least a day.
    return Math.max(86_400_000, Math.min(Math.round(this.settings.halfLifeMs * 8), 10 * 365 * 86_400_000));
  }

  /** The answer while the store is down: the first one of an outage is the one to report. */
  #unavailable(): ModelAnswer {
    const report = this.#unreported;
    this.#unreported = false;
    return { unavailable: this.#reason, report };
  }

  /** Marks an outage (a read, a refresh or a write failed); logged once per outage. */
  #failed(error: unknown): void {
    this.#reason = errorMessage(error);
    this.#retryAt = this.settings.now() + RETRY_MS;
    if (this.#downSince !== undefined) return;
    this.#downSince = this.settings.now();
    this.#unreported = true;
    this.logger.warn('the learning store does not answer; searches rank without the learned signal until it does', {
      error: this.#reason,
    });
  }

  #answered(): void {
    if (this.#downSince === undefined) return;
    this.#downSince = undefined;
    this.#unreported = false;
    this.logger.info('the learning store answers again; the learned signal is back');
  }
}

/** One stored call, checked: a store is shared, so a malformed entry is skipped, never trusted. */
function parseEvent(raw: string): LearningEvent[] {
  try {
    const value = JSON.parse(raw) as { t?: unknown; w?: unknown; id?: unknown; r?: unknown };
    if (
      typeof value.t !== 'number' ||
      !Number.isFinite(value.t) ||
      typeof value.id !== 'string' ||
      value.id.length === 0 ||
      value.id.length > 512
    )
      return [];
    if (!Array.isArray(value.w)) return [];
    const terms = value.w
      .filter((term): term is string => typeof term === 'string' && term.length > 0 && term.length <= 64)
      .slice(0, MAX_TERMS);
    const rank = typeof value.r === 'number' && Number.isInteger(value.r) && value.r > 0 ? value.r : null;
    return terms.length ? [{ t: value.t, terms, tool: value.id, rank }] : [];
  } catch {
    return [];
  }
}
