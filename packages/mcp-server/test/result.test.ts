/** Kernel outcomes as MCP tool results: failures are `isError` results with a code, never protocol errors. */
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '@tool-search/kernel';
import { McpErrors } from '@tool-search/plugin-mcp';
import { toCallToolResult } from '../src/index.js';
import { explainUnavailable } from '../src/result.js';

const base = { callId: 'c1', toolId: 'mcp:srv:tool' };

describe('toCallToolResult', () => {
  it('passes content and an object structuredContent through', () => {
    const result = toCallToolResult({
      ...base,
      status: 'ok',
      result: { content: [{ type: 'text', text: 'hi' }], structuredContent: { a: 1 } },
    });
    expect(result).toEqual({ content: [{ type: 'text', text: 'hi' }], structuredContent: { a: 1 } });
  });

  it('drops a structuredContent that is not an object (MCP allows objects only)', () => {
    const result = toCallToolResult({ ...base, status: 'ok', result: { content: [], structuredContent: [1, 2] } });
    expect(result).not.toHaveProperty('structuredContent');
  });

  it('keeps a downstream isError', () => {
    expect(toCallToolResult({ ...base, status: 'ok', result: { content: [], isError: true } }).isError).toBe(true);
  });

  it('reports a block as TOOL_CALL_BLOCKED with who blocked it', () => {
    const result = toCallToolResult({
      ...base,
      status: 'blocked',
      reason: 'needs approval',
      by: '@tool-search/plugin-approvals',
    });
    expect(result).toMatchObject({
      isError: true,
      structuredContent: { error: { code: 'TOOL_CALL_BLOCKED', by: '@tool-search/plugin-approvals' } },
    });
  });

  it('reports an error outcome with its code', () => {
    const result = toCallToolResult({ ...base, status: 'error', error: { code: 'TOOL_TIMEOUT', message: 'late' } });
    expect(result).toMatchObject({ isError: true, structuredContent: { error: { code: 'TOOL_TIMEOUT' } } });
  });

  it('reports a client-executed tool as CLIENT_TOOL_NOT_EXECUTABLE', () => {
    const result = toCallToolResult({ ...base, status: 'pending', name: 'tool', args: {} });
    expect(result).toMatchObject({
      isError: true,
      structuredContent: { error: { code: 'CLIENT_TOOL_NOT_EXECUTABLE' } },
    });
  });
});

describe('toCallToolResult of a control tool that reports its inner call', () => {
  it('keeps the result the control tool wrote for the model (tool_call of an unknown or blocked tool)', () => {
    const written = {
      content: [{ type: 'text' as const, text: 'Error UNKNOWN_TOOL: unknown tool id "x"' }],
      structuredContent: { error: { code: 'UNKNOWN_TOOL', requested: 'x' } },
      isError: true,
    };
    const error = toCallToolResult({
      ...base,
      status: 'error',
      error: { code: 'UNKNOWN_TOOL', message: 'unknown' },
      result: written,
    });
    expect(error).toMatchObject({
      isError: true,
      structuredContent: { error: { code: 'UNKNOWN_TOOL', requested: 'x' } },
    });
    const blocked = toCallToolResult({ ...base, status: 'blocked', reason: 'no', by: 'guard', result: written });
    expect(blocked.content).toEqual(written.content);
  });
});

describe('explainUnavailable', () => {
  const failed: Diagnostic = {
    code: McpErrors.MCP_SERVER_FAILED,
    level: 'error',
    message: 'MCP server "srv" failed (spawn)',
    details: { server: 'srv', reason: 'spawn' },
  };
  const unknown = (requested: string) => ({
    content: [],
    isError: true,
    structuredContent: { error: { code: 'UNKNOWN_TOOL', requested } },
  });

  it('names the failed server for an unknown tool of that server', () => {
    expect(explainUnavailable(unknown('mcp:srv:tool'), [failed])).toMatchObject({
      structuredContent: { error: { code: 'MCP_SERVER_UNAVAILABLE', server: 'srv', reason: 'spawn' } },
    });
  });

  it('leaves an unknown tool of a healthy server alone', () => {
    expect(errorOf(explainUnavailable(unknown('mcp:other:tool'), [failed]))).toBe('UNKNOWN_TOOL');
  });

  function errorOf(result: { structuredContent?: unknown }): unknown {
    return (result.structuredContent as { error: { code: string } }).error.code;
  }
});
