import { ErrorCode } from '@tool-search/kernel';
import { describe, expect, it } from 'vitest';
import { directoryModePlugin } from '../src/index.js';
import { directoryRun } from './fixtures.js';

const searchOf = (exposure: { tools: readonly { name: string; description: string }[] }) =>
  exposure.tools.find((tool) => tool.name === 'tool_search')!.description;

describe('the operator description in directory mode', () => {
  it("is appended to tool_search's description", async () => {
    const plain = await directoryRun();
    const extended = await directoryRun({ description: 'Holds the Acme billing tools.' });
    try {
      expect(searchOf(extended.exposure)).toBe(`${searchOf(plain.exposure)}\n\nHolds the Acme billing tools.`);
    } finally {
      await Promise.all([plain.kernel.close(), extended.kernel.close()]);
    }
  });

  it('refuses an over-long description at setup', () => {
    expect(() => directoryModePlugin({ description: 'x'.repeat(2001) })).toThrow(
      expect.objectContaining({ code: ErrorCode.OPTIONS_INVALID, path: '/description', rule: 'maxLength' }),
    );
  });
});
