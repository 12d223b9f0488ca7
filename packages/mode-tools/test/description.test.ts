import { createKernel, ErrorCode } from '@tool-search/kernel';
import { afterEach, describe, expect, it } from 'vitest';
import { toolsModePlugin } from '../src/index.js';
import { sourcePlugin, toolsRun } from './fixtures.js';

const kernels: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(kernels.splice(0).map((kernel) => kernel.close()));
});

const searchOf = (exposure: { tools: readonly { name: string; description: string }[] }) =>
  exposure.tools.find((tool) => tool.name === 'tool_search')!.description;

describe('the operator description (option `description`, run `searchDescription`)', () => {
  it("is appended to tool_search's description after a blank line; the other control tools keep theirs", async () => {
    const plain = await toolsRun();
    const extended = await toolsRun({ description: ' Holds the Acme billing tools. ' });
    kernels.push(plain.kernel, extended.kernel);
    expect(searchOf(extended.exposure)).toBe(`${searchOf(plain.exposure)}\n\nHolds the Acme billing tools.`);
    const others = (exposure: typeof plain.exposure) =>
      exposure.tools.filter((tool) => tool.name !== 'tool_search').map((tool) => tool.description);
    expect(others(extended.exposure)).toEqual(others(plain.exposure));
  });

  it("a run's searchDescription wins over the option; runs without one keep the option's", async () => {
    const kernel = createKernel({ plugins: [sourcePlugin(), toolsModePlugin({ description: 'Base words.' })] });
    kernels.push(kernel);
    const agent = await (await kernel.createRun({ searchDescription: 'Agent words.' })).exposure('tools');
    const other = await (await kernel.createRun()).exposure('tools');
    expect(searchOf(agent).endsWith('\n\nAgent words.')).toBe(true);
    expect(searchOf(agent)).not.toContain('Base words.');
    expect(searchOf(other).endsWith('\n\nBase words.')).toBe(true);
  });

  it('refuses a non-string or an over-long description at setup, with the option path', () => {
    expect(() => toolsModePlugin({ description: 7 as never })).toThrow(
      expect.objectContaining({ code: ErrorCode.OPTIONS_INVALID, path: '/description', rule: 'type' }),
    );
    expect(() => toolsModePlugin({ description: 'x'.repeat(2001) })).toThrow(
      expect.objectContaining({ path: '/description', rule: 'maxLength' }),
    );
  });
});

describe('options schema', () => {
  it('is exported, and an unknown or mistyped option is OPTIONS_INVALID at its path', async () => {
    const { optionsSchema } = await import('../src/index.js');
    expect(Object.keys(optionsSchema.properties).sort()).toEqual([
      'description',
      'maxSearchLimit',
      'searchDefaultLimit',
    ]);
    expect(() => toolsModePlugin({ maxSearchLimt: 5 } as never)).toThrow(
      expect.objectContaining({
        code: ErrorCode.OPTIONS_INVALID,
        path: '/maxSearchLimt',
        rule: 'additionalProperties',
      }),
    );
    expect(() => toolsModePlugin({ searchDefaultLimit: '8' } as never)).toThrow(
      expect.objectContaining({ path: '/searchDefaultLimit', rule: 'type' }),
    );
  });
});
