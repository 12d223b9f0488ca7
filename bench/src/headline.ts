/**
 * The headline figures of BENCHMARKS.md (issue 47): each a ratio measured in ≥ 3 interleaved runs, stated as its
 * median and spread (min–max) with the machine (CPU, a bare `node -e 0`) and the load of every run, kept in
 * `bench/headline.json` and rendered into BENCHMARKS.md. `npm run bench -- --check` measures the rows again and
 * `checkHeadline` decides: a row whose new median falls outside its stated spread, widened by the tolerance, fails,
 * so a stale figure cannot stay in the file. Pure code only here; the measuring is headline-rows.ts.
 */
import { median, round } from './stats.js';

/** Median and spread of one figure over the runs. */
export interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
}

export interface HeadlineRow {
  readonly id: string;
  /** What the ratio is, in words (the table's first column). */
  readonly title: string;
  /** The ratio over the runs: the headline. */
  readonly ratio: Spread;
  /** One ratio per run, in run order. */
  readonly samples: readonly number[];
  /** 1-minute load average just before each run of this row. */
  readonly load: readonly number[];
  /** Absolute figures behind the ratio (ms, µs, turns/s), each over the same runs: the detail. */
  readonly detail: Readonly<Record<string, Spread>>;
  /** Widening of [min, max] for `--check`, as a fraction of the median; the file's default when absent. */
  readonly tolerance?: number;
}

export interface HeadlineMachine {
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGiB: number;
  readonly platform: string;
  readonly node: string;
  /** A bare `node -e 0`, spawn to exit, at the start of each run. */
  readonly nodeE0Ms: Spread;
  /** 1 / 5 / 15-minute load average before the first run and after the last. */
  readonly loadBefore: readonly number[];
  readonly loadAfter: readonly number[];
}

export interface HeadlineFile {
  readonly date: string;
  readonly command: string;
  /** Interleaved runs: run 1 measures every row, then run 2, … */
  readonly runs: number;
  readonly seconds: number;
  readonly machine: HeadlineMachine;
  /** Default widening of [min, max] for `--check`, a fraction of the row's median (see TOLERANCE_WHY). */
  readonly tolerance: number;
  readonly rows: readonly HeadlineRow[];
  /** Rows that could not be measured here, with why (no redis-server, no built CLI). */
  readonly skipped?: Readonly<Record<string, string>>;
}

/**
 * Three runs state a narrow spread: even when nothing changed, the median of three new runs falls outside the
 * [min, max] of three earlier ones 40% of the time (the two lowest, or the two highest, of six draws are both new:
 * 2 × 3/6 × 2/5). So the band is widened by a fraction of the median on each side. 20%: on this shared 2-core machine,
 * back-to-back headlines of unchanged code moved a row's median by at most 4% at load 2 (2026-12-08) and 17% at load
 * 10–17 (2026-12-07), every row staying in its band; the figures stated before issue 47, checked, were 50–70% off
 * (Redis per call 3.87× → 6.5–7×, gateway turns per node start 3.65 → 0.5–1.2) and fail. A noisier row states its own
 * `tolerance`.
 */
export const DEFAULT_TOLERANCE = 0.2;
export const TOLERANCE_WHY =
  'with 3 runs each, unchanged code lands outside the bare [min, max] 40% of the time; back-to-back headlines of unchanged code here moved a median by at most 4% at load 2 and 17% at load 10–17, while the figures stated before issue 47 were 50–70% off';

export function spreadOf(values: readonly number[], digits = 2): Spread {
  if (values.length === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN };
  return {
    median: round(median(values), digits),
    min: round(Math.min(...values), digits),
    max: round(Math.max(...values), digits),
  };
}

/** The band a new median must fall in: [min − t·median, max + t·median]. */
export function allowedBand(row: HeadlineRow, fileTolerance: number): readonly [number, number] {
  const widen = (row.tolerance ?? fileTolerance) * row.ratio.median;
  return [round(row.ratio.min - widen, 3), round(row.ratio.max + widen, 3)];
}

export interface CheckVerdict {
  readonly id: string;
  readonly title: string;
  /** The new median (undefined when the row could not be measured now). */
  readonly measured?: number;
  readonly band: readonly [number, number];
  readonly stated: Spread;
  readonly ok: boolean;
  /** Why the row was not checked (absent when it was). */
  readonly unchecked?: string;
}

export interface CheckResult {
  /** False when any stated row's new median is outside its band. */
  readonly ok: boolean;
  readonly verdicts: readonly CheckVerdict[];
  /** One line per failed or unchecked row, naming it. */
  readonly messages: readonly string[];
}

/**
 * `--check`'s decision: every row of the stated file against the new medians. A row measured outside its band fails;
 * a row that could not be measured now (`skipped`, or absent from `fresh`) is reported, not failed: this machine cannot
 * say the figure is stale. Rows measured now but not stated are ignored (a new row is stated by writing the file).
 */
