/**
 * Interns terms as small integers for the index build: one map lookup per
 * word occurrence turns raw text into term ids (stopword removal and stemming
 * happen once per distinct word), so the engine works on numbers, not
 * strings. (A hand-rolled hash over char codes was measured slower than V8's
 * native string hashing, so this stays a plain Map.)
 */
import { termOf, words } from './tokenize.js';

export interface Vocabulary {
  /** Term ids of `text`, in order. */
  ids(text: string): number[];
  /** Term ids of several texts, concatenated; short texts are cached (boilerplate repeats across tools). */
  idsOf(texts: readonly string[]): number[];
  /** Id of an already-stemmed term, or `undefined` when no indexed text has it. */
  idOf(term: string): number | undefined;
  /** The term of an id. */
  term(id: number): string;
  readonly size: number;
}

const DROPPED = -1;
const MAX_WORDS = 1 << 20;
const MAX_PIECES = 1 << 17;
const MAX_CACHED_PIECE = 400;

export function createVocabulary(): Vocabulary {
  const byWord = new Map<string, number>();
  const byTerm = new Map<string, number>();
  const termList: string[] = [];
  const pieces = new Map<string, readonly number[]>();
  const ids = (text: string): number[] => {
    const out: number[] = [];
    for (const word of words(text)) {
      let id = byWord.get(word);
      if (id === undefined) {
        const term = termOf(word);
        if (term === undefined) id = DROPPED;
        else {
          id = byTerm.get(term);
          if (id === undefined) {
            byTerm.set(term, (id = termList.length));
            termList.push(term);
          }
        }
        if (byWord.size < MAX_WORDS) byWord.set(word, id);
      }
      if (id !== DROPPED) out.push(id);
    }
    return out;
  };
  return {
    ids,
    idsOf(texts) {
      const out: number[] = [];
      for (const text of texts) {
        if (text.length > MAX_CACHED_PIECE) {
          for (const id of ids(text)) out.push(id);
          continue;
        }
        let list = pieces.get(text);
        if (list === undefined) {
          list = ids(text);
          if (pieces.size < MAX_PIECES) pieces.set(text, list);
        }
        for (const id of list) out.push(id);
      }
      return out;
    },
    idOf: (term) => byTerm.get(term),
    term: (id) => termList[id] ?? '',
    get size() {
      return termList.length;
    },
  };
}
