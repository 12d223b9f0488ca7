/**
 * Issue 16: the packages work once published. Every public workspace package is
 * packed (`npm pack`, as a release would), the tarballs are installed into a fresh
 * folder outside the workspace, and there the README's commands, the kernel
 * README's plugin example with the test kit, a config-loaded plugin module and
 * `serve mcp` run against what was installed, not against the checkout.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statfsSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { freemem, tmpdir } from 'node:os';
import { dirname, join, normalize, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicPackages } from '../../scripts/check-packages.mjs';
import { packAll, type PackedPackage } from '../../scripts/pack-all.mjs';

const run = promisify(execFile);
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const packages = publicPackages(root);
const unbuilt = packages.filter(({ dir }) => !existsSync(join(root, dir, 'dist')));
if (unbuilt.length)
  console.warn(
    `skipping the packed-install test: ${unbuilt.map(({ pkg }) => pkg.name).join(', ')} not built; run \`npm run build\` first`,
  );

// npm's own settings from a surrounding `npm test` (workspace, prefix) must not leak into the fresh install.
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_')));
const kernelReadme = readFileSync(join(root, 'packages/kernel/README.md'), 'utf8');
let work = '';
let tarballs = '';
let packed: PackedPackage[] = [];

/** Runs the installed `tool-search` bin in the fresh folder. */
const toolSearch = (args: string[]) =>
  run(process.execPath, [join(work, 'node_modules/@tool-search/cli/bin/tool-search.js'), ...args], {
    cwd: work,
    env,
    maxBuffer: 64 * 1024 * 1024,
  });

/**
 * Where the installed tree goes: a RAM-backed tmpfs (/dev/shm) mounted read-write and exec, with room for it and free
 * memory to spare, else the temp folder. The tree is ~550 MB in thousands of files: on tmpfs npm writes it with ~10 s
 * less system CPU, and it is removed in a second instead of ~15 s.
 */
function installParent(): string {
  const shm = '/dev/shm';
  try {
    const mount = readFileSync('/proc/mounts', 'utf8')
      .split('\n')
      .map((line) => line.split(' '))
      .find((fields) => fields[1] === shm);
    const flags = mount?.[3]?.split(',') ?? [];
    if (mount?.[2] !== 'tmpfs' || !flags.includes('rw') || flags.includes('noexec')) return tmpdir();
    const { bavail, bsize } = statfsSync(shm);
    return bavail * bsize > 2 * 2 ** 30 && freemem() > 4 * 2 ** 30 ? shm : tmpdir();
  } catch {
    // no /proc/mounts (not Linux) or no /dev/shm: the temp folder
    return tmpdir();
  }
}

/** The first fenced block of `lang` after `heading` in a README. */
function block(readme: string, heading: string, lang: string): string {
  const from = readme.indexOf(heading);
  const match = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(readme.slice(from));
  if (from < 0 || !match) throw new Error(`no ${lang} block after "${heading}"`);
  return match[1]!;
}

