#!/usr/bin/env node
// A committed launcher, so `npm ci` can link the `tool-search` bin before the
// TypeScript build has written dist/.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/bin.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('tool-search: not built yet; run `npm run build` at the repository root first\n');
  process.exit(1);
}
await import(entry.href);
