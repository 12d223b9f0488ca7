/**
 * Issue 41, item 3: install what you use, measured the way a user meets it. Every public package is packed and
 * published to a Verdaccio registry on loopback (third-party packages come through it from the real registry), then in
 * fresh folders: `npm install @tool-search/ai-sdk ai@^7 @ai-sdk/openai@^4` runs an AI SDK agent loop against the mock
 * OpenAI server and stays ≤ 60 MB of node_modules; `npm install @tool-search/cli` runs `npx tool-search tools list`;
 * the CLI with every optional capability stays under 250 MB, in files and on disk. The sizes are printed, with the
 * largest packages of that last install (bench/install-size.md).
 *
 * SLOW (network installs, several minutes): opt-in with TOOL_SEARCH_INSTALL_TEST=1, which `npm run bench` sets.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockOpenAI, type MockOpenAI } from '@tool-search/mock-openai';
import { publicPackages } from '../../scripts/check-packages.mjs';
import { packAll } from '../../scripts/pack-all.mjs';

const run = promisify(execFile);
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const UPSTREAM = 'https://registry.npmjs.org/';
const MB = 2 ** 20;
/** Every optional capability of the CLI (its optional peers), as its README's install line names them. */
const CLI_EXTRAS = [
  '@tool-search/plugin-browser',
  '@tool-search/plugin-pdf',
  '@tool-search/plugin-image',
  '@tool-search/plugin-web',
  '@tool-search/plugin-diffs',
  '@tool-search/plugin-llm-task',
  '@tool-search/otel-export',
  '@redis/client',
];

const reason = await skipReason();
if (reason) console.warn(`skipping the install-size test: ${reason}`);

async function skipReason(): Promise<string | undefined> {
  if (process.env.TOOL_SEARCH_INSTALL_TEST !== '1')
    return 'slow (network installs, minutes); set TOOL_SEARCH_INSTALL_TEST=1 (npm run bench does)';
  const unbuilt = publicPackages(root).filter(({ dir }) => !existsSync(join(root, dir, 'dist')));
  if (unbuilt.length) return `${unbuilt.map(({ pkg }) => pkg.name).join(', ')} not built; run \`npm run build\` first`;
  if (!existsSync(join(root, 'node_modules/verdaccio/package.json'))) return 'verdaccio is not installed (npm install)';
  try {
    const response = await fetch(`${UPSTREAM}ai`, { method: 'HEAD', signal: AbortSignal.timeout(10_000) });
    if (!response.ok) return `the npm registry answered ${response.status}`;
  } catch (error) {
    return `the npm registry (${UPSTREAM}) is unreachable: ${(error as Error).message}`;
  }
  return undefined;
}

// npm's own settings from a surrounding `npm test` (workspace, prefix) must not leak into the fresh installs.
const baseEnv = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_')),
);
let work = '';
let registry = '';
let verdaccio: ChildProcess | undefined;
let env: NodeJS.ProcessEnv = baseEnv;
const sizes: Record<string, number> = {};
const onDisk: Record<string, number> = {};
let largest = '';

