import { describe, expect, it } from 'vitest';
import { parseScript, textOf } from '@tool-search/mock-openai';

describe('parseScript', () => {
  it('reads the target', () => {
    expect(parseScript('tool search qa check target=fake_plugin_tool_0017')).toEqual({
      target: 'fake_plugin_tool_0017',
      args: {},
      loop: 1,
    });
  });

  it('reads JSON args with spaces and nested braces', () => {
    expect(parseScript('Tool search QA check target=x args={"q": "a b}", "n": {"k": 1}} please')?.args).toEqual({
      q: 'a b}',
      n: { k: 1 },
    });
  });

  it('reads a loop count', () => {
    expect(parseScript('tool search qa check target=x loop=5')?.loop).toBe(5);
  });

  it('ignores messages without the trigger or a target', () => {
    expect(parseScript('hello target=x')).toBeUndefined();
    expect(parseScript('tool search qa check')).toBeUndefined();
  });

  it('treats unparseable args as empty', () => {
    expect(parseScript('tool search qa check target=x args={oops')?.args).toEqual({});
  });

  it('reads text content parts', () => {
    expect(
      textOf({
        role: 'user',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      }),
    ).toBe('ab');
  });
});
