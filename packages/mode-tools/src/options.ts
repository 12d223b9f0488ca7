/**
 * Options of the tools mode, checked once when the plugin is created so a bad
 * value fails at setup, not in the middle of a model turn.
 */
import { ConfigError, ErrorCode } from '@tool-search/kernel';

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

export function parseOptions(options: ToolsModeOptions = {}): ResolvedToolsModeOptions {
  const maxSearchLimit = positiveInteger(options.maxSearchLimit, 'maxSearchLimit') ?? MAX_LIMIT;
  const searchDefaultLimit = positiveInteger(options.searchDefaultLimit, 'searchDefaultLimit') ?? Math.min(DEFAULT_LIMIT, maxSearchLimit);
  if (searchDefaultLimit > maxSearchLimit) {
    throw invalid('/searchDefaultLimit', 'maximum', `searchDefaultLimit (${searchDefaultLimit}) must not exceed maxSearchLimit (${maxSearchLimit})`);
  }
  const description = descriptionOption(options.description);
  return { searchDefaultLimit, maxSearchLimit, ...(description !== undefined ? { description } : {}) };
}

/** The operator's description extension: a string of at most 2,000 characters (config `tools.toolSearch.description`). */
function descriptionOption(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalid('/description', 'type', `description must be a string, got ${JSON.stringify(value)}`);
  if (value.length > 2000) throw invalid('/description', 'maxLength', `description has ${value.length} characters; keep it to 2000 (say what the catalog holds, not every tool)`);
  return value.trim() || undefined;
}

function positiveInteger(value: unknown, key: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw invalid(`/${key}`, 'type', `${key} must be a positive integer, got ${JSON.stringify(value)}`);
  }
  return value;
}

function invalid(path: string, rule: string, message: string): ConfigError {
  return new ConfigError(path, rule, `${TOOLS_MODE_PLUGIN} options: ${message}`, { code: ErrorCode.OPTIONS_INVALID, plugin: TOOLS_MODE_PLUGIN });
}
