/** "1-3,7" → [1, 2, 3, 7], clamped to the document and de-duplicated; no spec → every page. */
export function parsePageRanges(spec: string | undefined, pageCount: number): number[] {
  if (spec === undefined) return Array.from({ length: pageCount }, (_, i) => i + 1);
  const pages = new Set<number>();
  for (const part of spec.split(',')) {
    const [from, to = from] = part.split('-').map((n) => Number.parseInt(n.trim(), 10));
    for (let page = Math.max(1, from!); page <= Math.min(pageCount, to!); page++) pages.add(page);
  }
  return [...pages].sort((a, b) => a - b);
}
