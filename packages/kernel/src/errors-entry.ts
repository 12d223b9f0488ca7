/**
 * `@tool-search/kernel/errors`: the coded-error API alone, for code on a start-up path (a CLI printing its help) that
 * must not load the whole kernel and its hook library. The same modules as the main entry, so `instanceof` holds
 * across both.
 */
export { errorMessage } from './error-message.js';
export { defineErrors, listErrorCodes, type AnyErrorCode, type OwnedErrorCode } from './error-registry.js';
export {
  ConfigError,
  ErrorCode,
  ToolSearchError,
  toToolSearchError,
  UnknownToolError,
  type ToolSearchErrorOptions,
} from './errors.js';
// The did-you-mean of an UNKNOWN_TOOL error.
export { suggestIds } from './suggest.js';
