/**
 * A hand-written SVG line chart of request bytes against catalog size, both
 * on log scales, one line per exposure mode; the real catalog is drawn as
 * markers at its size. No chart dependency: the file is small and diffable.
 */
import type { CatalogPayload, Mode } from './payload.js';

const WIDTH = 720;
const HEIGHT = 440;
const MARGIN = { left: 80, right: 150, top: 40, bottom: 60 };
const COLORS: Readonly<Record<Mode, string>> = {
  direct: '#d62728',
  code: '#1f77b4',
  tools: '#2ca02c',
  directory: '#ff7f0e',
};

export function payloadChart(fake: readonly CatalogPayload[], real?: CatalogPayload): string {
  const points = [...fake, ...(real ? [real] : [])];
  const sizes = points.map((p) => p.catalogSize);
  const bytes = points.flatMap((p) => p.modes.map((m) => m.requestBytes));
  const x = logScale(Math.min(...sizes), Math.max(...sizes), MARGIN.left, WIDTH - MARGIN.right);
  // Whole decades on the y axis, so every point sits between two labelled grid lines.
  const low = 10 ** Math.floor(Math.log10(Math.min(...bytes)));
  const high = 10 ** Math.ceil(Math.log10(Math.max(...bytes)));
  const y = logScale(low, high, HEIGHT - MARGIN.bottom, MARGIN.top);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="white"/>`,
    `<text x="${WIDTH / 2 - 60}" y="22" font-size="14" font-weight="bold">Request bytes vs catalog size</text>`,
  ];
  for (const tick of decades(low, high)) {
    out.push(`<line x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${y(tick)}" y2="${y(tick)}" stroke="#ddd"/>`);
    out.push(`<text x="${MARGIN.left - 8}" y="${y(tick) + 4}" text-anchor="end">${formatBytes(tick)}</text>`);
  }
  for (const size of sizes) {
    out.push(`<line x1="${x(size)}" x2="${x(size)}" y1="${MARGIN.top}" y2="${HEIGHT - MARGIN.bottom}" stroke="#eee"/>`);
    out.push(
      `<text x="${x(size)}" y="${HEIGHT - MARGIN.bottom + 18}" text-anchor="middle">${size.toLocaleString('en-US')}</text>`,
    );
  }
  out.push(
    `<text x="${(MARGIN.left + WIDTH - MARGIN.right) / 2}" y="${HEIGHT - 18}" text-anchor="middle">tools in the catalog (log scale)</text>`,
  );
  out.push(
    `<text x="18" y="${(MARGIN.top + HEIGHT - MARGIN.bottom) / 2}" transform="rotate(-90 18 ${(MARGIN.top + HEIGHT - MARGIN.bottom) / 2})" text-anchor="middle">request bytes (log scale)</text>`,
  );
  const modes = fake[0]?.modes.map((m) => m.mode) ?? [];
  modes.forEach((mode, i) => {
    const line = fake.map((p) => `${x(p.catalogSize).toFixed(1)},${y(bytesOf(p, mode)).toFixed(1)}`).join(' ');
    out.push(`<polyline points="${line}" fill="none" stroke="${COLORS[mode]}" stroke-width="2"/>`);
    for (const p of fake)
      out.push(
        `<circle cx="${x(p.catalogSize).toFixed(1)}" cy="${y(bytesOf(p, mode)).toFixed(1)}" r="3" fill="${COLORS[mode]}"/>`,
      );
    if (real) {
      const cx = x(real.catalogSize).toFixed(1);
      const cy = y(bytesOf(real, mode)).toFixed(1);
      out.push(
        `<rect x="${Number(cx) - 4}" y="${Number(cy) - 4}" width="8" height="8" fill="none" stroke="${COLORS[mode]}" stroke-width="2"/>`,
      );
    }
    const ly = MARGIN.top + 10 + i * 20;
    out.push(
      `<line x1="${WIDTH - MARGIN.right + 15}" x2="${WIDTH - MARGIN.right + 40}" y1="${ly}" y2="${ly}" stroke="${COLORS[mode]}" stroke-width="2"/>`,
    );
    out.push(`<text x="${WIDTH - MARGIN.right + 46}" y="${ly + 4}">${mode}</text>`);
  });
  if (real) {
    const ly = MARGIN.top + 10 + modes.length * 20;
    out.push(
      `<rect x="${WIDTH - MARGIN.right + 23}" y="${ly - 4}" width="8" height="8" fill="none" stroke="#555" stroke-width="2"/>`,
    );
    out.push(`<text x="${WIDTH - MARGIN.right + 46}" y="${ly + 4}">real MCP catalog</text>`);
  }
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}

function bytesOf(payload: CatalogPayload, mode: Mode): number {
  return payload.modes.find((m) => m.mode === mode)?.requestBytes ?? 1;
}

function logScale(min: number, max: number, from: number, to: number): (v: number) => number {
  const lo = Math.log10(min);
  const span = Math.max(Math.log10(max) - lo, 1e-9);
  return (v) => Math.round((from + ((Math.log10(v) - lo) / span) * (to - from)) * 10) / 10;
}

function decades(min: number, max: number): number[] {
  const out: number[] = [];
  for (let e = Math.ceil(Math.log10(min)); e <= Math.floor(Math.log10(max)); e++) out.push(10 ** e);
  return out;
}

function formatBytes(value: number): string {
  if (value >= 1e6) return `${value / 1e6} MB`;
  if (value >= 1e3) return `${value / 1e3} kB`;
  return `${value} B`;
}