describe.skipIf(reason !== undefined)('installed from a registry: what each user downloads', () => {
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'tool-search-install-size-'));
    registry = await startVerdaccio(work);
    const npmrc = join(work, '.npmrc');
    writeFileSync(npmrc, `registry=${registry}\n${registry.replace(/^http:/, '')}:_authToken=${await token()}\n`);
    env = { ...baseEnv, npm_config_userconfig: npmrc, npm_config_cache: join(work, 'npm-cache') };
    const tarballs = join(work, 'tarballs');
    const packed = await packAll(root, tarballs, baseEnv);
    // One at a time: Verdaccio writes each package's metadata file; parallel publishes of 50 packages gain little.
    for (const { filename } of packed)
      await run('npm', ['publish', join(tarballs, filename), '--registry', registry], { cwd: work, env });
  }, 600_000);

  afterAll(async () => {
    verdaccio?.kill();
    console.log(
      `install sizes (du of node_modules): ${Object.entries(sizes)
        .map(
          ([what, bytes]) => `${what}: ${(bytes / MB).toFixed(1)} MB (on disk: ${(onDisk[what]! / MB).toFixed(1)} MB)`,
        )
        .join('; ')}`,
    );
    if (largest) console.log(`largest packages of cli-everything (on disk): ${largest}`);
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('npm install @tool-search/ai-sdk ai@^7 @ai-sdk/openai@^4: an agent loop runs, in at most 60 MB', async () => {
    const dir = await install('ai-sdk', ['@tool-search/ai-sdk', 'ai@^7', '@ai-sdk/openai@^4']);
    const mock: MockOpenAI = await startMockOpenAI();
    try {
      writeFileSync(join(dir, 'loop.mjs'), AGENT_LOOP);
      const { stdout } = await run(process.execPath, ['loop.mjs', mock.url], { cwd: dir, env: baseEnv });
      expect(JSON.parse(stdout)).toMatchObject({ calls: ['tool_search', 'create_issue'] });
    } finally {
      await mock.close();
    }
    expect(sizes['ai-sdk']).toBeLessThanOrEqual(60 * MB);
    // None of the heavy capabilities came along: they are optional peers, loaded on use.
    for (const heavy of [
      'unpdf',
      'pdfjs-dist',
      '@napi-rs/canvas',
      'playwright-core',
      'gpt-tokenizer',
      'openai',
      '@anthropic-ai/sdk',
    ])
      expect(await copies(dir, heavy), heavy).toBe(0);
  }, 600_000);

  it('npm install @tool-search/cli: npx tool-search tools list works; config check names the missing capabilities', async () => {
    const dir = await install('cli', ['@tool-search/cli']);
    const { stdout } = await run('npx', ['tool-search', 'tools', 'list'], { cwd: dir, env });
    expect(stdout).toContain('create_issue');
    writeFileSync(join(dir, 'tool-search.json'), JSON.stringify({ plugins: { core: {} } }));
    const check = await run('npx', ['tool-search', 'config', 'check'], { cwd: dir, env });
    for (const pkg of ['@tool-search/plugin-web', '@tool-search/plugin-pdf', '@tool-search/plugin-browser'])
      expect(check.stdout + check.stderr).toContain(`npm install ${pkg}`);
  }, 600_000);

  it('the CLI with every optional capability stays under 250 MB', async () => {
    const dir = await install('cli-everything', ['@tool-search/cli', ...CLI_EXTRAS]);
    const { stdout } = await run('npx', ['tool-search', 'tools', 'list'], { cwd: dir, env });
    expect(stdout).toContain('create_issue');
    largest = await largestPackages(dir, 12);
    expect(sizes['cli-everything']).toBeLessThan(250 * MB);
    expect(onDisk['cli-everything']).toBeLessThan(250 * MB);
    // One copy of each provider SDK (every package asks for the same range), and one tokenizer.
    for (const sdk of ['openai', '@anthropic-ai/sdk', 'gpt-tokenizer']) expect(await copies(dir, sdk), sdk).toBe(1);
    expect(await copies(dir, 'js-tiktoken')).toBe(0);
    // The PDF engine is unpdf's pdf.js build: neither pdfjs-dist nor the native canvas it would bring (32 MB).
    for (const heavy of ['pdfjs-dist', '@napi-rs/canvas']) expect(await copies(dir, heavy), heavy).toBe(0);
    // otel-export pins the SDK versions its exporters pin: one copy of each (with `^2.12.0`, 2.12.1 and nested 2.12.0 copies).
    for (const otel of ['core', 'resources', 'sdk-metrics', 'sdk-trace'])
      expect(await copies(dir, `@opentelemetry/${otel}`), otel).toBe(1);
  }, 600_000);
});

/** `npm install <specs>` in a fresh folder from the local registry; records the size of its node_modules. */
async function install(name: string, specs: string[]): Promise<string> {
  const dir = join(work, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `install-${name}`, private: true, type: 'module' }));
  await run('npm', ['install', '--no-audit', '--no-fund', '--registry', registry, ...specs], {
    cwd: dir,
    env,
    maxBuffer: 64 * 1024 * 1024,
  });
  // The bytes npm writes (`du -sb`, the same on every file system) are asserted; the disk usage (`du -sk`, which rounds
  // each of thousands of small files up to a 4 KiB block) is printed beside them.
  const du = async (flag: string) => Number((await run('du', [flag, join(dir, 'node_modules')])).stdout.split('\t')[0]);
  sizes[name] = await du('-sb');
  onDisk[name] = (await du('-sk')) * 1024;
  return dir;
}

