/**
 * Options of the directory mode, checked once when the plugin is created so a
 * bad value fails at setup, not in the middle of a model turn.
 */
import { ConfigError, ErrorCode } from '@tool-search/kernel';

export interface DirectoryModeOptions {
  /** Characters the directory block may take in the system prompt. Default 6000. */
  readonly budgetChars?: number;
  /** Tool names or ids that stay visible with full schemas (config `tools.toolSearch.visible`). */
  readonly visible?: readonly string[];
  /** Hits per query when the model gives no `limit` (config `tools.toolSearch.searchDefaultLimit`). Default 8. */
  readonly searchDefaultLimit?: number;
  /** Upper bound on `limit` (config `tools.toolSearch.maxSearchLimit`). Default 20. */
  readonly maxSearchLimit?: number;
}

export interface ResolvedDirectoryModeOptions {
  readonly budgetChars: number;
  readonly visible: readonly string[];
  readonly searchDefaultLimit: number;
  readonly maxSearchLimit: number;
}

export const DIRECTORY_MODE_PLUGIN = '@tool-search/mode-directory';
export const DEFAULT_BUDGET_CHARS = 6000;
const DEFAULT_LIMIT = 8;
const MAX_LIMIT = 20;

export function parseOptions(options: DirectoryModeOptions = {}): ResolvedDirectoryModeOptions {
  const budgetChars = integer(options.budgetChars, 'budgetChars', 0) ?? DEFAULT_BUDGET_CHARS;
  const maxSearchLimit = integer(options.maxSearchLimit, 'maxSearchLimit', 1) ?? MAX_LIMIT;
  const searchDefaultLimit = integer(options.searchDefaultLimit, 'searchDefaultLimit', 1) ?? Math.min(DEFAULT_LIMIT, maxSearchLimit);
  if (searchDefaultLimit > maxSearchLimit) {
    throw invalid('/searchDefaultLimit', 'maximum', `searchDefaultLimit (${searchDefaultLimit}) must not exceed maxSearchLimit (${maxSearchLimit})`);
  }
  const visible = options.visible ?? [];
  if (!Array.isArray(visible)) throw invalid('/visible', 'type', 'visible must be an array of tool names or ids');
  visible.forEach((entry: unknown, i) => {
    if (typeof entry !== 'string' || !entry) throw invalid(`/visible/${i}`, 'type', `visible[${i}] must be a non-empty string`);
  });
  return { budgetChars, visible: Object.freeze([...visible]), searchDefaultLimit, maxSearchLimit };
}

function integer(value: unknown, key: string, minimum: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < minimum) {
    throw invalid(`/${key}`, 'type', `${key} must be an integer >= ${minimum}, got ${JSON.stringify(value)}`);
  }
  return value;
}

function invalid(path: string, rule: string, message: string): ConfigError {
  return new ConfigError(path, rule, `${DIRECTORY_MODE_PLUGIN} options: ${message}`, { code: ErrorCode.OPTIONS_INVALID, plugin: DIRECTORY_MODE_PLUGIN });
}
