/**
 * The generated plugin tools of the default seed (the demo catalog's), written at build time beside the built
 * generator (`dist/fake-tools.json`, by `scripts/precompute.mjs`, this package's postbuild). Reading them is several
 * times faster than generating 1,000 tools at every CLI start. The file carries a fingerprint of the built generator,
 * so a generator rebuilt without the postbuild is never answered by an old file; without the file (tests run the
 * sources) the tools are generated.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FakeToolSpec } from './generate.js';

export const PRECOMPUTED_FILE = 'fake-tools.json';
/** Seed and number of tools the file holds (a smaller catalog of that seed is its prefix). */
export const PRECOMPUTED = Object.freeze({ seed: 1, tools: 1000 });
const GENERATOR_FILES = ['generate.js', 'domains.js'];

interface PrecomputedFile {
  readonly fingerprint: string;
  readonly seed: number;
  readonly tools: FakeToolSpec[];
}

/** A hash of the built generator in `dir`; `undefined` where it is not built (the sources). */
export function generatorFingerprint(dir: URL): string | undefined {
  try {
    const hash = createHash('sha256');
    for (const file of GENERATOR_FILES) hash.update(readFileSync(new URL(file, dir)));
    return hash.digest('hex');
  } catch {
    return undefined;
  }
}

const HERE = new URL('./', import.meta.url);
let text: string | null | undefined;

/** The first `count` tools of `seed` from the file, fresh objects each call; `undefined` when the file cannot answer. */
export function precomputedTools(seed: number, count: number): FakeToolSpec[] | undefined {
  if (seed !== PRECOMPUTED.seed || count > PRECOMPUTED.tools) return undefined;
  text ??= readPrecomputed();
  if (text === null) return undefined;
  const file = JSON.parse(text) as PrecomputedFile;
  return file.tools.slice(0, count);
}

function readPrecomputed(): string | null {
  const fingerprint = generatorFingerprint(HERE);
  if (fingerprint === undefined) return null;
  try {
    const raw = readFileSync(new URL(PRECOMPUTED_FILE, HERE), 'utf8');
    // The fingerprint is the file's first field: checked before parsing 1.5 MB.
    return raw.startsWith(`{"fingerprint":${JSON.stringify(fingerprint)},"seed":${PRECOMPUTED.seed},`) ? raw : null;
  } catch {
    return null;
  }
}
