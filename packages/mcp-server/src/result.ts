/**
 * Kernel outcomes as MCP `CallToolResult`s. Blocks, errors and client-only
 * tools are `isError` results (the model reads them and can react), never
 * JSON-RPC errors; the error code is in `structuredContent.error.code`, as the
 * control tools report theirs.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import {
  ErrorCode,
  type AnyErrorCode,
  type Diagnostic,
  type ToolCallOutcome,
  type ToolResult,
} from '@tool-search/kernel';
import { McpErrors } from '@tool-search/plugin-mcp/options';

export function toCallToolResult(outcome: ToolCallOutcome): CallToolResult {
  // A control tool (tool_call) whose inner call failed reports that status, with the result it wrote for the model.
  if ((outcome.status === 'error' || outcome.status === 'blocked') && outcome.result)
    return fromToolResult(outcome.result);
  switch (outcome.status) {
    case 'ok':
      return fromToolResult(outcome.result);
    case 'blocked':
      // A control tool (tool_call) that made the call wrote the result the model reads: keep it.
      if (outcome.result) return fromToolResult(outcome.result);
      return errorResult(
        ErrorCode.TOOL_CALL_BLOCKED,
        `The call to ${outcome.toolId} was blocked by ${outcome.by}: ${outcome.reason}`,
        {
          toolId: outcome.toolId,
          by: outcome.by,
          reason: outcome.reason,
        },
      );
    case 'error':
      if (outcome.result) return fromToolResult(outcome.result);
      return errorResult(outcome.error.code, outcome.error.message, { toolId: outcome.toolId });
    case 'pending':
      return errorResult(
        ErrorCode.CLIENT_TOOL_NOT_EXECUTABLE,
        `${outcome.toolId} is executed by the client; this MCP server cannot run it`,
        {
          toolId: outcome.toolId,
        },
      );
  }
}

export function errorResult(
  code: AnyErrorCode,
  message: string,
  details: Record<string, unknown> = {},
): CallToolResult {
  return {
    content: [{ type: 'text', text: `Error ${code}: ${message}` }],
    structuredContent: { error: { code, message, ...details } },
    isError: true,
  };
}

/**
 * A call that names a tool of an MCP server that failed to start gets
 * UNKNOWN_TOOL from the kernel (the server listed nothing). Say instead which
 * server is unavailable and why, from the run's diagnostics.
 */
export function explainUnavailable(
  result: CallToolResult,
  diagnostics: readonly Diagnostic[],
  called?: string,
): CallToolResult {
  const error = (
    result.structuredContent as { error?: { code?: unknown; requested?: unknown; toolId?: unknown } } | undefined
  )?.error;
  if (!result.isError || error?.code !== ErrorCode.UNKNOWN_TOOL) return result;
  // `called`: the id the client asked for (`tool_call`'s `id`, or the exposed name), when the error does not carry it.
  const requested =
    typeof error.requested === 'string'
      ? error.requested
      : (called ?? (typeof error.toolId === 'string' ? error.toolId : ''));
  const server = /^(?:mcp|skill):([^:]+):/.exec(requested)?.[1];
  const failure = server
    ? diagnostics.find(
        (d) =>
          (d.code === McpErrors.MCP_SERVER_FAILED || d.code === McpErrors.MCP_SERVER_UNAVAILABLE) &&
          d.details?.server === server,
      )
    : undefined;
  if (!failure) return result;
  return errorResult(McpErrors.MCP_SERVER_UNAVAILABLE, `MCP server "${server}" is unavailable: ${failure.message}`, {
    requested,
    server,
    ...(failure.details?.reason ? { reason: failure.details.reason } : {}),
  });
}

function fromToolResult(result: ToolResult): CallToolResult {
  const structured = result.structuredContent;
  return {
    // MCP content types the kernel does not name (audio, resource_link) pass through as they came.
    content: result.content as unknown as CallToolResult['content'],
    // MCP only allows an object here; anything else stays in `content`.
    ...(isObject(structured) ? { structuredContent: structured } : {}),
    ...(result.isError ? { isError: true } : {}),
    ...(result._meta !== undefined ? { _meta: { ...result._meta } } : {}),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
