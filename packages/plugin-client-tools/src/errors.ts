/** The error codes `@tool-search/plugin-client-tools` raises (the kernel's `ErrorCode` stays closed). */
import { defineErrors } from '@tool-search/kernel/errors';

export const ClientToolsErrors = defineErrors('@tool-search/plugin-client-tools', {
  CLIENT_TOOL_INVALID: 'A client tool given to a run is malformed (shape, name, schema or a duplicate name).',
});