describe.skipIf(unbuilt.length > 0)('packed packages installed outside the workspace', () => {
  beforeAll(async () => {
    tarballs = mkdtempSync(join(tmpdir(), 'tool-search-tarballs-'));
    work = mkdtempSync(join(installParent(), 'tool-search-installed-'));
    packed = await packAll(root, tarballs, env);
    const vitest = (
      JSON.parse(readFileSync(join(root, 'node_modules/vitest/package.json'), 'utf8')) as { version: string }
    ).version;
    writeFileSync(
      join(work, 'package.json'),
      JSON.stringify({ name: 'installed-check', private: true, type: 'module' }, null, 2),
    );
    // As the root README says: `npm install <folder>/*.tgz` (plus vitest for the plugin example's test). Third-party
    // dependencies come from the registry (the npm cache, when warm).
    const install = [...packed.map((p) => join(tarballs, p.filename)), `vitest@${vitest}`];
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', ...install], {
      cwd: work,
      env,
      maxBuffer: 64 * 1024 * 1024,
    });
  }, 600_000);

  // The installed tree is large (every third-party dependency): removing it can take a while on a busy machine.
  afterAll(async () => {
    await Promise.all([work, tarballs].filter(Boolean).map((dir) => rm(dir, { recursive: true, force: true })));
  }, 180_000);

  it('packs every public package, and nothing else', () => {
    expect(packed.map((p) => p.name).sort()).toEqual(packages.map(({ pkg }) => pkg.name).sort());
  });

  it('ships no build info, only source maps whose sources ship too, and every entry point it names', () => {
    const problems: string[] = [];
    for (const { name, files } of packed) {
      const dir = packages.find(({ pkg }) => pkg.name === name)!.dir;
      const shipped = new Set(files.map((f) => normalize(f.path)));
      for (const path of shipped) {
        if (path.endsWith('.tsbuildinfo')) problems.push(`${name}: ships ${path}`);
        if (!path.endsWith('.map')) continue;
        const map = JSON.parse(readFileSync(join(root, dir, path), 'utf8')) as { sources: string[] };
        for (const source of map.sources) {
          const target = normalize(join(dirname(path), source));
          // A source that no longer exists means dist/ holds stale output of a removed file: rebuild from clean (rm -rf dist).
          if (!shipped.has(target))
            problems.push(
              `${name}: ${path} points at ${target}, which is not shipped${existsSync(join(root, dir, target)) ? '' : ' (stale build output: rm -rf dist and rebuild)'}`,
            );
        }
      }
      const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as Record<string, unknown>;
      for (const target of entryPoints(pkg))
        if (!shipped.has(normalize(target))) problems.push(`${name}: names ${target}, which is not shipped`);
    }
    expect(problems).toEqual([]);
  });

  it('runs the README commands from the installed CLI: qa suite and tools list', async () => {
    // qa suite runs from the public @tool-search/qa; the private e2e tests are neither packed nor installed.
    expect(existsSync(join(work, 'node_modules/@tool-search/qa/package.json'))).toBe(true);
    expect(existsSync(join(work, 'node_modules/@tool-search/e2e'))).toBe(false);
    const qa = await toolSearch([
      'qa',
      'suite',
      '--provider-mode',
      'mock-openai',
      '--scenario',
      'tool-search-gateway-e2e',
      '--tools',
      '50',
      '--json',
    ]);
    // Exit 0 (run() rejects otherwise) and every assertion of the scenario held.
    const report = JSON.parse(qa.stdout) as { lanes: unknown[]; assertions: { ok: boolean }[] };
    expect(report.lanes).toHaveLength(4);
    expect(report.assertions.filter((a) => !a.ok)).toEqual([]);
    const list = await toolSearch(['tools', 'list', '--json']);
    expect((JSON.parse(list.stdout) as { tools: unknown[] }).tools.length).toBeGreaterThan(1000);
  }, 180_000);

  it('runs the kernel README plugin example and its test with the test kit', async () => {
    const examples = join(work, 'examples');
    mkdirSync(examples);
    for (const file of ['weather-plugin.ts', 'weather-plugin.test.ts'])
      writeFileSync(join(examples, file), readFileSync(join(root, 'packages/kernel/examples', file)));
    const conformance = /`(expect\(\(await checkSourceConformance\(weatherPlugin\(\)\)\)\.ok\)\.toBe\(true\))`/.exec(
      kernelReadme,
    )?.[1];
    expect(conformance).toBeDefined();
    writeFileSync(
      join(examples, 'conformance.test.ts'),
      `import { expect, it } from 'vitest';\nimport { checkSourceConformance } from '@tool-search/testing';\nimport { weatherPlugin } from './weather-plugin.js';\n\nit('conforms', async () => {\n  ${conformance};\n});\n`,
    );
    const { stdout } = await run(
      process.execPath,
      [join(work, 'node_modules/vitest/vitest.mjs'), 'run', 'examples', '--reporter=json'],
      { cwd: work, env },
    );
    expect(JSON.parse(stdout)).toMatchObject({ success: true, numPassedTests: 2 });
  }, 120_000);

  it('loads the README plugin module from a config through the installed tool-search', async () => {
    writeFileSync(join(work, 'weather-plugin.mjs'), block(kernelReadme, '## Publish your plugin', 'js'));
    writeFileSync(
      join(work, 'tool-search.json'),
      JSON.stringify({ plugins: { './weather-plugin.mjs': { units: 'imperial' } } }),
    );
    const call = await toolSearch(['tools', 'call', 'get_forecast', '--args', '{"city":"Oslo"}']);
    expect(call.stdout).toContain('Oslo: sunny, imperial');
    const check = await toolSearch(['config', 'check', '--json']);
    expect(JSON.parse(check.stdout)).toMatchObject({
      ok: true,
      modules: [{ id: './weather-plugin.mjs', path: join(work, 'weather-plugin.mjs') }],
    });
  }, 60_000);

  it('serves MCP from the installed CLI to an SDK client', async () => {
    writeFileSync(join(work, 'weather-plugin.mjs'), block(kernelReadme, '## Publish your plugin', 'js'));
    writeFileSync(join(work, 'tool-search.json'), JSON.stringify({ plugins: { './weather-plugin.mjs': {} } }));
    // The mcp-server README's client snippet: `node /path/my-project/node_modules/@tool-search/cli/bin/tool-search.js serve mcp -c <file>`,
    // run with the installed CLI of this scratch project.
    const snippet = JSON.parse(
      block(
        readFileSync(join(root, 'packages/mcp-server/README.md'), 'utf8'),
        'the usual `mcpServers` entry',
        'json',
      ).trim(),
    ) as {
      mcpServers: Record<string, { command: string; args: string[] }>;
    };
    const entry = snippet.mcpServers['tool-search']!;
    expect(entry.command).toBe('node');
    const [script, ...flags] = entry.args;
    const inProject = script!.slice(script!.indexOf('node_modules/'));
    expect(existsSync(join(work, inProject))).toBe(true);
    const rest = flags.map((arg) => (arg.endsWith('tool-search.json') ? join(work, 'tool-search.json') : arg));
    const client = new Client({ name: 'packed-check', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [join(work, inProject), ...rest],
        cwd: work,
        env: env as Record<string, string>,
        stderr: 'ignore',
      }),
    );
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('tool_call');
      const result = await client.callTool({
        name: 'tool_call',
        arguments: { id: 'plugin:weather:get_forecast', args: { city: 'Oslo' } },
      });
      expect(JSON.stringify(result.content)).toContain('Oslo: sunny, metric');
    } finally {
      await client.close();
    }
  }, 60_000);
});

/** `main`, `types`, `bin` and every `exports` target a package.json names. */
function entryPoints(pkg: Record<string, unknown>): string[] {
  const out: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') out.push(value);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(pkg.exports);
  walk(pkg.bin);
  for (const key of ['main', 'types']) if (typeof pkg[key] === 'string') out.push(pkg[key]);
  return out.map((path) => relative('.', path));
}