export function checkHeadline(
  stated: HeadlineFile,
  fresh: Readonly<Record<string, number>>,
  skipped: Readonly<Record<string, string>> = {},
): CheckResult {
  const verdicts = stated.rows.map((row): CheckVerdict => {
    const band = allowedBand(row, stated.tolerance);
    const measured = fresh[row.id];
    const base = { id: row.id, title: row.title, band, stated: row.ratio };
    if (measured === undefined || !Number.isFinite(measured))
      return { ...base, ok: true, unchecked: skipped[row.id] ?? 'not measured in this run' };
    return { ...base, measured, ok: measured >= band[0] && measured <= band[1] };
  });
  const messages = verdicts.flatMap((v) => {
    if (v.unchecked) return [`not checked: ${v.id} (${v.title}): ${v.unchecked}`];
    if (v.ok) return [];
    return [
      `STALE: ${v.id} (${v.title}): measured ${v.measured}×, stated ${v.stated.median}× (${v.stated.min}–${v.stated.max}), allowed ${v.band[0]}–${v.band[1]}`,
    ];
  });
  return { ok: verdicts.every((v) => v.ok), verdicts, messages };
}

/** The new median of each row from a fresh measurement (what `checkHeadline` takes). */
export function medians(file: Pick<HeadlineFile, 'rows'>): Record<string, number> {
  return Object.fromEntries(file.rows.map((row) => [row.id, row.ratio.median]));
}

export const HEADLINE_START = '<!-- headline:start (bench/headline.json; npm run bench -- --headline) -->';
export const HEADLINE_END = '<!-- headline:end -->';

/** The headline section (between its markers), from the file. */
export function headlineSection(h: HeadlineFile): string[] {
  const m = h.machine;
  return [
    HEADLINE_START,
    '## Headline ratios',
    '',
    `Measured by \`${h.command}\` on ${h.date} in ${Math.round(h.seconds)} s: ${h.runs} interleaved runs (run 1 measures every row, then run 2, …),`,
    'each row a ratio against a baseline measured in the same loop; the median of the runs, then the spread (min–max).',
    `Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB RAM, ${m.platform}, Node ${m.node}; a bare \`node -e 0\` took`,
    `${fmt(m.nodeE0Ms.median)} ms (${fmt(m.nodeE0Ms.min)}–${fmt(m.nodeE0Ms.max)}) at the start of the runs. Load average (1 / 5 / 15 min) ${m.loadBefore.join(' / ')} before, ${m.loadAfter.join(' / ')} after;`,
    'the load column is the 1-minute figure before each run of the row. The machine is shared: absolute times are detail.',
    '',
    '| figure | median | spread (min–max) | runs | load at each run | detail: median (min–max) | `--check` band |',
    '|---|---|---|---|---|---|---|',
    ...h.rows.map((row) => {
      const band = allowedBand(row, h.tolerance);
      const x = (value: number) => value.toFixed(2);
      return `| ${row.title} | **${x(row.ratio.median)}×** | ${x(row.ratio.min)}–${x(row.ratio.max)}× | ${row.samples.length} | ${row.load.join(', ')} | ${detailCell(row.detail)} | ${x(band[0])}–${x(band[1])}× |`;
    }),
    '',
    ...Object.entries(h.skipped ?? {}).map(([id, why]) => `Not measured: ${id}: ${why}.`),
    ...(h.skipped && Object.keys(h.skipped).length ? [''] : []),
    `\`npm run bench -- --check\` measures these rows again (${h.runs} interleaved runs, a few minutes) and exits 1 naming every row whose`,
    `new median is outside its band: [min, max] widened by ${Math.round(h.tolerance * 100)}% of the median on each side (a row may state its own), because ${TOLERANCE_WHY}.`,
    '`npm run bench -- --headline` measures them and rewrites this section and `bench/headline.json`.',
    HEADLINE_END,
  ];
}

/** `markdown` with the headline section replaced, or inserted before the first `## ` heading when absent. */
export function withHeadline(markdown: string, h: HeadlineFile): string {
  const section = headlineSection(h).join('\n');
  const start = markdown.indexOf(HEADLINE_START);
  const end = markdown.indexOf(HEADLINE_END);
  if (start !== -1 && end > start)
    return `${markdown.slice(0, start)}${section}${markdown.slice(end + HEADLINE_END.length)}`;
  const first = markdown.indexOf('\n## ');
  if (first === -1) return `${markdown}\n${section}\n`;
  return `${markdown.slice(0, first + 1)}${section}\n\n${markdown.slice(first + 1)}`;
}

/** The absolute figures behind a ratio; percentiles and zero error counts stay in the JSON (and section 8). */
function detailCell(detail: Readonly<Record<string, Spread>>): string {
  return Object.entries(detail)
    .filter(([name, s]) => !/ p(50|99) /.test(`${name} `) && !(name.endsWith('errors') && s.max === 0))
    .map(([name, s]) =>
      s.min === s.max ? `${name} ${fmt(s.median)}` : `${name} ${fmt(s.median)} (${fmt(s.min)}–${fmt(s.max)})`,
    )
    .join('; ');
}

function fmt(value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  if (Number.isInteger(value)) return String(value);
  return Math.abs(value) >= 100 ? value.toFixed(1) : Math.abs(value) >= 10 ? value.toFixed(2) : value.toFixed(3);
}

/** The median of per-run values for one detail figure (helper for the row builders). */
export function detailSpread(values: readonly number[]): Spread {
  return spreadOf(values, 3);
}

/** `markdown` with the section under `heading` (up to the next `## `) replaced by `lines`, or appended when absent. */
export function replaceSection(markdown: string, heading: string, lines: readonly string[]): string {
  const section = lines.join('\n');
  const start = markdown.indexOf(`${heading}\n`);
  if (start === -1) return `${markdown.trimEnd()}\n\n${section}\n`;
  const end = markdown.indexOf('\n## ', start + heading.length);
  return `${markdown.slice(0, start)}${section}${end === -1 ? '' : markdown.slice(end)}`;
}
