// node:fs as Node 22 has it, for the conformance suite on Node 20 (see node20-shim.mjs).
import fs from 'node:fs';
import { globSync as fromGlob } from 'glob';

export * from 'node:fs';
export const globSync = fs.globSync ?? fromGlob;
export default fs;