/** The `count` largest top-level packages of `dir`'s node_modules on disk (`du -sk`), as `name MB` items. */
async function largestPackages(dir: string, count: number): Promise<string> {
  const modules = join(dir, 'node_modules');
  const entries = readdirSync(modules)
    .filter((name) => !name.startsWith('.'))
    .flatMap((name) =>
      name.startsWith('@') ? readdirSync(join(modules, name)).map((inner) => `${name}/${inner}`) : [name],
    );
  const { stdout } = await run('du', ['-sk', ...entries], { cwd: modules, maxBuffer: 16 * 1024 * 1024 });
  return stdout
    .trim()
    .split('\n')
    .map((line) => line.split('\t'))
    .map(([kb, name]) => ({ name: name!, mb: (Number(kb) * 1024) / MB }))
    .sort((a, b) => b.mb - a.mb)
    .slice(0, count)
    .map(({ name, mb }) => `${name} ${mb.toFixed(1)} MB`)
    .join(', ');
}

/** How many copies of package `name` the tree under `dir` holds (hoisted and nested). */
async function copies(dir: string, name: string): Promise<number> {
  const { stdout } = await run('find', [join(dir, 'node_modules'), '-path', `*/node_modules/${name}/package.json`]);
  return stdout.split('\n').filter(Boolean).length;
}

/** The README's loop: the AI SDK's generateText over its OpenAI provider, Tool Search's tools, the demo catalog. */
const AGENT_LOOP = `
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, isStepCount } from 'ai';
import { createToolSearch } from '@tool-search/ai-sdk';
const search = await createToolSearch({ sessionId: 'install-size' });
try {
  const { steps } = await generateText({
    model: createOpenAI({ baseURL: process.argv[2], apiKey: 'test' }).chat('mock-tool-search'),
    tools: search.tools,
    stopWhen: isStepCount(6),
    prompt: 'tool search qa check target=create_issue args={"title":"crash"} query="open an issue about a crash"',
  });
  console.log(JSON.stringify({ calls: steps.flatMap((step) => step.toolCalls.map((call) => call.toolName)) }));
} finally {
  await search.close();
}
`;

async function startVerdaccio(dir: string): Promise<string> {
  const port = await freePort();
  const config = join(dir, 'verdaccio.yaml');
  writeFileSync(
    config,
    [
      `storage: ${join(dir, 'storage')}`,
      `auth:\n  htpasswd:\n    file: ${join(dir, 'htpasswd')}`,
      `uplinks:\n  npmjs:\n    url: ${UPSTREAM}\n    timeout: 120s`,
      'packages:',
      "  '@tool-search/*':\n    access: $all\n    publish: $authenticated",
      "  '**':\n    access: $all\n    publish: $authenticated\n    proxy: npmjs",
      'max_body_size: 500mb',
      'log: { type: stdout, format: pretty, level: warn }',
      '',
    ].join('\n'),
  );
  const bin = join(root, 'node_modules/verdaccio/bin/verdaccio');
  verdaccio = spawn(process.execPath, [bin, '--config', config, '--listen', `127.0.0.1:${port}`], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = `http://127.0.0.1:${port}/`;
  await new Promise<void>((resolveStarted, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      // Verdaccio says where it listens once it accepts connections.
      if (output.includes('http address')) resolveStarted();
    };
    verdaccio!.stdout!.on('data', onData);
    verdaccio!.stderr!.on('data', onData);
    verdaccio!.once('exit', (code) => reject(new Error(`verdaccio exited (${code}) before listening: ${output}`)));
  });
  return url;
}

/** A user on the local registry (Verdaccio's htpasswd): its token lets `npm publish` through. */
async function token(): Promise<string> {
  const name = 'install-test';
  const response = await fetch(`${registry}-/user/org.couchdb.user:${name}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, password: 'install-test-password', type: 'user', roles: [], date: new Date() }),
  });
  const body = (await response.json()) as { token?: string };
  if (!body.token) throw new Error(`verdaccio gave no token: ${JSON.stringify(body)}`);
  return body.token;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}
