/** The error codes `@tool-search/gateway` raises (the kernel's `ErrorCode` stays closed). */
import { defineErrors } from '@tool-search/kernel/errors';

export const GatewayErrors = defineErrors('@tool-search/gateway', {
  REQUEST_INVALID: "A gateway request body is malformed (not the API's shape, too deep, bad content); nothing ran.",
  REQUEST_NOT_JSON:
    'A gateway request with a body (POST) is not sent as Content-Type: application/json (HTTP 415); browsers send text/plain and forms cross-site without asking, so nothing else is read.',
  REQUEST_TOO_LARGE: 'A gateway request body is larger than the configured limit (HTTP 413).',
  PORT_IN_USE: 'A server could not listen because its port is taken; `details.port` names it.',
});
