/** The codes `@tool-search/plugin-gateway` raises. */
import { defineErrors } from '@tool-search/kernel/errors';

export const GatewayErrors = defineErrors('@tool-search/plugin-gateway', {
  GATEWAY_RESTART_DISABLED: 'The gateway tool may not restart this gateway: commands.restart is false.',
  GATEWAY_ACTION_UNAVAILABLE: 'That gateway action is not offered here (no update mechanism).',
  GATEWAY_CONFIG_CHANGED:
    'The config file changed since the baseHash the call was based on; read it again with config.get.',
  GATEWAY_CONFIG_UNWRITABLE: 'The config file could not be read or written.',
  GATEWAY_SCHEMA_PATH_UNKNOWN: 'No config key at that path in the schema.',
});
