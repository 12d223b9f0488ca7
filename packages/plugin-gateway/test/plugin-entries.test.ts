/**
 * Issue 46 item 5: OpenClaw's `plugins.entries.<id>` ({ enabled, config }, ids with slashes) beside this config's
 * `plugins.<id>`. Lookups answer for both shapes; a write in OpenClaw's shape is the same write in this shape, so what
 * changes nothing passes and everything else under `plugins` stays refused (code, module paths, prototype keys).
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseConfigValue } from '@tool-search/config';
import { ErrorCode } from '@tool-search/kernel';
import { GatewayErrors, REDACTED } from '../src/index.js';
import { codeOf, data, setup } from './setup.js';

const WITH_PLUGINS = `{
  // the operator's plugins
  plugins: { "@acme/weather": { region: "eu", apiKey: "weather-secret" }, "fake-catalog": { tools: 5 } },
  tools: { toolSearch: { mode: "tools" } },
}
`;

const lookup = async (path: string) => setup().call({ action: 'config.schema.lookup', path });

describe('config.schema.lookup of plugins.entries paths', () => {
  it('an entry with a scoped id (slash, at sign) is enabled + config over plugins["<id>"]', async () => {
    expect(data(await lookup('plugins.entries.@acme/weather'))).toMatchObject({
      path: 'plugins.entries["@acme/weather"]',
      configPath: 'plugins["@acme/weather"]',
      type: 'object',
      openKeys: false,
      children: [
        { key: 'enabled', type: 'boolean' },
        { key: 'config', type: 'object' },
      ],
    });
    expect(data(await lookup('plugins.entries["@acme/weather"].enabled'))).toMatchObject({
      type: 'boolean',
      configPath: 'plugins["@acme/weather"]',
    });
    expect(data(await lookup('plugins.entries.@acme/weather.config'))).toMatchObject({
      type: 'object',
      configPath: 'plugins["@acme/weather"]',
    });
  });

  it('a built-in plugin: its config keys are the options this config checks', async () => {
    const tools = data(await lookup('plugins.entries.fake-catalog.config.tools'));
    expect(tools).toMatchObject({
      path: 'plugins.entries.fake-catalog.config.tools',
      configPath: 'plugins.fake-catalog.tools',
    });
    expect(tools.type).toEqual(data(await lookup('plugins.fake-catalog.tools')).type);
    expect(data(await lookup('plugins.entries.core.config')).children.map((c: { key: string }) => c.key)).toContain(
      'workspace',
    );
  });

  it('ids with dots are quoted; the map itself and this config shape still answer', async () => {
    expect(data(await lookup('plugins.entries["./my.plugin.mjs"].config')).configPath).toBe(
      'plugins["./my.plugin.mjs"]',
    );
    expect(data(await lookup('plugins.entries'))).toMatchObject({ configPath: 'plugins', each: { type: 'object' } });
    expect(data(await lookup('plugins["@acme/weather"]')).type).toBe('object');
    expect(data(await lookup('plugins.@acme/weather')).type).toBe('object');
  });

  it('prototype keys and "*" as ids are plain keys: the module options node, nothing inherited', async () => {
    for (const id of ['__proto__', 'constructor', 'toString', '*']) {
      const entry = data(await lookup(`plugins.entries["${id}"].config`));
      expect(entry, id).toMatchObject({ type: 'object', children: [] });
    }
  });

  it('an entry has only enabled and config', async () => {
    for (const path of [
      'plugins.entries.@acme/weather.path',
      'plugins.entries.my.plugin.config',
      'plugins.entries.x.enabled.y',
    ])
      expect(codeOf(await lookup(path)), path).toBe(GatewayErrors.GATEWAY_SCHEMA_PATH_UNKNOWN);
  });
});

describe('writes in the plugins.entries shape', () => {
  it('config.patch: an entry that changes nothing passes beside an allowed change; plugins stay as written', async () => {
    const { call, configPath } = setup({ text: WITH_PLUGINS });
    const raw = `{
      plugins: { entries: {
        "@acme/weather": { enabled: true, config: "${REDACTED}" },
        "fake-catalog": { enabled: true },
        "never-there": { enabled: false },
        "gone-already": null,
      } },
      tools: { toolSearch: { mode: "code" } },
    }`;
    const result = data(await call({ action: 'config.patch', raw }));
    expect(result.changedPaths).toEqual(['tools.toolSearch.mode']);
    const text = readFileSync(configPath, 'utf8');
    expect(text).toBe(WITH_PLUGINS.replace('mode: "tools"', 'mode: "code"'));
  });

  it('config.patch: a config equal to the current options is no change', async () => {
    const { call, configPath } = setup({ text: WITH_PLUGINS });
    const raw = '{ plugins: { entries: { "fake-catalog": { config: { tools: 5 } } } } }';
    expect(data(await call({ action: 'config.patch', raw })).changedPaths).toEqual([]);
    expect(readFileSync(configPath, 'utf8')).toBe(WITH_PLUGINS);
  });

  it("config.apply: config.get's config with plugins as entries is written in this config's shape, secrets kept", async () => {
    const { call, configPath } = setup({ text: WITH_PLUGINS });
    const shown = data(await call({ action: 'config.get' })).config;
    expect(shown.plugins['@acme/weather']).toBe(REDACTED);
    const entries = Object.fromEntries(
      Object.entries(shown.plugins).map(([id, config]) => [id, { enabled: true, config }]),
    );
    const next = { ...shown, plugins: { entries }, tools: { toolSearch: { mode: 'code' } } };
    data(await call({ action: 'config.apply', raw: JSON.stringify(next) }));
    const written = parseConfigValue(readFileSync(configPath, 'utf8')) as Record<string, any>;
    expect(written.plugins).toEqual((parseConfigValue(WITH_PLUGINS) as Record<string, any>).plugins);
    expect(written.tools.toolSearch.mode).toBe('code');
  });
});

describe('a plugins.entries path is no way around the protected plugins section', () => {
  const MODULE_IDS = [
    '@evil/plugin',
    './evil.mjs',
    '../../tmp/evil.mjs',
    '/etc/passwd',
    '/tmp/evil.mjs',
    'file:///tmp/evil.mjs',
    '..',
    '.',
    'data:text/javascript,process.exit(1)',
    'node:child_process',
    'entries',
    'core',
  ];
  for (const id of MODULE_IDS) {
    it(`enabling ${JSON.stringify(id)} is refused with the entry named (patch and apply); nothing written`, async () => {
      for (const [action, raw] of [
        ['config.patch', JSON.stringify({ plugins: { entries: { [id]: { enabled: true } } } })],
        ['config.patch', JSON.stringify({ plugins: { entries: { [id]: { config: { a: 1 } } } } })],
        [
          'config.apply',
          JSON.stringify({
            ...(parseConfigValue(WITH_PLUGINS) as object),
            plugins: {
              entries: {
                '@acme/weather': { config: REDACTED },
                'fake-catalog': { config: { tools: 5 } },
                [id]: { enabled: true },
              },
            },
          }),
        ],
      ] as const) {
        const { call, configPath, restarts } = setup({ text: WITH_PLUGINS });
        const outcome = await call({ action, raw });
        expect(codeOf(outcome), `${action} ${raw}`).toBe(GatewayErrors.GATEWAY_PATH_FORBIDDEN);
        expect(JSON.stringify(outcome)).toContain(JSON.stringify(id).slice(1, -1));
        expect(readFileSync(configPath, 'utf8')).toBe(WITH_PLUGINS);
        expect(restarts).toEqual([]);
      }
    });
  }

  const CHANGES: Record<string, string> = {
    "an enabled plugin's options": '{ plugins: { entries: { "@acme/weather": { config: { region: "us" } } } } }',
    'its key deleted through config': '{ plugins: { entries: { "@acme/weather": { config: { apiKey: null } } } } }',
    'every option removed (config: null)': '{ plugins: { entries: { "@acme/weather": { config: null } } } }',
    disabled: '{ plugins: { entries: { "@acme/weather": { enabled: false } } } }',
    'deleted (null entry)': '{ plugins: { entries: { "@acme/weather": null } } }',
    'the demo catalog resized': '{ plugins: { entries: { "fake-catalog": { config: { tools: 100000 } } } } }',
    'the real core tools enabled': '{ plugins: { entries: { core: { enabled: true, config: { workspace: "/" } } } } }',
    "OpenClaw's plugins.load.paths (here a module named load)": '{ plugins: { load: { paths: ["/tmp"] } } }',
    "OpenClaw's plugins.allow": '{ plugins: { allow: ["*"], entries: {} } }',
  };
  for (const [name, raw] of Object.entries(CHANGES)) {
    it(`config.patch: ${name} is refused; nothing written`, async () => {
      const { call, configPath, restarts } = setup({ text: WITH_PLUGINS });
      expect(codeOf(await call({ action: 'config.patch', raw }))).toBe(GatewayErrors.GATEWAY_PATH_FORBIDDEN);
      expect(readFileSync(configPath, 'utf8')).toBe(WITH_PLUGINS);
      expect(restarts).toEqual([]);
    });
  }

  it('a config without plugins (the demo catalog) gets none: enabling, or even disabling, adds no plugins section', async () => {
    const text = '{ tools: { toolSearch: { mode: "tools" } } }\n';
    const { call, configPath } = setup({ text });
    const enable = '{ plugins: { entries: { "fake-catalog": { enabled: true } } } }';
    expect(codeOf(await call({ action: 'config.patch', raw: enable }))).toBe(GatewayErrors.GATEWAY_PATH_FORBIDDEN);
    const disable = '{ plugins: { entries: { "fake-catalog": { enabled: false } } } }';
    expect(data(await call({ action: 'config.patch', raw: disable })).changedPaths).toEqual([]);
    expect(readFileSync(configPath, 'utf8')).toBe(text);
  });

  const PROTOTYPE_IDS = ['__proto__', 'constructor', 'prototype', 'hasOwnProperty'];
  for (const id of PROTOTYPE_IDS) {
    it(`the id ${id} is a key like any other: refused, nothing polluted`, async () => {
      for (const action of ['config.patch', 'config.apply']) {
        const { call, configPath } = setup({ text: WITH_PLUGINS });
        const entry = `"${id}": { enabled: true, config: { enabled: true, region: "x" } }`;
        const raw =
          action === 'config.patch'
            ? `{ plugins: { entries: { ${entry} } } }`
            : `{ plugins: { entries: { "@acme/weather": { config: "${REDACTED}" }, "fake-catalog": { config: { tools: 5 } }, ${entry} } } }`;
        expect(codeOf(await call({ action, raw })), action).toBe(GatewayErrors.GATEWAY_PATH_FORBIDDEN);
        expect(readFileSync(configPath, 'utf8')).toBe(WITH_PLUGINS);
        const plain = {} as Record<string, unknown>;
        expect([plain.enabled, plain.config, plain.region]).toEqual([undefined, undefined, undefined]);
      }
    });
  }

  it('entries that are not OpenClaw entries are argument errors, not writes', async () => {
    for (const entry of [
      '{ enabled: true, path: "/tmp/evil.mjs" }',
      '{ enabled: "yes" }',
      '{ config: "./evil.mjs" }',
      '{ config: [1] }',
      '{ enabled: false, config: { region: "us" } }',
    ]) {
      const { call, configPath } = setup({ text: WITH_PLUGINS });
      const raw = `{ plugins: { entries: { "@acme/weather": ${entry} } } }`;
      expect(codeOf(await call({ action: 'config.patch', raw })), entry).toBe(ErrorCode.TOOL_ARGUMENTS_INVALID);
      expect(readFileSync(configPath, 'utf8')).toBe(WITH_PLUGINS);
    }
  });

  it('duplicate keys (plugins, entries, an id) cannot make the check read another value than the one written', async () => {
    const ok = '"@acme/weather": { config: "***" }, "fake-catalog": { config: { tools: 5 } }';
    for (const raw of [
      `{ plugins: { entries: { ${ok} } }, plugins: { entries: { ${ok}, "./evil.mjs": { enabled: true } } } }`,
      `{ plugins: { entries: { ${ok}, "./evil.mjs": { enabled: true } } }, plugins: { entries: { ${ok} } } }`,
      `{ plugins: { entries: { ${ok} }, entries: { ${ok}, "./evil.mjs": {} } } }`,
      `{ plugins: { entries: { ${ok}, "./evil.mjs": null, "./evil.mjs": { enabled: true } } } }`,
    ])
      for (const action of ['config.apply', 'config.patch']) {
        const { call, configPath } = setup({ text: WITH_PLUGINS });
        const outcome = await call({ action, raw });
        // Refused, or (the parser keeps the last key, and that one changes nothing) a write of nothing.
        if (outcome.status === 'ok') expect(data(outcome).changedPaths ?? [], `${action} ${raw}`).toEqual([]);
        expect(readFileSync(configPath, 'utf8'), `${action} ${raw}`).not.toContain('evil');
      }
  });

  it('an id given in both shapes is ambiguous: refused', async () => {
    const { call } = setup({ text: WITH_PLUGINS });
    const raw = '{ plugins: { "fake-catalog": { tools: 5 }, entries: { "fake-catalog": { config: { tools: 6 } } } } }';
    expect(codeOf(await call({ action: 'config.patch', raw }))).toBe(ErrorCode.TOOL_ARGUMENTS_INVALID);
  });

  it('a refused entry imports nothing (the check never runs for it)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gateway-entries-import-'));
    const marker = join(dir, 'imported');
    const module = join(dir, 'evil.mjs');
    writeFileSync(module, `import { writeFileSync } from 'node:fs'; writeFileSync(${JSON.stringify(marker)}, 'x');\n`);
    // A check that loads plugin modules, as a full start would.
    const check = async (config: any) => {
      for (const id of Object.keys(config.plugins ?? {})) if (id.startsWith('/')) await import(pathToFileURL(id).href);
    };
    const { call } = setup({ text: WITH_PLUGINS, check });
    for (const raw of [
      JSON.stringify({ plugins: { entries: { [module]: { enabled: true } } } }),
      JSON.stringify({ plugins: { entries: { [pathToFileURL(module).href]: { config: {} } } } }),
    ])
      expect(codeOf(await call({ action: 'config.patch', raw }))).toBe(GatewayErrors.GATEWAY_PATH_FORBIDDEN);
    expect(existsSync(marker)).toBe(false);
  });
});
