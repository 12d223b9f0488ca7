/**
 * What the built binary loads to start (issue 34): start-up time is mostly module loading, so the heavy libraries a
 * command does not need must stay unloaded. Lazy loading regresses silently (one value export from a barrel pulls a
 * whole module graph back in), so the modules are counted here; the times themselves are benchmarks (bench
 * `cli-startup`), never asserted.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
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

function recorder(): { dir: string; out: string; argv: (args: string[]) => string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'tool-search-startup-'));
  writeFileSync(join(dir, 'hooks.mjs'), HOOKS);
  writeFileSync(join(dir, 'recorder.mjs'), RECORDER);
  const out = join(dir, 'loaded.txt');
  return { dir, out, argv: (args) => ['--import', pathToFileURL(join(dir, 'recorder.mjs')).href, BIN, ...args] };
}

function loadedBy(args: string[], config?: object): string[] {
  const { dir, out, argv } = recorder();
  if (config) writeFileSync(join(dir, 'tool-search.json'), JSON.stringify(config));
  const result = spawnSync(process.execPath, argv(args), {
    cwd: dir,
    env: { ...process.env, LOADED_FILE: out },
    encoding: 'utf8',
  });
  expect(result.status, result.stderr).toBe(0);
  return readFileSync(out, 'utf8').split('\n').filter(Boolean);
}

/** What a server command loaded by the time it printed its URL (then Ctrl-C). */
async function loadedServing(args: string[]): Promise<string[]> {
  const { dir, out, argv } = recorder();
  const child = spawn(process.execPath, argv(args), {
    cwd: dir,
    env: { ...process.env, LOADED_FILE: out },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  const ready = new Promise<void>((resolve, reject) => {
    const seen = (chunk: Buffer) => {
      printed += chunk.toString();
      if (printed.includes('http://127.0.0.1:')) resolve();
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    child.on('exit', (code) => reject(new Error(`exited with ${code} before serving: ${printed}`)));
  });
  await ready;
  const loaded = readFileSync(out, 'utf8').split('\n').filter(Boolean);
  child.kill('SIGINT');
  await once(child, 'close');
  return loaded;
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

  // A group's help is its command files' registrations: they import the config package, the preset, the kernel's
  // barrel, search and the result formats only when a command runs (option choices come from light subpaths:
  // `@tool-search/config/modes`, `@tool-search/preset/serve-mcp-options`; eval registers in eval.ts, runs eval-run.ts).
  for (const group of [
    'tools',
    'config',
    'code',
    'mcp',
    'errors',
    'gateway',
    'serve',
    'exposure',
    'inspect',
    'configure',
  ]) {
    it(`${group} --help loads no config package, preset or kernel barrel`, () => {
      const files = loadedBy([group, '--help']);
      const heavy = [
        '/config/dist/index.js',
        '/preset/dist/index.js',
        '/kernel/dist/index.js',
        '/search/dist/index.js',
      ];
      expect(files.filter((file) => heavy.some((entry) => file.endsWith(entry)))).toEqual([]);
      // 16-30 files when written (commander, the group's command files, the kernel's error API); ~245 before.
      expect(files.length).toBeLessThan(45);
    });
  }

  it('tools list on the demo catalog loads no schema validator, OpenTelemetry, code or config parser, plugin loader', () => {
    const files = loadedBy(['tools', 'list']);
    expect(files.some((file) => file.includes('/plugin-fake-catalog/'))).toBe(true);
    expect(packagesIn(files, ['acorn', 'json5', 'semver', 'import-meta-resolve'])).toEqual([]);
    // The plugins' options (defaults filled) are proved valid without Ajv (the kernel's `surelyValid`).
    expect(packagesIn(files, ['ajv', 'ajv-formats', 'fast-uri', 're2js'])).toEqual([]);
    // Telemetry loads the OpenTelemetry API once an SDK registers (none does here) or providers are given.
    expect(packagesIn(files, ['@opentelemetry/api'])).toEqual([]);
  });

  it('tools list with the core tools loads no provider SDK: image, pdf and llm-task load theirs on the first call', () => {
    // A provider with a key lists `image` (the main model reads images), so its plugin loads, but not its SDK.
    const files = loadedBy(['tools', 'list'], {
      plugins: { core: {} },
      provider: { kind: 'openai', model: 'gpt-4.1', apiKey: 'test-key', baseURL: 'http://127.0.0.1:9/v1' },
    });
    expect(files.some((file) => file.includes('/plugin-image/'))).toBe(true);
    expect(packagesIn(files, ['openai', '@anthropic-ai/sdk', '@modelcontextprotocol/client'])).toEqual([]);
  });

  // Each server start pays its module graph: the SDKs of what is not configured stay unloaded (issue 34: the suite and
  // every user start gateways and `serve mcp`; the Anthropic SDK alone is 272 files).
  it('the gateway with an OpenAI-format provider loads no Anthropic SDK, and with no MCP servers no MCP client', async () => {
    const files = await loadedServing(['gateway', '--provider-mode', 'mock-openai']);
    expect(packagesIn(files, ['openai'])).toEqual(['openai']);
    expect(
      packagesIn(files, ['@anthropic-ai/sdk', '@modelcontextprotocol/client', '@modelcontextprotocol/sdk']),
    ).toEqual([]);
  });

  it('serve mcp with no MCP servers loads the MCP server SDK but not the client', async () => {
    const files = await loadedServing(['serve', 'mcp', '--http', '0']);
    expect(packagesIn(files, ['@modelcontextprotocol/server'])).toEqual(['@modelcontextprotocol/server']);
    expect(packagesIn(files, ['@modelcontextprotocol/client', '@anthropic-ai/sdk', 'openai'])).toEqual([]);
  });
});
