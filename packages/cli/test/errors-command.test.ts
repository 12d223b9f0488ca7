import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cli, folder } from './helpers.js';

// `tool-search errors`: every code the configured deployment can raise, each under the package that owns it.
const here = dirname(fileURLToPath(import.meta.url));
type Info = { code: string; owner: string; description: string };

// Every code the kernel's single list had before each package owned its own (less AMBIGUOUS_TOOL, raised by
// nothing): the wire strings are contracts, so each is still raised, under the same string, by some package.
const FORMER_KERNEL_CODES =
  `PLUGIN_DEPENDENCY_MISSING PLUGIN_DUPLICATE PLUGIN_INVALID KERNEL_SEALED HOOK_STYLE_UNSUPPORTED SOURCE_FAILED
SOURCE_TIMEOUT TOOL_INVALID TOOL_SCHEMA_INVALID TOOL_SCHEMA_PATTERN_UNENFORCED TOOL_ID_DUPLICATE TOOL_NAME_SHADOWED
CLIENT_TOOL_COLLISION POLICY_NOT_SUBSET POLICY_FAILED POLICY_DENIED POLICY_ALLOWLIST_IGNORED AGENT_UNKNOWN TOOL_NAME_LOOKALIKE
UNKNOWN_TOOL TOOL_ARGUMENTS_INVALID TOOL_EXECUTION_FAILED TOOL_TIMEOUT TOOL_CALL_ABORTED TOOL_CALL_BLOCKED
CLIENT_TOOL_NOT_EXECUTABLE MODE_UNKNOWN MATERIALIZE_FAILED MODE_FALLBACK RUN_CLOSED RUN_STOPPED CONFIG_INVALID
CONFIG_UNREADABLE OPTIONS_INVALID MCP_SERVER_FAILED MCP_SERVER_UNAVAILABLE CODE_INVALID CODE_FAILED CODE_TIMEOUT CODE_ABORTED
CODE_LIMIT_EXCEEDED SANDBOX_FAILED SANDBOX_UNAVAILABLE MCP_CALL_FAILED MCP_RESULT_TOO_LARGE MCP_LIST_TRUNCATED
MCP_AUTH_REQUIRED MCP_AUTH_FAILED CLIENT_TOOL_INVALID SESSION_LOG_INVALID EMBEDDINGS_UNAVAILABLE SEARCH_RERANK_FAILED
APPROVAL_ANSWER_INVALID SNAPSHOT_INVALID URL_NOT_ALLOWED FETCH_FAILED SEARCH_PROVIDER_FAILED TOOL_NOT_CONFIGURED
MEMORY_PATH_INVALID PDF_UNREADABLE PATH_OUTSIDE_WORKSPACE FILE_NOT_FOUND EDIT_NO_MATCH EDIT_NOT_UNIQUE PATCH_INVALID
PATCH_CONFLICT EXEC_SECURITY_DENY EXEC_NOT_ALLOWLISTED EXEC_ARGUMENT_NOT_ALLOWED EXEC_HOST_UNAVAILABLE EXEC_TIMEOUT
APPROVAL_REQUIRED PROCESS_SESSION_UNKNOWN REQUEST_INVALID REQUEST_TOO_LARGE PROVIDER_FAILED PORT_IN_USE PLUGIN_LOAD_FAILED
PLUGIN_KERNEL_MISMATCH CLI_USAGE_INVALID CLI_INPUT_INVALID INTERNAL_ERROR SESSION_UNKNOWN SESSION_NOT_VISIBLE
SESSION_SEND_SELF SESSIONS_UNAVAILABLE SUBAGENT_NOT_ALLOWED CRON_JOB_UNKNOWN CRON_SCHEDULE_INVALID IMAGE_UNREADABLE
STATE_UNAVAILABLE PROCESS_ON_OTHER_REPLICA`.split(/\s+/);

async function listed(cwd = folder()): Promise<Info[]> {
  const result = await cli(['errors', '--json'], cwd);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Info[];
}

describe('tool-search errors', () => {
  it('lists the kernel codes first, then each package s codes grouped by owner, each once with a description', async () => {
    const codes = await listed();
    const owners = codes.map((info) => info.owner);
    const kernel = owners.lastIndexOf('@tool-search/kernel');
    expect(owners.slice(0, kernel + 1).every((owner) => owner === '@tool-search/kernel')).toBe(true);
    const rest = owners.slice(kernel + 1);
    expect(rest).toEqual([...rest].sort((a, b) => a.localeCompare(b)));
    expect(new Set(codes.map((info) => info.code)).size).toBe(codes.length);
    for (const info of codes) expect(info.description, info.code).not.toBe('');
    const owner = (code: string) => codes.find((info) => info.code === code)?.owner;
    expect(owner('UNKNOWN_TOOL')).toBe('@tool-search/kernel');
    expect(owner('MCP_SERVER_FAILED')).toBe('@tool-search/plugin-mcp');
    expect(owner('CODE_TIMEOUT')).toBe('@tool-search/mode-code');
    expect(owner('EXEC_TIMEOUT')).toBe('@tool-search/plugin-exec');
    expect(owner('CLI_USAGE_INVALID')).toBe('@tool-search/cli');
    expect(owner('REQUEST_TOO_LARGE')).toBe('@tool-search/gateway');
    expect(owner('AUTH_REQUIRED')).toBe('@tool-search/auth');
    expect(owner('AMBIGUOUS_TOOL')).toBeUndefined();
  });

  it('still knows every code the kernel used to hold, under the same wire string', async () => {
    const known = new Set((await listed()).map((info) => info.code));
    expect(FORMER_KERNEL_CODES.filter((code) => !known.has(code))).toEqual([]);
  });

  it('lists the codes a plugin module from the config declares, under its owner', async () => {
    const codes = await listed(join(here, 'fixtures/coded-plugin'));
    expect(codes).toContainEqual({
      code: 'STATION_DOWN',
      owner: 'station-plugin',
      description: 'The weather station did not answer.',
    });
  });

  it('prints a text list grouped by owner, the kernel first', async () => {
    const result = await cli(['errors'], folder());
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe('@tool-search/kernel');
    expect(lines).toContain('@tool-search/plugin-mcp');
    expect(result.stdout).toMatch(/^ {2}MCP_SERVER_FAILED +An MCP server failed to start/m);
  });

  it('explains one code (any case), as text or JSON', async () => {
    const text = await cli(['errors', 'mcp_auth_required'], folder());
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^MCP_AUTH_REQUIRED \(@tool-search\/plugin-mcp\)\n {2}.*tool-search mcp login/);
    const json = await cli(['errors', 'TOOL_ARGUMENTS_INVALID', '--json'], folder());
    expect(JSON.parse(json.stdout)).toEqual({
      code: 'TOOL_ARGUMENTS_INVALID',
      owner: '@tool-search/kernel',
      description: expect.stringContaining('input schema'),
    });
  });

  it('exits 1 for an unknown code and suggests the nearest ones', async () => {
    const typo = await cli(['errors', 'UNKOWN_TOOL'], folder());
    expect(typo.code).toBe(1);
    expect(typo.stderr).toMatch(/unknown error code "UNKOWN_TOOL"; did you mean UNKNOWN_TOOL/);
    const json = await cli(['errors', 'NO_SUCH_THING_AT_ALL', '--json'], folder());
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ error: { code: 'CLI_INPUT_INVALID' } });
  });

  it('refuses a config it cannot read, as every command does', async () => {
    const result = await cli(['errors', '--json'], folder({ 'tool-search.json': '{ nope' }));
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ error: { code: 'CONFIG_UNREADABLE' } });
  });
});
