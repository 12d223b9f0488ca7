// The public surface of @tool-search/mcp-server: named exports only.
export { createToolSearchMcpServer, DEFAULT_REFRESH_INTERVAL_MS, MCP_MODES } from './server.js';
export type { McpMode, ToolSearchMcpOptions, ToolSearchMcpServer } from './server.js';
export { toCallToolResult } from './result.js';
export { serveStdio, serveHttp } from './transports.js';
export { elicitationApprovals } from './approvals.js';
export { McpServerErrors } from './errors.js';
export type { ElicitationApprovals, ElicitedApprovalRequest } from './approvals.js';
export type { TraceContext } from './trace.js';
export type { StdioServeOptions, StdioMcpHandle, HttpServeOptions, HttpMcpHandle } from './transports.js';
// Limits and codes a client (and the end-to-end tests in e2e/test/mcp-server) can rely on.
export { RESOURCE_NOT_FOUND } from './aggregate.js';
export { ECHO_MAX_CHARS } from './echo.js';
export { NOTIFICATION_BUDGET } from './throttle.js';
export type { NotificationBudget } from './throttle.js';
// What a client that loads tools natively (Claude Code) is given (tool-reference.ts).
export { CLAUDE_CODE_CLIENT, TOOL_REFERENCE_CAPABILITY, TOOL_REFERENCES_META_KEY } from './tool-reference.js';
export type { ToolReferenceBlock } from './tool-reference.js';
