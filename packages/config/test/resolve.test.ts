import { describe, expect, it } from 'vitest';
import { resolveConfig, resolveToolSearch } from '../src/index.js';

describe('resolveToolSearch', () => {
  it('is disabled with mode direct when absent', () => {
    expect(resolveToolSearch(undefined)).toMatchObject({ enabled: false, mode: 'direct' });
  });

  it('is disabled with mode direct when false', () => {
    expect(resolveToolSearch(false)).toMatchObject({ enabled: false, mode: 'direct' });
  });

  it('true means enabled in code mode with the defaults', () => {
    expect(resolveToolSearch(true)).toEqual({
      enabled: true,
      mode: 'code',
      codeTimeoutMs: 10000,
      searchDefaultLimit: 8,
      maxSearchLimit: 20,
      visible: [],
      directoryBudgetChars: undefined,
      warmPool: 0,
      sandbox: 'process',
      maxConcurrent: 4,
      directory: {},
      direct: {},
    });
  });

  it('an object is enabled unless enabled is false', () => {
    expect(resolveToolSearch({ mode: 'tools' })).toMatchObject({ enabled: true, mode: 'tools' });
    expect(resolveToolSearch({ enabled: false, mode: 'tools' })).toMatchObject({ enabled: false, mode: 'direct' });
  });

  it('keeps in-range values', () => {
    expect(resolveToolSearch({ codeTimeoutMs: 5000, searchDefaultLimit: 3, maxSearchLimit: 30 })).toMatchObject({
      codeTimeoutMs: 5000,
      searchDefaultLimit: 3,
      maxSearchLimit: 30,
    });
  });

  it('clamps codeTimeoutMs to 1000..60000', () => {
    expect(resolveToolSearch({ codeTimeoutMs: 10 }).codeTimeoutMs).toBe(1000);
    expect(resolveToolSearch({ codeTimeoutMs: 600000 }).codeTimeoutMs).toBe(60000);
  });

  it('clamps maxSearchLimit to 1..50', () => {
    expect(resolveToolSearch({ maxSearchLimit: 500 }).maxSearchLimit).toBe(50);
  });

  it('clamps searchDefaultLimit to maxSearchLimit', () => {
    expect(resolveToolSearch({ maxSearchLimit: 5, searchDefaultLimit: 9 }).searchDefaultLimit).toBe(5);
  });

  it('clamps the default searchDefaultLimit to a small maxSearchLimit', () => {
    expect(resolveToolSearch({ maxSearchLimit: 3 }).searchDefaultLimit).toBe(3);
  });

  // The Tool Search document: any number below a range is raised to its minimum, above it lowered to its maximum.
  it('raises numbers below a range to its minimum (codeTimeoutMs: 0 → 1000, -3 → 1000, maxSearchLimit: 0 → 1)', () => {
    expect(resolveToolSearch({ codeTimeoutMs: 0 }).codeTimeoutMs).toBe(1000);
    expect(resolveToolSearch({ codeTimeoutMs: -3 }).codeTimeoutMs).toBe(1000);
    expect(resolveToolSearch({ maxSearchLimit: 0 })).toMatchObject({ maxSearchLimit: 1, searchDefaultLimit: 1 });
    expect(resolveToolSearch({ searchDefaultLimit: -1 }).searchDefaultLimit).toBe(1);
  });

  it('rounds a fraction before clamping', () => {
    expect(resolveToolSearch({ searchDefaultLimit: 2.5, maxSearchLimit: 10.2 })).toMatchObject({
      searchDefaultLimit: 3,
      maxSearchLimit: 10,
    });
  });

  it('passes visible and a valid directory budget through', () => {
    expect(resolveToolSearch({ visible: ['read'], directoryBudgetChars: 4000 })).toMatchObject({
      visible: ['read'],
      directoryBudgetChars: 4000,
    });
  });

  it('drops an invalid directory budget', () => {
    expect(resolveToolSearch({ directoryBudgetChars: -3 }).directoryBudgetChars).toBeUndefined();
  });

  it('selects the code-mode sandbox backend and clamps maxConcurrent', () => {
    expect(resolveToolSearch({ sandbox: 'quickjs' }).sandbox).toBe('quickjs');
    expect(resolveToolSearch({ maxConcurrent: 500 }).maxConcurrent).toBe(64);
    // Below its range a number is raised to the minimum, like every other tools.toolSearch number.
    expect(resolveToolSearch({ maxConcurrent: 0 }).maxConcurrent).toBe(1);
    expect(resolveToolSearch({}).maxConcurrent).toBe(4);
  });

  it('turns warmPool into a count', () => {
    expect(resolveToolSearch({ warmPool: true }).warmPool).toBe(1);
    expect(resolveToolSearch({ warmPool: 3 }).warmPool).toBe(3);
    expect(resolveToolSearch({ warmPool: 60 }).warmPool).toBe(8);
    expect(resolveToolSearch({ warmPool: -2 }).warmPool).toBe(0);
    expect(resolveToolSearch({ warmPool: false }).warmPool).toBe(0);
  });
});

describe('resolveConfig', () => {
  it('fills missing sections and resolves tools.toolSearch', () => {
    const resolved = resolveConfig({});
    expect(resolved.tools.toolSearch.mode).toBe('direct');
    expect(resolved.agents).toEqual({});
    expect(resolved.mcp).toEqual({ servers: {} });
  });

  it('keeps the other tools keys', () => {
    expect(resolveConfig({ tools: { profile: 'coding', toolSearch: true } }).tools).toMatchObject({
      profile: 'coding',
      toolSearch: { mode: 'code' },
    });
  });
});
