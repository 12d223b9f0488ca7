/**
 * Options of the tools mode and the JSON Schema that checks them, once, when the plugin is created: a bad value
 * fails at setup, not in the middle of a model turn.
 */
import { checkModeOptions, optionsError, searchOptionsProperties } from '@tool-search/control-tools';

export interface ToolsModeOptions {
  /** Hits per query when the model gives no `limit` (config `tools.toolSearch.searchDefaultLimit`). Default 8. */
  readonly searchDefaultLimit?: number;
  /** Upper bound on `limit` (config `tools.toolSearch.maxSearchLimit`). Default 20. */
  readonly maxSearchLimit?: number;
  /** Appended to `tool_search`'s description (config `tools.toolSearch.description`); a run's `searchDescription` wins. */
  readonly description?: string;
}

export interface ResolvedToolsModeOptions {
  readonly searchDefaultLimit: number;
  readonly maxSearchLimit: number;
  readonly description?: string;
}

export const TOOLS_MODE_PLUGIN = '@tool-search/mode-tools';
const DEFAULT_LIMIT = 8;
const MAX_LIMIT = 20;

/** JSON Schema of `ToolsModeOptions`. */
export const optionsSchema = {
  type: 'object',
  properties: { ...searchOptionsProperties },
  additionalProperties: false,
} as const;

const check = { plugin: TOOLS_MODE_PLUGIN, schema: optionsSchema } as const;

export function parseOptions(options: ToolsModeOptions = {}): ResolvedToolsModeOptions {
  checkModeOptions(options, check);
  const maxSearchLimit = options.maxSearchLimit ?? MAX_LIMIT;
  const searchDefaultLimit = options.searchDefaultLimit ?? Math.min(DEFAULT_LIMIT, maxSearchLimit);
  if (searchDefaultLimit > maxSearchLimit) {
    throw optionsError(
      check,
      '/searchDefaultLimit',
      'maximum',
      `(${searchDefaultLimit}) must not exceed maxSearchLimit (${maxSearchLimit})`,
    );
  }
  const description = options.description?.trim() || undefined;
  return { searchDefaultLimit, maxSearchLimit, ...(description !== undefined ? { description } : {}) };
}
