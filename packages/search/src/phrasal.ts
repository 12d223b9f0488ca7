/**
 * Query understanding: a phrasal verb says in two words what a tool name says
 * in one ("add up" → sum, "turn on" → enable, "set up" → create). The query is
 * read with the one-word meaning before it is weighted and its intent taken,
 * so "add up the deal values" asks for a sum (a read), not an "add" (a write).
 * General English, not fitted to a query set (README: measured).
 */
const PHRASAL: Readonly<Record<string, string>> = {
  'add up': 'sum total',
  'set up': 'create configure',
  'turn on': 'enable',
  'turn off': 'disable',
  'switch on': 'enable',
  'switch off': 'disable',
  'pull up': 'show get',
  'bring up': 'show get',
  'look up': 'search find',
  'find out': 'find',
  'sign up': 'register',
  'log in': 'login',
  'sign in': 'login',
  'log out': 'logout',
  'sign out': 'logout',
  'shut down': 'stop',
  'note down': 'note save',
  'write down': 'write save',
  'back up': 'backup',
  'clean up': 'clean',
  'fill in': 'fill',
  'fill out': 'fill',
  'hand over': 'transfer',
};

const PATTERN = new RegExp(
  `\\b(?:${Object.keys(PHRASAL)
    .map((phrase) => phrase.replace(' ', '\\s+'))
    .join('|')})\\b`,
  'g',
);

/**
 * Arithmetic: "add" whose object is a number ("add two numbers", "add 3 and 4", "add these values") asks for a sum,
 * not for a new item; the same reading as "add up".
 */
const ARITHMETIC =
  /\badd(?=\s+(?:(?:the|these|those|all|both|a|an|two|three|four|five|several|some|of|and|up|together)\s+){0,3}(?:\d|numbers?\b|values?\b|figures?\b|amounts?\b))/g;

/** `lowered` (a lowercased query) with each phrasal verb replaced by its one-word meaning. */
export function plainVerbs(lowered: string): string {
  const plain = lowered.replace(PATTERN, (phrase) => PHRASAL[phrase.split(/\s+/).join(' ')] ?? phrase);
  return plain.replace(ARITHMETIC, 'sum');
}
