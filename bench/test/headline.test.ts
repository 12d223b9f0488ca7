// `--check`'s decision and the headline's place in BENCHMARKS.md, on stated figures written by hand: pure functions, no
// measurement (the smoke measures every headline row once).
import { describe, expect, it } from 'vitest';
import { replicaLoadSection } from '../src/replica-load.js';
import {
  allowedBand,
  checkHeadline,
  HEADLINE_END,
  HEADLINE_START,
  replaceSection,
  spreadOf,
  withHeadline,
  type HeadlineFile,
  type HeadlineRow,
} from '../src/headline.js';

function row(id: string, samples: number[], tolerance?: number): HeadlineRow {
  return {
    id,
    title: `the ${id} ratio`,
    ratio: spreadOf(samples),
    samples,
    load: samples.map(() => 1.5),
    detail: { 'a ms': spreadOf([10, 11, 12]) },
    ...(tolerance !== undefined ? { tolerance } : {}),
  };
}

const STATED: HeadlineFile = {
  date: '2026-12-08T00:30:00.000Z',
  command: 'npm run bench -- --headline',
  runs: 3,
  seconds: 180,
  machine: {
    cpu: 'Test CPU',
    cores: 2,
    memoryGiB: 4,
    platform: 'linux',
    node: 'v20.20.2',
    nodeE0Ms: spreadOf([55, 57, 60]),
    loadBefore: [3, 3, 3],
    loadAfter: [4, 3, 3],
  },
  tolerance: 0.2,
  rows: [row('redis-per-call', [3.6, 3.87, 4.1]), row('code-cold', [1.1, 1.2, 1.25], 0.05)],
};

describe('checkHeadline (npm run bench -- --check)', () => {
  it('passes when every new median is inside its stated spread', () => {
    const result = checkHeadline(STATED, { 'redis-per-call': 3.9, 'code-cold': 1.2 });
    expect(result.ok).toBe(true);
    expect(result.messages).toEqual([]);
  });

  it('passes inside the tolerance just beyond the spread, on either side', () => {
    // 3.87 × 0.2 = 0.774: the band is 2.826–4.874.
    expect(allowedBand(STATED.rows[0]!, STATED.tolerance)).toEqual([2.826, 4.874]);
    expect(checkHeadline(STATED, { 'redis-per-call': 4.8, 'code-cold': 1.2 }).ok).toBe(true);
    expect(checkHeadline(STATED, { 'redis-per-call': 2.9, 'code-cold': 1.2 }).ok).toBe(true);
  });

  it('fails on a stale figure, naming the row: the independent rerun of issue 47 (5.91× against 3.87×)', () => {
    const result = checkHeadline(STATED, { 'redis-per-call': 5.91, 'code-cold': 1.2 });
    expect(result.ok).toBe(false);
    expect(result.verdicts.filter((v) => !v.ok).map((v) => v.id)).toEqual(['redis-per-call']);
    expect(result.messages).toEqual([expect.stringMatching(/^STALE: redis-per-call .*measured 5\.91×.*3\.6–4\.1/)]);
  });

  it('fails when a figure got better than stated too: the file must say what the code does now', () => {
    expect(checkHeadline(STATED, { 'redis-per-call': 2.0, 'code-cold': 1.2 }).ok).toBe(false);
  });

  it("uses a row's own tolerance over the file's", () => {
    // code-cold states 5%: 1.1 − 0.06 = 1.04 is the floor, so 1.0 fails although the file's 20% would pass it.
    const result = checkHeadline(STATED, { 'redis-per-call': 3.87, 'code-cold': 1.0 });
    expect(result.verdicts.map((v) => [v.id, v.ok])).toEqual([
      ['redis-per-call', true],
      ['code-cold', false],
    ]);
  });

  it('reports a row it could not measure here without failing on it', () => {
    const result = checkHeadline(STATED, { 'code-cold': 1.2 }, { 'redis-per-call': 'redis-server is not installed' });
    expect(result.ok).toBe(true);
    expect(result.messages).toEqual([
      'not checked: redis-per-call (the redis-per-call ratio): redis-server is not installed',
    ]);
  });

  it('ignores rows measured now but not stated (a new row is stated by writing the file)', () => {
    expect(checkHeadline(STATED, { 'redis-per-call': 3.87, 'code-cold': 1.2, 'search-tail': 9 }).ok).toBe(true);
  });
});

