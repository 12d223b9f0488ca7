/**
 * The Tools document's policy examples, word for word, through `tools list --json` with a real MCP server that
 * provides `slack` and `discord` (https://docs.openclaw.ai/gateway/config-tools/tool-policy: "`tools.profile` sets a
 * base allowlist before `tools.allow`/`tools.deny`").
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cli, folder } from './helpers.js';

const CHAT_SERVER = fileURLToPath(new URL('./fixtures/chat-server.mjs', import.meta.url));
const MESSAGING = ['message', 'session_status', 'sessions_history', 'sessions_list', 'sessions_send'];
const CODING = [
  'apply_patch',
  'bash',
  'edit',
  'exec',
  'image',
  'memory_get',
  'memory_search',
  'process',
  'read',
  'session_status',
  'sessions_history',
  'sessions_list',
  'sessions_send',
  'sessions_spawn',
  'write',
];

/** A config with the 25 fake core tools and the chat MCP server, plus the given `tools`/`agents` text. */
function withChat(policy: string): string {
  return folder({
    'tool-search.json': `{ plugins: { "fake-catalog": { tools: 0, core: true } }, mcp: { servers: { chat: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(CHAT_SERVER)}] } } }, ${policy} }`,
  });
}

async function listed(cwd: string, ...flags: string[]): Promise<string[]> {
  const { code, stdout, stderr } = await cli(['tools', 'list', '--json', ...flags], cwd);
  expect(code, stderr).toBe(0);
  return (JSON.parse(stdout) as { tools: { name: string }[] }).tools.map((tool) => tool.name).sort();
}

describe('policy examples of the Tools document, through tools list --json', () => {
  it('tools: { profile: "messaging", allow: ["slack", "discord"] } = the messaging profile plus slack and discord', async () => {
    const cwd = withChat('tools: { profile: "messaging", allow: ["slack", "discord"] }');
    expect(await listed(cwd)).toEqual([...MESSAGING, 'discord', 'slack'].sort());
    const { stdout } = await cli(['tools', 'explain', 'slack', '--json'], cwd);
    expect(JSON.parse(stdout).steps).toMatchObject([{ step: 'tools.allow', kept: true, rule: 'slack' }]);
    const dropped = JSON.parse((await cli(['tools', 'explain', 'exec', '--json'], cwd)).stdout);
    expect(dropped).toMatchObject({
      inCatalog: false,
      steps: [{ step: 'profile:messaging + tools.allow', kept: false }],
    });
  }, 60_000);

  it('the support agent (profile "messaging", allow ["slack"]) under a global "coding" profile: messaging plus slack for that agent only', async () => {
    const cwd = withChat(
      'tools: { profile: "coding" }, agents: { list: [{ id: "main", default: true }, { id: "support", tools: { profile: "messaging", allow: ["slack"] } }] }',
    );
    expect(await listed(cwd, '--agent', 'support')).toEqual([...MESSAGING, 'slack'].sort());
    expect(await listed(cwd, '--agent', 'main')).toEqual(CODING);
    expect(await listed(cwd)).toEqual(CODING);
  }, 60_000);

  it('tools: { allow: ["group:fs", "browser"] } without a profile = only those', async () => {
    expect(await listed(withChat('tools: { allow: ["group:fs", "browser"] }'))).toEqual([
      'apply_patch',
      'browser',
      'edit',
      'read',
      'write',
    ]);
  }, 60_000);

  it('an unknown --agent is refused with AGENT_UNKNOWN and a did-you-mean', async () => {
    const cwd = withChat('agents: { list: [{ id: "support", tools: { profile: "messaging" } }] }');
    const { code, stderr } = await cli(['tools', 'list', '--json', '--agent', 'suport'], cwd);
    expect(code).toBe(1);
    expect(stderr).toContain('AGENT_UNKNOWN');
    expect(stderr).toContain('"support"');
  }, 60_000);

  it('serve mcp --agent with an unknown id is refused at start with AGENT_UNKNOWN', async () => {
    const cwd = folder({
      'tool-search.json': '{ plugins: { "fake-catalog": { tools: 3 } }, agents: { list: [{ id: "support" }] } }',
    });
    const controller = new AbortController();
    const { code, stderr } = await cli(['serve', 'mcp', '--http', '0', '--agent', 'suport'], cwd, {
      signal: controller.signal,
    });
    controller.abort();
    expect(code).toBe(1);
    expect(stderr).toContain('AGENT_UNKNOWN');
  }, 60_000);
});
