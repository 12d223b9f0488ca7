// The public surface of @tool-search/plugin-gateway: named exports only.
export {
  gatewayPlugin,
  GATEWAY_PLUGIN_NAME,
  GATEWAY_TOOL_ID,
  GATEWAY_ACTIONS,
  GATEWAY_MUTATING_ACTIONS,
  DEFAULT_RESTART_DELAY_MS,
  MAX_RESTART_DELAY_MS,
} from './plugin.js';
export type {
  GatewayControl,
  GatewayPluginOptions,
  RestartRecord,
  RestartRequest,
  RestartScheduled,
} from './plugin.js';
export { PROTECTED_PATHS } from './guard.js';
export { GatewayErrors } from './errors.js';
export { lookupSchema } from './schema-lookup.js';
export type { SchemaLookup } from './schema-lookup.js';
export { REDACTED } from './config-file.js';
