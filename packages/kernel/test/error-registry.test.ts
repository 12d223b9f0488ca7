import { describe, expect, it } from 'vitest';
import { defineErrors, ErrorCodeTakenError, KERNEL_OWNER, listErrorCodes, ToolSearchError } from '../src/index.js';

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

  it('lists the kernel codes as the kernel s own', () => {
    expect(listErrorCodes()).toContainEqual({ code: 'UNKNOWN_TOOL', owner: KERNEL_OWNER, description: '' });
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
