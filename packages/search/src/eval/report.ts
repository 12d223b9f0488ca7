/** A fixed-width table of metrics, for test output, the CLI and benchmarks. */
import type { Metrics } from './metrics.js';

const COLUMNS: readonly (keyof Metrics)[] = ['recallAt1', 'recallAt5', 'recallAt10', 'hitAt1', 'hitAt5', 'mrr'];
const HEADERS = ['R@1', 'R@5', 'R@10', 'Hit@1', 'Hit@5', 'MRR@10'];

export function formatTable(rows: readonly { readonly label: string; readonly metrics: Metrics }[]): string {
  const width = Math.max(8, ...rows.map((row) => row.label.length));
  const line = (label: string, cells: readonly string[]): string =>
    `${label.padEnd(width)} | ${cells.map((c) => c.padStart(6)).join(' | ')}`;
  return [
    line('', HEADERS),
    ...rows.map((row) =>
      line(
        row.label,
        COLUMNS.map((c) => row.metrics[c].toFixed(3)),
      ),
    ),
  ].join('\n');
}
