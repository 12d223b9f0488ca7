/**
 * Intent alignment: a request to read ("which…", "show me…", "list…") is
 * better served by a `get`/`list`/`search` tool than by a `create`/`delete`
 * one sharing its nouns, and the reverse. Each tool's intent comes from the
 * verbs in its name (then its first sentence); the query's from its first
 * verb, or from a leading question word.
 */
import { stem } from './stem.js';

export type Intent = 'read' | 'create' | 'update' | 'delete' | 'run';

const VERBS: Readonly<Record<Intent, string>> = {
  read: 'get list fetch show retrieve read view display find search query lookup look describe check count inspect monitor browse download export summarize analyze which what who when where how whether',
  create: 'create add new make insert generate post send write upload publish open book schedule invite assign attach',
  update:
    'update edit modify change set patch rename move replace toggle enable disable archive restore transfer merge resolve close',
  delete: 'delete remove erase destroy drop purge forget clear cancel unassign',
  run: 'run execute exec invoke launch trigger start stop restart deploy rollback kill reboot',
};

const TABLE = new Map<string, Intent>();
for (const [intent, words] of Object.entries(VERBS) as [Intent, string][])
  for (const word of words.split(' ')) if (!TABLE.has(stem(word))) TABLE.set(stem(word), intent);
const QUESTION = new Set([
  'which',
  'why',
  'whose',
  'what',
  'who',
  'when',
  'where',
  'how',
  'is',
  'are',
  'did',
  'does',
  'do',
  'has',
  'have',
  'was',
  'were',
  'any',
  'whether',
]);

/** The intent a (stemmed) term signals, if any. */
export function termIntent(term: string): Intent | undefined {
  return TABLE.get(term);
}

/** The intent of a tool from its name terms, else the first term of its lead sentence. */
export function toolIntent<T>(
  nameTerms: readonly T[],
  leadTerms: readonly T[],
  intentOf: (term: T) => Intent | undefined,
): Intent | undefined {
  for (const term of nameTerms) {
    const intent = intentOf(term);
    if (intent) return intent;
  }
  const first = leadTerms[0];
  return first === undefined ? undefined : intentOf(first);
}

/** The intent of a query from its raw words (question words included); `question`: it ends with a question mark. */
export function queryIntent(rawWords: readonly string[], question = false): Intent | undefined {
  if (rawWords[0] && QUESTION.has(rawWords[0])) return 'read';
  for (const word of rawWords) {
    const intent = TABLE.get(stem(word));
    if (intent) return intent;
  }
  // A request with no verb that ends in a question mark ("outlook calendar for next week?") asks to see something.
  return question ? 'read' : undefined;
}
