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
}

export interface ResolvedToolsModeOptions {
  readonly searchDefaultLimit: number;
  readonly maxSearchLimit: number;
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
  return { searchDefaultLimit, maxSearchLimit };
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
