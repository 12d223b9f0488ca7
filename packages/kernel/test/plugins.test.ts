import { describe, expect, it } from 'vitest';
import { createKernel, ErrorCode, type KernelPlugin } from '@tool-search/kernel';
import { source, tool } from './helpers.js';

const named = (name: string, dependsOn?: string[]): KernelPlugin => ({
  name,
  ...(dependsOn ? { dependsOn } : {}),
  apply() {},
});

describe('plugin registration', () => {
  it('refuses a plugin whose dependency is not registered, naming it', () => {
    const kernel = createKernel();
    expect(() => kernel.use(named('b', ['a']))).toThrowError(
      expect.objectContaining({ code: ErrorCode.PLUGIN_DEPENDENCY_MISSING, plugin: 'b', details: { missing: ['a'] } }),
    );
  });

  it('accepts a plugin once its dependency is registered', () => {
    const kernel = createKernel()
      .use(named('a'))
      .use(named('b', ['a']));
    expect(kernel.plugins).toEqual(expect.arrayContaining(['a', 'b']));
  });

  it('refuses duplicate names and malformed plugins', () => {
    const kernel = createKernel().use(named('a'));
    expect(() => kernel.use(named('a'))).toThrowError(expect.objectContaining({ code: ErrorCode.PLUGIN_DUPLICATE }));
    expect(() => kernel.use({ name: '', apply() {} })).toThrowError(
      expect.objectContaining({ code: ErrorCode.PLUGIN_INVALID }),
    );
    expect(() => kernel.use({ name: 'x' } as unknown as KernelPlugin)).toThrowError(
      expect.objectContaining({ code: ErrorCode.PLUGIN_INVALID }),
    );
  });

  it('seals after the first run', async () => {
    const kernel = createKernel();
    await kernel.createRun();
    expect(kernel.sealed).toBe(true);
    expect(() => kernel.use(named('late'))).toThrowError(expect.objectContaining({ code: ErrorCode.KERNEL_SEALED }));
  });

  it('refuses tapAsync on async hooks', () => {
    const kernel = createKernel();
    expect(() =>
      kernel.use({
        name: 'callbacks',
        apply({ hooks }) {
          (hooks.listTools as unknown as { tapAsync: (fn: unknown) => void }).tapAsync(() => undefined);
        },
      }),
    ).toThrowError(expect.objectContaining({ code: ErrorCode.HOOK_STYLE_UNSUPPORTED, plugin: 'callbacks' }));
  });

  it('hands plugins tap-only facades: no call or promise', () => {
    let seen: Record<string, unknown> = {};
    createKernel().use({
      name: 'peek',
      apply({ hooks }) {
        seen = hooks as unknown as Record<string, unknown>;
      },
    });
    const listTools = seen.listTools as Record<string, unknown>;
    expect(listTools.promise).toBeUndefined();
    expect(listTools.callAsync).toBeUndefined();
    expect((seen.filterPolicy as Record<string, unknown>).call).toBeUndefined();
    expect(Object.isFrozen(seen)).toBe(true);
  });

  it('scopes the logger to the plugin name', () => {
    const lines: string[] = [];
    const logger = { debug: () => {}, info: (m: string) => lines.push(m), warn: () => {}, error: () => {} };
    createKernel({ logger }).use({ name: 'talker', apply: ({ logger: scoped }) => scoped.info('hello') });
    expect(lines).toEqual(['[talker] hello']);
  });

  it('registers plugins given as options in order', async () => {
    const kernel = createKernel({ plugins: [source('s', [tool('read')])] });
    const run = await kernel.createRun();
    expect(run.catalog.map((t) => t.id)).toEqual(['core:core:read']);
  });
});
