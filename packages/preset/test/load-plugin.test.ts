import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorCode, KERNEL_VERSION } from '@tool-search/kernel';
import { createToolSearchKernel } from '@tool-search/preset';
import { PresetErrors } from '../src/errors.js';

/** A plugin module body listing one tool `name` (plain objects: no import needed). */
const source = (name: string, head = `export const kernelRange = '^${KERNEL_VERSION}';`) => `${head}
export const optionsSchema = { type: 'object', properties: { greeting: { type: 'string' }, times: { type: 'integer', minimum: 1 } }, additionalProperties: false };
export default function factory(options) {
  return {
    name: 'test-plugin-${name}',
    apply({ hooks }) {
      hooks.listTools.tap((sink) => sink.add({ name: '${name}', source: 'plugin', owner: 'test', description: 'A test tool from a module',
        inputSchema: { type: 'object' }, execute: () => ({ content: [{ type: 'text', text: (options.greeting ?? 'hi') + ' from ${name}' }] }) }));
    },
  };
}
`;

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'tool-search-plugins-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

async function load(plugins: Record<string, Record<string, unknown>>, baseDir: string) {
  return createToolSearchKernel({ plugins }, { baseDir });
}

describe('plugin modules from the config', () => {
  it('loads a ./path module (default export), validates its options and lists where it came from', async () => {
    const baseDir = project({ 'plugins/hello.mjs': source('hello') });
    const { kernel, modules } = await load({ './plugins/hello.mjs': { greeting: 'hey' } }, baseDir);
    const run = await kernel.createRun();
    expect(run.catalog.map((tool) => tool.id)).toEqual(['plugin:test:hello']);
    expect(await run.call('hello', {})).toMatchObject({
      status: 'ok',
      result: { content: [{ text: 'hey from hello' }] },
    });
    expect(modules).toEqual([
      {
        id: './plugins/hello.mjs',
        name: 'test-plugin-hello',
        path: join(baseDir, 'plugins/hello.mjs'),
        kernelRange: `^${KERNEL_VERSION}`,
        kernelRangeFrom: 'kernelRange export',
      },
    ]);
    await kernel.close();
  });

  it('resolves a package name from the config folder and takes the kernel range from its package.json', async () => {
    const baseDir = project({
      'node_modules/@acme/ts-plugin/package.json': JSON.stringify({
        name: '@acme/ts-plugin',
        type: 'module',
        exports: { '.': { import: './main.js' } },
        peerDependencies: { '@tool-search/kernel': `^${KERNEL_VERSION}` },
      }),
      'node_modules/@acme/ts-plugin/main.js': source('acme', '').replace(
        'export default function factory',
        'export function plugin',
      ),
    });
    const { kernel, modules } = await load(
      { '@acme/ts-plugin': {}, 'fake-catalog': { tools: 1, core: false } },
      baseDir,
    );
    const run = await kernel.createRun();
    expect(run.catalog.map((tool) => tool.id)).toEqual(expect.arrayContaining(['plugin:test:acme']));
    expect(run.catalog).toHaveLength(2);
    expect(modules).toMatchObject([
      {
        id: '@acme/ts-plugin',
        path: join(baseDir, 'node_modules/@acme/ts-plugin/main.js'),
        kernelRangeFrom: 'package.json',
      },
    ]);
    await kernel.close();
  });

  it('refuses a module built for another kernel, naming both versions', async () => {
    const baseDir = project({ 'old.mjs': source('old', `export const kernelRange = '^0.0.1';`) });
    await expect(load({ './old.mjs': {} }, baseDir)).rejects.toMatchObject({
      code: PresetErrors.PLUGIN_KERNEL_MISMATCH,
      details: { module: './old.mjs', kernelRange: '^0.0.1', kernelVersion: KERNEL_VERSION },
      path: '/plugins/.~1old.mjs',
    });
  });

  it('refuses a module that declares no kernel range', async () => {
    const baseDir = project({ 'package.json': '{ "name": "host", "type": "module" }', 'bare.mjs': source('bare', '') });
    await expect(load({ './bare.mjs': {} }, baseDir)).rejects.toMatchObject({
      code: PresetErrors.PLUGIN_LOAD_FAILED,
      details: { module: './bare.mjs' },
    });
  });

  it('reports every option violation against the schema the module exports, unknown keys included', async () => {
    const baseDir = project({ 'hello.mjs': source('hello') });
    const error = await load({ './hello.mjs': { greeting: 3, times: 0, colour: 'red' } }, baseDir).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: ErrorCode.OPTIONS_INVALID, details: { module: './hello.mjs' } });
    const paths = (error as { details: { errors: { path: string; rule: string }[] } }).details.errors.map(
      (issue) => `${issue.path} ${issue.rule}`,
    );
    expect(paths.sort()).toEqual([
      '/plugins/.~1hello.mjs/colour additionalProperties',
      '/plugins/.~1hello.mjs/greeting type',
      '/plugins/.~1hello.mjs/times minimum',
    ]);
  });

  it('refuses options for a module without an options schema', async () => {
    const baseDir = project({ 'plain.mjs': source('plain').replace(/export const optionsSchema.*\n/, '') });
    await expect(load({ './plain.mjs': { any: 1 } }, baseDir)).rejects.toMatchObject({
      code: ErrorCode.OPTIONS_INVALID,
    });
    const { kernel } = await load({ './plain.mjs': {} }, baseDir);
    await kernel.close();
  });

  it.each([
    ['a missing file', {}, './missing.mjs'],
    ['a missing package', {}, 'no-such-tool-search-plugin'],
    ['a module that does not parse', { 'broken.mjs': 'export default function (' }, './broken.mjs'],
    ['a module without a factory', { 'nofactory.mjs': `export const kernelRange = '*';` }, './nofactory.mjs'],
    [
      'a factory that throws',
      { 'throws.mjs': `export const kernelRange = '*'; export default () => { throw new Error('no token'); };` },
      './throws.mjs',
    ],
    [
      'an apply that throws',
      {
        'apply.mjs': `export const kernelRange = '*'; export default () => ({ name: 'x', apply() { throw new Error('boom'); } });`,
      },
      './apply.mjs',
    ],
  ])('fails the build for %s, naming the module', async (_case, files, id) => {
    const baseDir = project(files as Record<string, string>);
    await expect(load({ [id]: {} }, baseDir)).rejects.toMatchObject({
      code: PresetErrors.PLUGIN_LOAD_FAILED,
      details: { module: id },
    });
  });

  /** A module whose factory reports what it got as a tool result: how many arguments, and the second one. */
  const reporting = (head: string) => `export const kernelRange = '*';
${head}
export default function factory(options, second = { env: 'own default' }) {
  const seen = JSON.stringify({ count: arguments.length, second });
  return { name: 'reporter', apply({ hooks }) {
    hooks.listTools.tap((sink) => sink.add({ name: 'report', source: 'plugin', owner: 'test', description: 'Reports its factory arguments',
      inputSchema: { type: 'object' }, execute: () => ({ content: [{ type: 'text', text: seen }] }) }));
  } };
}
`;
  const provider = { baseURL: 'http://127.0.0.1:9/v1', model: 'deployment-model', apiKeyEnv: 'DEPLOYMENT_KEY' };

  async function report(head: string, withProvider = true): Promise<unknown> {
    const baseDir = project({ 'reporter.mjs': reporting(head) });
    const { kernel } = await createToolSearchKernel(
      { ...(withProvider ? { provider } : {}), plugins: { './reporter.mjs': {} } },
      { baseDir },
    );
    try {
      const outcome = await (await kernel.createRun()).call('report', {});
      if (outcome.status !== 'ok') throw new Error(JSON.stringify(outcome));
      return JSON.parse((outcome.result.content[0] as { text: string }).text);
    } finally {
      await kernel.close();
    }
  }

  it('calls a third-party factory that has its own optional second parameter with its options alone, even with a provider configured', async () => {
    expect(await report('')).toEqual({ count: 1, second: { env: 'own default' } });
  });

  it("hands the config's provider as the second argument only to a module that exports wants: ['provider']", async () => {
    expect(await report(`export const wants = ['provider'];`)).toEqual({ count: 2, second: { provider } });
    // Opted in, no provider configured: the host argument is there, empty.
    expect(await report(`export const wants = ['provider'];`, false)).toEqual({ count: 2, second: {} });
    // An empty wish list opts in to nothing of the config.
    expect(await report(`export const wants = [];`)).toEqual({ count: 2, second: {} });
  });

  it.each([
    ['a name the host does not offer', `export const wants = ['secrets'];`],
    ['not an array', `export const wants = 'provider';`],
  ])('refuses wants that is %s, naming the module', async (_case, head) => {
    const baseDir = project({ 'reporter.mjs': reporting(head) });
    await expect(
      createToolSearchKernel({ provider, plugins: { './reporter.mjs': {} } }, { baseDir }),
    ).rejects.toMatchObject({
      code: PresetErrors.PLUGIN_LOAD_FAILED,
      details: { module: './reporter.mjs' },
    });
  });

  it('keeps built-in ids working and lists no module for them', async () => {
    const { kernel, modules } = await createToolSearchKernel({
      plugins: { 'fake-catalog': { tools: 2, core: false } },
    });
    expect((await kernel.createRun()).catalog).toHaveLength(2);
    expect(modules).toEqual([]);
    await kernel.close();
  });
});
