/** "1-3,7" → [1, 2, 3, 7], clamped to the document and de-duplicated; no spec → every page. */
export function parsePageRanges(spec: string | undefined, pageCount: number): number[] {
  return choosePages(spec, pageCount, Number.POSITIVE_INFINITY).pages;
}

/**
 * The first `max` pages of `spec` (as `parsePageRanges` reads it) and how many it names in all, counted from merged
 * ranges, never listed: the page count comes from the PDF, and a 600-byte file claims 5 billion pages.
 */
export function choosePages(
  spec: string | undefined,
  pageCount: number,
  max: number,
): { pages: number[]; total: number } {
  const ranges = (spec === undefined ? [[1, pageCount] as const] : spec.split(',').map(range))
    .map(([from, to]) => [Math.max(1, from), Math.min(pageCount, to)] as const)
    .filter(([from, to]) => from <= to)
    .sort((a, b) => a[0] - b[0]);
  const pages: number[] = [];
  let total = 0;
  let next = 1;
  for (const [from, to] of ranges) {
    const start = Math.max(from, next);
    if (start > to) continue;
    total += to - start + 1;
    for (let page = start; page <= to && pages.length < max; page++) pages.push(page);
    next = to + 1;
  }
  return { pages, total };
}

function range(part: string): readonly [number, number] {
  const [from, to = from] = part.split('-').map((n) => Number.parseInt(n.trim(), 10));
  return [from!, to!];
}
