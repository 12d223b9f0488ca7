import { describe, expect, it } from 'vitest';
import { configIssues, resolveSandboxFor, sandboxConfigured, type ToolSearchConfig } from '../src/index.js';

const config = (agents: ToolSearchConfig['agents']): ToolSearchConfig => ({ agents });

describe('resolveSandboxFor: OpenClaw sandbox.mode', () => {
  it('sandboxes nothing by default', () => {
    expect(resolveSandboxFor({}, { agentId: 'main', sessionId: 's' })).toEqual({ sandboxed: false, mode: 'off' });
    expect(sandboxConfigured({ agents: { list: [{ id: 'a', sandbox: { mode: 'off' } }] } })).toBe(false);
  });

  it('all: every session of the agent; other agents keep the defaults', () => {
    const c = config({ list: [{ id: 'main' }, { id: 'Jailed', sandbox: { mode: 'all' } }] });
    expect(sandboxConfigured(c)).toBe(true);
    expect(resolveSandboxFor(c, { agentId: 'jailed', sessionId: 'main' })).toEqual({
      sandboxed: true,
      mode: 'all',
      source: 'agents.list[1].sandbox.mode',
    });
    expect(resolveSandboxFor(c, { agentId: 'main', sessionId: 'x' }).sandboxed).toBe(false);
    expect(resolveSandboxFor(c, {}).sandboxed).toBe(false);
  });

  it("non-main: every session but the agent's main one; a run without a session is not main", () => {
    const c = config({
      defaults: { sandbox: { mode: 'non-main', scope: 'session' } },
      list: [{ id: 'main' }, { id: 'ops' }],
    });
    expect(resolveSandboxFor(c, { sessionId: 'main' }).sandboxed).toBe(false);
    expect(resolveSandboxFor(c, { agentId: 'main', sessionId: 'main@key-1' }).sandboxed).toBe(false);
    expect(resolveSandboxFor(c, { agentId: 'ops', sessionId: 'main:ops' }).sandboxed).toBe(false);
    // Another agent's main session, or the default agent's taken by another agent, is not this agent's main.
    expect(resolveSandboxFor(c, { agentId: 'ops', sessionId: 'main' }).sandboxed).toBe(true);
    expect(resolveSandboxFor(c, { agentId: 'main', sessionId: 'main:ops' }).sandboxed).toBe(true);
    expect(resolveSandboxFor(c, { agentId: 'main', sessionId: 'spawn-1' })).toEqual({
      sandboxed: true,
      mode: 'non-main',
      source: 'agents.defaults.sandbox.mode',
    });
    expect(resolveSandboxFor(c, {}).sandboxed).toBe(true);
  });

  it("a run without an agent id is the default agent's: leaving the agent out never leaves the sandbox", () => {
    const c = config({ list: [{ id: 'main' }, { id: 'jailed', default: true, sandbox: { mode: 'all' } }] });
    expect(resolveSandboxFor(c, { sessionId: 's' }).sandboxed).toBe(true);
    expect(resolveSandboxFor(config({ list: [{ id: 'first', sandbox: { mode: 'all' } }] }), {}).sandboxed).toBe(true);
  });

  it("an agent's mode replaces the defaults' (off included)", () => {
    const c = config({ defaults: { sandbox: { mode: 'all' } }, list: [{ id: 'ops', sandbox: { mode: 'off' } }] });
    expect(resolveSandboxFor(c, { agentId: 'ops', sessionId: 's' }).sandboxed).toBe(false);
    expect(resolveSandboxFor(c, { agentId: 'other', sessionId: 's' }).sandboxed).toBe(true);
  });

  it('a mode the schema never saw sandboxes (fail closed); the schema refuses it with its path', () => {
    const c = config({ list: [{ id: 'a', sandbox: { mode: 'everything' as never } }] });
    expect(resolveSandboxFor(c, { agentId: 'a' }).sandboxed).toBe(true);
    expect(configIssues(c).map(({ path, rule }) => ({ path, rule }))).toEqual([
      { path: '/agents/list/0/sandbox/mode', rule: 'enum' },
    ]);
    expect(configIssues(config({ defaults: { sandbox: { mode: 'On' as never } } }))[0]).toMatchObject({
      path: '/agents/defaults/sandbox/mode',
    });
    // OpenClaw's other sandbox keys pass.
    expect(configIssues(config({ list: [{ id: 'a', sandbox: { mode: 'all', workspaceAccess: 'ro' } }] }))).toEqual([]);
  });
});
