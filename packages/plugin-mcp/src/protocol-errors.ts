/**
 * JSON-RPC error codes an MCP server answers with, mapped to the project's
 * codes, per protocol era. 2026-07-28 renumbered the MCP-specific codes into
 * -32020..-32022 (header mismatch, missing client capability, unsupported
 * protocol version) and made resource-not-found `-32602` with `data: { uri }`
 * (clients still accept the 2025 `-32002`); 2025-era peers built on the v1
 * SDK forward its local `-32000` (connection closed) and `-32001` (request
 * timeout), which mean nothing in 2026-07-28 (`-32001` was the header-mismatch
 * code of the draft before the renumbering), and 2025-11-25's `-32042` (URL
 * elicitation required) is gone from 2026-07-28 (an `input_required` round). One table, tested row by row
 * (`test/protocol-errors.test.ts`).
 */
import { ErrorCode, type AnyErrorCode } from '@tool-search/kernel';
import { McpErrors } from './errors.js';

/** The era a server was spoken to in: `2026-07-28`, or `2025` (2025-11-25 and earlier). */
export type McpEra = '2026-07-28' | '2025';

export interface ProtocolErrorRow {
  readonly wire: number;
  /** Which era the row holds for; `both` when the code means the same in either. */
  readonly era: McpEra | 'both';
  /** Extra condition on `error.data`. */
  readonly when?: (data: Record<string, unknown> | undefined) => boolean;
  readonly code: AnyErrorCode;
  /** The `data` fields copied into `details` (the ones a caller can act on). */
  readonly keep?: readonly string[];
}

const onlyUri = (data: Record<string, unknown> | undefined) =>
  typeof data?.uri === 'string' && Object.keys(data).length === 1;

/** First matching row wins; no row means `MCP_CALL_FAILED`. */
export const PROTOCOL_ERROR_TABLE: readonly ProtocolErrorRow[] = [
  { wire: -32602, era: 'both', when: onlyUri, code: McpErrors.MCP_RESOURCE_NOT_FOUND, keep: ['uri'] },
  { wire: -32002, era: 'both', code: McpErrors.MCP_RESOURCE_NOT_FOUND, keep: ['uri'] },
  { wire: -32020, era: 'both', code: McpErrors.MCP_HEADER_MISMATCH },
  { wire: -32021, era: 'both', code: McpErrors.MCP_CLIENT_CAPABILITY_MISSING, keep: ['requiredCapabilities'] },
  { wire: -32022, era: 'both', code: McpErrors.MCP_PROTOCOL_VERSION_UNSUPPORTED, keep: ['supported', 'requested'] },
  // 2026-07-28 has no -32042: a URL elicitation is an `input_required` round there.
  { wire: -32042, era: '2025', code: McpErrors.MCP_URL_ELICITATION_REQUIRED, keep: ['elicitations'] },
  { wire: -32000, era: '2025', code: McpErrors.MCP_SERVER_UNAVAILABLE },
  { wire: -32001, era: '2025', code: ErrorCode.TOOL_TIMEOUT },
];

export interface MappedProtocolError {
  readonly code: AnyErrorCode;
  /** `mcpCode` (the wire code) and the kept `data` fields. */
  readonly details: Record<string, unknown>;
}

/** Maps a JSON-RPC error `code` (with its `data`) received from a server spoken to in `era`. */
export function mapProtocolError(era: McpEra, wire: number, data?: unknown): MappedProtocolError {
  const fields =
    data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
  const row = PROTOCOL_ERROR_TABLE.find(
    (candidate) =>
      candidate.wire === wire &&
      (candidate.era === 'both' || candidate.era === era) &&
      (candidate.when?.(fields) ?? true),
  );
  const details: Record<string, unknown> = { mcpCode: wire };
  for (const key of row?.keep ?? []) if (fields?.[key] !== undefined) details[key] = fields[key];
  return { code: row?.code ?? McpErrors.MCP_CALL_FAILED, details };
}

/** The era of a negotiated protocol version (`undefined` before a connection: the 2025 reading). */
export function eraOf(protocolVersion: string | undefined): McpEra {
  return protocolVersion !== undefined && protocolVersion >= '2026-07-28' ? '2026-07-28' : '2025';
}

/** Whether a `resources/read` error says the resource does not exist, in either era's encoding. */
export function isResourceNotFoundCode(era: McpEra, wire: number, data?: unknown): boolean {
  return mapProtocolError(era, wire, data).code === McpErrors.MCP_RESOURCE_NOT_FOUND;
}
