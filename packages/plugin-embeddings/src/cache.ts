/**
 * Vectors by model and descriptor content: in memory for the process, and on
 * disk when `cacheDir` is set (one JSONL file per model, appended a batch at a
 * time, read once). The key is a SHA-256 of the model, the dimensions and the
 * text embedded, so a changed description is embedded again and an unchanged
 * catalog never is.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface VectorCache {
  get(key: string): Float32Array | undefined;
  /** Stores a batch (and appends it to the disk file). */
  putAll(entries: readonly (readonly [string, Float32Array])[]): void;
}

export function contentKey(model: string, dimensions: number | undefined, text: string): string {
  return createHash('sha256')
    .update(`${model}\u0000${dimensions ?? ''}\u0000${text}`)
    .digest('base64url');
}

export function createVectorCache(model: string, cacheDir: string | undefined): VectorCache {
  const memory = new Map<string, Float32Array>();
  const file = cacheDir
    ? path.join(cacheDir, `${createHash('sha256').update(model).digest('hex').slice(0, 16)}.jsonl`)
    : undefined;
  if (file) load(file, memory);
  return {
    get: (key) => memory.get(key),
    putAll(entries) {
      for (const [key, vector] of entries) memory.set(key, vector);
      if (!file || entries.length === 0) return;
      mkdirSync(path.dirname(file), { recursive: true });
      appendFileSync(
        file,
        entries
          .map(([key, vector]) =>
            JSON.stringify({
              k: key,
              v: Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64'),
            }),
          )
          .join('\n') + '\n',
      );
    },
  };
}

/** Reads the cache file; a missing file is an empty cache, a torn last line (a crash mid-write) is skipped. */
function load(file: string, into: Map<string, Float32Array>): void {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return;
  }
  for (const line of text.split('\n')) {
    if (!line) continue;
    try {
      const { k, v } = JSON.parse(line) as { k?: unknown; v?: unknown };
      if (typeof k !== 'string' || typeof v !== 'string') continue;
      const bytes = Buffer.from(v, 'base64');
      into.set(k, new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)));
    } catch {
      continue;
    }
  }
}
