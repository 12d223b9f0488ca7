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

const PATTERN = new RegExp(`\\b(?:${Object.keys(PHRASAL).map((phrase) => phrase.replace(' ', '\\s+')).join('|')})\\b`, 'g');

/** `lowered` (a lowercased query) with each phrasal verb replaced by its one-word meaning. */
export function plainVerbs(lowered: string): string {
  return lowered.replace(PATTERN, (phrase) => PHRASAL[phrase.split(/\s+/).join(' ')] ?? phrase);
}
