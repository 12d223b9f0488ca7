import { describe, expect, it } from 'vitest';
import { ErrorCode, ToolSearchError } from '@tool-search/kernel';
import { stderrLogger } from '../src/stderr-logger.js';

// Operator logs carry a failure's cause (issue 27): the line shows it, and data JSON cannot hold never throws.
describe('stderrLogger', () => {
  const capture = () => {
    const lines: string[] = [];
    return {
      lines,
      logger: stderrLogger({
        stdout: { write: () => true },
        stderr: { write: (chunk: string) => lines.push(chunk) },
        cwd: '.',
      }),
    };
  };

  it('shows a cause with its name, message, code and own cause', () => {
    const { lines, logger } = capture();
    const cause = new ToolSearchError(ErrorCode.INTERNAL_ERROR, 'redis did not answer', {
      cause: new Error('ECONNREFUSED'),
    });
    logger.warn('refresh failed: redis did not answer', { cause });
    expect(lines).toHaveLength(1);
    const data = JSON.parse(lines[0]!.slice(lines[0]!.indexOf('{'))) as { cause: Record<string, unknown> };
    expect(data.cause).toEqual({
      name: 'ToolSearchError',
      message: 'redis did not answer',
      code: 'INTERNAL_ERROR',
      cause: { name: 'Error', message: 'ECONNREFUSED' },
    });
  });

  it('writes the line without the data when the data cannot be JSON (a cycle)', () => {
    const { lines, logger } = capture();
    const looped: Record<string, unknown> = {};
    looped.self = looped;
    expect(() => logger.error('close failed', { looped })).not.toThrow();
    expect(lines[0]).toMatch(/^tool-search: error close failed \(log data not shown: /);
  });
});
