import { ErrorCode } from '@tool-search/kernel';
import { afterEach, describe, expect, it } from 'vitest';
import type { DirectoryModeOptions } from '../src/index.js';
import { directoryRun } from './fixtures.js';

const kernels: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(kernels.splice(0).map((kernel) => kernel.close()));
});

async function open(options: DirectoryModeOptions = {}) {
  const opened = await directoryRun(options);
  kernels.push(opened.kernel);
  return opened;
}

describe('calling a hidden directory tool by name', () => {
  it('runs a hidden tool called by its exact, unique name through run.call', async () => {
    const { exposure, calls } = await open();
    const outcome = await exposure.call('read_file', { path: 'a.txt' });
    expect(outcome).toMatchObject({
      status: 'ok',
      result: { content: [{ text: 'FAKE_TOOL_OK read_file {"path":"a.txt"}' }] },
    });
    expect(calls).toEqual([{ toolId: 'core:core:read_file', origin: 'directory', status: 'ok' }]);
  });

  it('runs a hidden tool through the provider-safe alias the directory shows', async () => {
    const { exposure, calls } = await open();
    const alias = /- (hidden_odd_name_[0-9a-f]{8}):/.exec(exposure.system)?.[1];
    expect(alias).toBeDefined();
    expect(exposure.has(alias!)).toBe(true);
    const outcome = await exposure.call(alias!, {});
    expect(outcome).toMatchObject({ status: 'ok', result: { content: [{ text: 'FAKE_TOOL_OK hidden.odd/name {}' }] } });
    expect(calls[0]).toMatchObject({ toolId: 'mcp:odd:hidden.odd/name', origin: 'directory' });
  });

  it('refuses an ambiguous name (several catalog tools share it)', async () => {
    const { exposure, calls } = await open();
    const outcome = await exposure.call('search_issues', {});
    expect(outcome).toMatchObject({ status: 'error', error: { code: ErrorCode.UNKNOWN_TOOL } });
    expect(exposure.has('search_issues')).toBe(false);
    expect(calls).toEqual([]);
  });

  it('refuses an unknown name', async () => {
    const { exposure } = await open();
    expect(await exposure.call('no_such_tool', {})).toMatchObject({
      status: 'error',
      error: { code: ErrorCode.UNKNOWN_TOOL },
    });
  });

  it.each(['secret_tool', 'core:core:secret_tool', 'core_core_secret_tool'])(
    'never resolves a tool dropped by policy (%s)',
    async (name) => {
      const { exposure, calls } = await open({ visible: ['secret_tool', 'core:core:secret_tool'] });
      expect(exposure.has(name)).toBe(false);
      expect(await exposure.call(name, {})).toMatchObject({ status: 'error', error: { code: ErrorCode.UNKNOWN_TOOL } });
      expect(exposure.tools.map((tool) => tool.name).join(' ')).not.toContain('secret');
      expect(exposure.system).not.toContain('secret');
      expect(calls).toEqual([]);
    },
  );

  it('returns a beforeToolCall block as the outcome', async () => {
    const { exposure, calls } = await open();
    const outcome = await exposure.call('dangerous_delete', {});
    expect(outcome).toMatchObject({ status: 'blocked', by: 'test-guard', reason: 'deletes are not approved' });
    expect(calls).toEqual([{ toolId: 'plugin:cleanup:dangerous_delete', origin: 'directory', status: 'blocked' }]);
  });

  it('returns argument validation errors as the outcome', async () => {
    const { exposure, calls } = await open();
    const outcome = await exposure.call('write_file', { path: 'a.txt' });
    expect(outcome).toMatchObject({ status: 'error', error: { code: ErrorCode.TOOL_ARGUMENTS_INVALID } });
    expect(calls).toEqual([]);
  });

  it('hands a visible client tool back to the caller when called directly', async () => {
    const { exposure } = await open();
    expect(await exposure.call('browser_click', { selector: '#go' })).toMatchObject({
      status: 'pending',
      toolId: 'client:client:browser_click',
    });
  });

  it('keeps direct-only tools visible and callable', async () => {
    const { exposure, calls } = await open();
    expect(exposure.tools.map((tool) => tool.name)).toContain('message');
    expect(await exposure.call('message', {})).toMatchObject({ status: 'ok' });
    expect(calls[0]).toMatchObject({ toolId: 'core:core:message', origin: 'direct' });
  });
});
