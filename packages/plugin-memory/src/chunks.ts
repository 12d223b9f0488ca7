/**
 * Memory files become search chunks: a chunk is a section under its nearest
 * heading, cut into pieces of at most `MAX_CHUNK_LINES` lines at blank lines,
 * so a hit names a short line range the model can read with `memory_get`.
 */
export interface MemoryChunk {
  readonly path: string;
  /** 1-based, inclusive. */
  readonly startLine: number;
  readonly endLine: number;
  readonly heading?: string;
  readonly text: string;
}

export const MAX_CHUNK_LINES = 12;

export function chunkMarkdown(path: string, text: string): MemoryChunk[] {
  const lines = text.split(/\r?\n/);
  const chunks: MemoryChunk[] = [];
  let heading: string | undefined;
  let start = -1;
  const flush = (last: number) => {
    if (start < 0) return;
    let end = last;
    while (end > start && lines[end]!.trim() === '') end--;
    const body = lines
      .slice(start, end + 1)
      .join('\n')
      .trim();
    if (body)
      chunks.push({ path, startLine: start + 1, endLine: end + 1, ...(heading ? { heading } : {}), text: body });
    start = -1;
  };
  lines.forEach((line, i) => {
    const title = /^#{1,6}\s+(.*)$/.exec(line);
    if (title) {
      flush(i - 1);
      heading = title[1]!.trim();
      start = i;
      return;
    }
    if (line.trim() === '') {
      if (start >= 0 && i - start + 1 >= MAX_CHUNK_LINES / 2) flush(i - 1);
      return;
    }
    if (start < 0) start = i;
    if (i - start + 1 >= MAX_CHUNK_LINES) flush(i);
  });
  flush(lines.length - 1);
  return chunks;
}
