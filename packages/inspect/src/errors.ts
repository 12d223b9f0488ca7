/** The error codes `@tool-search/inspect` raises (the kernel's `ErrorCode` stays closed). */
import { defineErrors } from '@tool-search/kernel/errors';

export const InspectErrors = defineErrors('@tool-search/inspect', {
  INSPECT_AUTH_REQUIRED:
    'The inspect page is bound beyond loopback without an API key to protect it; configure one or bind 127.0.0.1.',
  INSPECT_UNAUTHORIZED: 'A request to the inspect page carried no valid API key.',
  INSPECT_INPUT_INVALID: 'A request to the inspect API has a missing or malformed parameter.',
  INSPECT_NOT_FOUND: 'The tool, session or route the inspect API was asked for does not exist.',
  INSPECT_PORT_IN_USE: 'The inspect page could not listen because its port is taken; `details.port` names it.',
  INSPECT_ASSETS_MISSING:
    'The built page assets are not in the package (assets/index.html); rebuild them with npm run build:web.',
});
