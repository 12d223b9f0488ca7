// Registers a resolve hook so the conformance suite runs on Node 20: it imports
// Node 22's `fs.globSync`, which Node 20 lacks; its `fs` import is pointed at
// `fs-with-glob.mjs` (node:fs plus `globSync` from the glob package).
import { register } from 'node:module';

register('./node20-hooks.mjs', import.meta.url);
