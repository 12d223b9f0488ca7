import type { FileHandle } from 'node:fs/promises';

const READ_CHUNK_BYTES = 1024 * 1024;

/**
 * An open file's bytes, `maxBytes` at most, or `tooLarge(size)` thrown. The size is checked before reading and again
 * while reading: a process in the workspace can grow the file between the two, and `readFile` reads to the end
 * whatever the check saw (64 MB past a 1,000-byte limit in 61 of 3,000 reads). A small result may be a slice of
 * Node's buffer pool: copy it before transferring it to a worker.
 */
export async function readAtMost(
  handle: FileHandle,
  maxBytes: number,
  tooLarge: (size: number) => Error,
): Promise<Buffer> {
  const { size } = await handle.stat();
  if (size > maxBytes) throw tooLarge(size);
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.min(READ_CHUNK_BYTES, maxBytes + 1 - total));
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, total);
    if (!bytesRead) return Buffer.concat(chunks, total);
    total += bytesRead;
    if (total > maxBytes) throw tooLarge(total);
    chunks.push(chunk.subarray(0, bytesRead));
  }
}
