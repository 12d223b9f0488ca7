/**
 * Answers into the sandbox are capped at `limits.maxReplyBytes` (JSON bytes,
 * default 1 MiB): a 50 MB tool result must not end the run as "out of memory".
 * A cut call result keeps its shape — text parts cut to fit, other parts and
 * `structuredContent` dropped when they do not — and says so with
 * `truncated: true` and `originalBytes`, which the code can read. Any other
 * answer that is too large becomes `{ truncated: true, originalBytes, json }`
 * (its JSON text, cut).
 */
import { cutUtf8 } from './utf8.js';

export interface CappedReply {
  readonly value: unknown;
  readonly cut: boolean;
}

const ENVELOPE_BYTES = 256;

export function capReply(op: 'search' | 'describe' | 'call', value: unknown, maxBytes: number): CappedReply {
  const json = JSON.stringify(value) ?? 'null';
  const bytes = Buffer.byteLength(json, 'utf8');
  if (bytes <= maxBytes) return { value, cut: false };
  if (op === 'call' && isToolResult(value)) {
    const cut = cutToolResult(value, maxBytes - ENVELOPE_BYTES, bytes);
    if (Buffer.byteLength(JSON.stringify(cut), 'utf8') <= maxBytes) return { value: cut, cut: true };
  }
  return {
    value: { truncated: true, originalBytes: bytes, json: cutUtf8(json, Math.max(0, maxBytes - ENVELOPE_BYTES)) },
    cut: true,
  };
}

interface ToolResultLike {
  readonly content: readonly { readonly type?: unknown; readonly text?: unknown }[];
  readonly structuredContent?: unknown;
  readonly isError?: unknown;
}

function isToolResult(value: unknown): value is ToolResultLike {
  return typeof value === 'object' && value !== null && Array.isArray((value as ToolResultLike).content);
}

function cutToolResult(result: ToolResultLike, budget: number, originalBytes: number): Record<string, unknown> {
  let room = budget;
  const content: unknown[] = [];
  for (const part of result.content) {
    const size = Buffer.byteLength(JSON.stringify(part) ?? '', 'utf8');
    if (size <= room) {
      content.push(part);
      room -= size;
    } else if (part.type === 'text' && typeof part.text === 'string' && room > 64) {
      // JSON escaping can grow text up to 6×; cut the raw text so its JSON fits.
      content.push({ type: 'text', text: cutUtf8(part.text, Math.floor((room - 32) / 6)) });
      room = 0;
    }
  }
  const structured = result.structuredContent;
  const keepStructured =
    structured !== undefined && Buffer.byteLength(JSON.stringify(structured) ?? '', 'utf8') <= room;
  return {
    content,
    ...(keepStructured ? { structuredContent: structured } : {}),
    ...(result.isError === true ? { isError: true } : {}),
    truncated: true,
    originalBytes,
  };
}