describe('the headline in BENCHMARKS.md', () => {
  const before = ['# Benchmarks', '', 'intro', '', '## Targets', '', 'kept', '', '## 8. Replicas', '', 'old', ''].join(
    '\n',
  );

  it('goes before the first section, then is replaced in place', () => {
    const once = withHeadline(before, STATED);
    expect(once.indexOf(HEADLINE_START)).toBeGreaterThan(once.indexOf('intro'));
    expect(once.indexOf(HEADLINE_END)).toBeLessThan(once.indexOf('## Targets'));
    expect(once).toContain(
      '| the redis-per-call ratio | **3.87×** | 3.60–4.10× | 3 | 1.5, 1.5, 1.5 | a ms 11 (10–12) | 2.83–4.87× |',
    );
    expect(once).toContain('a bare `node -e 0` took\n57 ms (55–60)');
    expect(withHeadline(once, STATED)).toBe(once);
    const changed = withHeadline(once, { ...STATED, rows: [row('redis-per-call', [5, 6, 7])] });
    expect(changed).toContain('**6.00×**');
    expect(changed).not.toContain('**3.87×**');
    expect(changed.split(HEADLINE_START)).toHaveLength(2);
  });

  it('replaces one numbered section up to the next, keeping the rest', () => {
    const after = replaceSection(before, '## Targets', ['## Targets', '', 'new', '']);
    expect(after).toBe(before.replace('kept', 'new'));
    expect(replaceSection(before, '## 8. Replicas', ['## 8. Replicas', '', 'fresh', ''])).toBe(
      before.replace('old', 'fresh'),
    );
  });
});

describe('section 8 from the headline runs', () => {
  const setup = (label: string, turns: number) => ({
    [`${label} turns/s`]: spreadOf([turns - 1, turns, turns + 2]),
    [`${label} p50 ms`]: spreadOf([300, 310, 320]),
    [`${label} p99 ms`]: spreadOf([900, 1000, 1100]),
    [`${label} errors`]: spreadOf([0, 0, 0]),
    [`${label} gateway CPU ms/turn`]: spreadOf([12, 12.5, 13]),
  });
  const gateway: HeadlineFile = {
    ...STATED,
    rows: [
      {
        ...row('gateway-turns-per-node', [2.5, 3, 3.4]),
        detail: { ...setup('in-process', 40), 'node -e 0 ms': spreadOf([70, 75, 80]) },
      },
      { ...row('gateway-redis-vs-memory', [0.8, 0.9, 1]), detail: setup('Redis', 36) },
      { ...row('gateway-two-vs-one', [0.7, 0.8, 0.9]), detail: setup('2 replicas', 32) },
      {
        ...row('redis-per-call', [4.5, 4.8, 5]),
        detail: {
          'in-process µs': spreadOf([58, 59, 61]),
          'Redis µs': spreadOf([280, 290, 297]),
          'in-process p99 µs': spreadOf([200, 210, 220]),
          'Redis p99 µs': spreadOf([6000, 6500, 7000]),
        },
      },
    ],
  };

  it('tables every setup and store with its spread, the ratios, and where the earlier claim came from', () => {
    const text = replicaLoadSection(gateway, '## 8. Replicas').join('\n');
    expect(text).toContain(
      '| 1 replica, in-process state | **40 (39–42)** | 310 (300–320) ms | 1000 (900–1100) ms | 12.5 (12–13) ms | 0 |',
    );
    expect(text).toContain('| 2 replicas, Redis state, round-robin | **32 (31–34)** |');
    expect(text).toContain('1 replica with Redis / in-process: **0.9× (0.8–1×)**');
    expect(text).toContain('| Redis | 290 (280–297) µs | 6500 (6000–7000) µs |');
    expect(text).toContain('Redis / in-process per call: **4.8× (4.5–5×)**');
    expect(text).toContain('An independent rerun measured 49.7 turns/s (0.76×) and 5.91×.');
  });

  it('says why a part is missing when the headline could not measure it', () => {
    const text = replicaLoadSection(
      { ...STATED, rows: [], skipped: { 'gateway-turns-per-node': 'no CLI', 'redis-per-call': 'no redis' } },
      '## 8',
    ).join('\n');
    expect(text).toContain('Replica load not measured: no CLI.');
    expect(text).toContain('Per-call store cost not measured: no redis.');
  });
});
