/**
 * Plain Okapi BM25 (k1 = 1.2, b = 0.75), as `shared/data/README.md` measures
 * it: one document per tool = split name + title + description + parameter
 * names and descriptions + server; lowercased, split on non-alphanumerics, CJK
 * ideographs one by one, kana dropped, no stemming, no stopwords; ties by
 * catalog order. The baseline every ranking change is compared with.
 */
import type { ToolDescriptor } from '@tool-search/kernel';
import { schemaText } from '../schema-text.js';
import type { Retriever } from './metrics.js';

const K1 = 1.2;
const B = 0.75;

export function createPlainBm25(descriptors: readonly ToolDescriptor[]): Retriever {
  const docs = descriptors.map((tool) => {
    const params = schemaText(tool.inputSchema);
    return tokenize(
      `${splitName(tool.name)} ${tool.title ?? ''} ${tool.description} ${params.names.join(' ')} ${params.descriptions.join(' ')} ${tool.owner}`,
    );
  });
  const avg = docs.reduce((sum, doc) => sum + doc.length, 0) / Math.max(docs.length, 1);
  const index = new Map<string, { doc: number; tf: number }[]>();
  docs.forEach((doc, i) => {
    const counts = new Map<string, number>();
    for (const term of doc) counts.set(term, (counts.get(term) ?? 0) + 1);
    for (const [term, tf] of counts) {
      let list = index.get(term);
      if (!list) index.set(term, (list = []));
      list.push({ doc: i, tf });
    }
  });
  const n = docs.length;
  return {
    search(query, options = {}) {
      const scores = new Map<number, number>();
      for (const term of tokenize(query)) {
        const list = index.get(term);
        if (!list) continue;
        const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
        for (const { doc, tf } of list) {
          const norm = tf + K1 * (1 - B + (B * docs[doc]!.length) / avg);
          scores.set(doc, (scores.get(doc) ?? 0) + (idf * tf * (K1 + 1)) / norm);
        }
      }
      const ranked = [...scores.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, options.limit ?? 10);
      return { hits: ranked.map(([doc]) => ({ id: descriptors[doc]!.id })) };
    },
  };
}

function splitName(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_\-./]/g, ' ');
}

function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const piece of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (!piece) continue;
    // CJK ideographs become one token each; kana and other scripts outside a-z0-9 are dropped.
    for (const part of piece.split(/([\u3400-\u4dbf\u4e00-\u9fff])/u)) {
      if (!part) continue;
      if (/^[\u3400-\u4dbf\u4e00-\u9fff]$/u.test(part)) out.push(part);
      else for (const word of part.split(/[^a-z0-9]+/)) if (word) out.push(word);
    }
  }
  return out;
}
