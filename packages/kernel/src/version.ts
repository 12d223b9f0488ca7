/**
 * The running kernel's version, read from this package's package.json (one
 * level up from both `src/` and `dist/`), so a release bump cannot leave a
 * stale constant. Plugin loaders check a plugin's declared range against it.
 */
import { readFileSync } from 'node:fs';

export const KERNEL_VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
