/** The pure model: decay, "repeatedly", leave-one-out, and that fusion adds only tools the caller allows. */
import { describe, expect, it } from 'vitest';
import { buildModel, learnedOrder, SearchCallPairer, type LearningEvent } from '../src/index.js';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 5, 1);
const event = (tool: string, terms: string[], ageDays = 0, rank: number | null = 6): LearningEvent => ({
  t: NOW - ageDays * DAY,
  terms,
  tool,
  rank,
});

describe('buildModel', () => {
  it('weighs a call 0.5^(age / half-life) and needs minCalls decayed calls per word and tool', () => {
    const events = [
      event('t', ['archiv', 'invoic'], 0),
      event('t', ['archiv', 'invoic'], 1),
      event('u', ['archiv'], 0),
    ];
    const fresh = buildModel(events, { now: NOW, halfLifeMs: DAY, minCalls: 1.5 });
    // archiv: t 1.5 of 2.5 (+1 smoothing) → 1.5/3.5; invoic: t 1.5 of 1.5 → 1.5/2.5; averaged over the two words.
    expect(fresh.score(['archiv', 'invoic']).get('t')).toBeCloseTo((1.5 / 3.5 + 1.5 / 2.5) / 2, 6);
    // u has one call: not "repeatedly".
    expect(fresh.score(['archiv']).has('u')).toBe(false);
    // A word the traffic never used dilutes the lift.
    expect(fresh.score(['archiv', 'invoic', 'ledger']).get('t')).toBeCloseTo((1.5 / 3.5 + 1.5 / 2.5) / 3, 6);
    // Two half-lives later t's 1.5 weighs 0.375: under minCalls.
    expect(buildModel(events, { now: NOW + 2 * DAY, halfLifeMs: DAY, minCalls: 1.5 }).score(['archiv']).size).toBe(0);
  });

  it('leaves one event out on request (leave-one-out evaluation)', () => {
    const events = [event('t', ['a']), event('t', ['a']), event('t', ['a'])];
    const model = buildModel(events, { now: NOW, halfLifeMs: DAY, minCalls: 2 });
    expect(model.score(['a']).get('t')).toBeCloseTo(3 / 4, 6);
    expect(model.score(['a'], events[0]).get('t')).toBeCloseTo(2 / 3, 6);
    expect(
      buildModel(events.slice(0, 2), { now: NOW, halfLifeMs: DAY, minCalls: 2 }).score(['a'], events[0]).size,
    ).toBe(0);
  });

  it('adds and removes single calls in place, scoring exactly as a rebuild over the same calls', () => {
    const settings = { now: NOW, halfLifeMs: DAY, minCalls: 1.5 };
    const calls = Array.from({ length: 60 }, (_, i) =>
      event(`tool${i % 4}`, [`w${i % 5}`, `v${i % 3}`, 'shared'], (i % 7) / 3),
    );
    const live = buildModel(calls.slice(0, 20), settings);
    for (const call of calls.slice(20)) live.add(call);
    for (const call of calls.slice(0, 10)) live.remove(call);
    const rebuilt = buildModel(calls.slice(10), settings);
    expect(live.size).toBe(rebuilt.size);
    for (const query of [['w1', 'v2'], ['shared'], ['w4', 'shared', 'unseen'], ['v0']]) {
      const got = live.score(query);
      const want = rebuilt.score(query);
      expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
      for (const [tool, lift] of want) expect(got.get(tool)).toBeCloseTo(lift, 9);
    }
    // Removing every call leaves nothing to lift.
    for (const call of calls.slice(10)) live.remove(call);
    expect(live.size).toBe(0);
    expect(live.score(['shared']).size).toBe(0);
  });
});

describe('learnedOrder', () => {
  it('lifts by the squared share, and adds a tool outside the candidates only when allowed', () => {
    const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
    expect(learnedOrder(ids, new Map([['f', 0.75]]), () => true, { weight: 0.3 })).toEqual([
      'f',
      'a',
      'b',
      'c',
      'd',
      'e',
    ]);
    // One shared word of five (a share of 0.15) does not move a tool past the first hits.
    expect(learnedOrder(ids, new Map([['f', 0.15]]), () => true, { weight: 0.3 })).toBe(ids);
    expect(learnedOrder(ids, new Map([['hidden', 1]]), (id) => id !== 'hidden', { weight: 0.3 })).toBe(ids);
    expect(learnedOrder(ids, new Map([['g', 1]]), () => true, { weight: 0.3 })[0]).toBe('g');
    expect(learnedOrder(ids, new Map([['f', 1]]), () => true, { weight: 0 })).toBe(ids);
  });
});

describe('SearchCallPairer', () => {
  it("pairs a call with the run's latest search, once per tool", () => {
    const pairer = new SearchCallPairer();
    expect(pairer.call('r', 'x')).toBeUndefined();
    pairer.search('r', [
      { query: 'q1', hits: ['a', 'x'] },
      { query: 'q2', hits: ['x'] },
    ]);
    expect(pairer.call('r', 'x')).toEqual({ query: 'q2', rank: 1 });
    expect(pairer.call('r', 'x')).toBeUndefined();
    // A batch that missed the tool: which query meant it is unknowable.
    expect(pairer.call('r', 'y')).toBeUndefined();
    pairer.search('r', [{ query: 'only', hits: ['a'] }]);
    expect(pairer.call('r', 'y')).toEqual({ query: 'only', rank: null });
    expect(pairer.call('other-run', 'a')).toBeUndefined();
  });
});
