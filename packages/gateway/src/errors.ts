/** The error codes `@tool-search/gateway` raises (the kernel's `ErrorCode` stays closed). */
import { defineErrors } from '@tool-search/kernel/errors';

export const GatewayErrors = defineErrors('@tool-search/gateway', {
  REQUEST_INVALID: "A gateway request body is malformed (not the API's shape, too deep, bad content); nothing ran.",
  REQUEST_NOT_JSON:
    'A gateway request with a body (POST) is not sent as Content-Type: application/json (HTTP 415); browsers send text/plain and forms cross-site without asking, so nothing else is read.',
  REQUEST_TOO_LARGE: 'A gateway request body is larger than the configured limit (HTTP 413).',
  RESPONSE_NOT_FOUND:
    'A `previous_response_id` names no stored response (never made, expired, or made by another gateway) (HTTP 404); `details.id` names it.',
  RESPONSE_ON_OTHER_REPLICA:
    'A `previous_response_id` names a response too large for the shared store, kept on another replica (HTTP 421); `details.replica` names it.',
  TURN_ON_OTHER_REPLICA:
    'Tool results answer a suspended client-tool hand-off that another replica holds (HTTP 421; a live run cannot move); `details.replica` names it.',
  PORT_IN_USE: 'A server could not listen because its port is taken; `details.port` names it.',
});
