/**
 * What the built binary loads to start (issue 34): start-up time is mostly module loading, so the heavy libraries a
 * command does not need must stay unloaded. Lazy loading regresses silently (one value export from a barrel pulls a
 * whole module graph back in), so the modules are counted here; the times themselves are benchmarks (bench
 * `cli-startup`), never asserted.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../bin/tool-search.js', import.meta.url));
const BUILT = existsSync(fileURLToPath(new URL('../dist/bin.js', import.meta.url)));
if (!BUILT) console.warn('skipping the start-up module tests: dist/bin.js is missing; run `npm run build` first');

// Records every file the process loads, ESM (a `load` hook) and CommonJS (`Module.prototype._compile`), one per line.
const HOOKS = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  if (url.startsWith('file:')) appendFileSync(process.env.LOADED_FILE, url + '\\n');
  return next(url, context);
}
`;
const RECORDER = `import Module, { register } from 'node:module';
import { appendFileSync } from 'node:fs';
register(new URL('./hooks.mjs', import.meta.url));
const compile = Module.prototype._compile;
Module.prototype._compile = function (content, filename) {
  appendFileSync(process.env.LOADED_FILE, filename + '\\n');
  return compile.apply(this, arguments);
};
`;

function loadedBy(args: string[]): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'tool-search-startup-'));
  writeFileSync(join(dir, 'hooks.mjs'), HOOKS);
  writeFileSync(join(dir, 'recorder.mjs'), RECORDER);
  const out = join(dir, 'loaded.txt');
  const result = spawnSync(
    process.execPath,
    ['--import', pathToFileURL(join(dir, 'recorder.mjs')).href, BIN, ...args],
    {
      cwd: dir,
      env: { ...process.env, LOADED_FILE: out },
      encoding: 'utf8',
    },
  );
  expect(result.status, result.stderr).toBe(0);
  return readFileSync(out, 'utf8').split('\n').filter(Boolean);
}

const packagesIn = (files: string[], names: string[]) =>
  names.filter((name) => files.some((file) => file.includes(`/node_modules/${name}/`)));

describe.skipIf(!BUILT)('modules loaded at start-up (the built binary)', () => {
  it('--help loads commander and the command table, no schema validator, telemetry, parser or plugin loader', () => {
    const files = loadedBy(['--help']);
    expect(packagesIn(files, ['commander'])).toEqual(['commander']);
    expect(
      packagesIn(files, ['ajv', '@opentelemetry/api', 'semver', 'acorn', 'json5', 'import-meta-resolve', 'tapable']),
    ).toEqual([]);
    // 18 files when written (the launcher, the program, its command table, the kernel's error API, commander).
    expect(files.length).toBeLessThan(30);
  });

  it('tools list on the demo catalog loads no schema validator, OpenTelemetry, code or config parser, plugin loader', () => {
    const files = loadedBy(['tools', 'list']);
    expect(files.some((file) => file.includes('/plugin-fake-catalog/'))).toBe(true);
    expect(packagesIn(files, ['acorn', 'json5', 'semver', 'import-meta-resolve'])).toEqual([]);
    // The plugins' options (defaults filled) are proved valid without Ajv (the kernel's `surelyValid`).
    expect(packagesIn(files, ['ajv', 'ajv-formats', 'fast-uri', 're2js'])).toEqual([]);
    // Telemetry loads the OpenTelemetry API once an SDK registers (none does here) or providers are given.
    expect(packagesIn(files, ['@opentelemetry/api'])).toEqual([]);
  });
});
