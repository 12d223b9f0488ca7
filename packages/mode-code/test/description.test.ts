import { afterEach, describe, expect, it } from 'vitest';
import { createKernel, ErrorCode } from '@tool-search/kernel';
import { CODE_TOOL_DESCRIPTION, CODE_TOOL_NAME, codeModePlugin } from '../src/index.js';
import { fakeSourcePlugin } from './fixtures.js';

const kernels: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(kernels.splice(0).map((kernel) => kernel.close()));
});

describe('the operator description in code mode', () => {
  it("is appended to tool_search_code's description; a run's searchDescription wins", async () => {
    const kernel = createKernel({
      plugins: [fakeSourcePlugin(), codeModePlugin({ description: '  Holds the Acme billing tools.\n' })],
    });
    kernels.push(kernel);
    const description = async (request = {}) =>
      (await (await kernel.createRun(request)).exposure('code')).tools.find((t) => t.name === CODE_TOOL_NAME)!
        .description;
    expect(await description()).toBe(`${CODE_TOOL_DESCRIPTION}\n\nHolds the Acme billing tools.`);
    expect(await description({ searchDescription: 'Agent words.' })).toBe(`${CODE_TOOL_DESCRIPTION}\n\nAgent words.`);
  });

  it('keeps the built-in description without one, and refuses a bad one at setup', async () => {
    const kernel = createKernel({ plugins: [fakeSourcePlugin(), codeModePlugin()] });
    kernels.push(kernel);
    const tools = (await (await kernel.createRun()).exposure('code')).tools;
    expect(tools.find((t) => t.name === CODE_TOOL_NAME)!.description).toBe(CODE_TOOL_DESCRIPTION);
    expect(() => codeModePlugin({ description: 'x'.repeat(2001) })).toThrow(
      expect.objectContaining({ code: ErrorCode.OPTIONS_INVALID, path: 'description', rule: 'maxLength' }),
    );
    expect(() => codeModePlugin({ description: [] as never })).toThrow(
      expect.objectContaining({ path: 'description', rule: 'type' }),
    );
  });
});
