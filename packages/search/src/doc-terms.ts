/**
 * A tool's index terms (as ids of one process-wide vocabulary), cached per
 * descriptor object. The kernel hands out deep-frozen descriptors and reuses
 * the same objects run after run, and `indexForRun` builds one index per run:
 * with this cache a new run over an unchanged catalog tokenizes nothing, and
 * only the postings are rebuilt. Only frozen descriptors are cached (a
 * mutable one could change after it was tokenized); the WeakMap lets a
 * descriptor and its terms go together. The vocabulary is shared so cached
 * ids stay valid across indexes; when it grows past a bound a fresh one
 * starts, and entries made with the old one are recomputed on use.
 */
import type { ToolDescriptor } from '@tool-search/kernel';
import { addList, beginDoc, closeBag, endDoc, type PackedDoc } from './bag.js';
import { docText } from './doc-text.js';
import { termIntent, toolIntent, type Intent } from './intent.js';
import { createVocabulary, type Vocabulary } from './vocabulary.js';

/** Packing order of a tool's fields: the index fields, then the lead sentence (for its server's document). */
export const TOOL_FIELDS = ['name', 'title', 'owner', 'description', 'params', 'lead'] as const;

export interface DocTerms {
  /** The bags of `TOOL_FIELDS`; `owner` is the same for every tool of a server. */
  readonly packed: PackedDoc;
  /** From the name's verbs (get/list/create…), else the first word of the description. */
  readonly intent: Intent | undefined;
}

/**
 * Distinct terms before the shared vocabulary is replaced: a few catalogs' worth (11k real MCP tools have ~40k
 * terms). Engines size their offset tables by it, so it also bounds an index's fixed cost (4 bytes a term).
 */
const MAX_SHARED_TERMS = 200_000;

let shared = createVocabulary();
const cache = new WeakMap<ToolDescriptor, { readonly vocab: Vocabulary; readonly terms: DocTerms }>();

/** The vocabulary an index build should use; call once per build so all its ids come from one vocabulary. */
export function currentVocabulary(): Vocabulary {
  if (shared.size > MAX_SHARED_TERMS) shared = createVocabulary();
  return shared;
}

export function docTerms(tool: ToolDescriptor, vocab: Vocabulary): DocTerms {
  const hit = cache.get(tool);
  if (hit && hit.vocab === vocab) return hit.terms;
  const terms = tokenizeTool(tool, vocab);
  if (Object.isFrozen(tool) && Object.isFrozen(tool.inputSchema)) cache.set(tool, { vocab, terms });
  return terms;
}

function tokenizeTool(tool: ToolDescriptor, vocab: Vocabulary): DocTerms {
  const text = docText(tool);
  // Lead sentences, owners and parameter texts repeat across tools and go through the text cache; names are
  // mostly unique and short, so they are tokenized directly rather than filling the cache.
  const name = vocab.ids(text.name);
  const lead = vocab.listOf(text.lead);
  // Tokenizing never touches the bag writer, so pieces go straight into the open bag: no lists of lists.
  beginDoc();
  field(name);
  field(vocab.listOf(text.title));
  field(vocab.listOf(text.owner));
  addList(lead);
  for (const sentence of text.rest) addList(vocab.listOf(sentence));
  closeBag();
  for (const param of text.params) addList(vocab.listOf(param));
  closeBag();
  field(lead);
  return {
    packed: endDoc(),
    intent: toolIntent(name, lead, (id) => termIntent(vocab.term(id))),
  };
}

function field(list: readonly number[]): void {
  addList(list);
  closeBag();
}
