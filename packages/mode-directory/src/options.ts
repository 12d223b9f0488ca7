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
  /** Appended to `tool_search`'s description (config `tools.toolSearch.description`); a run's `searchDescription` wins. */
  readonly description?: string;
  /**
   * Likely-needed tools shown with their schemas for the current turn, ranked from its last user message
   * (`RunRequest.turnText`); 0 turns it off. Default 5, at most 20.
   */
  readonly turnTools?: number;
}

export interface ResolvedDirectoryModeOptions {
  readonly turnTools: number;
  readonly budgetChars: number;
  readonly visible: readonly string[];
  readonly searchDefaultLimit: number;
  readonly maxSearchLimit: number;
  readonly description?: string;
}

export const DIRECTORY_MODE_PLUGIN = '@tool-search/mode-directory';
export const DEFAULT_BUDGET_CHARS = 6000;
export const DEFAULT_TURN_TOOLS = 5;
export const MAX_TURN_TOOLS = 20;
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
  const description = descriptionOption(options.description);
  const turnTools = integer(options.turnTools, 'turnTools', 0) ?? DEFAULT_TURN_TOOLS;
  if (turnTools > MAX_TURN_TOOLS) throw invalid('/turnTools', 'maximum', `turnTools (${turnTools}) must be at most ${MAX_TURN_TOOLS}: the point is a small set`);
  return { turnTools, budgetChars, visible: Object.freeze([...visible]), searchDefaultLimit, maxSearchLimit, ...(description !== undefined ? { description } : {}) };
}

/** The operator's description extension: a string of at most 2,000 characters (config `tools.toolSearch.description`). */
function descriptionOption(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalid('/description', 'type', `description must be a string, got ${JSON.stringify(value)}`);
  if (value.length > 2000) throw invalid('/description', 'maxLength', `description has ${value.length} characters; keep it to 2000 (say what the catalog holds, not every tool)`);
  return value.trim() || undefined;
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
