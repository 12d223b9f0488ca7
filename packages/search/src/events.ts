/**
 * The run events of searching, declared here by declaration merging so the kernel holds none of them: the control
 * tools and the code bridge emit them when a model searches or describes; telemetry and inspect read them.
 */
import type { CallOrigin } from '@tool-search/kernel';

/** One query of a `search` event. */
export interface SearchEventResult {
  readonly query: string;
  readonly hits: readonly string[];
  /** No hit matched well (weak partial matches, or none at all). */
  readonly weak: boolean;
}

declare module '@tool-search/kernel' {
  interface RunEventMap {
    search: {
      readonly type: 'search';
      readonly queries: readonly string[];
      readonly hits: readonly string[];
      readonly origin: CallOrigin;
      /** Per query, in order: its ranked hit ids and whether nothing matched it well (search-quality telemetry). */
      readonly results?: readonly SearchEventResult[];
      /** The ranking that answered, e.g. `{ id: 'bm25f', version: '2' }`. */
      readonly ranker?: { readonly id: string; readonly version: string };
      /** How long the ranking took, in milliseconds, when the emitter timed it (the metrics' search latency). */
      readonly durationMs?: number;
    };
    describe: {
      readonly type: 'describe';
      readonly toolId: string | null;
      readonly requested: string;
      readonly origin: CallOrigin;
    };
  }
}
