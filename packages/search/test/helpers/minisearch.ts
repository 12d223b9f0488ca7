/**
 * MiniSearch 7 over the same text and tokenizer as this package, for the
 * side-by-side in the quality test (the README says why it is not the engine).
 */
import MiniSearch from 'minisearch';
import type { ToolDescriptor } from '@tool-search/kernel';
import type { Retriever } from '../../src/eval/index.js';
import { docText } from '../../src/doc-text.js';
import { terms } from '../../src/tokenize.js';

export function createMiniSearch(tools: readonly ToolDescriptor[]): Retriever {
  const index = new MiniSearch({
    fields: ['name', 'title', 'owner', 'description', 'params'],
    tokenize: (text: string) => terms(text),
    processTerm: (term: string) => term,
    searchOptions: { boost: { name: 3, title: 1.5, owner: 2, description: 1, params: 0.4 }, combineWith: 'OR' },
  });
  index.addAll(
    tools.map((tool, i) => {
      const text = docText(tool);
      return {
        id: i,
        name: text.name,
        title: text.title,
        owner: text.owner,
        description: [text.lead, ...text.rest].join(' '),
        params: text.params.join(' '),
      };
    }),
  );
  return {
    search: (query, options) => ({
      hits: index
        .search(query)
        .slice(0, options?.limit ?? 10)
        .map((hit) => ({ id: tools[hit.id as number]!.id })),
    }),
  };
}
