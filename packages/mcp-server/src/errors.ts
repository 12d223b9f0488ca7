/** The error codes `@tool-search/mcp-server` raises (the kernel's `ErrorCode` stays closed). */
import { defineErrors } from '@tool-search/kernel/errors';

export const McpServerErrors = defineErrors('@tool-search/mcp-server', {
  MCP_PARKED_CALL_LOST:
    "A 2026-07-28 client's retry (`requestState`) was for a call parked on another replica that did not answer (it stopped, or the call ended with it); call the tool again.",
  MCP_REQUEST_STATE_INVALID:
    "A 2026-07-28 client's retry carried a `requestState` longer than any Tool Search issues (`details.length`, `details.limit`); it is refused without being echoed: call the tool again without it.",
});
