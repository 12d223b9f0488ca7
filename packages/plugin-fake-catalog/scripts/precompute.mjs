#!/usr/bin/env node
// postbuild: writes dist/fake-tools.json, the default seed's generated tools (see src/precomputed.ts).
import { writeFileSync } from 'node:fs';

const dist = new URL('../dist/', import.meta.url);
const { generateFakeTool } = await import(new URL('generate.js', dist).href);
const { generatorFingerprint, PRECOMPUTED, PRECOMPUTED_FILE } = await import(new URL('precomputed.js', dist).href);
const fingerprint = generatorFingerprint(dist);
if (!fingerprint) throw new Error('plugin-fake-catalog: dist/generate.js is missing; build first');
const tools = Array.from({ length: PRECOMPUTED.tools }, (_, i) => generateFakeTool(i + 1, PRECOMPUTED.seed));
writeFileSync(new URL(PRECOMPUTED_FILE, dist), JSON.stringify({ fingerprint, seed: PRECOMPUTED.seed, tools }));
