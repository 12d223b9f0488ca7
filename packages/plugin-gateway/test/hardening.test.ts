/**
 * Issue #40 ("Hardening II"), the gateway tool as an agent would attack it: every change needs an approval, the
 * paths that decide what agents may do are never written, a refused patch imports nothing, secrets stay hidden and
 * never follow a new address, and the config file is opened only as a regular file (no link, no FIFO).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ApprovalRulesErrors } from '@tool-search/approval-rules';
import { policyPlugin } from '@tool-search/policy';
import { GATEWAY_TOOL_ID, GatewayErrors, REDACTED } from '../src/index.js';
import { codeOf, data, FILE, setup } from './setup.js';

const GUARDED = `{
  provider: { baseURL: "http://127.0.0.1:1/v1", model: "m", apiKey: "sk-secret" },
  tools: {
    deny: ["exec"],
    toolSearch: { mode: "tools", embeddings: { baseURL: "http://127.0.0.1:2/v1", model: "e", apiKey: "emb-secret" } },
    web: { search: { apiKey: "brave-secret", perplexity: { apiKey: "pplx-secret", baseUrl: "https://api.perplexity.ai" } } },
  },
  agents: { list: [{ id: "worker", tools: { deny: ["gateway"] } }] },
  auth: { keys: [{ name: "ops", env: "OPS_KEY", agents: ["worker"] }] },
  state: { redis: { url: "redis://:redis-secret@127.0.0.1:6379" } },
  mcp: { servers: { gh: { command: "gh-mcp", args: ["--token", "mcp-arg-secret"], env: { GH_TOKEN: "mcp-env-secret" } } } },
}
`;

describe('every change needs an approval (closed by default)', () => {
  it('restart, config.patch and config.apply are refused without an approvals plugin; reads are not', async () => {
    const { call, configPath, restarts } = setup({ text: FILE, approve: false });
    expect(codeOf(await call({ action: 'restart' }))).toBe(ApprovalRulesErrors.APPROVAL_REQUIRED);
    const patch = '{ tools: { toolSearch: { mode: "code" } } }';
    expect(codeOf(await call({ action: 'config.patch', raw: patch }))).toBe(ApprovalRulesErrors.APPROVAL_REQUIRED);
    expect(codeOf(await call({ action: 'config.apply', raw: patch }))).toBe(ApprovalRulesErrors.APPROVAL_REQUIRED);
    expect(data(await call({ action: 'config.get' })).exists).toBe(true);
    expect(readFileSync(configPath, 'utf8')).toBe(FILE);
    expect(restarts).toEqual([]);
  });

  it('with no approver configured, or one that says no, nothing changes', async () => {
    for (const approve of [null, async () => 'deny' as const]) {
      const { call, configPath, restarts } = setup({ text: FILE, approve });
      expect((await call({ action: 'restart' })).status).toBe('blocked');
      expect((await call({ action: 'config.patch', raw: '{ tools: { toolSearch: null } }' })).status).toBe('blocked');
      expect(readFileSync(configPath, 'utf8')).toBe(FILE);
      expect(restarts).toEqual([]);
    }
  });

  it('the approver is asked with the action and its arguments', async () => {
    const asked: string[] = [];
    const { call } = setup({ text: FILE, approve: async (request) => (asked.push(request.reason), 'allow') });
    data(await call({ action: 'restart', reason: 'r' }));
    await call({ action: 'config.get' });
    expect(asked).toEqual(['gateway restart changes the running gateway']);
  });
});

describe('offered only where an operator names it', () => {
  const policies = {
    'no profile': {},
    'profile full': { profile: 'full' },
    '*': { allow: ['*'] },
    'group:automation': { allow: ['group:automation', 'read'] },
    'group:openclaw': { allow: ['group:openclaw'] },
  };
  for (const [name, tools] of Object.entries(policies)) {
    it(`${name}: not offered`, async () => {
      const { kernel } = setup({ plugins: [policyPlugin({ tools: tools as never })] });
      const run = await kernel.createRun({});
      expect(run.catalog.map((t) => t.id)).not.toContain(GATEWAY_TOOL_ID);
      expect(run.explain(GATEWAY_TOOL_ID).steps.at(-1)).toMatchObject({ step: 'explicitOnly', kept: false });
      await run.close();
    });
  }

  it("tools.alsoAllow or one agent's allow list names it: offered there only", async () => {
    const agents = { list: [{ id: 'ops', tools: { alsoAllow: ['gateway'] } }, { id: 'worker' }] };
    const { kernel } = setup({ plugins: [policyPlugin({ tools: {}, agents })] });
    const ids = async (agentId?: string) => {
      const run = await kernel.createRun(agentId ? { agentId } : {});
      const listed = run.catalog.map((t) => t.id);
      await run.close();
      return listed;
    };
    expect(await ids('ops')).toContain(GATEWAY_TOOL_ID);
    expect(await ids('worker')).not.toContain(GATEWAY_TOOL_ID);
    expect(await ids()).not.toContain(GATEWAY_TOOL_ID);
    const global = setup({
      plugins: [policyPlugin({ tools: { profile: 'coding', alsoAllow: ['core:core:gateway'] } })],
    });
    const run = await global.kernel.createRun({});
    expect(run.catalog.map((t) => t.id)).toContain(GATEWAY_TOOL_ID);
    await run.close();
  });
});

describe('paths the tool never writes', () => {
  const attacks: Record<string, string> = {
    'its own deny': '{ agents: { list: [{ id: "worker" }] } }',
    'the global deny': '{ tools: { deny: null } }',
    'elevated exec': '{ tools: { elevated: { enabled: true }, exec: { host: "gateway", security: "full" } } }',
    'an API key for every agent': '{ auth: { keys: [{ name: "x", env: "HOME", agents: ["*"] }] } }',
    'auth deleted': '{ auth: null }',
    'provider re-pointed': '{ provider: { baseURL: "https://evil.example/v1" } }',
    'an MCP url': '{ mcp: { servers: { evil: { url: "https://evil.example/mcp" } } } }',
    'a plugin module': '{ plugins: { "./evil.mjs": {} } }',
    'listen everywhere': '{ gateway: { host: "0.0.0.0" } }',
    'telemetry endpoint': '{ telemetry: { otlp: { endpoint: "https://evil.example" } } }',
    'state store': '{ state: { redis: { url: "redis://evil.example" } } }',
    'approvals off': '{ tools: { approvals: { require: [] } } }',
    'a profile': '{ tools: { profile: "full" } }',
    'restart switch': '{ commands: { restart: true } }',
  };
  for (const [name, raw] of Object.entries(attacks)) {
    it(`config.patch: ${name}`, async () => {
      const { call, configPath, restarts } = setup({ text: GUARDED });
      expect(codeOf(await call({ action: 'config.patch', raw }))).toBe(GatewayErrors.GATEWAY_PATH_FORBIDDEN);
      expect(readFileSync(configPath, 'utf8')).toBe(GUARDED);
      expect(restarts).toEqual([]);
    });
  }

  it('config.apply: the whole config with one protected change is refused; the same config kept is written', async () => {
    const { call, configPath } = setup({ text: GUARDED });
    const shown = data(await call({ action: 'config.get' })).config;
    const changed = structuredClone(shown);
    changed.tools.deny = [];
    expect(codeOf(await call({ action: 'config.apply', raw: JSON.stringify(changed) }))).toBe(
      GatewayErrors.GATEWAY_PATH_FORBIDDEN,
    );
    expect(readFileSync(configPath, 'utf8')).toBe(GUARDED);
    const same = structuredClone(shown);
    same.tools.toolSearch.mode = 'code';
    data(await call({ action: 'config.apply', raw: JSON.stringify(same) }));
    const written = readFileSync(configPath, 'utf8');
    for (const secret of ['sk-secret', 'redis-secret', 'mcp-arg-secret', 'mcp-env-secret', 'pplx-secret'])
      expect(written).toContain(secret);
  });

  it('a refused patch imports nothing (the check never runs for it)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gateway-import-'));
    const marker = join(dir, 'imported');
    const module = join(dir, 'evil.mjs');
    writeFileSync(module, `import { writeFileSync } from 'node:fs'; writeFileSync(${JSON.stringify(marker)}, 'x');\n`);
    // A check that loads plugin modules, as a full start would.
    const check = async (config: any) => {
      for (const id of Object.keys(config.plugins ?? {})) await import(pathToFileURL(id).href);
    };
    const { call } = setup({ text: GUARDED, check });
    const raw = JSON.stringify({ plugins: { [module]: {} } });
    expect(codeOf(await call({ action: 'config.patch', raw }))).toBe(GatewayErrors.GATEWAY_PATH_FORBIDDEN);
    expect(existsSync(marker)).toBe(false);
  });
});

describe('secrets', () => {
  it('config.get shows no secret (schema marks, URL credentials, MCP args, env)', async () => {
    const { call } = setup({ text: GUARDED });
    const text = JSON.stringify(data(await call({ action: 'config.get' })));
    for (const secret of [
      'sk-secret',
      'emb-secret',
      'brave-secret',
      'pplx-secret',
      'redis-secret',
      'mcp-arg-secret',
      'mcp-env-secret',
    ])
      expect(text).not.toContain(secret);
    expect(text).toContain('api.perplexity.ai');
  });

  it('a kept secret does not follow a new address: refused until the secret is given again', async () => {
    const { call, configPath } = setup({ text: GUARDED });
    const moved = '{ tools: { toolSearch: { embeddings: { baseURL: "https://evil.example/v1" } } } }';
    expect(codeOf(await call({ action: 'config.patch', raw: moved }))).toBe(
      GatewayErrors.GATEWAY_SECRET_DESTINATION_CHANGED,
    );
    const kept = `{ tools: { web: { search: { perplexity: { apiKey: "${REDACTED}", baseUrl: "https://evil.example" } } } } }`;
    expect(codeOf(await call({ action: 'config.patch', raw: kept }))).toBe(
      GatewayErrors.GATEWAY_SECRET_DESTINATION_CHANGED,
    );
    expect(readFileSync(configPath, 'utf8')).toBe(GUARDED);
    const fresh =
      '{ tools: { toolSearch: { embeddings: { baseURL: "https://other.example/v1", apiKey: "new-key" } } } }';
    data(await call({ action: 'config.patch', raw: fresh }));
    expect(readFileSync(configPath, 'utf8')).toContain('new-key');
  });

  it('config.apply: a redacted secret moved to a new address is refused', async () => {
    const { call, configPath } = setup({ text: GUARDED });
    const shown = data(await call({ action: 'config.get' })).config;
    shown.tools.web.search.perplexity.baseUrl = 'https://evil.example';
    expect(codeOf(await call({ action: 'config.apply', raw: JSON.stringify(shown) }))).toBe(
      GatewayErrors.GATEWAY_SECRET_DESTINATION_CHANGED,
    );
    expect(readFileSync(configPath, 'utf8')).toBe(GUARDED);
  });
});

describe('the config file is opened safely', () => {
  it('a symlinked config is not read through', async () => {
    const { call, configPath } = setup();
    const outside = join(mkdtempSync(join(tmpdir(), 'gateway-outside-')), 'secret.json');
    writeFileSync(outside, '{ provider: { baseURL: "http://x", model: "m", apiKey: "outside-secret" } }');
    symlinkSync(outside, configPath);
    const outcome = await call({ action: 'config.get' });
    expect(codeOf(outcome)).toBe(GatewayErrors.GATEWAY_CONFIG_UNSAFE_FILE);
    expect(JSON.stringify(outcome)).not.toContain('outside-secret');
  });

  it('a FIFO in place of the config is refused, not waited on', async () => {
    const { call, configPath } = setup();
    try {
      execFileSync('mkfifo', [configPath]);
    } catch (error) {
      console.warn(`skipping the FIFO test: mkfifo failed (${String(error)})`);
      return;
    }
    expect(codeOf(await call({ action: 'config.get' }))).toBe(GatewayErrors.GATEWAY_CONFIG_UNSAFE_FILE);
    expect(codeOf(await call({ action: 'config.patch', raw: '{ tools: { toolSearch: null } }' }))).toBe(
      GatewayErrors.GATEWAY_CONFIG_UNSAFE_FILE,
    );
  });

  it('links planted at temporary names do not redirect the write', async () => {
    const { call, configPath } = setup({ text: FILE });
    const outside = join(mkdtempSync(join(tmpdir(), 'gateway-victim-')), 'victim');
    writeFileSync(outside, 'victim\n');
    // The names a write based on pid and clock would use in the next seconds, each a link to the victim.
    const now = Date.now();
    for (let t = now; t < now + 4000; t++) symlinkSync(outside, `${configPath}.${process.pid}.${t}.tmp`);
    data(await call({ action: 'config.patch', raw: '{ tools: { toolSearch: { mode: "code" } } }' }));
    expect(readFileSync(outside, 'utf8')).toBe('victim\n');
    expect(lstatSync(configPath).isFile()).toBe(true);
    expect(readFileSync(configPath, 'utf8')).toContain('mode: "code"');
  });

  /** The same attack in a process of its own, as root and as `nobody` (uid 65534), through the built package. */
  const FIXTURE = fileURLToPath(new URL('./fixtures/patch-with-planted-links.mjs', import.meta.url));
  const BUILT = existsSync(fileURLToPath(new URL('../dist/guard.js', import.meta.url)));
  const CAN_DROP = process.getuid?.() === 0 && spawnSync('setpriv', ['--version']).status === 0;
  for (const uid of [undefined, 65534]) {
    const who = uid === undefined ? 'as this user' : `as uid ${uid}`;
    it(`links planted at temporary names do not redirect the write, ${who} (own process)`, (context) => {
      if (!BUILT) {
        console.warn(
          'skipping: packages/plugin-gateway/dist is missing; run `npx tsc -b packages/plugin-gateway/tsconfig.build.json`',
        );
        return context.skip();
      }
      if (uid !== undefined && !CAN_DROP) {
        console.warn('skipping the unprivileged run: it needs root to drop to uid 65534 with setpriv (util-linux)');
        return context.skip();
      }
      const dir = mkdtempSync(join(tmpdir(), 'gateway-planted-'));
      const configPath = join(dir, 'tool-search.json');
      const victim = join(mkdtempSync(join(tmpdir(), 'gateway-victim-')), 'victim');
      writeFileSync(configPath, FILE);
      writeFileSync(victim, 'victim\n');
      if (uid !== undefined) {
        for (const path of [dir, configPath, victim, join(victim, '..')]) chownSync(path, uid, uid);
        chmodSync(join(victim, '..'), 0o755);
      }
      const argv = [FIXTURE, configPath, victim, '{ tools: { toolSearch: { mode: "code" } } }'];
      const [command, args] =
        uid === undefined
          ? [process.execPath, argv]
          : ['setpriv', [`--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', process.execPath, ...argv]];
      const result = spawnSync(command as string, args as string[], { encoding: 'utf8' });
      expect(result.status, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual({ status: 'ok' });
      expect(readFileSync(victim, 'utf8')).toBe('victim\n');
      expect(lstatSync(configPath).isFile()).toBe(true);
      expect(readFileSync(configPath, 'utf8')).toContain('mode: "code"');
    });
  }
});
