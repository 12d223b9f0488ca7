import { describe, expect, it } from 'vitest';
import { createPlainBm25, evaluate, formatTable, type Retriever } from '../src/eval/index.js';
import { catalog } from './helpers/tools.js';

const fixed = (ranked: string[]): Retriever => ({ search: () => ({ hits: ranked.map((id) => ({ id })) }) });

describe('evaluate', () => {
  it('computes recall, hit and MRR from ranked ids', () => {
    const result = evaluate(fixed(['x', 'a', 'y', 'b']), [{ id: 'q', query: 'q', relevant: ['a', 'b'] }], { k: 10 });
    expect(result.metrics).toEqual({ recallAt1: 0, recallAt5: 1, recallAt10: 1, hitAt1: 0, hitAt5: 1, mrr: 0.5 });
    expect(result.queries).toEqual([{ query: 'q', relevant: ['a', 'b'], ranked: ['x', 'a', 'y', 'b'] }]);
  });

  it('scores a miss as zero', () => {
    const result = evaluate(fixed(['x']), [{ id: 'q', query: 'q', relevant: ['a'] }]);
    expect(result.metrics.mrr).toBe(0);
    expect(result.metrics.recallAt10).toBe(0);
  });

  it('averages over queries', () => {
    const result = evaluate(fixed(['a']), [
      { id: '1', query: '1', relevant: ['a'] },
      { id: '2', query: '2', relevant: ['b'] },
    ]);
    expect(result.metrics.recallAt1).toBe(0.5);
  });
});

describe('createPlainBm25', () => {
  it('ranks by plain BM25 over the whole tool text', () => {
    expect(createPlainBm25(catalog).search('slack channel message').hits[0]?.id).toBe('mcp:slack:send_message');
  });
});

describe('formatTable', () => {
  it('prints one row per label', () => {
    const metrics = { recallAt1: 0.1, recallAt5: 0.5, recallAt10: 0.6, hitAt1: 0.2, hitAt5: 0.7, mrr: 0.3 };
    expect(formatTable([{ label: 'x', metrics }]).split('\n')).toHaveLength(2);
  });
});
