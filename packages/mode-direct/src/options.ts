/**
 * Options of the direct mode's readable list and the JSON Schema that checks them, once, when the plugin is created.
 * The config takes `tools.toolSearch.direct` from this schema (`@tool-search/mode-direct/options`), so one rule holds.
 */
import { checkModeOptions } from '@tool-search/control-tools';

export const DIRECT_MODE_TEXT_PLUGIN = '@tool-search/mode-direct';
export const DEFAULT_DIRECT_BUDGET_CHARS = 4000;
/** The most a system prompt's tool list may take (a guard against a typo of a few zeros). */
export const MAX_DIRECT_BUDGET_CHARS = 200_000;

export interface DirectModeTextOptions {
  /** Characters the readable list may take in the system prompt (default 4000; 0 sends none). */
  readonly budgetChars?: number;
}

/** JSON Schema of `DirectModeTextOptions`. */
export const optionsSchema = {
  type: 'object',
  properties: {
    budgetChars: {
      type: 'integer',
      minimum: 0,
      maximum: MAX_DIRECT_BUDGET_CHARS,
      description: 'Characters the readable tool list may take in the system prompt; 0 sends none.',
    },
  },
  additionalProperties: false,
} as const;

/** The checked options with defaults; a bad value is an `OPTIONS_INVALID` ConfigError naming the option. */
export function parseDirectOptions(options: DirectModeTextOptions = {}): { readonly budgetChars: number } {
  checkModeOptions(options, { plugin: DIRECT_MODE_TEXT_PLUGIN, schema: optionsSchema });
  return { budgetChars: options.budgetChars ?? DEFAULT_DIRECT_BUDGET_CHARS };
}
