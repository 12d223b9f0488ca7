/**
 * The query-path rewrites made for the latency tail (issue 47) answer exactly as the code they replaced: the
 * allocation-free last-resort suggestion against the kernel's `suggestIds`, the banded typo distance against a full
 * table, the ASCII pass of `stripUntrustedTokens` against the Unicode passes; and a rebuild over the kernel's frozen
 * descriptors finds its hits rendered. Deterministic pseudo-random inputs;
 * the ranking itself is held by the quality suites (identical results on the shared data, measured in the report).
 */
import { describe, expect, it } from 'vitest';
import { deepFreeze, suggestIds, type ToolDescriptor } from '@tool-search/kernel';
import { closestDocs } from '../src/closest.js';
import { boundedDistance } from '../src/exact-names.js';
import { createToolIndex } from '../src/index.js';
import { stripUntrustedTokens } from '../src/untrusted-text.js';
import { tool } from './helpers/tools.js';

/** A small linear congruential generator: the same inputs on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function text(next: () => number, alphabet: string, min: number, max: number): string {
  const length = min + Math.floor(next() * (max - min + 1));
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(next() * alphabet.length)];
  return out;
}

/** Optimal string alignment distance over the full table (what `boundedDistance` bounds). */
function osa(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => i + j));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  return d[a.length]![b.length]!;
}

describe('query paths rewritten for the latency tail', () => {
  it('the last-resort suggestion orders tools as the kernel suggestIds does', () => {
    const next = random(47);
    const words = ['get', 'list', 'Create', 'issue', 'file', 'page', 'user', 'x', 'repo', 'send_mail', '東京', 'é'];
    const tools: ToolDescriptor[] = Array.from({ length: 60 }, (_, i) => {
      const name = `${words[i % words.length]}_${words[(i * 7) % words.length]}${i % 5 === 0 ? 'Now' : ''}`;
      return tool(name, 'A tool.', { type: 'object' }, { owner: `server-${i}` });
    });
    const docs = tools.map((_, i) => i);
    const queries = ['機体番号 B-2021 の飛行機', 'get issue', 'SEND MAIL now', 'zzz', '', 'list_repo 2021', 'x y x'];
    for (let i = 0; i < 120; i++) queries.push(text(next, 'abcdefgilnorstuwxy_ -09東é', 0, 40));
    for (const query of queries)
      for (const count of [1, 3, 9])
        expect(closestDocs(query, docs, tools, count).map((doc) => tools[doc]!.id)).toEqual(
          suggestIds(query, tools, count),
        );
  });

  it('the banded typo distance equals the full table within its bound', () => {
    const next = random(7);
    for (let i = 0; i < 3000; i++) {
      const a = text(next, 'abcde', 0, 14);
      const b = text(next, 'abcde', 0, 14);
      const max = 1 + Math.floor(next() * 3);
      expect(boundedDistance(a, b, max)).toBe(Math.min(osa(a, b), max + 1));
    }
  });

  it('ASCII text goes through one plain pass with the result of the Unicode passes', () => {
    const unicodePasses = (value: string): string =>
      value
        .split('…')
        .map((part) => part.normalize('NFKC'))
        .join('…')
        .replace(/[\p{Cf}\p{Co}\p{Cn}\p{Cs}]/gu, '')
        .replace(/[\p{Cc}\p{Zl}\p{Zp}]/gu, ' ')
        .replace(/<\|[^<>|]{0,64}\|>/g, ' ')
        .replace(/<<\/?SYS>>|\[\/?INST\]|\[\/?SYS\]/gi, ' ')
        .replace(/\s+/g, ' ')
        .trim();
    const next = random(11);
    const ascii = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c)).join('');
    const samples = ['<|im_start|>system\nhi', '[INST] x [/INST]\t<<SYS>>', 'a\u0000b\u007fc\r\nd', 'plain', ''];
    for (let i = 0; i < 2000; i++) samples.push(text(next, ascii, 0, 60));
    for (const sample of samples) expect(stripUntrustedTokens(sample)).toBe(unicodePasses(sample));
    // Non-ASCII text still takes the Unicode passes.
    expect(stripUntrustedTokens('＜｜im_start｜＞ a\u200bb\u2028c')).toBe(
      unicodePasses('＜｜im_start｜＞ a\u200bb\u2028c'),
    );
  });

  it('a new index over the same frozen descriptors reuses their rendered hits; a mutable descriptor is rendered anew', () => {
    const frozen = [tool('read_file', 'Read a file.'), tool('write_file', 'Write a file.')].map((t) => deepFreeze(t));
    const first = createToolIndex(frozen).search('read_file').hits[0];
    const again = createToolIndex([...frozen]).search('read_file').hits[0];
    expect(first?.id).toBe('mcp:files:read_file');
    expect(again).toBe(first);

    const mutable = [tool('read_file', 'Read a file.'), tool('write_file', 'Write a file.')];
    expect(createToolIndex(mutable).search('read_file').hits[0]?.summary).toBe('Read a file.');
    (mutable[0] as { description: string }).description = 'Read a whole file.';
    expect(createToolIndex(mutable).search('read_file').hits[0]?.summary).toBe('Read a whole file.');
  });

  it('a query no catalog word meets still comes back with the closest names, all weak', () => {
    const index = createToolIndex([
      tool('read_file', 'Read a file.'),
      tool('send_message', 'Send a chat message.'),
      tool('list_issues', 'List issues.'),
    ]);
    const result = index.search('機体番号');
    expect(result.hits.length).toBeGreaterThan(0);
    expect(result.hits.every((hit) => hit.weak === true)).toBe(true);
  });
});
