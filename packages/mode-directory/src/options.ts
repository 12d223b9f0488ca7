/**
 * Options of the directory mode and the JSON Schema that checks them, once, when the plugin is created: a bad value
 * fails at setup, not in the middle of a model turn.
 */
import { checkModeOptions, optionsError, searchOptionsProperties } from '@tool-search/control-tools';

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

/** JSON Schema of `DirectoryModeOptions`. */
export const optionsSchema = {
  type: 'object',
  properties: {
    budgetChars: {
      type: 'integer',
      minimum: 0,
      description: 'Characters the directory block may take in the system prompt.',
    },
    visible: {
      type: 'array',
      items: { type: 'string', minLength: 1 },
      description: 'Tool names or ids shown with full schemas.',
    },
    turnTools: {
      type: 'integer',
      minimum: 0,
      maximum: MAX_TURN_TOOLS,
      description: 'Likely-needed tools shown for the turn, ranked from its last user message; 0 turns it off.',
    },
    ...searchOptionsProperties,
  },
  additionalProperties: false,
} as const;

const check = { plugin: DIRECTORY_MODE_PLUGIN, schema: optionsSchema } as const;

export function parseOptions(options: DirectoryModeOptions = {}): ResolvedDirectoryModeOptions {
  checkModeOptions(options, check);
  const budgetChars = options.budgetChars ?? DEFAULT_BUDGET_CHARS;
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
  const turnTools = options.turnTools ?? DEFAULT_TURN_TOOLS;
  return {
    turnTools,
    budgetChars,
    visible: Object.freeze([...(options.visible ?? [])]),
    searchDefaultLimit,
    maxSearchLimit,
    ...(description !== undefined ? { description } : {}),
  };
}
