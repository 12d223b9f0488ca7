/** The codes `@tool-search/plugin-gateway` raises. */
import { defineErrors } from '@tool-search/kernel/errors';

export const GatewayErrors = defineErrors('@tool-search/plugin-gateway', {
  GATEWAY_RESTART_DISABLED: 'The gateway tool may not restart this gateway: commands.restart is false.',
  GATEWAY_ACTION_UNAVAILABLE: 'That gateway action is not offered here (no update mechanism).',
  GATEWAY_CONFIG_CHANGED:
    'The config file changed since the baseHash the call was based on; read it again with config.get.',
  GATEWAY_CONFIG_UNWRITABLE: 'The config file could not be read or written.',
  GATEWAY_CONFIG_UNSAFE_FILE:
    'The config path is a symbolic link, a FIFO, a device or another non-regular file: the gateway tool does not open it.',
  GATEWAY_PATH_FORBIDDEN:
    'The gateway tool may not change that config path (policy, auth, listen address, exec, plugins, MCP, provider, state, telemetry…); an operator edits it in the file.',
  GATEWAY_SECRET_REENTER:
    'A redacted secret ("***") was given back where no current value can be kept; give the real value.',
  GATEWAY_SECRET_DESTINATION_CHANGED:
    'A secret would be kept while the address it is sent to changes; give the secret again in the same write.',
  GATEWAY_SCHEMA_PATH_UNKNOWN: 'No config key at that path in the schema.',
});
