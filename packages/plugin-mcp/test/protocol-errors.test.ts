/**
 * The JSON-RPC error codes of both protocol eras, mapped to the project's codes: the table row by row, then a real
 * v2-SDK server (test/fixtures/meta-server.mjs) answering calls with those errors, spoken to in each era.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, type Kernel, type Run } from '@tool-search/kernel';
import { mcpPlugin } from '../src/index.js';
import { mapProtocolError, type McpEra } from '../src/protocol-errors.js';

const META_SERVER = fileURLToPath(new URL('./fixtures/meta-server.mjs', import.meta.url));

const uri = { uri: 'file:///missing.txt' };
const capabilities = { requiredCapabilities: { sampling: {} } };
const versions = { supported: ['2025-11-25'], requested: '2026-07-28' };
const elicitations = {
  elicitations: [{ mode: 'url', url: 'https://example.com/consent', elicitationId: 'e1', message: 'Consent' }],
};

// [era, wire code, data, project code, details beyond mcpCode]
const TABLE: Array<[McpEra, number, unknown, string, Record<string, unknown>]> = [
  // 2026-07-28: the renumbered MCP codes, resource-not-found as -32602 with data.uri, no -32042 (input_required instead)
  ['2026-07-28', -32020, undefined, 'MCP_HEADER_MISMATCH', {}],
  ['2026-07-28', -32021, capabilities, 'MCP_CLIENT_CAPABILITY_MISSING', capabilities],
  ['2026-07-28', -32022, versions, 'MCP_PROTOCOL_VERSION_UNSUPPORTED', versions],
  ['2026-07-28', -32042, elicitations, 'MCP_CALL_FAILED', {}],
  ['2026-07-28', -32602, uri, 'MCP_RESOURCE_NOT_FOUND', uri],
  ['2026-07-28', -32602, { uri: 'file:///x', reason: 'bad' }, 'MCP_CALL_FAILED', {}],
  ['2026-07-28', -32602, undefined, 'MCP_CALL_FAILED', {}],
  ['2026-07-28', -32002, uri, 'MCP_RESOURCE_NOT_FOUND', uri],
  // in 2026-07-28, -32000 and -32001 are unassigned (-32001 was the draft's header mismatch before the renumbering)
  ['2026-07-28', -32000, undefined, 'MCP_CALL_FAILED', {}],
  ['2026-07-28', -32001, undefined, 'MCP_CALL_FAILED', {}],
  // 2025-11-25 and earlier
  ['2025', -32002, uri, 'MCP_RESOURCE_NOT_FOUND', uri],
  ['2025', -32002, undefined, 'MCP_RESOURCE_NOT_FOUND', {}],
  ['2025', -32602, uri, 'MCP_RESOURCE_NOT_FOUND', uri],
  ['2025', -32042, elicitations, 'MCP_URL_ELICITATION_REQUIRED', elicitations],
  ['2025', -32000, undefined, 'MCP_SERVER_UNAVAILABLE', {}],
  ['2025', -32001, undefined, 'TOOL_TIMEOUT', {}],
  ['2025', -32022, versions, 'MCP_PROTOCOL_VERSION_UNSUPPORTED', versions],
  // JSON-RPC's own codes mean the same in both eras
  ['2025', -32700, undefined, 'MCP_CALL_FAILED', {}],
  ['2025', -32600, undefined, 'MCP_CALL_FAILED', {}],
  ['2026-07-28', -32601, undefined, 'MCP_CALL_FAILED', {}],
  ['2026-07-28', -32603, { stack: 'x' }, 'MCP_CALL_FAILED', {}],
  ['2025', -31999, undefined, 'MCP_CALL_FAILED', {}],
];

describe('the protocol error table', () => {
  it.each(TABLE)('%s %i (data %j) is %s', (era, wire, data, code, details) => {
    expect(mapProtocolError(era, wire, data)).toEqual({ code, details: { mcpCode: wire, ...details } });
  });
});

describe.each([
  ['2026-07-28', '2026-07-28'],
  ['2025-11-25', '2025'],
] as const)('a v2 server spoken to in %s answers calls with errors', (protocol, era) => {
  let kernel: Kernel;
  let run: Run;
  const mcp = mcpPlugin({ servers: { rec: { command: process.execPath, args: [META_SERVER], protocol } } });

  beforeAll(async () => {
    kernel = createKernel({ plugins: [mcp] });
    run = await kernel.createRun();
    expect(run.diagnostics).toEqual([]);
    expect(mcp.servers()).toContainEqual(expect.objectContaining({ name: 'rec', protocolVersion: protocol }));
  });
  afterAll(() => kernel.close());

  // The outcome carries code and message (`details` are checked by the table above). -32002 cannot be sent this
  // way: the v2 server SDK re-encodes it as -32602 in both eras.
  it.each(TABLE.filter(([rowEra, wire]) => rowEra === era && wire !== -32002))(
    '%s %i (data %j) reaches the caller as %s',
    async (_era, wire, data, code) => {
      const outcome = await run.call('mcp:rec:fail', { code: wire, ...(data !== undefined ? { data } : {}) });
      expect(outcome).toMatchObject({
        status: 'error',
        error: { code, message: expect.stringContaining('MCP server "rec" rejected the call') },
      });
    },
  );
});
