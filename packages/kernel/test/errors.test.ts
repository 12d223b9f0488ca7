import { describe, expect, it } from 'vitest';
import { ErrorCode, ToolArgumentsError } from '@tool-search/kernel';

describe('ToolArgumentsError', () => {
  it('keeps the cause it is given (a parse error), and lists the violations', () => {
    let parseError: unknown;
    try {
      JSON.parse('{"city": "Oslo');
    } catch (error) {
      parseError = error;
    }
    const error = new ToolArgumentsError(
      'plugin:weather:forecast',
      [{ path: '/', rule: 'json', message: 'arguments are not valid JSON' }],
      { cause: parseError },
    );
    expect(error).toMatchObject({
      code: ErrorCode.TOOL_ARGUMENTS_INVALID,
      toolId: 'plugin:weather:forecast',
      errors: [{ rule: 'json' }],
    });
    expect(error.cause).toBe(parseError);
    expect(error.cause).toBeInstanceOf(SyntaxError);
    expect(new ToolArgumentsError('x', []).cause).toBeUndefined();
  });
});
