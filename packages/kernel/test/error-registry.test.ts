import { describe, expect, it } from 'vitest';
import {
  defineErrors,
  ErrorCode,
  ErrorCodeTakenError,
  KERNEL_OWNER,
  listErrorCodes,
  ToolSearchError,
} from '../src/index.js';

describe('defineErrors: a package owns the codes it raises', () => {
  it('returns the codes as constants a ToolSearchError carries and lists them with their owner', () => {
    const Codes = defineErrors('@example/weather', { WEATHER_STATION_DOWN: 'The station did not answer.' });
    const error = new ToolSearchError(Codes.WEATHER_STATION_DOWN, 'station 12 is down');
    expect(error.code).toBe('WEATHER_STATION_DOWN');
    expect(error.toJSON()).toMatchObject({ code: 'WEATHER_STATION_DOWN' });
    expect(listErrorCodes()).toContainEqual({
      code: 'WEATHER_STATION_DOWN',
      owner: '@example/weather',
      description: 'The station did not answer.',
    });
  });

  it('lists the kernel codes first, as the kernel s own, each saying what it means', () => {
    const kernel = listErrorCodes().filter((info) => info.owner === KERNEL_OWNER);
    expect(kernel.map((info) => info.code)).toEqual(Object.keys(ErrorCode));
    expect(listErrorCodes().slice(0, kernel.length)).toEqual(kernel);
    for (const info of kernel) expect(info.description.length, info.code).toBeGreaterThan(10);
    expect(kernel.find((info) => info.code === 'UNKNOWN_TOOL')?.description).toMatch(/effective catalog/);
  });

  it('keeps only core codes: what a plugin raises is not the kernel s', () => {
    for (const code of [
      'UNKNOWN_TOOL',
      'TOOL_ARGUMENTS_INVALID',
      'POLICY_DENIED',
      'SOURCE_FAILED',
      'SOURCE_TIMEOUT',
      'CONFIG_INVALID',
    ]) {
      expect(ErrorCode).toHaveProperty(code, code);
    }
    for (const code of ['MCP_SERVER_FAILED', 'EXEC_TIMEOUT', 'CODE_FAILED', 'AMBIGUOUS_TOOL', 'CLI_USAGE_INVALID'])
      expect(ErrorCode).not.toHaveProperty(code);
    expect(Object.isFrozen(ErrorCode)).toBe(true);
  });

  it('refuses a code the kernel or another package already owns', () => {
    expect(() => defineErrors('@example/a', { UNKNOWN_TOOL: 'mine now' })).toThrow(ErrorCodeTakenError);
    defineErrors('@example/b', { B_ONLY: 'b' });
    expect(() => defineErrors('@example/c', { B_ONLY: 'c' })).toThrow(/@example\/b already owns/);
  });

  it('lets the same package declare its codes again (loaded twice: sources and dist)', () => {
    defineErrors('@example/twice', { TWICE: 'first load' });
    expect(() => defineErrors('@example/twice', { TWICE: 'second load' })).not.toThrow();
  });
});
